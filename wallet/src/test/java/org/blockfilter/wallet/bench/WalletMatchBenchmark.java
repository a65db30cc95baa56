package org.blockfilter.wallet.bench;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.gcs.GolombCodedSet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.keys.WalletKeys;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the sync engine does per block: {@code matchAny} of every watched script (the wallet's
 * real derived P2WPKH/P2PKH/P2TR scripts, gap window sized to the parameter) against one block's
 * basic filter of {@code filterElements} random scripts (none of them the wallet's, the common
 * case). Reports blocks (filters) matched per second. {@code matchEachWatched} is the naive peer in
 * the same run: one {@code match} (one walk of the filter) per watched script, which is what a
 * client without a sorted-merge {@code matchAny} would do.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class WalletMatchBenchmark {
    @Param({"100", "10000"})
    int watched;

    @Param({"500", "5000"})
    int filterElements;

    private List<byte[]> queries;
    private BasicFilter filter;

    @Setup
    public void setup() {
        List<String> mnemonic =
                List.of("abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
                        .split(" "));
        // Two chains per account; gap sized so the window holds about `watched` scripts.
        int gap = Math.max(1, watched / 2);
        WalletKeys keys =
                WalletKeys.fromMnemonic(mnemonic, "", BitcoinNetwork.REGTEST, gap, EnumSet.of(AddressKind.P2WPKH));
        queries = new ArrayList<>();
        for (OutputScript s : keys.watchedScripts()) {
            queries.add(s.bytes());
        }
        Random r = new Random(1);
        List<byte[]> items = new ArrayList<>();
        for (int i = 0; i < filterElements; i++) {
            byte[] s = new byte[22];
            r.nextBytes(s);
            s[0] = 0x00;
            s[1] = 0x14;
            items.add(s);
        }
        Sha256Hash blockHash = Sha256Hash.of(new byte[] {1});
        GolombCodedSet set = GolombCodedSet.build(Bip158.BASIC_P, Bip158.BASIC_M, BasicFilter.key(blockHash), items);
        filter = BasicFilter.fromBytes(blockHash, set.encoded());
    }

    @Benchmark
    public boolean matchAnyWatched() {
        return filter.matchAny(queries);
    }

    @Benchmark
    public boolean matchEachWatched() {
        boolean any = false;
        for (byte[] q : queries) {
            any |= filter.match(q);
        }
        return any;
    }
}
