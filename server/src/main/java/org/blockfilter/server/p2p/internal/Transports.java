package org.blockfilter.server.p2p.internal;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.blockfilter.filters.p2p.MessageFrame;
import org.blockfilter.filters.p2p.v2.V2Exception;
import org.blockfilter.filters.p2p.v2.V2Transport;

/**
 * Picks a connection's transport from its first bytes, as a BIP 324 responder does: a v1 peer's
 * first frame starts with the network magic, a v2 initiator's 64-byte key does not (our own
 * initiator never sends a key that does, and a random one starts with it once in 2^32). With
 * v2 off (the NODE_P2P_V2 service bit not advertised) every connection is v1. Stateless.
 */
public final class Transports {
    private static final SecureRandom RANDOM = new SecureRandom();

    private Transports() {}

    /**
     * The transport of a new connection, after its v2 handshake if it is one.
     *
     * @throws Violation for a failed v2 handshake (a disconnect, no ban points)
     * @throws EOFException when the peer closed before its first 4 bytes
     */
    public static Transport accept(
            InputStream in, OutputStream out, long packetMagic, boolean v2, AtomicLong buffered, Runnable onBytes)
            throws IOException {
        byte[] magic = MessageFrame.magicBytes(packetMagic);
        byte[] first = new byte[4];
        V2Transport.Input input = (b, off, len) -> readFully(in, b, off, len, onBytes);
        input.readFully(first, 0, first.length);
        if (!v2 || Arrays.equals(first, magic)) {
            InputStream replay = new SequenceInputStream(new ByteArrayInputStream(first), in);
            return new V1Transport(new FrameReader(replay, packetMagic, buffered, onBytes), out, magic);
        }
        try {
            V2Transport t =
                    V2Transport.respond(first, input, out, magic, RANDOM).withBufferGauge(buffered::addAndGet);
            return new V2ServerTransport(t, out);
        } catch (V2Exception e) {
            throw Violation.disconnect(e.reason(), e.getMessage());
        }
    }

    private static void readFully(InputStream in, byte[] b, int off, int len, Runnable onBytes) throws IOException {
        int done = 0;
        while (done < len) {
            int r = in.read(b, off + done, len - done);
            if (r < 0) {
                throw new EOFException("peer closed the connection");
            }
            done += r;
            onBytes.run();
        }
    }
}
