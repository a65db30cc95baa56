package org.blockfilter.filters.p2p.v2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Both ends of BIP 324 over in-memory pipes: handshake, messages past two rekeys, decoys, and what breaks it. */
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

    private record Pair(V2Transport initiator, V2Transport responder) {}

    private static Pair connect() throws Exception {
        Link link = new Link();
        InputStream toResponder = link.responder.getInputStream();
        OutputStream initiatorOut = link.initiator.getOutputStream();
        InputStream toInitiator = link.initiator.getInputStream();
        OutputStream responderOut = link.responder.getOutputStream();
        CompletableFuture<V2Transport> responder = CompletableFuture.supplyAsync(() -> {
            try {
                byte[] first = new byte[4];
                new DataInputStream(toResponder).readFully(first);
                return V2Transport.respond(first, input(toResponder), responderOut, MAGIC, RANDOM);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        V2Transport initiator = V2Transport.initiate(input(toInitiator), initiatorOut, MAGIC, RANDOM);
        return new Pair(initiator, responder.get(30, TimeUnit.SECONDS));
    }

    @Test
    void messagesPassBothWaysAcrossRekeysWithShortAndLongTypes() throws Exception {
        Pair p = connect();
        assertArrayEquals(p.initiator().sessionId(), p.responder().sessionId());
        for (int i = 0; i < 500; i++) { // 500 > 2 x 224: both ciphers rekey twice
            byte[] payload = new byte[i % 37];
            RANDOM.nextBytes(payload);
            String command = i % 2 == 0 ? "getcfilters" : "sendheaders";
            p.initiator().write(command, payload);
            V2Transport.Received r = p.responder().read();
            assertEquals(command, r.command());
            assertArrayEquals(payload, r.payload());
            p.responder().write("cfilter", payload);
            assertArrayEquals(payload, p.initiator().read().payload());
        }
    }

    @Test
    void shortIdsFollowTheBipTableAndUnknownIdsAreSkipped() {
        assertEquals(22, MessageTypes.encode("getcfilters", new byte[0])[0]);
        assertEquals(28, MessageTypes.encode("addrv2", new byte[0])[0]);
        assertEquals(13, MessageTypes.encode("version", new byte[0]).length);
        assertEquals(null, MessageTypes.decode(new byte[] {(byte) 200, 1, 2}).command());
        assertEquals(
                "version",
                MessageTypes.decode(MessageTypes.encode("version", new byte[] {1}))
                        .command());
    }

    @Test
    void decoysBeforeAndAfterTheVersionPacketAreIgnored() throws Exception {
        // A hand-rolled responder that sends decoys around its version packet and before a message.
        Link link = new Link();
        InputStream toResponder = link.responder.getInputStream();
        OutputStream initiatorOut = link.initiator.getOutputStream();
        InputStream toInitiator = link.initiator.getInputStream();
        OutputStream responderOut = link.responder.getOutputStream();
        CompletableFuture<Void> peer = CompletableFuture.runAsync(() -> {
            try {
                DataInputStream in = new DataInputStream(toResponder);
                byte[] theirs = new byte[64];
                in.readFully(theirs);
                EllSwift.KeyPair key = EllSwift.create(RANDOM);
                byte[] secret = EllSwift.sharedSecret(key.privateKey(), theirs, key.encoded(), false);
                V2Cipher c = new V2Cipher(secret, MAGIC, false);
                ByteArrayOutputStream w = new ByteArrayOutputStream();
                byte[] garbage = new byte[100];
                w.write(key.encoded());
                w.write(garbage);
                w.write(c.sendTerminator());
                w.write(c.encrypt(new byte[] {1, 2, 3}, garbage, true)); // decoy carries the garbage AAD
                w.write(c.encrypt(new byte[0], new byte[0], false)); // version
                w.write(c.encrypt(new byte[50], new byte[0], true)); // decoy
                w.write(c.encrypt(MessageTypes.encode("pong", new byte[8]), new byte[0], false));
                responderOut.write(w.toByteArray());
                responderOut.flush();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        V2Transport t = V2Transport.initiate(input(toInitiator), initiatorOut, MAGIC, RANDOM);
        assertEquals("pong", t.read().command());
        peer.get(30, TimeUnit.SECONDS);
    }

    @Test
    void aTamperedPacketFailsAuthentication() throws Exception {
        Link link = new Link();
        InputStream toResponder = link.responder.getInputStream();
        OutputStream initiatorOut = link.initiator.getOutputStream();
        InputStream toInitiator = link.initiator.getInputStream();
        OutputStream responderOut = link.responder.getOutputStream();
        CompletableFuture.runAsync(() -> {
            try {
                DataInputStream in = new DataInputStream(toResponder);
                byte[] theirs = new byte[64];
                in.readFully(theirs);
                EllSwift.KeyPair key = EllSwift.create(RANDOM);
                V2Cipher c = new V2Cipher(
                        EllSwift.sharedSecret(key.privateKey(), theirs, key.encoded(), false), MAGIC, false);
                byte[] version = c.encrypt(new byte[0], new byte[0], false);
                version[version.length - 1] ^= 1;
                responderOut.write(V2Cipher.concat(V2Cipher.concat(key.encoded(), c.sendTerminator()), version));
                responderOut.flush();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        V2Exception e = assertThrows(
                V2Exception.class, () -> V2Transport.initiate(input(toInitiator), initiatorOut, MAGIC, RANDOM));
        assertEquals("v2_decrypt_failed", e.reason());
    }

    @Test
    void garbageWithoutTerminatorIsRefusedAfter4095Bytes() throws Exception {
        Link link = new Link();
        InputStream toResponder = link.responder.getInputStream();
        OutputStream initiatorOut = link.initiator.getOutputStream();
        InputStream toInitiator = link.initiator.getInputStream();
        OutputStream responderOut = link.responder.getOutputStream();
        CompletableFuture.runAsync(() -> {
            try {
                new DataInputStream(toResponder).readFully(new byte[64]);
                responderOut.write(EllSwift.create(RANDOM).encoded());
                responderOut.write(new byte[V2Transport.MAX_GARBAGE + 16]);
                responderOut.flush();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        V2Exception e = assertThrows(
                V2Exception.class, () -> V2Transport.initiate(input(toInitiator), initiatorOut, MAGIC, RANDOM));
        assertEquals("v2_no_terminator", e.reason());
    }

    @Test
    void aPeerThatClosesInsteadOfAnsweringDoesNotSpeakV2() throws Exception {
        Link link = new Link();
        InputStream toResponder = link.responder.getInputStream();
        OutputStream initiatorOut = link.initiator.getOutputStream();
        InputStream toInitiator = link.initiator.getInputStream();
        OutputStream responderOut = link.responder.getOutputStream();
        responderOut.close();
        V2Exception e = assertThrows(
                V2Exception.class, () -> V2Transport.initiate(input(toInitiator), initiatorOut, MAGIC, RANDOM));
        assertEquals(V2Exception.NOT_SUPPORTED, e.reason());
    }
}
