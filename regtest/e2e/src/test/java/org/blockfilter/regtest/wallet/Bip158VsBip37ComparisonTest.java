package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.PeerGroup;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.Script;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.btcd.BtcdTestSupport;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.OutputKind;
import org.blockfilter.regtest.scenario.OwnedOutput;
import org.blockfilter.regtest.scenario.OwnedScript;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.regtest.scenario.ScenarioWallet;
import org.blockfilter.wallet.legacy.LegacyBip37Sync;
import org.blockfilter.wallet.legacy.ServerBip37Scan;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.blockfilter.wallet.source.rest.RestSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The BIP 158 vs BIP 37 comparison harness: on one btcd scenario chain, each of the first few
 * scenario wallets is synced (a) by BIP 157/158 over P2P from btcd and over REST from our server
 * (headers, cfheaders, cfcheckpt, cfilters, then only the blocks whose filter matches the
 * wallet's scripts), (b) the bitcoinj way over BIP 37 from btcd (Wallet + PeerGroup +
 * SPVBlockStore, bitcoinj's own Bloom filter), and (c) with that Bloom filter against our
 * server's {@code POST /api/v1/bip37/scan}. All go through byte-counting TCP proxies. Ground truth says which transactions are the wallet's, so
 * false-positive blocks and transactions, and missed transactions, are counted.
 *
 * <p>Prints a table and writes {@code target/wallet-bip158-vs-bip37.csv}. Asserts only
 * correctness (BIP 158 misses nothing); the numbers are measured, not asserted. The BIP 158
 * side is this harness's minimal filter scan, not the wallet's sync engine.
 */
@ExtendWith(NodeLogOnFailure.class)
class Bip158VsBip37ComparisonTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(180);
    /**
     * {@code -Dwallet.comparison=full} runs the documented grid (standard 300-block scenario,
     * wallets 0-2, Bloom false-positive rates 1e-5 and 1e-3); the default is a CI-sized run.
     */
    private static final boolean FULL = "full".equals(System.getProperty("wallet.comparison"));

    private BtcdNode node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    /** One sync's measurements. "Irrelevant txs" are the other transactions of downloaded blocks (BIP 158) or matched transactions not the wallet's (BIP 37). */
    record Row(
            String mode,
            int wallet,
            int walletScripts,
            int blocks,
            long bytesDown,
            long bytesUp,
            int blocksFetched,
            int falsePositiveBlocks,
            int irrelevantTxs,
            int missedTxs,
            int relevantTxs,
            double seconds) {
        static final String CSV_HEADER = "mode,wallet,wallet_scripts,chain_blocks,bytes_down,bytes_up,blocks_fetched,"
                + "false_positive_blocks,irrelevant_txs,missed_relevant_txs,relevant_txs,seconds";

        String csv() {
            return String.format(
                    Locale.ROOT,
                    "%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.3f",
                    mode,
                    wallet,
                    walletScripts,
                    blocks,
                    bytesDown,
                    bytesUp,
                    blocksFetched,
                    falsePositiveBlocks,
                    irrelevantTxs,
                    missedTxs,
                    relevantTxs,
                    seconds);
        }

        String table() {
            return String.format(
                    Locale.ROOT,
                    "%-22s %6d %7d %11d %9d %9.1f %8d %8d %10d %7d %8.2f",
                    mode,
                    wallet,
                    blocks,
                    bytesDown,
                    bytesUp,
                    bytesDown / (double) blocks,
                    blocksFetched,
                    falsePositiveBlocks,
                    irrelevantTxs,
                    missedTxs,
                    seconds);
        }
    }

    @Test
    void bip158AndBip37SyncsOfTheSameWalletsOnTheSameChain() throws IOException {
        ScenarioSpec spec = FULL ? ScenarioSpec.standard(20_261_130L) : ScenarioSpec.small(20_261_130L, 60);
        List<Integer> wallets = FULL ? List.of(0, 1, 2) : List.of(1);
        node = BtcdNode.start(BtcdOptions.of(spec.miningAddress()).withBinary(BtcdTestSupport.binaryOrSkip()));
        GroundTruth truth = ScenarioRunner.run(node, spec);
        List<Row> rows = new ArrayList<>();
        try (ServerOnNode server = new ServerOnNode(node);
                CountingProxy proxy = new CountingProxy(node.p2pAddress().orElseThrow());
                CountingProxy httpProxy = new CountingProxy(
                        new InetSocketAddress("127.0.0.1", server.baseUri().getPort()))) {
            for (int w : wallets) {
                ScenarioWallet wallet = truth.wallets().get(w);
                Set<Sha256Hash> relevant = relevantTxids(truth, w);
                proxy.reset();
                rows.add(bip158(
                        "bip158-p2p",
                        () -> P2pSource.connect(proxy.address(), Chain.REGTEST, P2pSource.Options.DEFAULT),
                        proxy,
                        truth,
                        wallet,
                        relevant));
                httpProxy.reset();
                URI rest = URI.create("http://127.0.0.1:" + httpProxy.address().getPort());
                rows.add(bip158(
                        "bip158-rest", () -> RestSource.create(rest, TIMEOUT), httpProxy, truth, wallet, relevant));
                httpProxy.reset();
                rows.add(bip37Server(
                        httpProxy,
                        rest,
                        truth,
                        wallet,
                        relevant,
                        PeerGroup.DEFAULT_BLOOM_FILTER_FP_RATE,
                        "bip37-server-fp1e-5"));
                proxy.reset();
                rows.add(bip37(
                        proxy,
                        truth,
                        wallet,
                        relevant,
                        PeerGroup.DEFAULT_BLOOM_FILTER_FP_RATE,
                        "bip37-bitcoinj-fp1e-5"));
                if (FULL) {
                    proxy.reset();
                    rows.add(bip37(proxy, truth, wallet, relevant, 0.001, "bip37-bitcoinj-fp1e-3"));
                }
            }
        }
        report(spec, truth, rows);
        for (Row r : rows) {
            if (r.mode().startsWith("bip158")) {
                assertEquals(0, r.missedTxs(), "BIP 158 missed transactions of wallet " + r.wallet());
                assertTrue(r.blocksFetched() >= 1);
            }
        }
    }

    private static Set<Sha256Hash> relevantTxids(GroundTruth truth, int wallet) {
        Set<Sha256Hash> out = new HashSet<>();
        for (OwnedOutput o : truth.outputs()) {
            if (o.wallet() == wallet && o.script().kind() != OutputKind.OP_RETURN) {
                out.add(o.outpoint().hash());
                o.spentBy().ifPresent(out::add);
            }
        }
        return out;
    }

    private static List<byte[]> scripts(ScenarioWallet wallet) {
        return wallet.scripts().stream()
                .filter(s -> s.kind() != OutputKind.OP_RETURN)
                .map(OwnedScript::program)
                .toList();
    }

    /** BIP 157/158 over P2P or REST: the downloads a light client needs, then matched blocks. */
    private Row bip158(
            String mode,
            java.util.function.Supplier<ChainSource> connect,
            CountingProxy proxy,
            GroundTruth truth,
            ScenarioWallet wallet,
            Set<Sha256Hash> relevant) {
        List<byte[]> scripts = scripts(wallet);
        long t0 = System.nanoTime();
        int fetched = 0;
        int fpBlocks = 0;
        int irrelevant = 0;
        Set<Sha256Hash> found = new HashSet<>();
        try (ChainSource source = connect.get()) {
            int tip = source.tipHeight();
            List<Sha256Hash> hashes = new ArrayList<>();
            for (int start = 0; start <= tip; start += 2000) {
                for (byte[] h : source.blockHeaders(start, 2000)) {
                    hashes.add(Sha256Hash.wrapReversed(Sha256Hash.hashTwice(h)));
                }
            }
            source.filterCheckpoints(hashes.get(tip));
            for (int start = 0; start <= tip; start += Bip157.MAX_CFHEADERS) {
                source.filterHeaders(start, hashes.get(Math.min(tip, start + Bip157.MAX_CFHEADERS - 1)));
            }
            for (int start = 0; start <= tip; start += Bip157.MAX_CFILTERS) {
                for (ChainSource.BlockFilterBytes f :
                        source.filters(start, hashes.get(Math.min(tip, start + Bip157.MAX_CFILTERS - 1)))) {
                    if (!BasicFilter.fromBytes(f.blockHash(), f.filter()).matchAny(scripts)) {
                        continue;
                    }
                    Block block = Block.read(ByteBuffer.wrap(source.block(f.blockHash())));
                    fetched++;
                    int mine = 0;
                    for (Transaction tx : block.getTransactions()) {
                        if (relevant.contains(tx.getTxId())) {
                            found.add(tx.getTxId());
                            mine++;
                        } else {
                            irrelevant++;
                        }
                    }
                    if (mine == 0) {
                        fpBlocks++;
                    }
                }
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Row(
                mode,
                wallet.index(),
                scripts.size(),
                truth.tipHeight() + 1,
                proxy.bytesDown(),
                proxy.bytesUp(),
                fetched,
                fpBlocks,
                irrelevant,
                missed(relevant, found),
                relevant.size(),
                seconds);
    }

    /** Keys bitcoinj matches itself (P2PKH, P2WPKH) and the other scripts it watches, as bitcoinj's wallet would hold them. */
    private record BitcoinjWallet(List<ECKey> keys, List<Script> watched) {
        static BitcoinjWallet of(ScenarioWallet wallet) {
            List<ECKey> keys = new ArrayList<>();
            List<Script> watched = new ArrayList<>();
            for (OwnedScript s : wallet.scripts()) {
                switch (s.kind()) {
                    case P2PKH, P2WPKH -> keys.addAll(s.keys());
                    case OP_RETURN -> {}
                    default -> watched.add(s.scriptPubKey());
                }
            }
            return new BitcoinjWallet(keys, watched);
        }
    }

    /** BIP 37 against our server's scan endpoint, with the Bloom filter bitcoinj's wallet would load. */
    private Row bip37Server(
            CountingProxy proxy,
            URI rest,
            GroundTruth truth,
            ScenarioWallet wallet,
            Set<Sha256Hash> relevant,
            double fpRate,
            String mode) {
        BitcoinjWallet w = BitcoinjWallet.of(wallet);
        BloomFilter filter = LegacyBip37Sync.bloomFilter(RegtestNode.PARAMS, w.keys(), w.watched(), fpRate);
        ServerBip37Scan client = ServerBip37Scan.create(rest, TIMEOUT, 1L << 30);
        long t0 = System.nanoTime();
        Map<Sha256Hash, List<Sha256Hash>> matched = new java.util.LinkedHashMap<>();
        for (int start = 0; start <= truth.tipHeight(); start += 1000) {
            for (ServerBip37Scan.ScannedBlock b : client.scan(filter, start, Math.min(truth.tipHeight(), start + 999))
                    .blocks()) {
                if (!b.matchedTxids().isEmpty()) {
                    matched.put(b.hash(), b.matchedTxids());
                }
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return matchedRow(mode, proxy, truth, wallet, w, relevant, matched, seconds);
    }

    /** BIP 37 the bitcoinj way, with the same keys and scripts. */
    private Row bip37(
            CountingProxy proxy,
            GroundTruth truth,
            ScenarioWallet wallet,
            Set<Sha256Hash> relevant,
            double fpRate,
            String mode) {
        BitcoinjWallet w = BitcoinjWallet.of(wallet);
        LegacyBip37Sync.Result r =
                LegacyBip37Sync.sync(RegtestNode.PARAMS, proxy.address(), w.keys(), w.watched(), fpRate, TIMEOUT);
        assertEquals(truth.tipHeight(), r.tipHeight(), "bitcoinj reached the tip");
        return matchedRow(
                mode,
                proxy,
                truth,
                wallet,
                w,
                relevant,
                r.matchedByBlock(),
                r.elapsed().toNanos() / 1e9);
    }

    private static Row matchedRow(
            String mode,
            CountingProxy proxy,
            GroundTruth truth,
            ScenarioWallet wallet,
            BitcoinjWallet w,
            Set<Sha256Hash> relevant,
            Map<Sha256Hash, List<Sha256Hash>> matchedByBlock,
            double seconds) {
        int fpBlocks = 0;
        int irrelevant = 0;
        Set<Sha256Hash> found = new HashSet<>();
        for (Map.Entry<Sha256Hash, List<Sha256Hash>> e : matchedByBlock.entrySet()) {
            int mine = 0;
            for (Sha256Hash txid : e.getValue()) {
                if (relevant.contains(txid)) {
                    found.add(txid);
                    mine++;
                } else {
                    irrelevant++;
                }
            }
            if (mine == 0) {
                fpBlocks++;
            }
        }
        return new Row(
                mode,
                wallet.index(),
                w.keys().size() + w.watched().size(),
                truth.tipHeight() + 1,
                proxy.bytesDown(),
                proxy.bytesUp(),
                matchedByBlock.size(),
                fpBlocks,
                irrelevant,
                missed(relevant, found),
                relevant.size(),
                seconds);
    }

    private static int missed(Set<Sha256Hash> relevant, Set<Sha256Hash> found) {
        Set<Sha256Hash> m = new HashSet<>(relevant);
        m.removeAll(found);
        return m.size();
    }

    private static void report(ScenarioSpec spec, GroundTruth truth, List<Row> rows) throws IOException {
        StringBuilder table = new StringBuilder();
        table.append("BIP 158 vs BIP 37 on ")
                .append(spec)
                .append(": ")
                .append(truth.tipHeight() + 1)
                .append(" blocks, ")
                .append(truth.chainTransactionCount())
                .append(" transactions\n");
        table.append(String.format(
                Locale.ROOT,
                "%-22s %6s %7s %11s %9s %9s %8s %8s %10s %7s %8s%n",
                "mode",
                "wallet",
                "blocks",
                "bytes_down",
                "bytes_up",
                "down/blk",
                "fetched",
                "fp_blks",
                "irrel_txs",
                "missed",
                "seconds"));
        rows.forEach(r -> table.append(r.table()).append('\n'));
        System.out.print(table);
        StringBuilder csv = new StringBuilder(Row.CSV_HEADER).append('\n');
        rows.forEach(r -> csv.append(r.csv()).append('\n'));
        Path out = Path.of("target", "wallet-bip158-vs-bip37.csv");
        Files.createDirectories(out.getParent());
        Files.writeString(out, csv, StandardCharsets.UTF_8);
        System.out.println("CSV: " + out.toAbsolutePath());
    }
}
