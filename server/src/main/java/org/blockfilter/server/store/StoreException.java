package org.blockfilter.server.store;

/**
 * The store could not be opened, read or written, or holds data it cannot decode (corruption,
 * a data directory of another chain or layout version). Never thrown for a missing entry:
 * lookups return empty instead.
 */
public final class StoreException extends RuntimeException {
    private final boolean damaged;

    public StoreException(String message) {
        this(message, null, false);
    }

    public StoreException(String message, Throwable cause) {
        this(message, cause, false);
    }

    /** @param damaged the store's files are damaged (a checksum failure): see {@link StoreDamage} */
    public StoreException(String message, Throwable cause, boolean damaged) {
        super(message, cause);
        this.damaged = damaged;
    }

    /** True if the read failed because the index's files are damaged, not for another reason. */
    public boolean damaged() {
        return damaged;
    }
}
