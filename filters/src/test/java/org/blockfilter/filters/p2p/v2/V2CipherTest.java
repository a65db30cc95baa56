package org.blockfilter.filters.p2p.v2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The packet cipher's two paths, the transport's (type and payload encrypted from where they are,
 * packets decrypted in place) and the copying one, against BIP 324's official packet vectors and
 * each other, and what a receiver does with a packet that does not authenticate.
 */
class V2CipherTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] MAINNET_MAGIC = HEX.parseHex("f9beb4d9");
    private static final byte[] NONE = new byte[0];

    static Stream<Map<String, String>> packets() {
        return Bip324VectorsTest.packets();
    }

    private static byte[] secret(Map<String, String> row, boolean initiating) {
        return EllSwift.sharedSecret(
                HEX.parseHex(row.get("in_priv_ours")),
                HEX.parseHex(row.get("in_ellswift_theirs")),
                HEX.parseHex(row.get("in_ellswift_ours")),
                initiating);
    }

    private static byte[] contents(Map<String, String> row) {
        return HEX.parseHex(row.get("in_content").repeat(Integer.parseInt(row.get("in_multiply"))));
    }

    /** What the receiving end reads: the length field, then the rest decrypted in place. */
    private static byte[] receive(V2Cipher receiver, byte[] packet, byte[] aad) {
        int len = receiver.decryptLength(Arrays.copyOf(packet, V2Cipher.LENGTH_FIELD_LENGTH));
        assertEquals(packet.length, V2Cipher.LENGTH_FIELD_LENGTH + V2Cipher.remainderLength(len));
        byte[] rest = Arrays.copyOfRange(packet, V2Cipher.LENGTH_FIELD_LENGTH, packet.length);
        assertTrue(receiver.decryptInPlace(rest, rest.length, aad), "the packet authenticates");
        return Arrays.copyOf(rest, rest.length - FSChaCha20Poly1305.TAG_LENGTH);
    }

    @ParameterizedTest
    @MethodSource("packets")
    void typeAndPayloadInTwoPiecesGiveTheVectorsCiphertextAndThePeerDecryptsItInPlace(Map<String, String> row) {
        boolean initiating = row.get("in_initiating").equals("1");
        byte[] secret = secret(row, initiating);
        V2Cipher sender = new V2Cipher(secret, MAINNET_MAGIC, initiating);
        V2Cipher receiver = new V2Cipher(secret, MAINNET_MAGIC, !initiating);
        int idx = Integer.parseInt(row.get("in_idx"));
        for (int i = 0; i < idx; i++) {
            receive(receiver, sender.encrypt(NONE, NONE, NONE, false), NONE);
        }
        byte[] contents = contents(row);
        byte[] aad = HEX.parseHex(row.get("in_aad"));
        boolean ignore = row.get("in_ignore").equals("1");
        int split = Math.min(1, contents.length); // as a message: the type byte, then the payload
        byte[] packet = sender.encrypt(
                Arrays.copyOf(contents, split), Arrays.copyOfRange(contents, split, contents.length), aad, ignore);

        String ciphertext = HEX.formatHex(packet);
        if (!row.get("out_ciphertext").isEmpty()) {
            assertEquals(row.get("out_ciphertext"), ciphertext);
        }
        assertTrue(ciphertext.endsWith(row.get("out_ciphertext_endswith")), "ciphertext ends with the vector's");
        byte[] plain = receive(receiver, packet, aad);
        assertEquals(ignore, V2Cipher.ignored(plain));
        assertArrayEquals(contents, Arrays.copyOfRange(plain, V2Cipher.HEADER_LENGTH, plain.length));
    }

    @Test
    void aPacketWithAnyBitFlippedDoesNotAuthenticateOnEitherPath() {
        byte[] secret = new byte[32];
        byte[] magic = HEX.parseHex("fabfb5da");
        byte[] payload = new byte[100];
        Arrays.fill(payload, (byte) 7);
        for (int bit = 0; bit < 8 * (V2Cipher.remainderLength(1 + payload.length)); bit += 37) {
            byte[] packet =
                    new V2Cipher(secret, magic, true).encrypt(MessageTypes.type("cfilter"), payload, NONE, false);
            byte[] rest = Arrays.copyOfRange(packet, V2Cipher.LENGTH_FIELD_LENGTH, packet.length);
            rest[bit / 8] ^= (byte) (1 << (bit % 8));
            V2Cipher inPlace = new V2Cipher(secret, magic, false);
            V2Cipher copying = new V2Cipher(secret, magic, false);
            assertFalse(inPlace.decryptInPlace(rest.clone(), rest.length, NONE), "bit " + bit);
            assertNull(copying.decrypt(rest, rest.length, NONE), "bit " + bit);
        }
    }

    @Test
    void decodingContentsPastTheEndOfTheArrayIsRefusedNotZeroPadded() {
        byte[] plain = MessageTypes.encode("cfilter", new byte[4]);
        assertThrows(IndexOutOfBoundsException.class, () -> MessageTypes.decode(plain, 1, plain.length));
    }

    @Test
    void bothPathsAgreeAcrossRekeysAndTheMessageTypeDecodesFromThePacket() {
        byte[] secret = new byte[32];
        byte[] magic = HEX.parseHex("fabfb5da");
        V2Cipher twoPieces = new V2Cipher(secret, magic, true);
        V2Cipher onePiece = new V2Cipher(secret, magic, true);
        V2Cipher inPlace = new V2Cipher(secret, magic, false);
        V2Cipher copying = new V2Cipher(secret, magic, false);
        for (int i = 0; i < 500; i++) { // 500 > 2 x 224: every cipher rekeys twice
            byte[] payload = new byte[i * 7 % 300];
            Arrays.fill(payload, (byte) i);
            String command = i % 2 == 0 ? "cfilter" : "sendheaders";
            byte[] packet = twoPieces.encrypt(MessageTypes.type(command), payload, NONE, i % 3 == 0);
            assertArrayEquals(packet, onePiece.encrypt(MessageTypes.encode(command, payload), NONE, i % 3 == 0));

            byte[] plain = receive(inPlace, packet, NONE);
            MessageTypes.Decoded d =
                    MessageTypes.decode(plain, V2Cipher.HEADER_LENGTH, plain.length - V2Cipher.HEADER_LENGTH);
            assertEquals(command, d.command());
            assertArrayEquals(payload, d.payload());

            copying.decryptLength(Arrays.copyOf(packet, V2Cipher.LENGTH_FIELD_LENGTH));
            V2Cipher.Packet p = copying.decrypt(
                    Arrays.copyOfRange(packet, V2Cipher.LENGTH_FIELD_LENGTH, packet.length),
                    packet.length - V2Cipher.LENGTH_FIELD_LENGTH,
                    NONE);
            assertEquals(i % 3 == 0, p.ignore());
            assertArrayEquals(MessageTypes.encode(command, payload), p.contents());
        }
    }
}
