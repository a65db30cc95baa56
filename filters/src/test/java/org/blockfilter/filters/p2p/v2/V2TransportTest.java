package org.blockfilter.filters.p2p.v2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Both ends of BIP 324 over loopback: handshake, messages past two rekeys, decoys, and what breaks it. */
class V2TransportTest {
    private static final byte[] MAGIC = HexFormat.of().parseHex("fabfb5da");
    private static final SecureRandom RANDOM = new SecureRandom();

    private static V2Transport.Input input(InputStream in) {
        DataInputStream d = new DataInputStream(in);
        return d::readFully;
    }

    /** A loopback TCP connection (java.io pipes die with the thread that last read them). */
    private static final class Link {
        final Socket initiator;
        final Socket responder;

        Link() throws IOException {
            try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                initiator = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                responder = server.accept();
            }
        }
    }

    /** What a hand-rolled responder does with its end of the connection. */
    private interface Responder {
        void run(DataInputStream in, OutputStream out) throws IOException;
    }

    /** Our initiator against {@code responder}, which runs on another thread. */
    private static V2Transport initiateAgainst(Responder responder) throws IOException {
        Link link = new Link();
        CompletableFuture.runAsync(() -> {
            try {
                responder.run(new DataInputStream(link.responder.getInputStream()), link.responder.getOutputStream());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return V2Transport.initiate(
                input(link.initiator.getInputStream()), link.initiator.getOutputStream(), MAGIC, RANDOM);
    }

    /** The responder's cipher after reading the initiator's key and sending its own. */
    private static V2Cipher keyExchange(DataInputStream in, OutputStream out, EllSwift.KeyPair key) throws IOException {
        byte[] theirs = new byte[64];
        in.readFully(theirs);
        out.write(key.encoded());
        return new V2Cipher(EllSwift.sharedSecret(key.privateKey(), theirs, key.encoded(), false), MAGIC, false);
    }

    @Test
    void messagesPassBothWaysAcrossRekeysWithShortAndLongTypes() throws Exception {
        Link link = new Link();
        CompletableFuture<V2Transport> responder = CompletableFuture.supplyAsync(() -> {
            try {
                InputStream in = link.responder.getInputStream();
                byte[] first = new DataInputStream(in).readNBytes(4);
                return V2Transport.respond(first, input(in), link.responder.getOutputStream(), MAGIC, RANDOM);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        OutputStream initiatorOut = link.initiator.getOutputStream();
        V2Transport initiator =
                V2Transport.initiate(input(link.initiator.getInputStream()), initiatorOut, MAGIC, RANDOM);
        V2Transport peer = responder.get(30, TimeUnit.SECONDS);
        assertArrayEquals(initiator.sessionId(), peer.sessionId());
        for (int i = 0; i < 500; i++) { // 500 > 2 x 224: both ciphers rekey twice
            byte[] payload = new byte[i % 37];
            RANDOM.nextBytes(payload);
            String command = i % 2 == 0 ? "getcfilters" : "sendheaders";
            initiator.write(command, payload);
            initiatorOut.flush();
            V2Transport.Received r = peer.read();
            assertEquals(command, r.command());
            assertArrayEquals(payload, r.payload());
            peer.write("cfilter", payload);
            link.responder.getOutputStream().flush();
            assertArrayEquals(payload, initiator.read().payload());
        }
    }

    @Test
    void shortIdsFollowTheBipTableAndUnknownIdsDecodeToNoCommand() {
        assertEquals(22, MessageTypes.encode("getcfilters", new byte[0])[0]);
        assertEquals(28, MessageTypes.encode("addrv2", new byte[0])[0]);
        assertEquals(13, MessageTypes.encode("version", new byte[0]).length);
        assertNull(MessageTypes.decode(new byte[] {(byte) 200, 1, 2}).command());
        assertEquals(
                "version",
                MessageTypes.decode(MessageTypes.encode("version", new byte[] {1}))
                        .command());
    }

    @Test
    void decoysBeforeAndAfterTheVersionPacketAreIgnored() throws Exception {
        V2Transport t = initiateAgainst((in, out) -> {
            V2Cipher c = keyExchange(in, out, EllSwift.create(RANDOM));
            ByteArrayOutputStream w = new ByteArrayOutputStream();
            byte[] garbage = new byte[100];
            w.write(garbage);
            w.write(c.sendTerminator());
            w.write(c.encrypt(new byte[] {1, 2, 3}, garbage, true)); // a decoy carries the garbage as AAD
            w.write(c.encrypt(new byte[0], new byte[0], false)); // version
            w.write(c.encrypt(new byte[50], new byte[0], true)); // decoy
            w.write(c.encrypt(MessageTypes.encode("pong", new byte[8]), new byte[0], false));
            out.write(w.toByteArray());
            out.flush();
        });
        assertEquals("pong", t.read().command());
    }

    @Test
    void aTamperedPacketFailsAuthentication() {
        V2Exception e = assertThrows(
                V2Exception.class,
                () -> initiateAgainst((in, out) -> {
                    V2Cipher c = keyExchange(in, out, EllSwift.create(RANDOM));
                    byte[] version = c.encrypt(new byte[0], new byte[0], false);
                    version[version.length - 1] ^= 1;
                    out.write(V2Cipher.concat(c.sendTerminator(), version));
                    out.flush();
                }));
        assertEquals("v2_decrypt_failed", e.reason());
    }

    @Test
    void garbageWithoutTerminatorIsRefusedAfter4095Bytes() {
        V2Exception e = assertThrows(
                V2Exception.class,
                () -> initiateAgainst((in, out) -> {
                    keyExchange(in, out, EllSwift.create(RANDOM));
                    out.write(new byte[V2Transport.MAX_GARBAGE + V2Cipher.TERMINATOR_LENGTH]);
                    out.flush();
                }));
        assertEquals("v2_no_terminator", e.reason());
    }

    @Test
    void aPeerThatClosesInsteadOfAnsweringDoesNotSpeakV2() {
        V2Exception e = assertThrows(V2Exception.class, () -> initiateAgainst((in, out) -> out.close()));
        assertEquals(V2Exception.NOT_SUPPORTED, e.reason());
    }
}
