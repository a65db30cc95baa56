package org.blockfilter.server.p2p.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.Bip157;
import org.blockfilter.filters.Bip158;
import org.blockfilter.filters.p2p.Message;
import org.blockfilter.filters.p2p.ProtocolLimits;
import org.blockfilter.server.node.BlockCache;
import org.blockfilter.server.node.NodeException;
import org.blockfilter.server.node.NodeGateway;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.read.IndexedFilter;
import org.blockfilter.server.store.ChainTip;

/**
 * Answers the requests of a BIP 157 node from the filter index, the way Bitcoin Core's
 * net_processing does: {@code getheaders} (block locator, 2000 headers, the stop hash included),
 * {@code getcfilters} (1000), {@code getcfheaders} (2000), {@code getcfcheckpt}, and {@code
 * getdata} for blocks (fetched from the node through a bounded cache) and for transactions
 * relayed through us. The header chain we serve is the indexed chain, so every header a peer gets
 * from us has its filter here. A request Core disconnects for (unsupported filter type, unknown
 * stop hash, start above stop, too many blocks, locator above 101 hashes) is a {@link Violation};
 * a stop hash that we know but that is not (or not yet) on the indexed best chain gets no answer,
 * as Core does when its filter index lacks a block. No sockets; thread-safe.
 */
public final class Bip157Responder {
    /** Core's MAX_HEADERS_RESULTS. */
    public static final int MAX_HEADERS = ProtocolLimits.MAX_HEADERS_RESULTS;
    /** Core's MAX_BLOCKS_TO_ANNOUNCE: more new blocks than this are announced by inv of the tip. */
    public static final int MAX_BLOCKS_TO_ANNOUNCE = 8;
    /** Inventory type of a transaction by wtxid (BIP 339). */
    public static final int MSG_WTX = Message.MSG_WTX;

    private final FilterIndexReader index;
    private final NodeGateway node;
    private final BlockCache blocks;
    private final RelayedTxs relayed;

    public Bip157Responder(FilterIndexReader index, NodeGateway node, BlockCache blocks, RelayedTxs relayed) {
        this.index = Objects.requireNonNull(index, "index");
        this.node = Objects.requireNonNull(node, "node");
        this.blocks = Objects.requireNonNull(blocks, "blocks");
        this.relayed = Objects.requireNonNull(relayed, "relayed");
    }

    /** Height of the indexed tip, for our {@code version}'s start height. */
    public int tipHeight() {
        return index.tip().height();
    }

    /**
     * The headers after the first locator hash on our best chain (after genesis when none is),
     * up to 2000 or the stop hash; empty locator: the stop hash's header alone, if we have it.
     */
    public Optional<Message.Headers> headers(Message.GetHeaders g) {
        if (g.locator().size() > ProtocolLimits.MAX_LOCATOR_SZ) {
            throw Violation.disconnect(
                    "locator_too_large",
                    "getheaders locator of " + g.locator().size() + " hashes exceeds " + ProtocolLimits.MAX_LOCATOR_SZ);
        }
        if (g.locator().isEmpty()) {
            if (index.heightOf(g.stopHash()).isEmpty()) {
                return Optional.empty();
            }
            return index.blockHeader(g.stopHash()).map(h -> new Message.Headers(List.of(h)));
        }
        int fork = 0;
        for (Sha256Hash h : g.locator()) {
            OptionalInt height = index.heightOf(h);
            if (height.isPresent()) {
                fork = height.getAsInt();
                break;
            }
        }
        int tip = index.tip().height();
        List<byte[]> headers = new ArrayList<>();
        for (int h = fork + 1; h <= tip && headers.size() < MAX_HEADERS; h++) {
            Optional<Sha256Hash> hash = index.hashAt(h);
            Optional<byte[]> header = hash.flatMap(index::blockHeader);
            if (header.isEmpty()) {
                break; // the chain shrank under us (reorg): the peer asks again
            }
            headers.add(header.get());
            if (hash.get().equals(g.stopHash())) {
                break;
            }
        }
        return Optional.of(new Message.Headers(headers));
    }

    /** Where answers go: the peer's outbox, waiting while it is full. */
    @FunctionalInterface
    public interface Sink {
        void send(Message m) throws InterruptedException;
    }

    /**
     * Sends one {@code cfilter} per block of the range (BIP 157), each as it is read from one
     * snapshot of the index, so a request holds one filter and the peer's bounded outbox, not
     * up to 1000 filters. The index cursor (and a store's read lock) is held until the last one
     * is queued: for as long as the peer's outbox stays full, at most the write timeout.
     */
    public void cfilters(Message.GetCFilters g, Sink out) throws InterruptedException {
        if (!checkRange("getcfilters", g.filterType(), g.startHeight(), g.stopHash(), Bip157.MAX_CFILTERS)) {
            return;
        }
        Optional<FilterIndexReader.RangeCursor> range = index.openRange((int) g.startHeight(), g.stopHash());
        if (range.isEmpty()) {
            return;
        }
        try (FilterIndexReader.RangeCursor filters = range.get()) {
            while (filters.hasNext()) {
                IndexedFilter f = filters.next();
                out.send(new Message.CFilter(g.filterType(), f.blockHash(), f.filter()));
            }
        }
    }

    public Optional<Message.CFHeaders> cfheaders(Message.GetCFHeaders g) {
        if (!checkRange("getcfheaders", g.filterType(), g.startHeight(), g.stopHash(), Bip157.MAX_CFHEADERS)) {
            return Optional.empty();
        }
        return index.range((int) g.startHeight(), g.stopHash())
                .filter(l -> !l.isEmpty())
                .map(fs -> new Message.CFHeaders(
                        g.filterType(),
                        g.stopHash(),
                        fs.get(0).prevHeader(),
                        fs.stream().map(IndexedFilter::filterHash).toList()));
    }

    public Optional<Message.CFCheckpt> cfcheckpt(Message.GetCFCheckpt g) {
        OptionalInt stop = stopHeight("getcfcheckpt", g.filterType(), g.stopHash());
        if (stop.isEmpty()) {
            return Optional.empty();
        }
        List<Sha256Hash> headers = new ArrayList<>();
        for (int h = Bip157.CHECKPOINT_INTERVAL; h <= stop.getAsInt(); h += Bip157.CHECKPOINT_INTERVAL) {
            Optional<IndexedFilter> f = index.hashAt(h).flatMap(index::filter);
            if (f.isEmpty()) {
                return Optional.empty();
            }
            headers.add(f.get().header());
        }
        if (!index.heightOf(g.stopHash()).equals(stop)) {
            return Optional.empty(); // reorged while we read
        }
        return Optional.of(new Message.CFCheckpt(g.filterType(), g.stopHash(), headers));
    }

    /**
     * Sends each block or transaction asked for that we have, in order, then one {@code notfound}
     * with the rest. Blocks are served only if indexed (so a peer cannot make us ask the node
     * for arbitrary hashes); transactions only if relayed through us.
     */
    public void getData(Message.GetData g, Sink out) throws InterruptedException {
        List<Message.InvItem> missing = new ArrayList<>();
        for (Message.InvItem item : g.items()) {
            Optional<Message> answer = switch (item.type()) {
                case Message.MSG_WITNESS_BLOCK -> block(item.hash()).map(Message.BlockMessage::new);
                case Message.MSG_BLOCK -> block(item.hash()).map(b -> new Message.BlockMessage(Witness.stripBlock(b)));
                case Message.MSG_WITNESS_TX, MSG_WTX -> relayed.get(item.hash()).map(Message.Tx::new);
                case Message.MSG_TX -> relayed.get(item.hash()).map(t -> new Message.Tx(Witness.stripTx(t)));
                default -> Optional.empty();
            };
            if (answer.isPresent()) {
                out.send(answer.get());
            } else {
                missing.add(item);
            }
        }
        if (!missing.isEmpty()) {
            out.send(new Message.NotFound(missing));
        }
    }

    private Optional<byte[]> block(Sha256Hash hash) {
        if (index.blockHeader(hash).isEmpty()) {
            return Optional.empty();
        }
        try {
            return blocks.get(hash);
        } catch (NodeException e) {
            return Optional.empty();
        }
    }

    /** The transactions of an {@code inv} we want: those not relayed yet, asked by the same kind of id. */
    public List<Message.InvItem> wanted(Message.Inv inv, int max) {
        List<Message.InvItem> want = new ArrayList<>();
        for (Message.InvItem i : inv.items()) {
            if (want.size() >= max) {
                break;
            }
            if (i.type() == MSG_WTX && relayed.get(i.hash()).isEmpty()) {
                want.add(i);
            } else if ((i.type() == Message.MSG_TX || i.type() == Message.MSG_WITNESS_TX)
                    && relayed.get(i.hash()).isEmpty()) {
                want.add(new Message.InvItem(Message.MSG_WITNESS_TX, i.hash()));
            }
        }
        return want;
    }

    /**
     * Relays a transaction to the node; the reject to send back if the node refuses it. BIP 61 names
     * the transaction by txid; a peer that sent {@code wtxidrelay} (BIP 339) names transactions by
     * wtxid, and gets the wtxid (docs/p2p.md, "Relay").
     *
     * @param byWtxid whether the peer sent {@code wtxidrelay}
     */
    public Optional<Message.Reject> relay(Message.Tx tx, boolean byWtxid) {
        byte[] raw = tx.raw();
        Sha256Hash txid = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(Witness.stripTx(raw)));
        Sha256Hash wtxid = Sha256Hash.wrapReversed(Sha256Hash.hashTwice(raw));
        try {
            node.relay(raw);
            relayed.put(txid, wtxid, raw);
            return Optional.empty();
        } catch (NodeException e) {
            String reason = e.kind() == NodeException.Kind.REJECTED ? e.getMessage() : "node unavailable";
            return Optional.of(new Message.Reject("tx", 0x10, truncate(reason), byWtxid ? wtxid : txid));
        }
    }

    /** Headers of the blocks from the fork with {@code oldTip} up to the current tip; empty if more than 8. */
    public List<byte[]> newHeaders(Sha256Hash oldTip, ChainTip tip) {
        Sha256Hash cursor = oldTip;
        OptionalInt fork = index.heightOf(cursor);
        for (int steps = 0; fork.isEmpty() && steps < MAX_BLOCKS_TO_ANNOUNCE; steps++) {
            Optional<byte[]> header = index.blockHeader(cursor);
            if (header.isEmpty()) {
                return List.of();
            }
            cursor = prevHash(header.get());
            fork = index.heightOf(cursor);
        }
        if (fork.isEmpty() || tip.height() - fork.getAsInt() > MAX_BLOCKS_TO_ANNOUNCE) {
            return List.of();
        }
        List<byte[]> headers = new ArrayList<>();
        for (int h = fork.getAsInt() + 1; h <= tip.height(); h++) {
            Optional<byte[]> header = index.hashAt(h).flatMap(index::blockHeader);
            if (header.isEmpty()) {
                return List.of();
            }
            headers.add(header.get());
        }
        return headers;
    }

    /**
     * Core's checks of a getcfilters/getcfheaders request: false if the stop hash is known but
     * not on the best chain (no answer).
     *
     * @throws Violation for an unknown stop hash, a start above the stop (any uint32, up to 2^32-1: Core
     *     disconnects without a ban), or more than {@code max} blocks; after it the start fits an int
     */
    private boolean checkRange(String what, int filterType, long startHeight, Sha256Hash stopHash, int max) {
        OptionalInt stop = stopHeight(what, filterType, stopHash);
        if (stop.isEmpty()) {
            return false;
        }
        if (startHeight > stop.getAsInt()) {
            throw Violation.disconnect(
                    "start_after_stop",
                    what + " start height " + startHeight + " is above the stop height " + stop.getAsInt());
        }
        if (stop.getAsInt() - startHeight >= max) {
            throw Violation.disconnect(
                    "range_too_large",
                    what + " asks for " + (stop.getAsInt() - startHeight + 1) + " blocks, more than " + max);
        }
        return true;
    }

    /** Core's PrepareBlockFilterRequest: basic filters only; the stop hash must be ours. */
    private OptionalInt stopHeight(String what, int filterType, Sha256Hash stopHash) {
        if (filterType != Bip158.BASIC_FILTER_TYPE) {
            throw Violation.disconnect("unsupported_filter_type", what + " for filter type " + filterType);
        }
        OptionalInt stop = index.heightOf(stopHash);
        if (stop.isPresent()) {
            return stop;
        }
        if (index.filter(stopHash).isPresent()) {
            return OptionalInt.empty(); // a stale block: no answer
        }
        boolean nodeKnows;
        try {
            nodeKnows = node.hasBlock(stopHash);
        } catch (NodeException e) {
            nodeKnows = true; // cannot tell: do not punish the peer for our node being away
        }
        if (nodeKnows) {
            return OptionalInt.empty(); // not indexed yet
        }
        throw Violation.disconnect("unknown_stop_hash", what + " for unknown stop hash " + stopHash);
    }

    static Sha256Hash prevHash(byte[] header) {
        return Sha256Hash.wrapReversed(Arrays.copyOfRange(header, 4, 36));
    }

    private static String truncate(String s) {
        return s.length() <= 111 ? s : s.substring(0, 111);
    }
}
