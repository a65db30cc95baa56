package org.blockfilter.filters.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DifficultyRulesTest {
    private static final DifficultyRules MAIN = DifficultyRules.of(Chain.MAINNET);
    private static final DifficultyRules TESTNET3 = DifficultyRules.of(Chain.TESTNET3);
    private static final DifficultyRules TESTNET4 = DifficultyRules.of(Chain.TESTNET4);
    private static final DifficultyRules REGTEST = DifficultyRules.of(Chain.REGTEST);
    private static final long MIN = 0x1d00ffffL; // testnet's proof-of-work limit, compact
    private static final int N = DifficultyRules.INTERVAL;

    /**
     * Bitcoin Core's src/test/pow_tests.cpp (bitcoin/bitcoin 90d4d89230434493c3b1e9174abed2609ba74cf1),
     * CalculateNextWorkRequired on mainnet: get_next_work, get_next_work_pow_limit,
     * get_next_work_lower_limit_actual, get_next_work_upper_limit_actual, in that order
     * (nLastRetargetTime, pindexLast.nTime, pindexLast.nBits, expected).
     */
    @ParameterizedTest
    @CsvSource({
        "1261130161, 1262152739, 1d00ffff, 1d00d86a",
        "1231006505, 1233061996, 1d00ffff, 1d00ffff",
        "1279008237, 1279297671, 1c05a3f4, 1c0168fd",
        "1263163443, 1269211443, 1c387f6f, 1d00e1fd"
    })
    void retargetsAsCoresPowTests(long firstTime, long lastTime, String lastBits, String expected) {
        long bits = Long.parseLong(lastBits, 16);
        assertEquals(Long.parseLong(expected, 16), MAIN.nextWorkRequired(bits, lastTime, firstTime, bits));
    }

    /** The same cases are PermittedDifficultyTransitions, and one step past the clamp is not (Core's later pow_tests add this). */
    @Test
    void theFourTimesClampBoundsAPermittedTransition() {
        assertTrue(MAIN.permittedTransition(68544, 0x1c05a3f4L, 0x1c0168fdL));
        assertFalse(MAIN.permittedTransition(68544, 0x1c05a3f4L, 0x1c0168fdL - 1));
        assertTrue(MAIN.permittedTransition(46368, 0x1c387f6fL, 0x1d00e1fdL));
        assertFalse(MAIN.permittedTransition(46368, 0x1c387f6fL, 0x1d00e1fdL + 1));
        assertFalse(MAIN.permittedTransition(46367, 0x1c387f6fL, 0x1c387f6eL)); // not a retarget height
        assertTrue(TESTNET3.permittedTransition(
                46367, 0x1c387f6fL, MIN)); // anything goes where min-difficulty blocks are allowed
    }

    /** Core's CheckProofOfWork_test_* cases (negative, overflow, too easy, zero target) are no valid bits. */
    @Test
    void bitsThatAreNoTargetWithinTheLimitAreRejected() {
        Ancestors chain = new Ancestors().add(0, 1231006505L, MIN);
        long negative = 0x1d00ffffL | 0x00800000L; // GetCompact(true) of the limit
        long overflow = ~0x00800000L & 0xffffffffL;
        long tooEasy = DifficultyRules.compact(Chain.MAINNET.powLimit().shiftLeft(1));
        for (long bits : new long[] {negative, overflow, tooEasy, 0L}) {
            Optional<String> v = MAIN.violation(1, 1231006505L + 600, bits, chain);
            assertTrue(v.orElse("").contains("not a target within the network's proof-of-work limit"), v.toString());
        }
        assertEquals(Optional.empty(), MAIN.violation(1, 1231006505L + 600, MIN, chain));
    }

    @Test
    void mainnetKeepsTheBitsInsideAPeriodAndRetargetsAtItsEnd() {
        Ancestors a = period(0, 0x1c05a3f4L, 1279008237L, 1279297671L);
        assertEquals(Optional.empty(), MAIN.violation(N - 1, 1279297000L, 0x1c05a3f4L, a.without(N - 1)));
        assertTrue(MAIN.violation(N - 1, 1279297000L, 0x1c05a3f5L, a.without(N - 1))
                .isPresent());
        assertEquals(OptionalLong.of(0x1c0168fdL), MAIN.requiredBits(N, 1279297700L, a));
        assertTrue(MAIN.violation(N, 1279297700L, 0x1c05a3f4L, a).orElseThrow().contains("require 1c0168fd"));
    }

    @Test
    void testnet3AllowsMinimumDifficultyTwentyMinutesAfterTheParent() {
        long real = 0x1c0fffffL;
        Ancestors a = new Ancestors().add(N, 1_000_000L, real).add(N + 1, 1_000_600L, real);
        assertEquals(OptionalLong.of(MIN), TESTNET3.requiredBits(N + 2, 1_000_600L + 1201, a));
        // Exactly 20 minutes is not more than 20 minutes.
        assertEquals(OptionalLong.of(real), TESTNET3.requiredBits(N + 2, 1_000_600L + 1200, a));
        // After a minimum-difficulty block the next quick block goes back to the last real bits.
        a.add(N + 2, 1_000_600L + 1201, MIN);
        assertEquals(OptionalLong.of(real), TESTNET3.requiredBits(N + 3, 1_000_600L + 1300, a));
        assertTrue(TESTNET3.violation(N + 3, 1_000_600L + 1300, MIN, a).isPresent());
        // Mainnet has no such exception.
        assertEquals(OptionalLong.of(real), MAIN.requiredBits(N + 2, 1_000_600L + 5000, a.without(N + 2)));
    }

    @Test
    void aPeriodsFirstBlockMayNotUseTheExceptionAndTestnet4RetargetsFromTheFirstBlocksBits() {
        long real = 0x1c0fffffL;
        Ancestors a = period(0, real, 1_000_000L, 1_000_000L + DifficultyRules.TARGET_TIMESPAN);
        a.add(N - 1, 1_000_000L + DifficultyRules.TARGET_TIMESPAN, MIN); // the last block used the exception
        long late = 1_000_000L + DifficultyRules.TARGET_TIMESPAN + 3600;
        // testnet3 retargets from the last block's bits: the block-storm bug BIP 94 fixes.
        assertEquals(OptionalLong.of(MIN), TESTNET3.requiredBits(N, late, a));
        // testnet4 from the first block's: a period of exactly two weeks keeps the real difficulty.
        assertEquals(OptionalLong.of(real), TESTNET4.requiredBits(N, late, a));
        assertTrue(TESTNET4.violation(N, late, MIN, a).isPresent());
    }

    @Test
    void testnet4RejectsAPeriodsFirstBlockDatedMoreThanTenMinutesBeforeItsParent() {
        long real = 0x1c0fffffL;
        long parentTime = 1_000_000L + DifficultyRules.TARGET_TIMESPAN;
        Ancestors a = period(0, real, 1_000_000L, parentTime);
        String v = TESTNET4.violation(N, parentTime - 601, real, a).orElseThrow();
        assertTrue(v.contains("BIP 94 time-warp rule"), v);
        assertEquals(Optional.empty(), TESTNET4.violation(N, parentTime - 600, real, a));
        // testnet3 has no such rule.
        assertEquals(Optional.empty(), TESTNET3.violation(N, parentTime - 601, real, a));
        // nor does any other block of the period.
        a.add(N, parentTime, real);
        assertEquals(Optional.empty(), TESTNET4.violation(N + 1, parentTime - 3600, real, a));
    }

    @Test
    void regtestNeverRetargets() {
        long limit = 0x207fffffL;
        Ancestors a = period(0, limit, 1_000_000L, 1_000_001L);
        assertEquals(OptionalLong.of(limit), REGTEST.requiredBits(N, 1_000_002L, a));
        assertEquals(limit, REGTEST.nextWorkRequired(limit, 2_000_000L, 1_000_000L, limit));
        assertTrue(REGTEST.violation(N, 1_000_002L, 0x1d00ffffL, a).isPresent());
        assertTrue(REGTEST.violation(N - 1, 1_000_002L, 0x1d00ffffL, a.without(N - 1))
                .isPresent());
    }

    /** A chain holding only headers from a checkpoint at a retarget boundary checks the next retarget exactly. */
    @Test
    void aChainFromABoundaryCheckpointChecksTheNextRetargetExactly() {
        Ancestors fromCheckpoint = period(N, 0x1c05a3f4L, 1279008237L, 1279297671L);
        assertEquals(N, fromCheckpoint.lowestHeight());
        assertEquals(OptionalLong.of(0x1c0168fdL), MAIN.requiredBits(2 * N, 1279297700L, fromCheckpoint));
        // testnet's walk back stops at the period's first block, which the chain holds.
        Ancestors t = new Ancestors().add(N, 1_000_000L, 0x1c0fffffL).add(N + 1, 1_002_000L, MIN);
        assertEquals(OptionalLong.of(0x1c0fffffL), TESTNET3.requiredBits(N + 2, 1_002_100L, t));
    }

    /** Above a start that is not a boundary the missing first block leaves Core's transition check. */
    @Test
    void aChainFromElsewhereFallsBackToThePermittedTransition() {
        Ancestors a = period(N, 0x1c05a3f4L, 1279008237L, 1279297671L).from(N + 5);
        assertEquals(OptionalLong.empty(), MAIN.requiredBits(2 * N, 1279297700L, a));
        assertEquals(Optional.empty(), MAIN.violation(2 * N, 1279297700L, 0x1c0168fdL, a));
        assertTrue(MAIN.violation(2 * N, 1279297700L, 0x1c0168fdL - 1, a).isPresent());
        Ancestors t = new Ancestors().add(N + 5, 1_000_000L, MIN).add(N + 6, 1_000_100L, MIN);
        assertEquals(OptionalLong.empty(), TESTNET3.requiredBits(N + 7, 1_000_200L, t));
        assertEquals(Optional.empty(), TESTNET3.violation(N + 7, 1_000_200L, 0x1c0fffffL, t));
    }

    @Test
    void workIsCoresBlockProof() {
        // Difficulty 1: 2^256 / (0xffff * 2^208 + 1) = 0x100010001.
        assertEquals(BigInteger.valueOf(0x100010001L), DifficultyRules.work(MIN));
        assertEquals(BigInteger.ZERO, DifficultyRules.work(0));
        assertEquals(BigInteger.valueOf(2), DifficultyRules.work(0x207fffffL));
    }

    @Test
    void compactRoundTripsCoresEncoding() {
        for (long bits : new long[] {0x1d00ffffL, 0x1c05a3f4L, 0x1e0377aeL, 0x207fffffL, 0x1b0404cbL, 0x170e92aaL}) {
            assertEquals(
                    bits, DifficultyRules.compact(DifficultyRules.target(bits).orElseThrow()));
        }
        // A mantissa with its high bit set moves one byte up (Core's GetCompact).
        assertEquals(0x02008000L, DifficultyRules.compact(BigInteger.valueOf(0x80)));
    }

    /** Headers by height, for the rules to read; the test's own small chain. */
    private static final class Ancestors implements DifficultyRules.Ancestors {
        private final Map<Integer, long[]> byHeight = new HashMap<>();
        private int lowest = Integer.MAX_VALUE;

        Ancestors add(int height, long time, long bits) {
            byHeight.put(height, new long[] {time, bits});
            lowest = Math.min(lowest, height);
            return this;
        }

        Ancestors without(int height) {
            Ancestors c = copy();
            c.byHeight.remove(height);
            return c;
        }

        Ancestors from(int height) {
            Ancestors c = new Ancestors();
            byHeight.forEach((h, v) -> {
                if (h >= height) {
                    c.add(h, v[0], v[1]);
                }
            });
            return c;
        }

        private Ancestors copy() {
            Ancestors c = new Ancestors();
            byHeight.forEach((h, v) -> c.add(h, v[0], v[1]));
            return c;
        }

        @Override
        public int lowestHeight() {
            return lowest;
        }

        @Override
        public long time(int height) {
            return get(height)[0];
        }

        @Override
        public long bits(int height) {
            return get(height)[1];
        }

        private long[] get(int height) {
            long[] v = byHeight.get(height);
            if (v == null) {
                throw new AssertionError("the rules read height " + height + ", which the test did not give");
            }
            return v;
        }
    }

    /** A whole period from {@code start}: every block with {@code bits}, times spread from first to last. */
    private static Ancestors period(int start, long bits, long firstTime, long lastTime) {
        Ancestors a = new Ancestors();
        for (int i = 0; i < N; i++) {
            a.add(start + i, firstTime + (lastTime - firstTime) * i / (N - 1), bits);
        }
        return a;
    }
}
