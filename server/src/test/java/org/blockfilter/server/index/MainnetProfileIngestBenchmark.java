package org.blockfilter.server.index;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.bitcoinj.core.Context;
import org.blockfilter.regtest.mainnet.ChainGenerator;
import org.blockfilter.regtest.mainnet.MainnetProfile;
import org.blockfilter.regtest.mainnet.ProfileChain;
import org.blockfilter.server.store.IndexStore;

/**
 * The mainnet profile's ramp and steady phase indexed in process, without a node: the chain
 * generated (or reused) in {@code cacheDir}, served by {@link MainnetProfileBlockSource}, into a
 * fresh store, prevouts from the UTXO map. Prints the steady phase's rate and stage split, so
 * the steady phase can be profiled (e.g. with JFR) without RPC or a second process on the cores.
 * A harness, not a unit test: {@code java -cp ... MainnetProfileIngestBenchmark [utxoTarget]
 * [steadyBlocks] [cacheDir]}.
 */
public final class MainnetProfileIngestBenchmark {
    public static void main(String[] args) throws IOException {
        int utxoTarget = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int steadyBlocks = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        Path cache = Path.of(args.length > 2 ? args[2] : "target/mainnet-profile");
        Context.propagate(new Context());
        MainnetProfile profile =
                MainnetProfile.MAINNET.withUtxoTarget(utxoTarget).withSteadyBlocks(steadyBlocks);
        Path file = ChainGenerator.ensure(profile, cache, System.err);
        Path dir = Files.createTempDirectory("mp-ingest");
        try (ProfileChain chain = ProfileChain.open(file);
                IndexStore store = IndexStore.open(dir)) {
            MainnetProfileBlockSource source = new MainnetProfileBlockSource(chain);
            source.serveUpTo(chain.rampEndHeight());
            try (FilterIndexer indexer =
                    new FilterIndexer(store, source, Duration.ofMillis(100), IngestSettings.DEFAULT, false)) {
                long t0 = System.nanoTime();
                indexer.syncOnce();
                double ramp = (System.nanoTime() - t0) / 1e9;
                IngestStats before = indexer.status().ingest();
                source.serveUpTo(chain.tipHeight());
                long t1 = System.nanoTime();
                FilterIndexer.SyncResult r = indexer.syncOnce();
                double steady = (System.nanoTime() - t1) / 1e9;
                IngestStats after = indexer.status().ingest();
                long inputs = after.inputs() - before.inputs();
                System.out.printf(
                        "ramp %.1f s; steady %d blocks %.2f s %d inputs %.0f inputs/s;"
                                + " split ms parse=%d lookup=%d build=%d write=%d%n",
                        ramp,
                        r.connected(),
                        steady,
                        inputs,
                        inputs / steady,
                        (after.parseNanos() - before.parseNanos()) / 1_000_000,
                        (after.lookupNanos() - before.lookupNanos()) / 1_000_000,
                        (after.buildNanos() - before.buildNanos()) / 1_000_000,
                        (after.writeNanos() - before.writeNanos()) / 1_000_000);
            }
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
