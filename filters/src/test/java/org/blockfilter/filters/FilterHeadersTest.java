package org.blockfilter.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import org.bitcoinj.base.Sha256Hash;
import org.junit.jupiter.api.Test;

class FilterHeadersTest {

    private static List<Sha256Hash> randomHashes(long seed, int count) {
        Random random = new Random(seed);
        List<Sha256Hash> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] b = new byte[32];
            random.nextBytes(b);
            out.add(Sha256Hash.wrap(b));
        }
        return out;
    }

    private static List<Sha256Hash> chain(Sha256Hash prev, List<Sha256Hash> filterHashes) {
        List<Sha256Hash> out = new ArrayList<>();
        Sha256Hash header = prev;
        for (Sha256Hash h : filterHashes) {
            header = FilterHeaders.next(h, header);
            out.add(header);
        }
        return out;
    }

    @Test
    void genesisPrevIsThirtyTwoZeroBytes() {
        assertEquals("0".repeat(64), FilterHeaders.GENESIS_PREV.toString());
    }

    @Test
    void nextHashesFilterHashThenPrevHeaderInInternalOrder() {
        Sha256Hash filterHash = randomHashes(1, 1).get(0);
        Sha256Hash prev = randomHashes(2, 1).get(0);
        byte[] concat = new byte[64];
        System.arraycopy(filterHash.serialize(), 0, concat, 0, 32);
        System.arraycopy(prev.serialize(), 0, concat, 32, 32);
        assertEquals(Sha256Hash.wrapReversed(Sha256Hash.hashTwice(concat)), FilterHeaders.next(filterHash, prev));
    }

    @Test
    void checkpointsAreTheHeadersAtEveryThousandthHeight() {
        List<Sha256Hash> headers = chain(FilterHeaders.GENESIS_PREV, randomHashes(3, 2_501));
        List<Sha256Hash> checkpoints = FilterHeaders.checkpoints(headers);
        assertEquals(List.of(headers.get(1000), headers.get(2000)), checkpoints);
    }

    @Test
    void checkpointAtTheLastHeightIsIncluded() {
        List<Sha256Hash> headers = randomHashes(4, 2_001);
        assertEquals(List.of(headers.get(1000), headers.get(2000)), FilterHeaders.checkpoints(headers));
    }

    @Test
    void chainShorterThanOneIntervalHasNoCheckpoints() {
        assertEquals(List.of(), FilterHeaders.checkpoints(randomHashes(5, 1000)));
        assertEquals(List.of(), FilterHeaders.checkpoints(List.of()));
    }

    @Test
    void agreeingChainHasNoMismatch() {
        Sha256Hash prev = randomHashes(6, 1).get(0);
        List<Sha256Hash> filterHashes = randomHashes(7, 50);
        assertEquals(OptionalInt.empty(), FilterHeaders.firstMismatch(prev, filterHashes, chain(prev, filterHashes)));
    }

    @Test
    void firstMismatchPointsAtTheFirstWrongHeader() {
        Sha256Hash prev = randomHashes(8, 1).get(0);
        List<Sha256Hash> filterHashes = randomHashes(9, 50);
        List<Sha256Hash> headers = new ArrayList<>(chain(prev, filterHashes));
        headers.set(17, randomHashes(10, 1).get(0));
        headers.set(30, randomHashes(11, 1).get(0));
        assertEquals(OptionalInt.of(17), FilterHeaders.firstMismatch(prev, filterHashes, headers));
    }

    @Test
    void aSwappedFilterHashIsCaughtAtItsHeight() {
        Sha256Hash prev = FilterHeaders.GENESIS_PREV;
        List<Sha256Hash> filterHashes = randomHashes(12, 20);
        List<Sha256Hash> headers = chain(prev, filterHashes);
        List<Sha256Hash> served = new ArrayList<>(filterHashes);
        served.set(5, randomHashes(13, 1).get(0));
        assertEquals(OptionalInt.of(5), FilterHeaders.firstMismatch(prev, served, headers));
    }

    @Test
    void wrongPrevHeaderMismatchesAtZero() {
        List<Sha256Hash> filterHashes = randomHashes(14, 3);
        List<Sha256Hash> headers = chain(FilterHeaders.GENESIS_PREV, filterHashes);
        assertEquals(
                OptionalInt.of(0),
                FilterHeaders.firstMismatch(randomHashes(15, 1).get(0), filterHashes, headers));
    }

    @Test
    void rejectsListsOfDifferentLength() {
        List<Sha256Hash> hashes = randomHashes(16, 3);
        assertThrows(
                IllegalArgumentException.class,
                () -> FilterHeaders.firstMismatch(FilterHeaders.GENESIS_PREV, hashes, hashes.subList(0, 2)));
    }

    @Test
    void protocolLimitsAreTheBip157Values() {
        assertEquals(1000, Bip157.CHECKPOINT_INTERVAL);
        assertEquals(1000, Bip157.MAX_CFILTERS);
        assertEquals(2000, Bip157.MAX_CFHEADERS);
        assertTrue(Bip157.MAX_CFHEADERS >= Bip157.MAX_CFILTERS);
    }
}
