package org.blockfilter.wallet.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A full sync from genesis of a fresh wallet over {@code blocks} regtest blocks served by an
 * in-memory source (no network, no server): header checks, filter headers, every filter matched
 * against the wallet's 120 scripts, matching blocks fetched and verified, wallet file saved after
 * each batch. One payment to the wallet every 100 blocks and one unrelated payment every 10.
 * Measures the engine, not a transport.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class WalletSyncBenchmark {
    @Param({"10000"})
    int blocks;

    private RegtestChainBuilder chain;
    private Path dir;
    private LightWallet wallet;

    @Setup(Level.Trial)
    public void chain() throws IOException {
        chain = new RegtestChainBuilder();
        Path probe = Files.createTempDirectory("wallet-bench-keys");
        LightWallet w = TestWallets.create(probe);
        Address other = chain.minerAddress();
        chain.mine(10);
        int paid = 0;
        while (chain.tipHeight() < blocks) {
            int next = chain.tipHeight() + 1;
            if (next % 100 == 0) {
                Address a = w.keys()
                        .account(AddressKind.P2WPKH)
                        .orElseThrow()
                        .derive(false, paid++ % 15)
                        .address();
                chain.mineBlock(List.of(chain.pay(List.of(a), Coin.CENT)));
            } else if (next % 10 == 0) {
                chain.mineBlock(List.of(chain.pay(List.of(other), Coin.MILLICOIN)));
            } else {
                chain.mine(1);
            }
        }
        delete(probe);
    }

    @Setup(Level.Invocation)
    public void freshWallet() throws IOException {
        dir = Files.createTempDirectory("wallet-bench");
        wallet = TestWallets.create(dir);
    }

    @TearDown(Level.Invocation)
    public void removeWallet() throws IOException {
        delete(dir);
    }

    @Benchmark
    public SyncReport syncFromGenesis() {
        return new SyncEngine(wallet, List.of(new MemorySource("memory", chain)), SyncEngine.Options.defaults()).sync();
    }

    private static void delete(Path p) throws IOException {
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
