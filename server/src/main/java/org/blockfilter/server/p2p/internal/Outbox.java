package org.blockfilter.server.p2p.internal;

import java.util.ArrayDeque;

/**
 * The frames waiting to be written to one peer, bounded by bytes. The peer's reader thread puts
 * with {@link #put} and waits while the outbox is full, so a peer that does not read its answers
 * stops being read (Core pauses such a peer the same way); the housekeeping thread uses {@link
 * #offer}, which drops instead of waiting. A single frame larger than the bound is accepted
 * into an empty outbox. Thread-safe.
 */
final class Outbox {
    private final long maxBytes;
    private final ArrayDeque<byte[]> frames = new ArrayDeque<>();
    private long bytes;
    private boolean closed;

    Outbox(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Waits for room; false if the outbox was closed. */
    synchronized boolean put(byte[] frame) throws InterruptedException {
        while (!closed && !frames.isEmpty() && bytes + frame.length > maxBytes) {
            wait();
        }
        return enqueue(frame);
    }

    /** Adds the frame if there is room now. */
    synchronized boolean offer(byte[] frame) {
        if (!frames.isEmpty() && bytes + frame.length > maxBytes) {
            return false;
        }
        return enqueue(frame);
    }

    private boolean enqueue(byte[] frame) {
        if (closed) {
            return false;
        }
        frames.addLast(frame);
        bytes += frame.length;
        notifyAll();
        return true;
    }

    /** The next frame, waiting for one; null once closed. */
    synchronized byte[] take() throws InterruptedException {
        while (!closed && frames.isEmpty()) {
            wait();
        }
        if (closed) {
            return null;
        }
        byte[] f = frames.removeFirst();
        bytes -= f.length;
        notifyAll();
        return f;
    }

    synchronized void close() {
        closed = true;
        frames.clear();
        bytes = 0;
        notifyAll();
    }
}
