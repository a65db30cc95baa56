package org.blockfilter.wallet.source.p2p.internal;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.p2p.Message;

/**
 * One transaction offered to one peer by the protocol's announce-then-serve rule, and what the
 * peer did with it (docs/wallet-p2p.md, "Broadcast"):
 *
 * <ol>
 *   <li>probe: {@code getdata} for the txid, then a {@code ping}; the {@code tx} back before the
 *       {@code pong} means the peer already holds it (a rebroadcast);
 *   <li>announce: {@code inv} with {@code MSG_WTX} and the wtxid when both sides sent {@code
 *       wtxidrelay} (BIP 339), else {@code MSG_TX} and the txid;
 *   <li>serve the peer's {@code getdata} for it (with witnesses unless it asked for {@code MSG_TX});
 *       a peer that does not ask within the request wait did not take it;
 *   <li>barrier and probe: {@code getdata} for it, then a {@code ping}. Peers handle a connection's
 *       messages in order, so a BIP 61 {@code reject} for it comes first, and the {@code tx} back
 *       before the {@code pong} means it is in the peer's mempool (btcd, bcoin, our server);
 *   <li>else watch a second connection that asked for transaction relay: the peer announcing it
 *       there means it accepted it (Bitcoin Core serves a transaction by {@code getdata} only to
 *       peers it announced it to, and sends no {@code reject}).
 * </ol>
 *
 * <p>Not thread-safe: it reads and writes the connections it is given.
 */
public final class TxAnnouncement {

    /** What the peer did: accepted (and how we know), or not (and why). */
    public record Verdict(boolean accepted, String detail) {}

    private final PeerConnection peer;
    private final PeerConnection watcher;
    private final byte[] raw;
    private final Sha256Hash txid;
    private final Sha256Hash wtxid;
    private final LongSupplier nonces;
    private byte[] stripped;
    private boolean served;
    private String rejected;

    /**
     * @param watcher a second connection to the same peer opened with relay=true before the
     *     announcement, or null if none could be opened
     */
    public TxAnnouncement(PeerConnection peer, PeerConnection watcher, byte[] raw, LongSupplier nonces) {
        this.peer = peer;
        this.watcher = watcher;
        this.raw = raw.clone();
        Transaction tx = Transaction.read(ByteBuffer.wrap(raw));
        this.txid = tx.getTxId();
        this.wtxid = tx.getWTxId();
        this.nonces = nonces;
    }

    /**
     * Runs the steps above.
     *
     * @param requestWait how long the peer has to ask for the transaction, and to answer a probe
     * @param relayWait how long the watcher waits for the peer's announcement
     * @throws IOException when the connection to the peer fails (not a verdict: it may be retried)
     */
    public Verdict run(Duration requestWait, Duration relayWait) throws IOException {
        if (probe(requestWait)) {
            return new Verdict(true, "the peer already holds it");
        }
        if (rejected != null) {
            return refused();
        }
        Message.InvItem item = peer.wtxidRelay()
                ? new Message.InvItem(Message.MSG_WTX, wtxid)
                : new Message.InvItem(Message.MSG_TX, txid);
        peer.send(new Message.Inv(List.of(item)));
        long deadline = deadline(requestWait);
        try {
            while (!served && rejected == null) {
                next(deadline);
            }
        } catch (SocketTimeoutException e) {
            return new Verdict(
                    false,
                    "the peer did not ask for it within " + requestWait.toMillis() + " ms of our inv ("
                            + (item.type() == Message.MSG_WTX ? "MSG_WTX " + wtxid : "MSG_TX " + txid) + ")");
        }
        if (rejected == null && probe(requestWait)) {
            return new Verdict(true, "the peer holds it in its mempool");
        }
        if (rejected != null) {
            return refused();
        }
        if (watcher == null) {
            return new Verdict(
                    false,
                    "the peer asked for it and did not refuse it, but does not serve it back, and no second "
                            + "connection could be opened to watch for its announcement");
        }
        return watch(relayWait);
    }

    private Verdict refused() {
        return new Verdict(false, "the peer rejected it: " + rejected);
    }

    /**
     * getdata for the transaction and a ping; true if the tx comes back before the pong. A peer
     * that does not serve it (notfound, or silence as Core for a peer that set relay=false) is
     * answered by the pong alone.
     */
    private boolean probe(Duration wait) throws IOException {
        peer.send(new Message.GetData(List.of(new Message.InvItem(Message.MSG_WITNESS_TX, txid))));
        long nonce = nonces.getAsLong();
        peer.send(new Message.Ping(nonce));
        long deadline = deadline(wait);
        while (true) {
            Message m = next(deadline);
            if (m instanceof Message.Tx t && isOurs(t)) {
                return true;
            }
            if (m instanceof Message.Pong p && p.nonce() == nonce) {
                return false;
            }
        }
    }

    /** Waits on the watcher for an inv of the transaction, by txid or wtxid. */
    private Verdict watch(Duration wait) throws IOException {
        long deadline = deadline(wait);
        try {
            while (true) {
                if (watcher.receive(deadline) instanceof Message.Inv inv
                        && inv.items().stream()
                                .anyMatch(i -> i.hash().equals(txid) || i.hash().equals(wtxid))) {
                    return new Verdict(true, "the peer announced it to our second connection");
                }
            }
        } catch (SocketTimeoutException e) {
            return new Verdict(
                    false,
                    "the peer asked for it and did not refuse it, but neither serves it back nor announced it within "
                            + wait.toMillis() + " ms");
        } catch (IOException e) {
            return new Verdict(
                    false,
                    "the peer asked for it and did not refuse it, but does not serve it back, and our second "
                            + "connection failed while watching for its announcement: " + e.getMessage());
        }
    }

    /**
     * The peer's next message; on the way, a getdata for our transaction is served and a reject
     * for it is recorded.
     */
    private Message next(long deadline) throws IOException {
        Message m = peer.receive(deadline);
        if (m instanceof Message.GetData g) {
            for (Message.InvItem i : g.items()) {
                if (isOurs(i)) {
                    peer.send(new Message.Tx(i.type() == Message.MSG_TX ? stripped() : raw));
                    served = true;
                }
            }
        } else if (m instanceof Message.Reject r && (txid.equals(r.data()) || wtxid.equals(r.data()))) {
            rejected = r.reason() + " (code 0x" + Integer.toHexString(r.code()) + ")";
        }
        return m;
    }

    private boolean isOurs(Message.InvItem i) {
        return switch (i.type()) {
            case Message.MSG_TX, Message.MSG_WITNESS_TX -> i.hash().equals(txid);
            case Message.MSG_WTX -> i.hash().equals(wtxid);
            default -> false;
        };
    }

    private boolean isOurs(Message.Tx t) {
        try {
            return Transaction.read(ByteBuffer.wrap(t.raw())).getTxId().equals(txid);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The transaction without witnesses, for a peer that asks with MSG_TX. */
    private byte[] stripped() {
        if (stripped == null) {
            Transaction tx = Transaction.read(ByteBuffer.wrap(raw));
            for (int i = 0; i < tx.getInputs().size(); i++) {
                tx.replaceInput(i, tx.getInput(i).withoutWitness());
            }
            stripped = tx.serialize();
        }
        return stripped;
    }

    private static long deadline(Duration wait) {
        return System.nanoTime() + wait.toNanos();
    }
}
