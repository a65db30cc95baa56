package org.blockfilter.server.p2p.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * One peer's relay queue, on an executor that only collects what it is given, so the test runs
 * the relays when it chooses.
 */
class PeerRelaysTest {
    private final List<Runnable> executed = new CopyOnWriteArrayList<>();
    private final PeerRelays relays = new PeerRelays(executed::add, new RelayBudget(1000));
    private final AtomicInteger ran = new AtomicInteger();

    @Test
    void aPeersRelaysRunOneAtATimeOnOneThreadInTheOrderSubmitted() throws InterruptedException {
        List<Integer> order = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 3; i++) {
            int n = i;
            relays.submit(() -> order.add(n), 10);
        }
        assertEquals(1, executed.size(), "one task drains the peer's queue");
        runAll();
        relays.awaitIdle();
        assertEquals(List.of(0, 1, 2), order);
    }

    @Test
    void pastMaxPendingRelaysTheSubmitterWaitsForRoom() throws InterruptedException {
        for (int i = 0; i < PeerRelays.MAX_PENDING; i++) {
            relays.submit(ran::incrementAndGet, 10);
        }
        Thread reader = submitOnAnotherThread(relays);
        awaitWaiting(reader);
        assertEquals(0, ran.get());

        runAll(); // room again: the waiting submit goes through
        reader.join(10_000);
        assertEquals(Thread.State.TERMINATED, reader.getState());
        runAll();
        relays.awaitIdle();
        assertEquals(PeerRelays.MAX_PENDING + 1, ran.get());
    }

    @Test
    void pastTheServersBudgetAnotherPeersSubmitterWaitsUntilRelaysFinish() throws InterruptedException {
        RelayBudget budget = new RelayBudget(1000);
        PeerRelays first = new PeerRelays(executed::add, budget);
        PeerRelays second = new PeerRelays(executed::add, budget);
        first.submit(ran::incrementAndGet, 1500); // larger than the budget, alone: admitted
        Thread reader = submitOnAnotherThread(second);
        awaitWaiting(reader);
        assertEquals(1500, budget.bytes());

        runAll();
        reader.join(10_000);
        assertEquals(Thread.State.TERMINATED, reader.getState());
        runAll();
        second.awaitIdle();
        assertEquals(2, ran.get());
        assertEquals(0, budget.bytes());
    }

    @Test
    void aRelayThatThrowsDoesNotStopTheNext() throws InterruptedException {
        relays.submit(
                () -> {
                    throw new IllegalStateException("a bug in one relay");
                },
                10);
        relays.submit(ran::incrementAndGet, 10);
        runAll();
        relays.awaitIdle();
        assertEquals(1, ran.get());
    }

    /** A reader thread submitting one relay (counted in {@code ran}) of 10 bytes. */
    private Thread submitOnAnotherThread(PeerRelays to) {
        Thread reader = new Thread(() -> {
            try {
                to.submit(ran::incrementAndGet, 10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        reader.start();
        return reader;
    }

    /** Until the thread waits (in submit, for room); fails if it returns instead. */
    private static void awaitWaiting(Thread t) {
        while (t.getState() != Thread.State.WAITING) {
            assertFalse(t.getState() == Thread.State.TERMINATED, "the submit past the bound returned");
            Thread.onSpinWait();
        }
    }

    private void runAll() {
        while (!executed.isEmpty()) {
            executed.remove(0).run();
        }
    }
}
