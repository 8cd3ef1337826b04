package io.lakehouse.sparkjobs.domain;

import java.util.Set;

/** The operator's application states, plus CANCELLED (ours: the user stopped the job). */
public final class JobState {

    public static final String SUBMITTED = "SUBMITTED";
    public static final String RUNNING = "RUNNING";
    public static final String COMPLETED = "COMPLETED";
    public static final String FAILED = "FAILED";
    public static final String CANCELLED = "CANCELLED";
    /** Created, the operator has not answered yet (an empty status). */
    public static final String NEW = "NEW";

    private static final Set<String> FINISHED = Set.of(COMPLETED, FAILED, CANCELLED, "SUBMISSION_FAILED");

    private JobState() {}

    public static boolean finished(String state) {
        return FINISHED.contains(state);
    }
}
