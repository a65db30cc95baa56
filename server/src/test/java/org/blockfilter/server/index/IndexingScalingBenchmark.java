package org.blockfilter.server.index;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Context;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.params.RegTestParams;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.server.store.IndexStore;

/**
 * How indexing throughput scales with block size, without a node in the way: chains of
 * {@code blocks} blocks built with bitcoinj, each block holding a fan-out transaction plus
 * {@code txs} one-input two-output payments that spend the previous block's fan-out (so every
 * input is a UTXO-map lookup), indexed by {@link FilterIndexer} into a fresh {@link IndexStore}
 * from an in-memory {@link BlockSource}. A harness, not a unit test:
 * {@code java -cp ... org.blockfilter.server.index.IndexingScalingBenchmark [blocks] [txs,...]
 * [pipeline|serial]}: {@code serial} runs the pipeline with one block in flight (one fetch
 * worker, nothing read ahead), which is how the indexer worked before it was pipelined, minus
 * the thread hand-offs. The stage split is wall time per stage (stages overlap).
 */
public final class IndexingScalingBenchmark {
    private static final ECKey KEY = ECKey.fromPrivate(BigInteger.valueOf(4242));

    public static void main(String[] args) throws IOException {
        int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        String sizes = args.length > 1 ? args[1] : "10,100,1000";
        String mode = args.length > 2 ? args[2] : "pipeline";
        IngestSettings settings = switch (mode) {
            case "pipeline" -> IngestSettings.DEFAULT;
            case "serial" -> new IngestSettings(1, 1, 1);
            default -> throw new IllegalArgumentException("mode must be pipeline or serial: " + mode);
        };
        Context.propagate(new Context());
        System.out.printf(
                "%-8s %8s %8s %10s %10s %10s %12s %12s  %s%n",
                "mode", "txs/blk", "blocks", "txs", "seconds", "blocks/s", "tx/s", "inputs/s", "split (wall ms)");
        for (String s : sizes.split(",")) {
            int txs = Integer.parseInt(s.trim());
            MemorySource chain = build(blocks, txs);
            Path dir = Files.createTempDirectory("indexing-bench");
            try (IndexStore store = IndexStore.open(dir);
                    FilterIndexer indexer = new FilterIndexer(store, chain, Duration.ofMillis(100), settings, false)) {
                long start = System.nanoTime();
                FilterIndexer.SyncResult result = indexer.syncOnce();
                double seconds = (System.nanoTime() - start) / 1e9;
                IngestStats st = indexer.status().ingest();
                System.out.printf(
                        "%-8s %8d %8d %10d %10.2f %10.1f %12.0f %12.0f  parse=%d lookup=%d build=%d write=%d%n",
                        mode,
                        txs,
                        result.connected(),
                        chain.txCount,
                        seconds,
                        result.connected() / seconds,
                        chain.txCount / seconds,
                        chain.inputCount / seconds,
                        st.parseNanos() / 1_000_000,
                        st.lookupNanos() / 1_000_000,
                        st.buildNanos() / 1_000_000,
                        st.writeNanos() / 1_000_000);
            } finally {
                deleteTree(dir);
            }
        }
    }

    private static MemorySource build(int blocks, int txs) {
        MemorySource chain = new MemorySource();
        Block prev = RegTestParams.get().getGenesisBlock();
        chain.add(prev);
        Transaction prevFan = null;
        for (int b = 1; b <= blocks; b++) {
            Block next =
                    prev.createNextBlockWithCoinbase(Block.BLOCK_VERSION_GENESIS, KEY.getPubKey(), Coin.FIFTY_COINS, b);
            Transaction fan = new Transaction();
            if (prevFan == null) {
                fan.addInput(next.getTransactions().get(0).getTxId(), 0, ScriptBuilder.createEmpty());
            } else {
                fan.addInput(prevFan.getTxId(), 0, ScriptBuilder.createEmpty());
            }
            for (int i = 0; i <= txs; i++) {
                fan.addOutput(Coin.valueOf(10_000), ScriptBuilder.createP2WPKHOutputScript(hash20("k" + b + "/" + i)));
            }
            next.addTransaction(fan);
            chain.inputCount++;
            if (prevFan != null) {
                for (int i = 1; i <= txs; i++) {
                    Transaction pay = new Transaction();
                    pay.addInput(prevFan.getTxId(), i, ScriptBuilder.createEmpty());
                    pay.addOutput(
                            Coin.valueOf(5_000), ScriptBuilder.createP2PKHOutputScript(hash20("p" + b + "/" + i)));
                    pay.addOutput(
                            Coin.valueOf(4_000), ScriptBuilder.createP2WPKHOutputScript(hash20("c" + b + "/" + i)));
                    next.addTransaction(pay);
                    chain.inputCount++;
                }
            }
            next.solve();
            chain.add(next);
            chain.txCount += next.getTransactions().size();
            prev = next;
            prevFan = fan;
        }
        return chain;
    }

    private static byte[] hash20(String seed) {
        return Arrays.copyOf(Sha256Hash.hash(seed.getBytes(StandardCharsets.UTF_8)), 20);
    }

    private static final class MemorySource implements BlockSource {
        private final List<Sha256Hash> best = new ArrayList<>();
        private final Map<Sha256Hash, byte[]> raw = new HashMap<>();
        long txCount;
        long inputCount;

        void add(Block block) {
            best.add(block.getHash());
            raw.put(block.getHash(), block.serialize());
        }

        @Override
        public Sha256Hash bestBlockHash() {
            return best.get(best.size() - 1);
        }

        @Override
        public int bestHeight() {
            return best.size() - 1;
        }

        @Override
        public Optional<Sha256Hash> hashAt(int height) {
            return height >= 0 && height < best.size() ? Optional.of(best.get(height)) : Optional.empty();
        }

        @Override
        public Optional<byte[]> rawBlock(Sha256Hash hash) {
            return Optional.ofNullable(raw.get(hash));
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private IndexingScalingBenchmark() {}
}
