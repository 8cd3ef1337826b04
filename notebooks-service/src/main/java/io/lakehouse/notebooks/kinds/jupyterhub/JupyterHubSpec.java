package io.lakehouse.notebooks.kinds.jupyterhub;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lakehouse.common.instances.InstanceSpec;
import io.lakehouse.common.storage.StorageSpec;

/**
 * The fields of the {@code jupyterhub} template.
 *
 * @param image the notebook image of user servers, without tag (fixed)
 * @param version the image's tag (fixed)
 * @param perUser CPU, memory and volume size of each user server
 * @param lakehouse the instances of the namespace wired into notebooks (each optional)
 * @param storage the S3 bucket whose keys notebooks get as {@code AWS_*} (optional, fixed)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JupyterHubSpec(String image, String version, PerUserSpec perUser, LakehouseRefs lakehouse,
        StorageSpec storage) implements InstanceSpec {

    /** {@code image:version}, as KubeSpawner pulls it. */
    public String imageReference() {
        return image + ":" + version;
    }

    @Override
    public JupyterHubSpec withStorage(StorageSpec newStorage) {
        return new JupyterHubSpec(image, version, perUser, lakehouse, newStorage);
    }
}
