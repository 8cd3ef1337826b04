package io.lakehouse.common.templates;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One field of a template.
 *
 * @param path JSON path in the create request, e.g. {@code spec.resources.memory}
 * @param type {@code string}, {@code boolean}, {@code quantity}, {@code bucket}, {@code secret}, ...
 * @param fixedAtCreation cannot be patched later
 * @param secret write-only: stored in a Secret, never returned
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TemplateField(
        String path, String label, String tab, String type, boolean required, boolean fixedAtCreation,
        Object defaultValue, String min, String max, boolean secret, String help) {

    public static TemplateField of(String path, String label, String tab, String type) {
        return new TemplateField(path, label, tab, type, false, false, null, null, null, false, null);
    }

    public TemplateField mandatory() {
        return new TemplateField(path, label, tab, type, true, fixedAtCreation, defaultValue, min, max, secret, help);
    }

    public TemplateField fixedAfterCreation() {
        return new TemplateField(path, label, tab, type, required, true, defaultValue, min, max, secret, help);
    }

    public TemplateField defaultsTo(Object value) {
        return new TemplateField(path, label, tab, type, required, fixedAtCreation, value, min, max, secret, help);
    }

    public TemplateField range(String minimum, String maximum) {
        return new TemplateField(path, label, tab, type, required, fixedAtCreation, defaultValue, minimum, maximum,
                secret, help);
    }

    public TemplateField writeOnly() {
        return new TemplateField(path, label, tab, type, required, fixedAtCreation, defaultValue, min, max, true, help);
    }

    public TemplateField help(String text) {
        return new TemplateField(path, label, tab, type, required, fixedAtCreation, defaultValue, min, max, secret, text);
    }
}
