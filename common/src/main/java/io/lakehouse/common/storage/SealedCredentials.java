package io.lakehouse.common.storage;

/** S3 keys typed in a form, encrypted with the service's sealing key (never stored in clear). */
public record SealedCredentials(String accessKeyId, String secretAccessKey) {}
