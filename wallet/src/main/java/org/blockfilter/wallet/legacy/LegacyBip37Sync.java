package org.blockfilter.wallet.legacy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.BlockChain;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.Context;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.core.Peer;
import org.bitcoinj.core.PeerAddress;
import org.bitcoinj.core.PeerGroup;
import org.bitcoinj.core.VersionMessage;
import org.bitcoinj.core.listeners.DownloadProgressTracker;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.Script;
import org.bitcoinj.store.BlockStoreException;
import org.bitcoinj.store.SPVBlockStore;
import org.bitcoinj.wallet.Wallet;

/**
 * Syncs a set of keys and watched scripts the bitcoinj way: a bitcoinj {@link Wallet} holding
 * them, a {@link BlockChain} over an {@link SPVBlockStore} in a temporary file, and a {@link
 * PeerGroup} with one peer that loads the wallet's Bloom filter ({@code filterload}) and
 * downloads {@code merkleblock}s and matched transactions from genesis to the peer's tip.
 * Records every filtered block and the transactions its partial merkle tree matched, so a
 * caller with ground truth can count false positives. Messages bitcoinj does not know ({@code
 * sendcmpct}, {@code wtxidrelay}, {@code sendtxrcncl}...) are ignored ({@link UnknownMessages}).
 *
 * <p>Stateless; each {@link #sync} builds and tears down its own wallet, chain and store (the
 * store file is deleted).
 */
public final class LegacyBip37Sync {
    private LegacyBip37Sync() {}

    /** BIP 155: sendaddrv2 belongs to protocol 70016 and later. */
    private static final int SENDADDRV2_PROTOCOL_VERSION = 70016;

    /**
     * What one sync saw.
     *
     * @param tipHeight        the chain height bitcoinj reached
     * @param elapsed          wall time from starting the peer group to the end of the download
     * @param filteredBlocks   merkleblocks received
     * @param matchedByBlock   for each merkleblock with matches, the txids its partial merkle tree matched (in order)
     * @param walletTxs        transactions the bitcoinj wallet considers relevant at the end
     */
    public record Result(
            int tipHeight,
            Duration elapsed,
            int filteredBlocks,
            Map<Sha256Hash, List<Sha256Hash>> matchedByBlock,
            int walletTxs) {
        public Result {
            matchedByBlock = Map.copyOf(matchedByBlock);
        }
    }

    /**
     * Syncs from genesis against {@code peer}, which must serve BIP 37 (NODE_BLOOM).
     *
     * @param keys           keys whose P2PKH / P2WPKH / P2PK outputs bitcoinj matches by pubkey and pubkey hash
     * @param watchedScripts further scripts (P2SH, P2WSH, P2TR...) bitcoinj matches by their pushes
     * @param falsePositiveRate the Bloom filter's target rate (bitcoinj's default is {@link PeerGroup#DEFAULT_BLOOM_FILTER_FP_RATE})
     * @throws IllegalStateException when the download does not finish within {@code timeout}
     */
    public static Result sync(
            NetworkParameters params,
            InetSocketAddress peer,
            List<ECKey> keys,
            List<Script> watchedScripts,
            double falsePositiveRate,
            Duration timeout) {
        Objects.requireNonNull(peer, "peer");
        Wallet wallet = walletOf(params, keys, watchedScripts);
        Path storeFile = null;
        SPVBlockStore store = null;
        PeerGroup group = null;
        try {
            storeFile = Files.createTempFile("blockfilter-spv-", ".store");
            Files.delete(storeFile); // SPVBlockStore creates it with its own layout
            store = new SPVBlockStore(params, storeFile.toFile());
            BlockChain chain = new BlockChain(params, wallet, store);
            group = UnknownMessages.peerGroup(params, chain, falsePositiveRate);
            group.setUserAgent("blockfilter-legacy", "0.1");
            // bitcoinj 0.17.1 announces protocol 70013 yet sends sendaddrv2, which BIP 155 allows
            // only from 70016; btcd drops such peers. The messages bitcoinj uses are unchanged
            // between 70013 and 70016 (wtxidrelay, which it does not send, is optional).
            VersionMessage version = group.getVersionMessage();
            version.clientVersion = Math.max(version.clientVersion, SENDADDRV2_PROTOCOL_VERSION);
            group.setVersionMessage(version);
            group.setBloomFilterFalsePositiveRate(falsePositiveRate);
            group.addAddress(PeerAddress.simple(peer));
            // After addAddress, which raises the maximum by one: with 2, one peer is not "more than
            // half" and PeerGroup never picks a download peer.
            group.setMaxConnections(1);
            group.addWallet(wallet);
            Map<Sha256Hash, List<Sha256Hash>> matched = new LinkedHashMap<>();
            int[] filtered = {0};
            // Records each block before the tracker sees it: the download's end completes the tracker's
            // future, and a separate listener could still be recording the last block when it does.
            DownloadProgressTracker tracker = new DownloadProgressTracker() {
                @Override
                public void onBlocksDownloaded(Peer p, Block block, FilteredBlock fb, int left) {
                    record(fb, matched, filtered);
                    super.onBlocksDownloaded(p, block, fb, left);
                }
            };
            // Before start: PeerGroup only kicks off the download for a peer that connects after it is set.
            group.startBlockChainDownload(tracker);
            long t0 = System.nanoTime();
            group.start();
            tracker.getFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - t0);
            synchronized (matched) {
                return new Result(
                        chain.getBestChainHeight(),
                        elapsed,
                        filtered[0],
                        matched,
                        wallet.getTransactions(false).size());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("BIP 37 download from " + peer + " did not finish within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | IOException | BlockStoreException e) {
            throw new IllegalStateException("BIP 37 sync from " + peer + " failed: " + e, e);
        } finally {
            if (group != null) {
                group.stop();
            }
            if (store != null) {
                try {
                    store.close();
                } catch (BlockStoreException e) {
                    // The store is a temporary file we delete next.
                }
            }
            if (storeFile != null) {
                try {
                    Files.deleteIfExists(storeFile);
                } catch (IOException e) {
                    // Best effort on a temporary file.
                }
            }
        }
    }

    /**
     * The Bloom filter bitcoinj's wallet would load for these keys and scripts (what {@code
     * PeerGroup} sends as {@code filterload} before any transaction is known), for our server's
     * BIP 37 endpoint.
     */
    public static BloomFilter bloomFilter(
            NetworkParameters params, List<ECKey> keys, List<Script> watchedScripts, double falsePositiveRate) {
        return walletOf(params, keys, watchedScripts).getBloomFilter(falsePositiveRate);
    }

    private static Wallet walletOf(NetworkParameters params, List<ECKey> keys, List<Script> watchedScripts) {
        Context.propagate(new Context());
        Wallet wallet = Wallet.createBasic(params);
        // Copies without a creation time: bitcoinj would otherwise skip ("fast catchup") blocks before it.
        List<ECKey> copies = new ArrayList<>();
        for (ECKey k : keys) {
            copies.add(k.hasPrivKey() ? ECKey.fromPrivate(k.getPrivKey(), k.isCompressed()) : ECKey.fromPublicOnly(k));
        }
        wallet.importKeys(copies);
        if (!watchedScripts.isEmpty()) {
            wallet.addWatchedScripts(watchedScripts);
        }
        return wallet;
    }

    private static void record(FilteredBlock fb, Map<Sha256Hash, List<Sha256Hash>> matched, int[] filtered) {
        if (fb == null) {
            return;
        }
        synchronized (matched) {
            filtered[0]++;
            List<Sha256Hash> txids = fb.getTransactionHashes();
            if (!txids.isEmpty()) {
                matched.put(fb.getHash(), List.copyOf(txids));
            }
        }
    }
}
