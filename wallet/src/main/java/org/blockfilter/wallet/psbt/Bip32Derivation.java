package org.blockfilter.wallet.psbt;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.VarInt;
import org.bitcoinj.crypto.ChildNumber;

/**
 * The value of BIP 174's derivation fields, {@code <4-byte fingerprint> <32-bit LE index>*}, and of
 * BIP 371's taproot ones, which put {@code <compact size n> <32-byte leaf hash>*n} in front.
 * Immutable.
 *
 * @param fingerprint the fingerprint as BIP 32 defines it, the first 4 bytes of HASH160 read big endian
 * @param path        the steps from that key
 */
public record Bip32Derivation(int fingerprint, List<ChildNumber> path) {
    public Bip32Derivation {
        path = List.copyOf(path);
    }

    /** Reads a value the decoder has already checked. */
    public static Bip32Derivation read(byte[] value) {
        return read(ByteBuffer.wrap(value));
    }

    /** Reads a taproot derivation value, skipping its leaf hashes. */
    public static Bip32Derivation readTaproot(byte[] value) {
        ByteBuffer b = ByteBuffer.wrap(value);
        long hashes = VarInt.read(b).longValue();
        b.position(b.position() + (int) hashes * 32);
        return read(b);
    }

    private static Bip32Derivation read(ByteBuffer b) {
        int fingerprint = b.order(ByteOrder.BIG_ENDIAN).getInt();
        b.order(ByteOrder.LITTLE_ENDIAN);
        List<ChildNumber> path = new ArrayList<>();
        while (b.hasRemaining()) {
            path.add(new ChildNumber(b.getInt()));
        }
        return new Bip32Derivation(fingerprint, path);
    }

    /** The value as BIP 174 stores it: the fingerprint, then each path step as a little-endian uint32. */
    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(4 + 4 * path.size());
        b.order(ByteOrder.BIG_ENDIAN).putInt(fingerprint);
        b.order(ByteOrder.LITTLE_ENDIAN);
        path.forEach(c -> b.putInt(c.i()));
        return b.array();
    }

    /** The taproot form for a key with no leaves (a key-path internal key). */
    public byte[] encodeTaproot() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x00);
        out.writeBytes(encode());
        return out.toByteArray();
    }
}
