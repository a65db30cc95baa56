package org.blockfilter.bitcoinj;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.BlockChain;
import org.bitcoinj.core.Context;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.core.Peer;
import org.bitcoinj.core.PeerGroup;
import org.bitcoinj.core.PrunedException;
import org.bitcoinj.core.StoredBlock;
import org.bitcoinj.core.VerificationException;
import org.bitcoinj.store.BlockStoreException;
import org.bitcoinj.store.SPVBlockStore;
import org.bitcoinj.wallet.Wallet;
import org.blockfilter.bitcoinj.internal.MempoolLink;
import org.blockfilter.bitcoinj.internal.WalletTarget;
import org.blockfilter.filters.BasicFilter;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.chain.HeaderCheckpoint;
import org.blockfilter.wallet.ChainStart;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.sync.FetchPolicy;
import org.blockfilter.wallet.sync.SourceFault;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncException;
import org.blockfilter.wallet.sync.SyncProgress;

/**
 * Keeps an unmodified bitcoinj {@link Wallet} in step with the chain from BIP 157/158 sources (our
 * REST server, a static export, any BIP 157 peer: {@link ChainSource}s), with the verification and
 * liar handling of our own wallet ({@link SyncEngine}: headers checked and compared, filter headers
 * linked and compared across sources and settled by the block, filters checked against them, blocks
 * against their headers; a source that lies is dropped).
 *
 * <p>bitcoinj's own {@link BlockChain} over its {@link SPVBlockStore} does the rest, as it does for
 * its Bloom-filter sync: the adapter matches each verified filter against {@link WalletScripts} and
 * hands the chain the full block when it matches and the header when it does not, block by block in
 * height order, so best block, confirmations, spends and reorgs (a branch that overtakes bitcoinj's
 * head, fed from where the two meet) are bitcoinj's logic. After every block that matched, the
 * wallet's scripts are read again before the next filter is matched: a payment that moves the
 * look-ahead window is followed by blocks matched against the new window, as bitcoinj's {@code
 * PeerGroup} recalculates its Bloom filter from the block that exhausted it.
 *
 * <p>Persistence is bitcoinj's: the block store file, and the wallet file (when given) written with
 * {@link Wallet#saveToFile} after each batch of at most {@link Bip157#MAX_CFILTERS} blocks and on
 * {@link #close()}; an application that uses {@link Wallet#autosaveToFile} instead passes no file.
 * A restart resumes from where bitcoinj's chain is (the verified header and filter-header chains are
 * kept in memory and verified again from the base checkpoint).
 *
 * <p>Filters cover blocks, not the mempool: by default a transaction the wallet sends ({@link
 * Wallet#commitTx}) is pending until its block is scanned, and payments to the wallet appear when
 * they confirm. {@link Options#withMempoolPeers} adds, off by default, a BIP 37 link for
 * unconfirmed transactions only; read its privacy cost there.
 *
 * <p>Not thread-safe: one {@link #sync} at a time, and no other chain may feed the same wallet and
 * store meanwhile. Arguments must not be null except where documented.
 */
public final class FilterSync implements AutoCloseable {
    private final Chain chain;
    private final Wallet wallet;
    private final Path walletFile;
    private final SPVBlockStore store;
    private final BlockChain blockChain;
    private final WalletTarget target;
    /** The BIP 37 link for unconfirmed transactions; null unless asked for. */
    private final MempoolLink mempool;

    private FilterSync(
            Chain chain, Wallet wallet, Path walletFile, SPVBlockStore store, HeaderCheckpoint base, Options options)
            throws BlockStoreException {
        this.chain = chain;
        this.wallet = wallet;
        this.walletFile = walletFile;
        this.store = store;
        this.blockChain = new BlockChain(NetworkParameters.of(wallet.network()), wallet, store);
        this.target = new WalletTarget(chain, wallet, base, store.getChainHead().getHeight());
        this.mempool = options.mempoolPeers().isEmpty()
                ? null
                : MempoolLink.start(wallet, options.mempoolPeers(), options.bloomFalsePositiveRate());
    }

    /**
     * How a {@link FilterSync} is opened; immutable. {@link #DEFAULT}: compact filters only, no BIP 37 connection.
     *
     * <p><b>The mempool link</b> ({@link #withMempoolPeers}, off by default) is the combination bitcoinj's
     * maintainers proposed for unconfirmed transactions: blocks and confirmations still come only from the
     * compact filters, while bitcoinj's own BIP 37 client (a {@link PeerGroup} without a block chain, so it
     * downloads no block) connects to the given peers, loads a Bloom filter of the wallet's keys and scripts
     * ({@code filterload}), asks for their mempool ({@code mempool}) and fetches announced transactions, which reach
     * the wallet as bitcoinj delivers them ({@code Wallet.receivePending}): pending, counted in {@code
     * BalanceType.ESTIMATED} and not in {@code AVAILABLE}. When such a transaction's block is scanned it becomes
     * {@code BUILDING}, the same transaction, not a second one. bitcoinj recalculates and resends the filter when
     * the wallet adds keys (its look-ahead moves) or scripts.
     *
     * <p><b>Its privacy cost.</b> Each mempool peer learns what a BIP 37 sync tells it: the Bloom filter gives
     * away the wallet's addresses as in BIP 37 sync (the privacy lab's experiments 1 and 4 measure how few false
     * positives hide them at bitcoinj's rate), and every transaction it relays and the wallet then fetches is one
     * of the wallet's. That is most of what compact filters protect, for as long as the link is open. As in
     * bitcoinj's own sync, {@code PeerGroup.addWallet} makes the link the wallet's transaction broadcaster: its
     * pending transactions are sent to the peers when the link starts, and {@code Wallet.sendCoins} sends
     * through it, so the peers also see the wallet's own payments come from its connection. A
     * trusted node of your own as the only peer removes the cost; Tor would hide the wallet's IP address from
     * the peer but not which addresses and transactions are the wallet's (the link has no proxy setting: it
     * connects directly). Mempool contents from a peer are not
     * verified: a peer can withhold or invent unconfirmed transactions, which bitcoinj shows as pending and
     * which only a block confirms.
     *
     * @param mempoolPeers           peers for the BIP 37 mempool link (BIP 37 nodes, e.g. Bitcoin Core with
     *     {@code -peerbloomfilters} or btcd); empty for none, the default
     * @param bloomFalsePositiveRate the Bloom filter's false-positive rate, in (0, 1); bitcoinj's own default
     *     ({@link PeerGroup#DEFAULT_BLOOM_FILTER_FP_RATE}, 0.00001) unless changed, the filter bitcoinj's own BIP
     *     37 sync sends. A higher rate puts more strangers' addresses beside the wallet's (the privacy lab's
     *     experiment 1), costs the bandwidth of every false-positive mempool transaction, and does not hide an
     *     address that has spent (its public key and hash must both match: experiments 3 and 4)
     */
    public record Options(List<InetSocketAddress> mempoolPeers, double bloomFalsePositiveRate) {
        /** Compact filters only: no mempool link; bitcoinj's default Bloom false-positive rate if one is added. */
        public static final Options DEFAULT = new Options(List.of(), PeerGroup.DEFAULT_BLOOM_FILTER_FP_RATE);

        /**
         * Copies the list; checks the rate.
         *
         * @throws IllegalArgumentException when the rate is not in (0, 1)
         */
        public Options {
            mempoolPeers = List.copyOf(mempoolPeers);
            if (!(bloomFalsePositiveRate > 0 && bloomFalsePositiveRate < 1)) {
                throw new IllegalArgumentException(
                        "Bloom filter false-positive rate " + bloomFalsePositiveRate + " is not between 0 and 1");
            }
        }

        /**
         * These options with the BIP 37 mempool link to {@code peers} (empty: no link); read its privacy cost in
         * {@link Options}.
         */
        public Options withMempoolPeers(List<InetSocketAddress> peers) {
            return new Options(peers, bloomFalsePositiveRate);
        }

        /** These options with the mempool link's Bloom filter at {@code rate}. */
        public Options withBloomFalsePositiveRate(double rate) {
            return new Options(mempoolPeers, rate);
        }
    }

    /**
     * Opens (or creates) bitcoinj's block store at {@code blockStore} and a {@link BlockChain} over it feeding
     * {@code wallet}. A new store starts at the highest checkpoint shipped for the network that is more than two
     * hours older than the wallet's earliest key (genesis when there is none); an existing one resumes, its head
     * moved back to the wallet's last seen block when the wallet file was saved before the store (a crash between
     * the two). {@code walletFile} may be null: the application saves the wallet itself.
     *
     * @throws IllegalStateException when the store cannot be opened or does not hold the wallet's last seen block
     */
    public static FilterSync open(Wallet wallet, Path walletFile, Path blockStore) {
        return open(wallet, walletFile, blockStore, Options.DEFAULT);
    }

    /**
     * As {@link #open(Wallet, Path, Path)}, with {@code options}: when they name mempool peers, the BIP 37 link
     * starts connecting to them now, in the calling thread's bitcoinj {@code Context} (the wallet's), and stops on
     * {@link #close()}; a peer that is silent, absent or disconnects leaves the filter sync as it is.
     *
     * @throws IllegalStateException when the store cannot be opened or does not hold the wallet's last seen block
     */
    public static FilterSync open(Wallet wallet, Path walletFile, Path blockStore, Options options) {
        Context.getOrCreate();
        Chain chain = Chain.ofBitcoinj((BitcoinNetwork) wallet.network());
        List<HeaderCheckpoint> shipped = ChainStart.shipped(chain);
        boolean fresh = !Files.exists(blockStore);
        try {
            SPVBlockStore store = new SPVBlockStore(NetworkParameters.of(wallet.network()), blockStore.toFile());
            try {
                if (fresh) {
                    startAtCheckpoint(store, chain, shipped, wallet);
                } else {
                    resumeAtWallet(store, wallet, shipped, blockStore);
                }
                int head = store.getChainHead().getHeight();
                HeaderCheckpoint base = shipped.stream()
                        .filter(c -> c.height() <= head)
                        .reduce((a, b) -> b.height() > a.height() ? b : a)
                        .orElse(chain.genesisCheckpoint());
                return new FilterSync(chain, wallet, walletFile, store, base, options);
            } catch (BlockStoreException | RuntimeException e) {
                store.close();
                throw e;
            }
        } catch (BlockStoreException e) {
            throw new IllegalStateException("bitcoinj block store " + blockStore + ": " + e.getMessage(), e);
        }
    }

    private static void startAtCheckpoint(
            SPVBlockStore store, Chain chain, List<HeaderCheckpoint> shipped, Wallet wallet)
            throws BlockStoreException {
        long keys = wallet.earliestKeyCreationTime().getEpochSecond();
        HeaderCheckpoint c = keys > 0
                ? ChainStart.baseFor(chain, shipped, LightWallet.Birthday.ofTime(keys))
                : chain.genesisCheckpoint();
        if (c.height() > 0) {
            StoredBlock b = new StoredBlock(Block.read(ByteBuffer.wrap(c.header())), c.chainWork(), c.height());
            store.put(b);
            store.setChainHead(b);
        }
    }

    private static void resumeAtWallet(SPVBlockStore store, Wallet wallet, List<HeaderCheckpoint> shipped, Path file)
            throws BlockStoreException {
        StoredBlock head = store.getChainHead();
        Sha256Hash seen = wallet.getLastBlockSeenHash();
        if (seen == null) {
            Set<Sha256Hash> starts = new HashSet<>();
            shipped.forEach(c -> starts.add(c.hash()));
            if (head.getHeight() > 0 && !starts.contains(head.getHeader().getHash())) {
                throw new IllegalStateException("bitcoinj block store " + file + " is at height " + head.getHeight()
                        + " but the wallet has seen no block: delete the block store to scan again");
            }
        } else if (!seen.equals(head.getHeader().getHash())) {
            StoredBlock at = store.get(seen);
            if (at == null) {
                throw new IllegalStateException("bitcoinj block store " + file + " does not hold the wallet's last"
                        + " seen block " + seen + ": delete the block store to scan again");
            }
            store.setChainHead(at);
        }
    }

    /**
     * What one {@link #sync} did.
     *
     * @param height         the height of bitcoinj's best block after the sync
     * @param tipHash        the hash of that block
     * @param filtersScanned filters matched against the wallet's scripts
     * @param matchedBlocks  blocks whose filter matched and which were handed to bitcoinj in full
     * @param faults         the sources found lying or failing, and why
     * @param sourcesUsed    the sources still live at the end
     */
    public record Report(
            int height,
            Sha256Hash tipHash,
            int filtersScanned,
            int matchedBlocks,
            List<SourceFault> faults,
            List<String> sourcesUsed) {
        /** Copies the lists. */
        public Report {
            faults = List.copyOf(faults);
            sourcesUsed = List.copyOf(sourcesUsed);
        }
    }

    /** {@link #sync(List, FetchPolicy, SyncProgress.Listener)} with the default fetch policy and no progress. */
    public Report sync(List<? extends ChainSource> sources) {
        return sync(sources, FetchPolicy.DEFAULT, null);
    }

    /**
     * Syncs to the best tip the sources can prove: verifies headers, checkpoints and filter headers against every
     * source, then scans the filters from where bitcoinj's chain meets the verified chain up to the filter-header
     * tip, feeding bitcoinj block by block, and saves the wallet after each batch.
     *
     * @param policy   how matched blocks are downloaded ({@link FetchPolicy}; decoys are not fetched here)
     * @param listener progress of the verification phases; may be null
     * @throws SyncException when no honest source is left or a dispute cannot be settled; bitcoinj keeps what it
     *     was fed before
     */
    public Report sync(List<? extends ChainSource> sources, FetchPolicy policy, SyncProgress.Listener listener) {
        Context.getOrCreate();
        SyncEngine engine = new SyncEngine(
                target,
                sources,
                SyncEngine.Options.defaults().withListener(listener).withFetchPolicy(policy));
        engine.syncChains();
        int from = meetingHeight() + 1;
        int tip = target.filterHeaders().tipHeight();
        if (from <= tip && from < target.filterHeaders().base()) {
            throw new SyncException(
                    "bitcoinj's chain leaves the verified chain at height " + (from - 1)
                            + ", below the verified filter headers (from "
                            + target.filterHeaders().base() + ")",
                    engine.faults());
        }
        int scanned = 0;
        int matched = 0;
        for (int start = from; start <= tip; ) {
            int stop = Math.min(tip, start + Bip157.MAX_CFILTERS - 1);
            List<BasicFilter> filters = engine.verifiedFilters(start, stop);
            List<byte[]> watched = target.watchedScripts();
            for (int h = start; h <= stop; h++) {
                BasicFilter f = filters.get(h - start);
                if (f.matchAny(watched)) {
                    feed(engine.matchedBlock(h, f), h);
                    matched++;
                    watched = target.watchedScripts(); // the look-ahead may have moved: match what follows with it
                } else {
                    feed(target.headers().header(h).cloneAsHeader(), h);
                }
            }
            scanned += filters.size();
            target.setScanned(stop);
            save();
            start = stop + 1;
        }
        StoredBlock head = blockChain.getChainHead();
        return new Report(
                head.getHeight(), head.getHeader().getHash(), scanned, matched, engine.faults(), engine.liveSources());
    }

    private void feed(Block block, int height) {
        try {
            if (!blockChain.add(block)) {
                throw new IllegalStateException(
                        "bitcoinj did not connect block " + block.getHash() + " at height " + height);
            }
        } catch (VerificationException | PrunedException e) {
            throw new IllegalStateException(
                    "bitcoinj refused verified block " + block.getHash() + " at height " + height + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /** The highest block of bitcoinj's chain that is on the verified chain (bitcoinj's head unless a reorg left it). */
    private int meetingHeight() {
        try {
            StoredBlock b = blockChain.getChainHead();
            while (b != null && b.getHeight() >= target.headers().baseHeight()) {
                int h = b.getHeight();
                if (h <= target.headers().tipHeight()
                        && target.headers().hash(h).equals(b.getHeader().getHash())) {
                    return h;
                }
                b = b.getPrev(store);
            }
        } catch (BlockStoreException e) {
            throw new IllegalStateException("bitcoinj block store: " + e.getMessage(), e);
        }
        throw new IllegalStateException("bitcoinj's chain does not meet the verified chain above its base at height "
                + target.headers().baseHeight() + ": delete the block store to scan again");
    }

    /** Writes the wallet file (when one was given) with bitcoinj's {@link Wallet#saveToFile}. */
    public void save() {
        if (walletFile == null) {
            return;
        }
        try {
            wallet.saveToFile(walletFile.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("saving the bitcoinj wallet to " + walletFile, e);
        }
    }

    /** The network the wallet is on. */
    public Chain chain() {
        return chain;
    }

    /** The bitcoinj wallet this adapter feeds. */
    public Wallet wallet() {
        return wallet;
    }

    /** bitcoinj's block chain over its block store: best block, heights and reorgs as bitcoinj keeps them. */
    public BlockChain blockChain() {
        return blockChain;
    }

    /** The mempool link's peers connected now (handshake done); empty when there is no link. */
    public List<Peer> mempoolPeers() {
        return mempool == null ? List.of() : mempool.connectedPeers();
    }

    /** Stops the mempool link (when there is one), saves the wallet (when a file was given), closes the block store. */
    @Override
    public void close() {
        try {
            if (mempool != null) {
                mempool.close();
            }
            save();
        } finally {
            try {
                store.close();
            } catch (BlockStoreException e) {
                throw new IllegalStateException("closing the bitcoinj block store: " + e.getMessage(), e);
            }
        }
    }
}
