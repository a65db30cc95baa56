package org.blockfilter.server.p2p.internal;

/**
 * The bytes of transactions waiting for or in relay to the node, across all peers (those that
 * disconnected since included), bounded: a reader thread that would exceed the bound waits until
 * relays finish. A transaction larger than the bound is admitted when nothing else is pending.
 * Thread-safe.
 */
public final class RelayBudget {
    private final long maxBytes;
    private long bytes;

    public RelayBudget(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** Waits until {@code n} more bytes fit (or nothing is pending), then takes them. */
    synchronized void acquire(long n) throws InterruptedException {
        while (bytes > 0 && bytes + n > maxBytes) {
            wait();
        }
        bytes += n;
    }

    synchronized void release(long n) {
        bytes -= n;
        notifyAll();
    }

    /** Bytes taken now. */
    public synchronized long bytes() {
        return bytes;
    }
}
