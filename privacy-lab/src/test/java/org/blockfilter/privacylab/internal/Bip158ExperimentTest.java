package org.blockfilter.privacylab.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.gcs.GolombCodedSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Experiment 5 on small cases: the adversary by hand, the chain's determinism, re-sync determinism, the quick run. */
class Bip158ExperimentTest {
    private static final SyntheticChain.Params SMALL =
            new SyntheticChain.Params(60, 50, 200, 0.25, 2_000, new int[] {1, 5}, 3, 250);

    /*
     * Tiny chain: block 0 = 3 fresh + {a0, a1}; block 1 = 0 fresh + {a1, a2}; block 2 = 2 fresh + {a3}.
     * The wallet owns a2 (block 1) and a3 (block 2).
     */
    private static final int[] FRESH = {3, 0, 2};
    private static final int[][] IN_BLOCK = {{0, 1}, {1, 2}, {3}};
    private static final int[][] BLOCKS_OF = {{0}, {0, 1}, {1}, {2}};

    @Test
    void consistentCandidatesAreAddressesAllOfWhoseBlocksWereDownloaded() {
        // Downloads {1, 2}: a1 also appears in block 0, which was not downloaded, so it is not consistent.
        BlockSetAdversary.Guess g =
                BlockSetAdversary.guess(FRESH, IN_BLOCK, BLOCKS_OF, new boolean[] {false, true, true}, 2, 4);
        assertEquals(2 + 2, g.candidates()); // 2 fresh in block 2, a2, a3
        assertEquals(2, g.real());
        assertEquals(0.5, g.ph1());
        assertEquals(2 + 3, g.anyCandidates()); // a1 counts for the any-block adversary
        assertEquals(2, g.anyReal());
        assertEquals(0.4, g.anyPh1());
    }

    @Test
    void aDecoyBlockAddsItsAddressesAndCompletesReusedOnes() {
        BlockSetAdversary.Guess g =
                BlockSetAdversary.guess(FRESH, IN_BLOCK, BLOCKS_OF, new boolean[] {true, true, true}, 2, 4);
        assertEquals(5 + 4, g.candidates());
        assertEquals(2, g.real());
    }

    @Test
    void anObserverThatMissesAWalletBlockLosesThatAddress() {
        BlockSetAdversary.Guess g =
                BlockSetAdversary.guess(FRESH, IN_BLOCK, BLOCKS_OF, new boolean[] {false, true, false}, 2, 4);
        assertEquals(1, g.candidates()); // only a2; block 1 has no fresh scripts
        assertEquals(1, g.real());
        assertEquals(1.0, g.ph1());
        BlockSetAdversary.Guess none = BlockSetAdversary.guess(FRESH, IN_BLOCK, BLOCKS_OF, new boolean[3], 2, 4);
        assertEquals(0, none.candidates());
        assertEquals(0.0, none.ph1());
    }

    @Test
    void sameSeedBuildsTheSameChainAndFilters() {
        SyntheticChain a = SyntheticChain.build(SMALL, 42, null);
        SyntheticChain b = SyntheticChain.build(SMALL, 42, null);
        SyntheticChain c = SyntheticChain.build(SMALL, 43, null);
        for (int i = 0; i < SMALL.blocks(); i++) {
            assertEquals(a.filter(i), b.filter(i));
            assertEquals(Bip158.BASIC_P, a.filter(i).p());
            assertEquals(a.elements[i], a.filter(i).size());
            assertEquals(
                    a.filter(i),
                    GolombCodedSet.build(
                            Bip158.BASIC_P, Bip158.BASIC_M, a.filter(i).key(), a.items(i)));
        }
        assertEquals(a.wallets(), b.wallets());
        assertNotEquals(a.filter(0), c.filter(0));
    }

    @Test
    void everyWalletDownloadsAllItsOwnBlocksAndTheSameBlocksOnReSync() {
        SyntheticChain chain = SyntheticChain.build(SMALL, 7, null);
        for (int i = 0; i < chain.wallets().size(); i++) {
            Bip158Experiment.Sync first =
                    Bip158Experiment.sync(chain, i, chain.wallets().get(i).birth()); // throws on a false negative
            Bip158Experiment.Sync again =
                    Bip158Experiment.sync(chain, i, chain.wallets().get(i).birth());
            assertTrue(first.own().length > 0);
            assertArrayEquals(first.matched(), again.matched());
        }
    }

    @Test
    void falsePositiveBlocksRepeatWithFixedFiltersButNotWithNewKeys() {
        SyntheticChain chain = SyntheticChain.build(SMALL, 9, null);
        // A watch list large enough (N / M ~ 0.25 per block) that false positives certainly occur.
        SplittableRandom rnd = new SplittableRandom(1);
        List<byte[]> watch = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            watch.add(SyntheticChain.script(rnd.nextLong(), -1 - i));
        }
        List<Integer> first = matchingBlocks(chain, watch, false);
        assertFalse(first.isEmpty());
        assertEquals(first, matchingBlocks(chain, watch, false));
        // Re-keying the same blocks (what BIP 37's new tweak does to a Bloom filter) moves the false positives.
        assertNotEquals(first, matchingBlocks(chain, watch, true));
    }

    private static List<Integer> matchingBlocks(SyntheticChain chain, List<byte[]> watch, boolean rekey) {
        List<Integer> out = new ArrayList<>();
        for (int b = 0; b < chain.blocks(); b++) {
            GolombCodedSet f = chain.filter(b);
            if (rekey) {
                List<byte[]> items = chain.items(b);
                byte[] key = f.key();
                key[0] ^= 1;
                f = GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, key, items);
            }
            if (f.matchAny(watch)) {
                out.add(b);
            }
        }
        return out;
    }

    @Test
    void quickRunIsDeterministicForAFixedSeed(@TempDir Path out) throws IOException {
        System.setProperty("java.awt.headless", "true");
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        Bip158Experiment.run(new Lab(5, true, out.resolve("a"), 1, quiet));
        Bip158Experiment.run(new Lab(5, true, out.resolve("b"), 1, quiet));
        List<Path> a = csvs(out.resolve("a"));
        assertEquals(6, a.size());
        for (Path p : a) {
            Path q = out.resolve("b").resolve(out.resolve("a").relativize(p));
            assertEquals(Files.readString(p), Files.readString(q), p.toString());
        }
        String resync = Files.readString(out.resolve("a/exp5-bip158/exp5_resync.csv"));
        assertTrue(
                resync.lines().skip(1).allMatch(l -> l.split(",")[2].equals(l.split(",")[3])),
                "every re-sync matched the same blocks");
        assertTrue(Files.exists(out.resolve("a/exp5-bip158/exp5_privacy_vs_bandwidth_n10.png")));
    }

    private static List<Path> csvs(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".csv")).sorted().toList();
        }
    }
}
