package org.blockfilter.server.p2p.internal;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One peer's transactions waiting for the node's verdict, relayed one at a time in the order the
 * peer sent them (a child after its parent) on the server's shared relay threads, so that the
 * peer's reader thread goes on answering its other requests while the node decides. At most
 * {@link #MAX_PENDING} relays of a peer wait or run, and their bytes count against the server's
 * {@link RelayBudget}: beyond either the reader waits for room, so a peer that floods
 * transactions stops being read (as with a full {@link Outbox}) and holds at most one relay
 * thread. Relays already queued run even after the peer disconnects: a client may send its
 * transaction and hang up. Thread-safe.
 */
final class PeerRelays {
    private static final Logger LOG = LoggerFactory.getLogger(PeerRelays.class);
    /** Relays of one peer queued or running before its reader waits. */
    static final int MAX_PENDING = 8;

    private record Job(Runnable relay, long bytes) {}

    private final Executor executor;
    private final RelayBudget budget;
    private final ArrayDeque<Job> queued = new ArrayDeque<>();
    private int pending; // queued or running, or about to be queued
    private boolean draining;

    PeerRelays(Executor executor, RelayBudget budget) {
        this.executor = executor;
        this.budget = budget;
    }

    /**
     * Queues a relay of a transaction of {@code bytes} behind the peer's earlier ones, waiting
     * while {@link #MAX_PENDING} are pending or the budget is spent. Called by the reader only.
     */
    void submit(Runnable relay, long bytes) throws InterruptedException {
        synchronized (this) {
            while (pending >= MAX_PENDING) {
                wait();
            }
            pending++;
        }
        try {
            budget.acquire(bytes); // not holding this: the relays that free the budget need it
        } catch (InterruptedException e) {
            finished();
            throw e;
        }
        synchronized (this) {
            queued.addLast(new Job(relay, bytes));
            if (draining) {
                return;
            }
            draining = true;
            try {
                executor.execute(this::drain);
            } catch (RejectedExecutionException e) {
                // The server is shutting down: nothing will relay these any more.
                LOG.debug("event=p2p_relay_dropped count={} reason=shutdown", queued.size());
                for (Job j : queued) {
                    budget.release(j.bytes());
                }
                pending -= queued.size();
                queued.clear();
                draining = false;
                notifyAll();
            }
        }
    }

    /** Waits until every relay submitted so far has finished. */
    synchronized void awaitIdle() throws InterruptedException {
        while (pending > 0) {
            wait();
        }
    }

    private void drain() {
        while (true) {
            Job next;
            synchronized (this) {
                next = queued.pollFirst();
                if (next == null) {
                    draining = false;
                    return;
                }
            }
            try {
                next.relay().run();
            } catch (RuntimeException e) {
                // A bug of ours must cost one relay, not the peer's later ones.
                LOG.warn("event=p2p_relay_failed error=\"{}\"", e.toString(), e);
            } finally {
                budget.release(next.bytes());
                finished();
            }
        }
    }

    private synchronized void finished() {
        pending--;
        notifyAll();
    }
}
