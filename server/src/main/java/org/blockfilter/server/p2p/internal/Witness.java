package org.blockfilter.server.p2p.internal;

import org.blockfilter.filters.wire.WireReader;
import org.blockfilter.filters.wire.WireWriter;

/**
 * Removes BIP 144 witness data from serialized transactions and blocks, for peers that ask with
 * MSG_TX / MSG_BLOCK instead of their witness variants. The input comes from our node and is
 * trusted to be well formed; a malformed one is an {@link
 * org.blockfilter.filters.wire.WireFormatException}. Stateless.
 */
public final class Witness {
    private static final int MAX_ITEMS = 1_000_000;

    private Witness() {}

    /** The block with every transaction serialized without witnesses. */
    public static byte[] stripBlock(byte[] block) {
        WireReader r = new WireReader(block);
        WireWriter w = new WireWriter();
        w.bytes(r.bytes("header", 80));
        long n = r.compactSize("tx count", MAX_ITEMS);
        w.compactSize(n);
        for (long i = 0; i < n; i++) {
            stripTx(r, w);
        }
        r.end("block");
        return w.toByteArray();
    }

    /** The transaction without its witnesses (unchanged if it has none). */
    public static byte[] stripTx(byte[] tx) {
        WireReader r = new WireReader(tx);
        WireWriter w = new WireWriter();
        stripTx(r, w);
        r.end("tx");
        return w.toByteArray();
    }

    private static void stripTx(WireReader r, WireWriter w) {
        w.bytes(r.bytes("version", 4));
        long inputs = r.compactSize("input count", MAX_ITEMS);
        boolean segwit = false;
        if (inputs == 0) {
            int flag = r.u8("flag");
            if (flag != 1) {
                throw r.error("flag", flag, "segwit flag is not 1");
            }
            segwit = true;
            inputs = r.compactSize("input count", MAX_ITEMS);
        }
        w.compactSize(inputs);
        for (long i = 0; i < inputs; i++) {
            w.bytes(r.bytes("outpoint", 36));
            w.varBytes(r.varBytes("scriptSig", 4_000_000));
            w.bytes(r.bytes("sequence", 4));
        }
        long outputs = r.compactSize("output count", MAX_ITEMS);
        w.compactSize(outputs);
        for (long i = 0; i < outputs; i++) {
            w.bytes(r.bytes("value", 8));
            w.varBytes(r.varBytes("scriptPubKey", 4_000_000));
        }
        if (segwit) {
            for (long i = 0; i < inputs; i++) {
                long items = r.compactSize("witness count", MAX_ITEMS);
                for (long j = 0; j < items; j++) {
                    r.varBytes("witness item", 4_000_000);
                }
            }
        }
        w.bytes(r.bytes("locktime", 4));
    }
}
