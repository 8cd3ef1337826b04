package io.lakehouse.notebooks.api;

import io.lakehouse.common.instances.InstanceKind;
import io.lakehouse.common.templates.Template;
import io.lakehouse.common.instances.InstanceKinds;
import io.lakehouse.notebooks.reconcile.NotebookContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** {@code GET /api/v1/templates}: the templates this service offers (any signed-in user). */
@Path("/api/v1/templates")
@Produces(MediaType.APPLICATION_JSON)
public class TemplatesResource {

    private final InstanceKinds<NotebookContext> kinds;

    TemplatesResource(InstanceKinds<NotebookContext> kinds) {
        this.kinds = kinds;
    }

    @GET
    public List<Template> list() {
        return kinds.all().stream().map(InstanceKind::template).toList();
    }
}
