package io.lakehouse.notebooks.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the jupyterhub template (env-overridable, e.g. {@code LAKEHOUSE_NOTEBOOKS_IMAGES_HUB}). */
@ConfigMapping(prefix = "lakehouse.notebooks")
public interface NotebookSettings {

    Images images();

    /** {@code lakehouse.notebooks.default-image}: the notebook image when the form leaves it empty (no tag). */
    @WithDefault("ds/jupyter-datastack")
    String defaultImage();

    /** {@code lakehouse.notebooks.default-version}: its tag. */
    @WithDefault("latest")
    String defaultVersion();

    /** {@code lakehouse.notebooks.forward-auth-url}: the gateway's forward-auth check (access-service). */
    @WithDefault("http://access-service.lakehouse-system.svc:8085/api/v1/authz")
    String forwardAuthUrl();

    /** {@code lakehouse.notebooks.sign-in-url}: where the gateway sends a caller without a session. */
    @WithDefault("https://login.lakehouse.localtest.me/oauth2/start")
    String signInUrl();

    /** {@code lakehouse.notebooks.hub.cpu|memory}: requests = limits of each hub container. */
    @WithDefault("500m")
    String hubCpu();

    @WithDefault("1Gi")
    String hubMemory();

    /** {@code lakehouse.notebooks.proxy-cpu|memory}: requests = limits of each proxy container. */
    @WithDefault("200m")
    String proxyCpu();

    @WithDefault("256Mi")
    String proxyMemory();

    /** Images of the hub's components; a cluster without quay.io overrides them. */
    interface Images {
        /** Zero to JupyterHub 4.4.0's hub: jupyterhub 5.5.0, kubespawner 7.0.0, oauthenticator 17.4.0, idle culler 1.4.0. */
        @WithDefault("quay.io/jupyterhub/k8s-hub:4.4.0")
        String hub();

        /** The proxy version Zero to JupyterHub 4.4.0 uses. */
        @WithDefault("quay.io/jupyterhub/configurable-http-proxy:5.2.0")
        String proxy();
    }
}
