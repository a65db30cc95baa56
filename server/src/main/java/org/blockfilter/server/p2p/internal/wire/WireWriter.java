package org.blockfilter.server.p2p.internal.wire;

import java.io.ByteArrayOutputStream;
import org.bitcoinj.base.Sha256Hash;

/** Writes Bitcoin wire encodings. Mutable, not thread-safe; one writer per message. */
public final class WireWriter {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public WireWriter u8(int v) {
        out.write(v);
        return this;
    }

    public WireWriter u16be(int v) {
        out.write(v >>> 8);
        out.write(v);
        return this;
    }

    public WireWriter u32le(long v) {
        for (int i = 0; i < 4; i++) {
            out.write((int) (v >>> (8 * i)));
        }
        return this;
    }

    public WireWriter i64le(long v) {
        for (int i = 0; i < 8; i++) {
            out.write((int) (v >>> (8 * i)));
        }
        return this;
    }

    public WireWriter bytes(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    /** A hash given in display order, written in wire (internal) byte order. */
    public WireWriter hash(Sha256Hash h) {
        return bytes(h.serialize());
    }

    public WireWriter compactSize(long v) {
        if (v < 0xfd) {
            u8((int) v);
        } else if (v <= 0xffff) {
            u8(0xfd);
            out.write((int) v);
            out.write((int) (v >>> 8));
        } else if (v <= 0xffff_ffffL) {
            u8(0xfe);
            u32le(v);
        } else {
            u8(0xff);
            i64le(v);
        }
        return this;
    }

    public WireWriter varBytes(byte[] b) {
        return compactSize(b.length).bytes(b);
    }

    public byte[] toByteArray() {
        return out.toByteArray();
    }
}
