package org.blockfilter.server.store;

/**
 * The store could not be opened, read or written, or holds data it cannot decode (corruption,
 * a data directory of another chain or layout version). Never thrown for a missing entry:
 * lookups return empty instead.
 */
public final class StoreException extends RuntimeException {
    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
