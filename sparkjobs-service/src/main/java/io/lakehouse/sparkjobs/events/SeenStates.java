package io.lakehouse.sparkjobs.events;

import io.lakehouse.sparkjobs.domain.JobState;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What this replica learnt of each SparkApplication (by uid) from the events it handled: the last state
 * seen, and whether the history is known to hold it. The informer repeats states (its resync every minute,
 * status updates that change no state: executors, attempts); those need no transaction. A state handed to the
 * writer counts as held until its write says otherwise ({@link #settled}), so a repeat arriving meanwhile is not
 * queued a second time.
 */
final class SeenStates {

    private record Seen(String state, boolean recorded) {}

    private final Map<String, Seen> byUid = new ConcurrentHashMap<>();

    /** The history holds this state of the application already (written, confirmed or queued): nothing to write. */
    boolean recorded(String uid, String state) {
        Seen seen = byUid.get(uid);
        return seen != null && seen.recorded() && seen.state().equals(state);
    }

    /**
     * The application was seen here before its end, and this state ends it: its driver's log is read before
     * the state is written, so both go in one transaction. (An end first seen here, after a restart or
     * another replica's write, keeps its log in a second write once the state is recorded.)
     */
    boolean endsWhileWatched(String uid, String state) {
        Seen seen = byUid.get(uid);
        return seen != null && !JobState.finished(seen.state()) && JobState.finished(state);
    }

    void seen(String uid, String state, boolean recorded) {
        byUid.put(uid, new Seen(state, recorded));
    }

    /** Handed to the writer: held from now on, unless {@link #settled} says the write did not record it. */
    void queued(String uid, String state) {
        seen(uid, state, true);
    }

    /**
     * What the write of this state found. Ignored when a later state was queued since (it is the one to settle)
     * or the application was deleted meanwhile (forgotten: not brought back).
     */
    void settled(String uid, String state, boolean recorded) {
        byUid.computeIfPresent(uid, (id, seen) -> seen.state().equals(state) ? new Seen(state, recorded) : seen);
    }

    void forget(String uid) {
        byUid.remove(uid);
    }
}
