package io.lakehouse.sparkjobs.api;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;

/** A job with its pods (while they exist: the operator's TTL removes them, the history stays). */
public record JobDetail(@JsonUnwrapped JobView job, List<PodView> pods) {}
