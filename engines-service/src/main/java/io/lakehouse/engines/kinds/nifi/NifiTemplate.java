package io.lakehouse.engines.kinds.nifi;

import io.lakehouse.common.templates.Template;
import io.lakehouse.common.templates.TemplateField;
import java.util.List;

/** The {@code nifi} template, as the seed describes it. */
final class NifiTemplate {

    static final Template TEMPLATE = new Template(
            NifiKind.KIND,
            "Apache NiFi",
            "Processing",
            "An Apache NiFi 2 node (no ZooKeeper) for ingestion, with sign-in by your platform account: whoever"
                    + " deploys the instance is its initial administrator and authorizes other accounts from the"
                    + " NiFi UI (Users / Policies menu). The flow and repositories (FlowFiles, content,"
                    + " provenance, state) live on a persistent volume. HTTPS end to end; the first start takes"
                    + " 1 to 3 minutes (extension loading).",
            List.of(
                    TemplateField.of("name", "Name", "General", "name").mandatory().fixedAfterCreation()
                            .help("Kubernetes name: lowercase letters, digits and '-', at most "
                                    + NifiRules.MAX_NAME + " characters"),
                    TemplateField.of("spec.heap", "JVM heap", "Resources", "quantity")
                            .defaultsTo(NifiSpec.DEFAULT_HEAP).range(NifiRules.MIN_HEAP, NifiRules.MAX_HEAP)
                            .help("Keep about 1 Gi of headroom between the heap and the memory limit"),
                    TemplateField.of("spec.resources.memory", "Memory limit", "Resources", "quantity")
                            .defaultsTo(NifiSpec.DEFAULT_MEMORY).range(NifiRules.MIN_MEMORY, NifiRules.MAX_MEMORY)
                            .help("At least the heap + 1Gi; the heap + 2Gi when omitted"),
                    TemplateField.of("spec.resources.cpu", "CPU limit", "Resources", "quantity")
                            .defaultsTo(NifiSpec.DEFAULT_CPU).range(NifiRules.MIN_CPU, NifiRules.MAX_CPU),
                    TemplateField.of("spec.volumeSize", "Volume size", "Resources", "quantity").fixedAfterCreation()
                            .defaultsTo(NifiSpec.DEFAULT_VOLUME_SIZE).range(NifiRules.MIN_VOLUME, NifiRules.MAX_VOLUME)
                            .help("Repositories and flow. Fixed at creation")));

    private NifiTemplate() {}
}
