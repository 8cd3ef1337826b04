package io.lakehouse.common.events;

/** A record that cannot be an event of the contract: it goes to the dead-letter topic. */
public class MalformedEventException extends RuntimeException {
    public MalformedEventException(String message) {
        super(message);
    }
}
