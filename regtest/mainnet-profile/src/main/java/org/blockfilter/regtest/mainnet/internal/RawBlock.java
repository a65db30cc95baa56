package org.blockfilter.regtest.mainnet.internal;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A minimal reader of a serialized block: the transactions' byte ranges, ids and fields, enough
 * to answer {@code getblock} at verbosity 1-3 without building bitcoinj objects. Immutable
 * after parsing; decodes only what the generator writes (no bounds checks beyond the array's).
 */
public final class RawBlock {
    /** A byte range of the block. */
    public record Range(int offset, int length) {}

    public record Input(byte[] prevTxid, long vout, Range scriptSig, List<Range> witness, long sequence) {}

    public record Output(long value, Range script) {}

    public record Tx(
            Range bytes,
            byte[] txid,
            byte[] wtxid,
            int version,
            long lockTime,
            int strippedSize,
            List<Input> inputs,
            List<Output> outputs) {}

    private final byte[] b;
    private int pos;
    private final List<Tx> txs = new ArrayList<>();

    private RawBlock(byte[] block) {
        this.b = block;
    }

    public static RawBlock parse(byte[] block) {
        RawBlock r = new RawBlock(block);
        r.read();
        return r;
    }

    public byte[] bytes() {
        return b;
    }

    public List<Tx> txs() {
        return txs;
    }

    /** The transaction id of the first (coinbase) transaction of {@code block}, in wire byte order. */
    public static byte[] coinbaseTxid(byte[] block) {
        RawBlock r = new RawBlock(block);
        r.pos = 80;
        r.varInt();
        return r.tx(ByteSink.sha256()).txid();
    }

    private void read() {
        pos = 80;
        long n = varInt();
        MessageDigest sha = ByteSink.sha256();
        for (long i = 0; i < n; i++) {
            txs.add(tx(sha));
        }
    }

    private Tx tx(MessageDigest sha) {
        int start = pos;
        int version = (int) u32();
        boolean segwit = b[pos] == 0 && b[pos + 1] == 1;
        if (segwit) {
            pos += 2;
        }
        int mid = pos;
        long nIn = varInt();
        List<Input> inputs = new ArrayList<>((int) nIn);
        byte[][] prev = new byte[(int) nIn][];
        long[] vouts = new long[(int) nIn];
        Range[] sigs = new Range[(int) nIn];
        long[] seqs = new long[(int) nIn];
        for (int i = 0; i < nIn; i++) {
            prev[i] = Arrays.copyOfRange(b, pos, pos + 32);
            pos += 32;
            vouts[i] = u32();
            int len = (int) varInt();
            sigs[i] = new Range(pos, len);
            pos += len;
            seqs[i] = u32();
        }
        long nOut = varInt();
        List<Output> outputs = new ArrayList<>((int) nOut);
        for (int i = 0; i < nOut; i++) {
            long value = u32() | (u32() << 32);
            int len = (int) varInt();
            outputs.add(new Output(value, new Range(pos, len)));
            pos += len;
        }
        int midEnd = pos;
        List<List<Range>> witnesses = new ArrayList<>();
        for (int i = 0; i < nIn; i++) {
            List<Range> items = new ArrayList<>();
            if (segwit) {
                long k = varInt();
                for (int j = 0; j < k; j++) {
                    int len = (int) varInt();
                    items.add(new Range(pos, len));
                    pos += len;
                }
            }
            witnesses.add(items);
        }
        long lockTime = u32();
        int end = pos;
        for (int i = 0; i < nIn; i++) {
            inputs.add(new Input(prev[i], vouts[i], sigs[i], witnesses.get(i), seqs[i]));
        }
        sha.update(b, start, 4);
        sha.update(b, mid, midEnd - mid);
        sha.update(b, end - 4, 4);
        byte[] txid = sha.digest(sha.digest());
        byte[] wtxid = segwit ? ByteSink.sha256d(sha, b, start, end - start) : txid;
        int stripped = 4 + (midEnd - mid) + 4;
        return new Tx(new Range(start, end - start), txid, wtxid, version, lockTime, stripped, inputs, outputs);
    }

    private long u32() {
        long v = (b[pos] & 0xffL) | (b[pos + 1] & 0xffL) << 8 | (b[pos + 2] & 0xffL) << 16 | (b[pos + 3] & 0xffL) << 24;
        pos += 4;
        return v;
    }

    private long varInt() {
        int first = b[pos++] & 0xff;
        if (first < 0xfd) {
            return first;
        }
        if (first == 0xfd) {
            int v = (b[pos] & 0xff) | (b[pos + 1] & 0xff) << 8;
            pos += 2;
            return v;
        }
        if (first == 0xfe) {
            return u32();
        }
        return u32() | (u32() << 32);
    }
}
