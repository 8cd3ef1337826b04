package io.lakehouse.common.outbox;

/** The pauses of the outbox's background threads, which stop when interrupted. */
final class Pause {

    private Pause() {}

    /** Sleeps {@code ms}; an interrupt ends the pause early and stays set, so the thread's loop sees it and stops. */
    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
