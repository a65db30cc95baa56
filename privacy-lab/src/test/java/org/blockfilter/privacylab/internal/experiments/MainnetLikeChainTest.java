package org.blockfilter.privacylab.internal.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.bitcoinj.core.BloomFilter;
import org.blockfilter.filters.bloom.Bip37Filter;
import org.blockfilter.filters.bloom.BloomMath;
import org.blockfilter.privacylab.internal.chains.MainnetLikeChain;
import org.blockfilter.privacylab.internal.chains.ModelChainChecks;
import org.blockfilter.privacylab.internal.chains.Occurrences;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mainnet-like chain of experiment 5: spends, filters, wallets' syncs, determinism; and the quick run. */
class MainnetLikeChainTest {
    private static final MainnetLikeChain.Params SMALL =
            new MainnetLikeChain.Params(60, 200, 60, 2_000, 1.0, 1_000, new int[] {1, 5}, new int[] {3, 3}, 250);

    @Test
    void spentOutputsAppearAgainInTheSpendingBlock() {
        MainnetLikeChain chain = MainnetLikeChain.build(SMALL, 3, null);
        Occurrences o = chain.occ;
        int firstSingleUse = SMALL.poolSize()
                + chain.wallets().stream().mapToInt(MainnetLikeChain.Wallet::n).sum();
        int twice = 0;
        int singles = 0;
        for (int s = firstSingleUse; s < o.scripts; s++) {
            int n = o.scriptStart[s + 1] - o.scriptStart[s];
            assertTrue(n == 1 || n == 2, "a single-use script is created and spent at most once: " + n);
            singles++;
            twice += n == 2 ? 1 : 0;
        }
        assertTrue(twice > singles / 10, twice + " of " + singles + " created and spent in the chain");
        long multi = 0;
        for (int c = 0; c < o.clusters; c++) {
            multi += o.clusterStart[c + 1] - o.clusterStart[c] > 1 ? 1 : 0;
        }
        assertTrue(multi > 0, "some inputs are spent together");
    }

    @Test
    void filtersHoldExactlyTheBlocksScriptsAndAreDeterministic() {
        ModelChainChecks.assertFiltersExactAndDeterministic(seed -> MainnetLikeChain.build(SMALL, seed, null));
    }

    @Test
    void fastSyncEqualsMatchAnyAndFindsEveryOwnBlock() {
        ModelChainChecks.assertFastSyncEqualsMatchAny(MainnetLikeChain.build(SMALL, 7, null));
    }

    @Test
    void bip37RowsUseBitcoinjsSizingNotCoresIntegerSizing() {
        // exp5's BIP 37 rows use bitcoinj's sizing: at 1e-5 for N = 1 (capacity 102) Core's integer sizing gives k =
        // 15, bitcoinj 16.
        int coreBytes = BloomMath.bip37SizeBytes(102, 1e-5);
        assertEquals(15, BloomMath.bip37HashFuncs(coreBytes, 102));
        Bip37Filter bitcoinj = Bip37Filter.fromBitcoinj(new BloomFilter(102, 1e-5, 0));
        assertEquals(16, bitcoinj.hashFuncs());
        Bip37Filter row = Bip158Tables.bip37Filter(1, 1e-5);
        assertEquals(bitcoinj.hashFuncs(), row.hashFuncs());
        assertEquals(bitcoinj.sizeBytes(), row.sizeBytes());
    }

    @Test
    void quickRunIsDeterministicAndReportsEveryAdversaryWithIntervals(@TempDir Path out) throws IOException {
        System.setProperty("java.awt.headless", "true");
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        Bip158Experiment.run(new Lab(5, true, out.resolve("a"), 1, quiet));
        Bip158Experiment.run(new Lab(5, true, out.resolve("b"), 2, quiet));
        List<Path> a = csvs(out.resolve("a"));
        assertEquals(5, a.size());
        for (Path p : a) {
            Path q = out.resolve("b").resolve(out.resolve("a").relativize(p));
            assertEquals(Files.readString(p), Files.readString(q), p.toString());
        }
        String summary = Files.readString(out.resolve("a/exp5-bip158/exp5_summary.csv"));
        for (String adversary : Bip158Experiment.ADVERSARIES) {
            assertTrue(summary.contains("," + adversary + ","), adversary);
        }
        for (String line : summary.lines().skip(1).toList()) {
            String[] c = line.split(",");
            double ph1 = Double.parseDouble(c[11]);
            assertTrue(Double.parseDouble(c[12]) <= ph1 + 1e-9 && ph1 <= Double.parseDouble(c[13]) + 1e-9, line);
        }
        assertTrue(Files.exists(out.resolve("a/exp5-bip158/exp5_ph1_n10_peers1.png")));
        String sensitivity = Files.readString(out.resolve("a/exp5-bip158/exp5_sensitivity.csv"));
        for (String factor : List.of("wallet reuse", "share of young spends", "synced range")) {
            assertTrue(sensitivity.contains("\n" + factor + ","), factor);
        }
        assertTrue(sensitivity.contains(",NO_REUSE,"), sensitivity);
        assertTrue(Files.readString(out.resolve("a/exp5-bip158/report.md")).contains("## Sensitivity"));
    }

    private static List<Path> csvs(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".csv")).sorted().toList();
        }
    }
}
