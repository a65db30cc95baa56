package org.blockfilter.filters.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.bitcoinj.base.Sha256Hash;

/**
 * Writes Bitcoin wire encodings into a growing buffer: little-endian integers, hashes in wire order,
 * canonical CompactSizes and length-prefixed bytes and strings. Mutable and not thread-safe: one
 * writer per message. Methods return the writer for chaining; arguments must not be null.
 */
public final class WireWriter {
    private final ByteArrayOutputStream out;

    /** A writer with a small initial buffer, for short messages. */
    public WireWriter() {
        this(64);
    }

    /** A writer whose buffer starts at {@code capacity} bytes (it grows as needed). */
    public WireWriter(int capacity) {
        out = new ByteArrayOutputStream(capacity);
    }

    /** The low 8 bits of {@code v}. */
    public WireWriter u8(int v) {
        out.write(v);
        return this;
    }

    /** The low 16 bits of {@code v}, little-endian. */
    public WireWriter u16le(int v) {
        return le(v, 2);
    }

    /** Big-endian, as network addresses carry their port. */
    public WireWriter u16be(int v) {
        out.write(v >>> 8);
        out.write(v);
        return this;
    }

    /** The low 32 bits of {@code v}. */
    public WireWriter u32le(long v) {
        return le(v, 4);
    }

    /** All 64 bits of {@code v}, little-endian (a uint64 or an int64 on the wire). */
    public WireWriter u64le(long v) {
        return le(v, 8);
    }

    private WireWriter le(long v, int width) {
        for (int i = 0; i < width; i++) {
            out.write((int) (v >>> (8 * i)));
        }
        return this;
    }

    /** The bytes as they are, with no length prefix (see {@code varBytes} for a prefixed copy). */
    public WireWriter bytes(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    /** A hash given in bitcoinj's display order, written in wire (internal) byte order. */
    public WireWriter hash(Sha256Hash h) {
        return bytes(h.serialize());
    }

    /** The canonical CompactSize of {@code v} (unsigned). */
    public WireWriter compactSize(long v) {
        byte[] buf = new byte[9];
        out.write(buf, 0, CompactSize.write(v, buf, 0));
        return this;
    }

    /** CompactSize length, then the bytes. */
    public WireWriter varBytes(byte[] b) {
        return compactSize(b.length).bytes(b);
    }

    /** CompactSize length, then the UTF-8 bytes of {@code s}. */
    public WireWriter varString(String s) {
        return varBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Bytes written so far. */
    public int size() {
        return out.size();
    }

    /** A copy of the bytes written so far. */
    public byte[] toByteArray() {
        return out.toByteArray();
    }
}
