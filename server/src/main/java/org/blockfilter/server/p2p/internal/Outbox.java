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
    /** A message waiting to be written; counted at its v1 frame size. */
    record Outgoing(String command, byte[] payload) {
        int size() {
            return FrameReader.HEADER_BYTES + payload.length;
        }
    }

    private final long maxBytes;
    private final ArrayDeque<Outgoing> frames = new ArrayDeque<>();
    private long bytes;
    private boolean closed;

    Outbox(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Waits for room; false if the outbox was closed. */
    synchronized boolean put(Outgoing frame) throws InterruptedException {
        while (!closed && !frames.isEmpty() && bytes + frame.size() > maxBytes) {
            wait();
        }
        return enqueue(frame);
    }

    /** Adds the frame if there is room now. */
    synchronized boolean offer(Outgoing frame) {
        if (!frames.isEmpty() && bytes + frame.size() > maxBytes) {
            return false;
        }
        return enqueue(frame);
    }

    private boolean enqueue(Outgoing frame) {
        if (closed) {
            return false;
        }
        frames.addLast(frame);
        bytes += frame.size();
        notifyAll();
        return true;
    }

    /** The next frame, waiting for one; null once closed. */
    synchronized Outgoing take() throws InterruptedException {
        while (!closed && frames.isEmpty()) {
            wait();
        }
        if (closed) {
            return null;
        }
        Outgoing f = frames.removeFirst();
        bytes -= f.size();
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
