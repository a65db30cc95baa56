package org.blockfilter.regtest.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.embedded.internal.BlockEntry;
import org.blockfilter.regtest.embedded.internal.Chain;
import org.blockfilter.regtest.embedded.internal.RpcServer;
import org.blockfilter.regtest.embedded.internal.StrictWireDecoder;

/**
 * A regtest node in this JVM, written with bitcoinj: it mines valid blocks (proof of work, BIP 34
 * height, witness commitment, subsidy halving every 150 blocks), keeps the UTXO set, checks
 * transactions (including scripts) before its mempool takes them, validates submitted blocks the
 * same way, reorganises to the chain with most work, and serves a Bitcoin Core-compatible
 * JSON-RPC subset on 127.0.0.1. State is in memory only; there is no P2P listener.
 *
 * <p>Block timestamps come from the configured {@link Clock}, so with a {@link SettableClock} the
 * same calls give the same chain, byte for byte. Thread-safe; no method returns null.
 */
public final class EmbeddedNode implements RegtestNode {
    /** The key behind the default mining address; public knowledge, regtest only. */
    private static final ECKey DEFAULT_MINER_KEY =
            ECKey.fromPrivate(Sha256Hash.hash("blockfilter embedded node miner".getBytes(StandardCharsets.UTF_8)));

    /**
     * How to start the node. {@code rpcPort} 0 picks a free port; {@code miningAddress} receives
     * {@link #mine(int)}'s coinbases.
     */
    public record Config(Clock clock, int rpcPort, String rpcUser, String rpcPassword, Address miningAddress) {
        public Config {
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(rpcUser, "rpcUser");
            Objects.requireNonNull(rpcPassword, "rpcPassword");
            Objects.requireNonNull(miningAddress, "miningAddress");
            if (rpcPort < 0 || rpcPort > 65535) {
                throw new IllegalArgumentException("rpcPort out of range: " + rpcPort);
            }
            if (rpcUser.contains(":")) {
                throw new IllegalArgumentException("rpcUser must not contain ':'");
            }
        }

        /** System clock, a free port, user {@code blockfilter}, a random password, the default miner. */
        public static Config defaults() {
            byte[] pw = new byte[16];
            new SecureRandom().nextBytes(pw);
            return new Config(
                    Clock.systemUTC(), 0, "blockfilter", HexFormat.of().formatHex(pw), defaultMiningAddress());
        }

        public Config withClock(Clock c) {
            return new Config(c, rpcPort, rpcUser, rpcPassword, miningAddress);
        }

        public Config withRpcPort(int port) {
            return new Config(clock, port, rpcUser, rpcPassword, miningAddress);
        }

        public Config withCredentials(String user, String password) {
            return new Config(clock, rpcPort, user, password, miningAddress);
        }

        public Config withMiningAddress(Address a) {
            return new Config(clock, rpcPort, rpcUser, rpcPassword, a);
        }
    }

    private final Config config;
    private final Chain chain;
    private final RpcServer rpc;
    private final CountDownLatch closed = new CountDownLatch(1);

    private EmbeddedNode(Config config) {
        this.config = config;
        this.chain = new Chain(config.clock());
        try {
            this.rpc = RpcServer.start(chain, config.rpcPort(), config.rpcUser(), config.rpcPassword(), this::close);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot start the embedded node's JSON-RPC server on 127.0.0.1:" + config.rpcPort(), e);
        }
    }

    /** Starts a node with only the genesis block. */
    public static EmbeddedNode start(Config config) {
        return new EmbeddedNode(Objects.requireNonNull(config, "config"));
    }

    public static EmbeddedNode start() {
        return start(Config.defaults());
    }

    /** The P2WPKH address the node mines to unless configured otherwise (fixed, well-known key). */
    public static Address defaultMiningAddress() {
        return DEFAULT_MINER_KEY.toAddress(ScriptType.P2WPKH, BitcoinNetwork.REGTEST);
    }

    @Override
    public String name() {
        return "embedded";
    }

    @Override
    public int tipHeight() {
        return chain.height();
    }

    @Override
    public Sha256Hash tipHash() {
        return chain.tip().hash();
    }

    @Override
    public Optional<Sha256Hash> blockHash(int height) {
        return chain.atHeight(height).map(BlockEntry::hash);
    }

    @Override
    public Optional<byte[]> rawBlock(Sha256Hash hash) {
        return chain.block(hash).map(BlockEntry::raw);
    }

    /**
     * @throws RejectedException with Core's reason if the transaction does not decode or breaks a rule
     */
    @Override
    public Sha256Hash submitTransaction(byte[] rawTx) {
        return chain.acceptToMempool(StrictWireDecoder.transaction(rawTx));
    }

    @Override
    public List<Sha256Hash> mine(int count) {
        return mineTo(count, config.miningAddress());
    }

    /** Mines {@code count} blocks with the mempool, paying the coinbase to {@code address}. */
    public List<Sha256Hash> mineTo(int count, Address address) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative: " + count);
        }
        return chain.mine(count, ScriptBuilder.createOutputScript(address).program());
    }

    @Override
    public Address miningAddress() {
        return config.miningAddress();
    }

    /**
     * Accepts a block; a block the node already has, or one on a branch with less work, is not an
     * error (as Core's {@code submitblock} answers {@code duplicate} or {@code inconclusive}).
     *
     * @throws RejectedException with Core's reason if it does not decode or breaks a rule
     */
    @Override
    public void submitBlock(byte[] rawBlock) {
        chain.submitBlock(StrictWireDecoder.block(rawBlock), rawBlock.clone());
    }

    @Override
    public List<Sha256Hash> reorg(int depth, int newBlocks) {
        synchronized (chain) {
            int tip = chain.height();
            if (depth < 1 || depth > tip) {
                throw new IllegalArgumentException("reorg depth must be in 1.." + tip + ": " + depth);
            }
            if (newBlocks <= depth) {
                throw new IllegalArgumentException(
                        "a reorg needs more new blocks (" + newBlocks + ") than it drops (" + depth + ")");
            }
            Sha256Hash fork = chain.atHeight(tip - depth).orElseThrow().hash();
            return chain.mineOnto(
                    fork,
                    newBlocks,
                    ScriptBuilder.createOutputScript(config.miningAddress()).program());
        }
    }

    /** {@code invalidateblock}: the block and its descendants leave the best chain for good. */
    public void invalidateBlock(Sha256Hash hash) {
        chain.invalidate(hash);
    }

    /** {@code reconsiderblock}: undoes {@link #invalidateBlock}. */
    public void reconsiderBlock(Sha256Hash hash) {
        chain.reconsider(hash);
    }

    /** Txids in the mempool, in arrival order. */
    @Override
    public List<Sha256Hash> mempool() {
        return chain.mempoolTransactions().stream().map(Transaction::getTxId).toList();
    }

    @Override
    public URI rpcUri() {
        return URI.create("http://127.0.0.1:" + rpc.port());
    }

    @Override
    public String rpcUser() {
        return config.rpcUser();
    }

    @Override
    public String rpcPassword() {
        return config.rpcPassword();
    }

    /** Always empty: the embedded node has no P2P listener. */
    @Override
    public Optional<InetSocketAddress> p2pAddress() {
        return Optional.empty();
    }

    @Override
    public void close() {
        rpc.close();
        closed.countDown();
    }

    /** Blocks until {@link #close()} runs, e.g. after a client called {@code stop}. */
    public void awaitClose() throws InterruptedException {
        closed.await();
    }

    /** The chain state, for tests in this package. */
    Chain chain() {
        return chain;
    }
}
