package org.blockfilter.filters.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The shipped checkpoints against the networks' rules and against data published independently of
 * bitcoinj and rskj: Electrum's checkpoint files (spesmilo/electrum electrum/chains/NET/checkpoints.json;
 * mainnet and testnet4 at 08fa871f39d9ba69afd91a225a820ea120d05d91, signet at
 * 08d28272acec4cb5ac07a3102c5be0f4f5247d98). Entry i of those is the hash of block 2016 * (i + 1) - 1
 * and (on mainnet) the target of block 2016 * (i + 1); so each shipped checkpoint at 2016 * (i + 1)
 * must link to that hash (its header's previous-block field) and claim that target. The copies in
 * test resources chain/electrum-*.txt hold, one entry a line, the hash (and on mainnet the target,
 * in decimal) of every entry of the signet and testnet4 files, of mainnet's first 20 and testnet3's first 30.
 */
class HeaderCheckpointsTest {
    private static final int N = DifficultyRules.INTERVAL;

    @ParameterizedTest
    @EnumSource(Chain.class)
    void startWithGenesisThenEveryRetargetBoundaryInOrder(Chain c) {
        List<HeaderCheckpoint> cps = HeaderCheckpoints.of(c);
        assertEquals(c.genesisCheckpoint(), cps.get(0));
        for (int i = 1; i < cps.size(); i++) {
            assertEquals(i * N, cps.get(i).height(), c + " entry " + i);
        }
    }

    @Test
    void shipWhatTheDocsSay() {
        assertEquals(878_976, last(Chain.MAINNET).height());
        assertEquals(3_612_672, last(Chain.TESTNET3).height());
        assertEquals(143_136, last(Chain.TESTNET4).height());
        assertEquals(229_824, last(Chain.SIGNET).height());
        assertEquals(List.of(Chain.REGTEST.genesisCheckpoint()), HeaderCheckpoints.of(Chain.REGTEST));
        assertEquals(
                876_960, HeaderCheckpoints.atOrBelow(Chain.MAINNET, 878_975).height());
        assertEquals(0, HeaderCheckpoints.atOrBelow(Chain.MAINNET, 2015).height());
    }

    @Test
    void aBlockThatIsNotTheShippedCheckpointAtItsHeightConflicts() {
        HeaderCheckpoint at2016 = HeaderCheckpoints.of(Chain.MAINNET).get(1);
        assertEquals(java.util.Optional.empty(), HeaderCheckpoints.conflict(Chain.MAINNET, 2016, at2016.hash()));
        assertEquals(java.util.Optional.empty(), HeaderCheckpoints.conflict(Chain.MAINNET, 2017, Sha256Hash.ZERO_HASH));
        assertEquals(
                "block " + Sha256Hash.ZERO_HASH + " at height 2016 is not the block " + at2016.hash()
                        + " of the checkpoint shipped for mainnet",
                HeaderCheckpoints.conflict(Chain.MAINNET, 2016, Sha256Hash.ZERO_HASH)
                        .orElseThrow());
        assertTrue(HeaderCheckpoints.conflict(Chain.TESTNET4, 0, Chain.TESTNET3.genesisHash())
                .isPresent());
    }

    @ParameterizedTest
    @EnumSource(Chain.class)
    void everyHeaderMeetsItsTargetWithinTheLimit(Chain c) {
        for (HeaderCheckpoint cp : HeaderCheckpoints.of(c)) {
            long bits = HeaderFields.bits(cp.header());
            BigInteger target = DifficultyRules.target(bits).orElseThrow();
            assertTrue(target.compareTo(c.powLimit()) <= 0, c + " " + cp.height());
            assertTrue(new BigInteger(1, cp.hash().getBytes()).compareTo(target) <= 0, c + " " + cp.height() + " PoW");
        }
    }

    /**
     * Between boundaries every block carries the period's bits on mainnet and signet, so the chain
     * work grows by exactly 2015 blocks of the earlier bits plus the later block; on the test
     * networks some of those 2015 may be minimum-difficulty blocks, so it lies between the two.
     */
    @ParameterizedTest
    @EnumSource(
            value = Chain.class,
            names = {"MAINNET", "TESTNET3", "TESTNET4", "SIGNET"})
    void chainWorkGrowsByThePeriodsBlocks(Chain c) {
        List<HeaderCheckpoint> cps = HeaderCheckpoints.of(c);
        BigInteger minWork = DifficultyRules.work(DifficultyRules.compact(c.powLimit()));
        for (int i = 1; i < cps.size(); i++) {
            BigInteger prevWork =
                    DifficultyRules.work(HeaderFields.bits(cps.get(i - 1).header()));
            BigInteger own = DifficultyRules.work(HeaderFields.bits(cps.get(i).header()));
            BigInteger grew = cps.get(i).chainWork().subtract(cps.get(i - 1).chainWork());
            BigInteger most = prevWork.multiply(BigInteger.valueOf(N - 1)).add(own);
            if (c.difficultyRules().allowsMinimumDifficultyBlocks()) {
                BigInteger least = minWork.multiply(BigInteger.valueOf(N - 1)).add(own);
                assertTrue(
                        grew.compareTo(least) >= 0 && grew.compareTo(most) <= 0,
                        c + " at " + cps.get(i).height());
            } else {
                assertEquals(most, grew, c + " at " + cps.get(i).height());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Chain.class,
            names = {"MAINNET", "SIGNET"})
    void consecutiveRetargetsArePermittedTransitions(Chain c) {
        List<HeaderCheckpoint> cps = HeaderCheckpoints.of(c);
        for (int i = 1; i < cps.size(); i++) {
            long before = HeaderFields.bits(cps.get(i - 1).header());
            long after = HeaderFields.bits(cps.get(i).header());
            assertTrue(
                    c.difficultyRules().permittedTransition(cps.get(i).height(), before, after),
                    c + " at " + cps.get(i).height());
        }
    }

    /** Core's pow_tests get_next_work and get_next_work_pow_limit are the retargets at 32,256 and 2,016. */
    @Test
    void mainnetsFirstRetargetsAreCoresPowTestResults() {
        assertEquals(
                0x1d00ffffL,
                HeaderFields.bits(HeaderCheckpoints.of(Chain.MAINNET).get(1).header()));
        assertEquals(
                0x1d00d86aL,
                HeaderFields.bits(HeaderCheckpoints.of(Chain.MAINNET).get(16).header()));
    }

    @ParameterizedTest
    @EnumSource(
            value = Chain.class,
            names = {"MAINNET", "TESTNET3", "TESTNET4", "SIGNET"})
    void linkToTheHashesElectrumPublishes(Chain c) throws IOException {
        List<String[]> electrum = electrum(c);
        List<HeaderCheckpoint> cps = HeaderCheckpoints.of(c);
        int compared = 0;
        for (int i = 0; i < electrum.size() && i + 1 < cps.size(); i++) {
            HeaderCheckpoint cp = cps.get(i + 1);
            assertEquals(electrum.get(i)[0], previousHash(cp.header()).toString(), c + " at " + cp.height());
            if (electrum.get(i).length > 1) {
                BigInteger target =
                        DifficultyRules.target(HeaderFields.bits(cp.header())).orElseThrow();
                assertEquals(new BigInteger(electrum.get(i)[1]), target, c + " target at " + cp.height());
            }
            compared++;
        }
        int expected = switch (c) {
            case MAINNET -> 20;
            case TESTNET3 -> 30;
            case TESTNET4 -> 58;
            default -> 114;
        };
        assertEquals(expected, compared);
    }

    private static Sha256Hash previousHash(byte[] header) {
        return Sha256Hash.wrapReversed(Arrays.copyOfRange(header, 4, 36));
    }

    private static HeaderCheckpoint last(Chain c) {
        List<HeaderCheckpoint> cps = HeaderCheckpoints.of(c);
        return cps.get(cps.size() - 1);
    }

    private static List<String[]> electrum(Chain c) throws IOException {
        String name = "/chain/electrum-" + c.cliName() + ".txt";
        try (InputStream in = HeaderCheckpointsTest.class.getResourceAsStream(name)) {
            List<String[]> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (!line.isBlank()) {
                    out.add(line.trim().split(" "));
                }
            }
            return out;
        }
    }
}
