package io.lakehouse.common.templates;

import java.util.List;

/** A template a service offers: what a form needs to render, default and validate it. */
public record Template(String kind, String title, String category, String description, List<TemplateField> fields) {}
