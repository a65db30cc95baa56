package org.blockfilter.regtest.p2p;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.params.RegTestParams;
import org.blockfilter.filters.p2p.MessageFrame;
import org.blockfilter.regtest.wallet.LoopbackRelay;

/**
 * An adversary between a P2P light client and our server (127.0.0.1, free port): it relays every
 * message both ways, except that in every {@code cfilter} message for one block it flips the last byte
 * of the filter and fixes the frame's checksum, so only a client that checks filters against filter
 * headers can notice, and asking again gets the same lie.
 */
final class FilterFlippingP2pProxy extends LoopbackRelay {
    private static final byte[] MAGIC =
            MessageFrame.magicBytes(RegTestParams.get().getPacketMagic());

    /** The block's hash in wire order, as in the cfilter payload after the filter type byte. */
    private final byte[] blockHash;

    private final AtomicInteger flipped = new AtomicInteger();

    FilterFlippingP2pProxy(InetSocketAddress target, Sha256Hash block) throws IOException {
        super(target, "filter-flipping-proxy");
        this.blockHash = block.serialize();
        start();
    }

    int port() {
        return address().getPort();
    }

    /** How many filters were altered so far. */
    int flipped() {
        return flipped.get();
    }

    @Override
    protected void toTarget(Socket client, Socket upstream) throws IOException {
        client.getInputStream().transferTo(upstream.getOutputStream());
    }

    /** Relays frames one at a time ({@link MessageFrame#read}), re-framing the chosen block's altered cfilter. */
    @Override
    protected void toClient(Socket upstream, Socket client) throws IOException {
        InputStream in = upstream.getInputStream();
        OutputStream out = client.getOutputStream();
        while (true) {
            MessageFrame.Frame f = MessageFrame.read(in, MAGIC);
            byte[] payload = f.payload();
            if (f.command().equals("cfilter")
                    && payload.length > 34
                    && Arrays.equals(payload, 1, 33, blockHash, 0, 32)) {
                payload[payload.length - 1] ^= 0x01;
                out.write(MessageFrame.encode(MAGIC, "cfilter", payload)); // with the altered payload's checksum
                flipped.incrementAndGet();
            } else {
                out.write(f.bytes());
            }
            out.flush();
        }
    }
}
