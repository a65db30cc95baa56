package org.blockfilter.regtest.wallet;

import org.bitcoinj.base.BitcoinNetwork;
import org.blockfilter.regtest.NodeLogOnFailure;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.blockfilter.wallet.source.rest.RestSource;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Benchmark, not run by default ({@code -Dwallet.bench=sync10k} runs it): a fresh wallet syncs
 * 10,000 btcd regtest blocks from genesis through the real transports, once over REST from our
 * server on the same machine and once over BIP 157 P2P from btcd; prints wall time and blocks/s.
 */
@ExtendWith(NodeLogOnFailure.class)
class Sync10kBench {
    private static final int BLOCKS = 10_000;
    private static final List<String> MNEMONIC = List.of(
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about".split(" "));

    @TempDir
    Path dir;
    private BtcdNode node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void freshWalletSyncs10000BlocksOverRestAndOverP2p() throws IOException {
        Assumptions.assumeTrue("sync10k".equals(System.getProperty("wallet.bench")), "benchmark: -Dwallet.bench=sync10k");
        ScenarioSpec spec = ScenarioSpec.small(1L, 0);
        node = BtcdNode.start(BtcdOptions.of(spec.miningAddress()).withBinary(BtcdTestSupport.binaryOrSkip())
                .withStartTimeout(Duration.ofSeconds(120)));
        for (int left = BLOCKS; left > 0; left -= 500) {
            node.mine(Math.min(500, left));
        }
        try (ServerOnNode server = new ServerOnNode(node)) {
            time("rest", () -> RestSource.create(server.baseUri(), Duration.ofSeconds(60)));
            time("p2p", () -> P2pSource.connect(node.p2pAddress().orElseThrow(), RegtestNode.PARAMS,
                    P2pSource.Options.DEFAULT.withTimeout(Duration.ofSeconds(60))));
        }
    }

    private void time(String name, Supplier<ChainSource> connect) {
        LightWallet wallet = LightWallet.create(dir.resolve(name + ".json"), BitcoinNetwork.REGTEST, MNEMONIC, "pw".toCharArray(),
                EnumSet.of(AddressKind.P2WPKH, AddressKind.P2PKH, AddressKind.P2TR), WalletKeys.DEFAULT_GAP_LIMIT,
                LightWallet.Birthday.ofHeight(0), 1 << 10);
        try (ChainSource source = connect.get()) {
            long t0 = System.nanoTime();
            SyncReport report = new SyncEngine(wallet, List.of(source), p -> { }).sync();
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertEquals(BLOCKS, report.tipHeight());
            System.out.printf(Locale.ROOT, "sync10k %s: %d blocks, %d filters scanned, %d matched, %.1f s, %.0f blocks/s%n",
                    name, report.tipHeight(), report.filtersScanned(), report.matchedBlocks(), seconds, report.tipHeight() / seconds);
        }
    }
}
