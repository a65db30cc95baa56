package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.BlockChain;
import org.bitcoinj.core.Context;
import org.bitcoinj.core.Peer;
import org.bitcoinj.core.PeerAddress;
import org.bitcoinj.core.PeerGroup;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionConfidence;
import org.bitcoinj.core.VersionMessage;
import org.bitcoinj.core.listeners.DownloadProgressTracker;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.store.SPVBlockStore;
import org.bitcoinj.wallet.DeterministicKeyChain;
import org.bitcoinj.wallet.DeterministicSeed;
import org.bitcoinj.wallet.KeyChainGroup;
import org.bitcoinj.wallet.KeyChainGroupStructure;
import org.bitcoinj.wallet.SendRequest;
import org.bitcoinj.wallet.Wallet;
import org.blockfilter.bitcoinj.FilterSync;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.regtest.wallet.WalletFixture.Payment;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.blockfilter.wallet.source.rest.RestSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bitcoinj adapter checked against bitcoinj itself: one mnemonic, two unmodified bitcoinj wallets (a P2PKH and a
 * P2WPKH chain each). The reference is synced by bitcoinj's own {@link PeerGroup} with BIP 37 Bloom filters from
 * btcd; the other by {@link FilterSync} from two BIP 157 sources compared with each other: our server following the
 * same btcd (REST) and btcd itself over P2P. After payments to both chains (one
 * beyond the first look-ahead window, reached only through an earlier payment), a spend with change by the
 * reference, a reorg, and a payment sent by the adapter-synced wallet with bitcoinj's own {@code createSend}
 * (relayed by our server), both wallets hold the same transactions in the same confidence, the same balance of every
 * {@link Wallet.BalanceType} and the same last-seen block.
 *
 * <p>Without options the adapter opens no BIP 37 connection: btcd's only bitcoinj peer is the reference, and a
 * payment the reference already sees pending is not in the adapter-synced wallet. With the adapter's mempool link
 * ({@link FilterSync.Options#withMempoolPeers}) to btcd, payments show as pending in both wallets before any block
 * (also one to a key that only the first payment brings into the look-ahead window, reached because bitcoinj
 * reloads the link's Bloom filter), and after their block the two wallets are the same again.
 *
 * <p>Each wallet lives on its own threads with its own bitcoinj {@link Context}: bitcoinj keeps transaction
 * confidence per context, and a shared one would let one wallet's view leak into the other's.
 */
@ExtendWith(NodeLogOnFailure.class)
class BitcoinjOracleTest {
    private static final List<String> MNEMONIC = WalletFixture.MNEMONIC;
    /** Regtest's genesis time: no key is newer than a block, so neither sync skips blocks. */
    private static final Instant BIRTH = Instant.ofEpochSecond(1_296_688_602L);
    /** Generous for a loaded machine: the reference follows btcd in seconds; a lost peer never. */
    private static final Duration DEADLINE = Duration.ofSeconds(180);

    /** How long the reference's chain download may make no progress to the tip before it reconnects. */
    private static final Duration STALL = Duration.ofSeconds(30);

    private static final int CONNECT_ATTEMPTS = 4;
    /** BIP 155: bitcoinj 0.17.1 announces 70013 yet sends sendaddrv2, for which btcd wants 70016. */
    private static final int SENDADDRV2_PROTOCOL_VERSION = 70016;

    @TempDir
    Path dir;

    /** bitcoinj's user agent, as btcd's getpeerinfo reports it. */
    private static final String BITCOINJ_SUBVER = "/bitcoinj:";

    private WalletFixture<BtcdNode> chain;
    private RegtestNode node;
    private PeerGroup peers;
    /** The wallet bitcoinj's own PeerGroup syncs, read on the test's thread (its Context). */
    private Wallet referenceWallet;

    private SPVBlockStore referenceStore;
    private BlockChain referenceChain;
    private ServerOnNode server;
    private RestSource rest;
    private P2pSource p2p;
    private FilterSync adapter;
    /** The adapter-synced wallet's thread (its own Context). */
    private final ExecutorService adapterThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "adapter"));

    @AfterEach
    void stop() throws Exception {
        if (adapter != null) {
            on(() -> {
                adapter.close();
                return null;
            });
        }
        adapterThread.shutdown();
        if (peers != null) {
            peers.stop();
        }
        if (referenceStore != null) {
            referenceStore.close();
        }
        if (rest != null) {
            rest.close();
        }
        if (p2p != null) {
            p2p.close();
        }
        if (server != null) {
            server.close();
        }
        if (chain != null) {
            chain.close();
        }
    }

    /**
     * A btcd chain from the scenario seed, the reference wallet synced by bitcoinj's own BIP 37 {@code PeerGroup},
     * and our server on the same node with its REST source and btcd's BIP 157 P2P source.
     */
    private Wallet startChainReferenceAndSources(long seed) throws Exception {
        chain = WalletFixture.onBtcd(ScenarioSpec.small(seed, 20));
        node = chain.node();
        Context.propagate(new Context());
        Wallet reference = wallet();
        startReference(reference);
        server = new ServerOnNode(node);
        rest = RestSource.create(server.baseUri(), Duration.ofSeconds(30));
        p2p = P2pSource.connect(
                node.p2pAddress().orElseThrow(),
                Chain.REGTEST,
                P2pSource.Options.DEFAULT.withTimeout(Duration.ofSeconds(30)));
        return reference;
    }

    @Test
    void adapterSyncedWalletEqualsBitcoinjsOwnBip37Sync() throws Exception {
        Wallet reference = startChainReferenceAndSources(20_261_202L);
        Wallet adapted = on(() -> {
            Context.propagate(new Context());
            Wallet w = wallet();
            adapter = FilterSync.open(w, dir.resolve("adapted.wallet"), dir.resolve("adapted.spvchain"));
            return w;
        });

        // Off by default: the adapter makes no BIP 37 connection, so a payment the reference sees pending (btcd
        // relays it to BIP 37 peers) is not in the adapter-synced wallet, and btcd's one bitcoinj peer is the
        // reference. (The adapter has been open since before the reference finished its first sync.)
        agree(reference, adapted);
        Payment unconfirmed = chain.pay(receiving(ScriptType.P2WPKH, 3));
        awaitPending(reference, unconfirmed);
        assertNull(on(() -> adapted.getTransaction(unconfirmed.txid())), "no mempool link without the option");
        assertEquals(1, bitcoinjPeersOfBtcd(), "btcd's bitcoinj peers: the reference only");
        node.mine(1);
        agree(reference, adapted);

        // Both chains, each payment in a block of its own (a block that matched is handed over whole, so a payment
        // sharing it would be found without its own script); key 120 moves the look-ahead window over key 200.
        for (Address to : List.of(
                receiving(ScriptType.P2WPKH, 0),
                receiving(ScriptType.P2PKH, 0),
                receiving(ScriptType.P2WPKH, 120),
                receiving(ScriptType.P2WPKH, 200),
                receiving(ScriptType.P2PKH, 7))) {
            chain.pay(to);
            node.mine(1);
            // The reference follows block by block; the adapter syncs all five at once below (one filter batch, so
            // key 200 is found only if the scripts are read again after key 120's block). bitcoinj sends the Bloom
            // filter of a moved window asynchronously: wait for it to go out before the next block is mined.
            awaitReference(node.tipHash());
            peers.recalculateFastCatchupAndFilter(PeerGroup.FilterRecalculateMode.FORCE_SEND_FOR_REFRESH)
                    .get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        }
        agree(reference, adapted);
        assertEquals(6, reference.getTransactions(true).size(), "the six payments");

        // A spend by the reference with change to its change branch, broadcast through btcd.
        Transaction spend = reference.createSend(node.miningAddress(), Coin.COIN.divide(3));
        reference.commitTx(spend);
        node.submitTransaction(spend.serialize());
        node.mine(1);
        agree(reference, adapted);

        // The spend's block leaves the chain for a longer branch of coinbase-only blocks: bitcoinj moves the spend
        // back to pending in both wallets. Then it confirms again (btcd keeps it in its mempool; if not, resent).
        node.reorg(2, 3);
        // btcd announces only the new tip. bitcoinj 0.17's Peer asks for the branch below it once per orphan root
        // and drops a repeat of that request, so a reply that crosses another announcement can leave the branch an
        // orphan on that connection for good; the reference reconnects, as a bitcoinj application does after a
        // stall, and bitcoinj's own download (getblocks from its locator) brings the branch.
        reconnectReference(reference);
        agree(reference, adapted, true);
        node.mine(1);
        if (!inTip(spend)) {
            node.submitTransaction(spend.serialize());
            node.mine(1);
        }
        assertTrue(inTip(spend), "the spend confirmed again");
        agree(reference, adapted);

        // The adapter-synced wallet pays with bitcoinj's own createSend, relayed by our server.
        Transaction sent = on(() -> {
            Transaction tx = adapted.createSend(node.miningAddress(), Coin.CENT.multiply(7));
            adapted.commitTx(tx);
            rest.broadcast(tx.serialize());
            return tx;
        });
        node.mine(1);
        Map<String, Object> last = agree(reference, adapted);
        assertEquals(
                "BUILDING@" + node.tipHeight(),
                ((Map<?, ?>) last.get("transactions")).get(sent.getTxId().toString()),
                "the adapter's payment confirmed in the tip block: " + last);
    }

    /**
     * The mempool link on: payments show as pending (in {@code ESTIMATED}, not in {@code AVAILABLE}) before any
     * block, as in bitcoinj's own BIP 37 sync; after their block the filter scan confirms the same transactions.
     */
    @Test
    void withTheMempoolLinkAPaymentIsPendingBeforeItsBlockThenConfirmsByFilters() throws Exception {
        Wallet reference = startChainReferenceAndSources(20_261_203L);
        FilterSync.Options options = FilterSync.Options.DEFAULT.withMempoolPeers(
                List.of(node.p2pAddress().orElseThrow()));
        Wallet adapted = on(() -> {
            Context.propagate(new Context());
            Wallet w = wallet();
            adapter = FilterSync.open(w, dir.resolve("adapted.wallet"), dir.resolve("adapted.spvchain"), options);
            return w;
        });
        agree(reference, adapted);
        awaitFilterLoaded();
        assertEquals(2, bitcoinjPeersOfBtcd(), "btcd's bitcoinj peers: the reference and the mempool link");

        // Key 120 is in the first look-ahead window; its pending payment moves the window over key 200, and only
        // bitcoinj's recalculated filter (filterload, then mempool) brings the second payment to the link.
        Payment near = chain.pay(receiving(ScriptType.P2WPKH, 120));
        awaitPending(adapted, near);
        awaitPending(reference, near);
        assertEquals(near.value(), on(() -> adapted.getBalance(Wallet.BalanceType.ESTIMATED)), "pending, estimated");
        assertEquals(Coin.ZERO, on(() -> adapted.getBalance(Wallet.BalanceType.AVAILABLE)), "not yet available");
        Payment far = chain.pay(receiving(ScriptType.P2WPKH, 200));
        awaitPending(adapted, far);
        awaitPending(reference, far);
        assertEquals(state(reference, false), on(() -> state(adapted, false)), "both pending, before any block");

        node.mine(1);
        Map<String, Object> last = agree(reference, adapted);
        Map<?, ?> txs = (Map<?, ?>) last.get("transactions");
        assertEquals(2, txs.size(), "the two payments, once each: " + last);
        for (Payment p : List.of(near, far)) {
            assertEquals("BUILDING@" + node.tipHeight(), txs.get(p.txid().toString()), "confirmed by filters: " + last);
        }
        assertEquals(
                near.value().add(far.value()), on(() -> adapted.getBalance(Wallet.BalanceType.AVAILABLE)), "available");

        // PeerGroup.addWallet makes the link the wallet's TransactionBroadcaster (docs/bitcoinj.md): bitcoinj's own
        // sendCoins sends the wallet's payment to the mempool peer, which so sees it come from the wallet's link.
        Sha256Hash paid = on(() -> adapted.sendCoins(SendRequest.to(node.miningAddress(), Coin.CENT))
                .transaction()
                .getTxId());
        awaitInMempool(paid);
    }

    /** Waits until btcd's mempool holds {@code txid}. */
    private void awaitInMempool(Sha256Hash txid) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!chain.node().mempool().contains(txid)) {
            assertTrue(System.nanoTime() < deadline, "the wallet's payment " + txid + " not in btcd's mempool");
            Thread.sleep(50);
        }
    }

    /**
     * Waits until {@code w} holds {@code p} as a pending transaction (bitcoinj delivers it on a peer's thread); the
     * adapter-synced wallet is read on its own thread, under its own {@link Context}, the reference on this one.
     */
    private void awaitPending(Wallet w, Payment p) throws Exception {
        Callable<TransactionConfidence.ConfidenceType> type = () -> {
            Transaction tx = w.getTransaction(p.txid());
            return tx == null ? null : tx.getConfidence().getConfidenceType();
        };
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            TransactionConfidence.ConfidenceType t = w == referenceWallet ? type.call() : on(type);
            if (t != null) {
                assertEquals(TransactionConfidence.ConfidenceType.PENDING, t, "payment " + p.txid());
                return;
            }
            assertTrue(System.nanoTime() < deadline, "payment " + p.txid() + " not pending in " + DEADLINE);
            Thread.sleep(50);
        }
    }

    /** Waits until the mempool link has a peer and has sent it bitcoinj's Bloom filter. */
    private void awaitFilterLoaded() throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            List<Peer> linked = adapter.mempoolPeers();
            if (!linked.isEmpty() && linked.stream().allMatch(p -> p.getBloomFilter() != null)) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "the mempool link loaded no filter in " + DEADLINE);
            Thread.sleep(50);
        }
    }

    /** btcd's peers with bitcoinj's user agent (the reference, and the adapter's mempool link when it has one). */
    private long bitcoinjPeersOfBtcd() {
        long n = 0;
        for (com.fasterxml.jackson.databind.JsonNode peer :
                chain.node().rpcClient().call("getpeerinfo")) {
            if (peer.path("subver").asText().contains(BITCOINJ_SUBVER)) {
                n++;
            }
        }
        return n;
    }

    /** The reference: bitcoinj's BlockChain over its SPVBlockStore, and a PeerGroup with one btcd peer (BIP 37). */
    private void startReference(Wallet reference) throws Exception {
        referenceWallet = reference;
        referenceStore = new SPVBlockStore(
                RegtestNode.PARAMS, dir.resolve("reference.spvchain").toFile());
        referenceChain = new BlockChain(RegtestNode.PARAMS, reference, referenceStore);
        connectReference(reference);
    }

    private void reconnectReference(Wallet reference) throws InterruptedException {
        disconnectReference(reference);
        connectReference(reference);
    }

    private void disconnectReference(Wallet reference) {
        peers.stop();
        peers.removeWallet(reference);
    }

    /**
     * Connects the reference to btcd and waits until its chain has reached btcd's tip. A download that stalls (the
     * orphan-branch case {@link #reconnectReference} is for can strike again on the new connection) is retried on a
     * new connection, as a bitcoinj application does; bitcoinj's own {@code downloadBlockChain} would wait forever.
     */
    private void connectReference(Wallet reference) throws InterruptedException {
        Sha256Hash tip = node.tipHash();
        for (int attempt = 1; ; attempt++) {
            peers = new PeerGroup(RegtestNode.PARAMS, referenceChain);
            VersionMessage version = peers.getVersionMessage();
            version.clientVersion = Math.max(version.clientVersion, SENDADDRV2_PROTOCOL_VERSION);
            peers.setVersionMessage(version);
            peers.addAddress(PeerAddress.simple(node.p2pAddress().orElseThrow()));
            peers.setMaxConnections(1); // after addAddress, which raises it: one peer must be "more than half"
            peers.addWallet(reference);
            peers.start();
            peers.startBlockChainDownload(new DownloadProgressTracker());
            if (referenceReaches(tip, STALL)) {
                return;
            }
            assertTrue(
                    attempt < CONNECT_ATTEMPTS,
                    "bitcoinj's BIP 37 download stalled below " + tip + " on " + CONNECT_ATTEMPTS + " connections, "
                            + STALL + " each");
            disconnectReference(reference);
        }
    }

    /**
     * Waits until both wallets' chains have reached btcd's tip (the reference by its peer; the adapter's after our
     * server indexes it and the adapter syncs), then asserts they are the same; returns the state they agree on.
     */
    private Map<String, Object> agree(Wallet reference, Wallet adapted) throws Exception {
        return agree(reference, adapted, false);
    }

    private boolean inTip(Transaction tx) {
        return node.block(node.tipHash()).orElseThrow().getTransactions().stream()
                .anyMatch(t -> t.getTxId().equals(tx.getTxId()));
    }

    /**
     * As {@link #agree(Wallet, Wallet)}; with {@code ownPending}, one wallet holds a pending transaction it created
     * and the other only saw in a block that left the chain. bitcoinj counts the change of a pending transaction as
     * {@code AVAILABLE} only for the wallet that created it (confidence source SELF), so those two balance types
     * are left out; the transactions, their confidence and the estimated balances must still be the same.
     */
    private Map<String, Object> agree(Wallet reference, Wallet adapted, boolean ownPending) throws Exception {
        Sha256Hash tip = node.tipHash();
        server.reindex();
        FilterSync.Report r = on(() -> adapter.sync(List.of(rest, p2p)));
        assertEquals(tip, r.tipHash(), "adapter reached btcd's tip");
        assertTrue(r.faults().isEmpty(), r.faults().toString());
        assertEquals(List.of(rest.name(), p2p.name()), r.sourcesUsed(), "both sources agreed throughout");
        awaitReference(tip);
        Map<String, Object> expected = state(reference, ownPending);
        Map<String, Object> actual = on(() -> state(adapted, ownPending));
        assertEquals(expected, actual, "adapter-synced wallet against bitcoinj's own BIP 37 sync");
        return expected;
    }

    /**
     * Waits until the reference's chain has reached {@code tip}: bitcoinj's chain head, not the wallet's last seen
     * block, which after a reorg stays at the old head until the next block (in both wallets alike, which the
     * comparison checks).
     */
    private void awaitReference(Sha256Hash tip) throws InterruptedException {
        assertTrue(referenceReaches(tip, DEADLINE), "bitcoinj's BIP 37 sync did not reach " + tip + " in " + DEADLINE);
    }

    /** Whether the reference's chain head becomes {@code tip} within {@code wait}. */
    private boolean referenceReaches(Sha256Hash tip, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!tip.equals(referenceChain.getChainHead().getHeader().getHash())) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    /** What the comparison covers: every transaction's confidence, every balance type, the last-seen block. */
    private static Map<String, Object> state(Wallet w, boolean ownPending) {
        Map<String, Object> out = new TreeMap<>();
        Map<String, String> txs = new TreeMap<>();
        for (Transaction tx : w.getTransactions(true)) {
            TransactionConfidence c = tx.getConfidence();
            String s = c.getConfidenceType().name();
            if (c.getConfidenceType() == TransactionConfidence.ConfidenceType.BUILDING) {
                s += "@" + c.getAppearedAtChainHeight();
            }
            txs.put(tx.getTxId().toString(), s);
            out.put("value " + tx.getTxId(), tx.getValue(w));
        }
        out.put("transactions", txs);
        Map<Wallet.BalanceType, Coin> balances = new EnumMap<>(Wallet.BalanceType.class);
        for (Wallet.BalanceType t : Wallet.BalanceType.values()) {
            if (!ownPending || t == Wallet.BalanceType.ESTIMATED || t == Wallet.BalanceType.ESTIMATED_SPENDABLE) {
                balances.put(t, w.getBalance(t));
            }
        }
        out.put("balances", balances);
        out.put("last seen", w.getLastBlockSeenHeight() + " " + w.getLastBlockSeenHash());
        return out;
    }

    private <T> T on(Callable<T> work) throws Exception {
        try {
            return adapterThread.submit(work).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception ex) {
                throw ex;
            }
            throw e;
        }
    }

    /** A bitcoinj wallet of the test mnemonic with a P2PKH and a P2WPKH chain (BIP 43 paths). */
    private static Wallet wallet() {
        DeterministicSeed seed = DeterministicSeed.ofMnemonic(MNEMONIC, "", BIRTH);
        KeyChainGroup group = KeyChainGroup.builder(BitcoinNetwork.REGTEST, KeyChainGroupStructure.BIP43)
                .fromSeed(seed, ScriptType.P2PKH)
                .fromSeed(seed, ScriptType.P2WPKH)
                .build();
        return new Wallet(BitcoinNetwork.REGTEST, group);
    }

    /** Receive address {@code index} of the {@code type} chain, derived in a third wallet (neither synced one learns it). */
    private static Address receiving(ScriptType type, int index) {
        DeterministicKeyChain c = wallet().getActiveKeyChains().stream()
                .filter(k -> k.getOutputScriptType() == type)
                .findFirst()
                .orElseThrow();
        return c.getKeyByPath(c.getAccountPath().extend(ChildNumber.ZERO, new ChildNumber(index)), true)
                .toAddress(type, BitcoinNetwork.REGTEST);
    }
}
