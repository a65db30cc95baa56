package org.blockfilter.regtest.p2p;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.regtest.wallet.LoopbackRelay;

/**
 * An adversary between a P2P light client and our server (127.0.0.1, free port): it relays every
 * message both ways, except that in every {@code cfilter} message for one block it flips the last byte
 * of the filter and fixes the frame's checksum, so only a client that checks filters against filter
 * headers can notice, and asking again gets the same lie.
 */
final class FilterFlippingP2pProxy extends LoopbackRelay {
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

    /** Relays 24-byte-header frames (magic, command, length, checksum, payload), altering the chosen cfilter. */
    @Override
    protected void toClient(Socket upstream, Socket client) throws IOException {
        DataInputStream in = new DataInputStream(upstream.getInputStream());
        OutputStream out = client.getOutputStream();
        byte[] header = new byte[24];
        while (true) {
            in.readFully(header);
            int length = (header[16] & 0xff)
                    | (header[17] & 0xff) << 8
                    | (header[18] & 0xff) << 16
                    | (header[19] & 0xff) << 24;
            byte[] payload = in.readNBytes(length);
            String command = new String(header, 4, 12, StandardCharsets.US_ASCII).replace("\0", "");
            if (command.equals("cfilter") && payload.length > 34 && Arrays.equals(payload, 1, 33, blockHash, 0, 32)) {
                payload[payload.length - 1] ^= 0x01;
                System.arraycopy(sha256d(payload), 0, header, 20, 4);
                flipped.incrementAndGet();
            }
            out.write(header);
            out.write(payload);
            out.flush();
        }
    }

    private static byte[] sha256d(byte[] b) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return sha.digest(sha.digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
