package org.blockfilter.wallet.source.p2p.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.p2p.ProtocolLimits;
import org.blockfilter.filters.wire.WireFormatException;

/**
 * The peer's best header chain as the peer told it, from genesis: raw 80-byte headers, their
 * hashes and heights. Headers must link to the chain (a fork replaces everything above the fork
 * point, as after a reorg); proof of work is the sync engine's check, not this one's. Bounded by
 * a maximum height so a peer cannot grow it without end.
 *
 * <p>Mutable and not thread-safe (P2pSource serializes access).
 */
public final class PeerHeaderChain {
    private final List<byte[]> headers = new ArrayList<>();
    private final List<Sha256Hash> hashes = new ArrayList<>();
    private final Map<Sha256Hash, Integer> heights = new HashMap<>();
    private final int maxHeight;

    public PeerHeaderChain(byte[] genesisHeader, int maxHeight) {
        this.maxHeight = maxHeight;
        append(Arrays.copyOf(genesisHeader, ProtocolLimits.HEADER_BYTES));
    }

    public static Sha256Hash hashOf(byte[] header) {
        return Sha256Hash.wrapReversed(Sha256Hash.hashTwice(header, 0, ProtocolLimits.HEADER_BYTES));
    }

    private static Sha256Hash prevOf(byte[] header) {
        return Sha256Hash.wrapReversed(Arrays.copyOfRange(header, 4, 36));
    }

    private void append(byte[] header) {
        Sha256Hash h = hashOf(header);
        heights.put(h, headers.size());
        headers.add(header);
        hashes.add(h);
    }

    public int tipHeight() {
        return headers.size() - 1;
    }

    public Sha256Hash hashAt(int height) {
        return hashes.get(height);
    }

    public byte[] headerAt(int height) {
        return headers.get(height).clone();
    }

    public OptionalInt heightOf(Sha256Hash hash) {
        Integer h = heights.get(hash);
        return h == null ? OptionalInt.empty() : OptionalInt.of(h);
    }

    /** Block locator as Bitcoin Core builds it: the last 11 hashes, then exponentially sparser, always ending at genesis. */
    public List<Sha256Hash> locator() {
        List<Sha256Hash> out = new ArrayList<>();
        int step = 1;
        for (int h = tipHeight(); h > 0; h -= step) {
            out.add(hashes.get(h));
            if (out.size() > 10) {
                step *= 2;
            }
        }
        out.add(hashes.get(0));
        return out;
    }

    /**
     * Whether a {@code headers} message could be the answer to our {@code getheaders}: empty (the
     * peer has nothing newer), or its first header builds on one we have.
     */
    public boolean buildsOn(List<byte[]> answer) {
        return answer.isEmpty() || heights.containsKey(prevOf(answer.get(0)));
    }

    /**
     * Connects a {@code headers} answer: the first must build on a header we have, each on the
     * one before. Headers above the fork point that the answer replaces are dropped.
     *
     * @return how many headers were new
     */
    public int connect(List<byte[]> answer) {
        if (answer.isEmpty()) {
            return 0;
        }
        Integer forkPoint = heights.get(prevOf(answer.get(0)));
        if (forkPoint == null) {
            throw new WireFormatException(
                    "headers[0].prevBlock",
                    null,
                    4,
                    "does not connect to any header we have: " + prevOf(answer.get(0)));
        }
        for (int i = 1; i < answer.size(); i++) {
            if (!prevOf(answer.get(i)).equals(hashOf(answer.get(i - 1)))) {
                throw new WireFormatException(
                        "headers[" + i + "].prevBlock", null, 4, "does not link to headers[" + (i - 1) + "]");
            }
        }
        if ((long) forkPoint + answer.size() > maxHeight) {
            throw new WireFormatException("headers", null, 0, "chain would exceed the maximum height " + maxHeight);
        }
        int h = forkPoint;
        int added = 0;
        for (byte[] header : answer) {
            h++;
            if (h <= tipHeight() && Arrays.equals(headers.get(h), header)) {
                continue;
            }
            truncateAbove(h - 1);
            append(header.clone());
            added++;
        }
        return added;
    }

    private void truncateAbove(int height) {
        while (tipHeight() > height) {
            int top = tipHeight();
            heights.remove(hashes.get(top));
            hashes.remove(top);
            headers.remove(top);
        }
    }

    /**
     * getheaders from our locator until the peer has no more. A peer with nothing newer may stay
     * silent (the protocol promises no answer), so each getheaders is followed by a ping: peers
     * handle a connection's messages in order, and the pong ends the answer. Headers messages that
     * do not build on our chain are announcements we did not ask for and are ignored, as are inv,
     * sendheaders, notfound and any other message.
     */
    public Void sync(PeerConnection c, java.util.function.LongSupplier nextNonce, long timeoutNanos)
            throws java.io.IOException {
        while (true) {
            c.send(new org.blockfilter.filters.p2p.Message.GetHeaders(
                    PeerConnection.PROTOCOL_VERSION, locator(), org.bitcoinj.base.Sha256Hash.ZERO_HASH));
            long nonce = nextNonce.getAsLong();
            c.send(new org.blockfilter.filters.p2p.Message.Ping(nonce));
            long deadline = System.nanoTime() + timeoutNanos;
            List<byte[]> answer = null;
            while (true) {
                org.blockfilter.filters.p2p.Message m = c.receive(deadline);
                if (m instanceof org.blockfilter.filters.p2p.Message.Pong p && p.nonce() == nonce) {
                    break;
                }
                if (answer == null
                        && m instanceof org.blockfilter.filters.p2p.Message.Headers h
                        && buildsOn(h.headers())) {
                    answer = h.headers();
                }
            }
            if (answer == null || answer.isEmpty()) {
                return null;
            }
            connect(answer);
            if (answer.size() < org.blockfilter.filters.p2p.ProtocolLimits.MAX_HEADERS_RESULTS) {
                return null;
            }
        }
    }
}
