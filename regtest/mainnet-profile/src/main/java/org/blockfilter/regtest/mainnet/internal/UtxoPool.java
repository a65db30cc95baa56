package org.blockfilter.regtest.mainnet.internal;

import java.util.Arrays;
import java.util.BitSet;

/**
 * Every output the generator has created, by serial number (creation order), with its script id,
 * whether it is spent, and the transaction that created it. About 4 bytes per output plus 40 per
 * transaction, so 10 million outputs fit in ~100 MB of heap. Not thread-safe.
 */
public final class UtxoPool {
    private int[] scriptOf = new int[1 << 20];
    private int outputs;
    private final BitSet spent = new BitSet();
    private int unspent;

    private int[] txFirst = new int[1 << 16];
    private int[] txHeight = new int[1 << 16];
    private byte[] txids = new byte[32 << 16];
    private int txs;

    /** Serial number the next output gets. */
    public int outputs() {
        return outputs;
    }

    public int unspent() {
        return unspent;
    }

    /** Starts a transaction whose outputs get the next serial numbers; its txid comes later. */
    public int beginTx(int height) {
        if (txs == txFirst.length) {
            txFirst = Arrays.copyOf(txFirst, txs * 2);
            txHeight = Arrays.copyOf(txHeight, txs * 2);
            txids = Arrays.copyOf(txids, txs * 64);
        }
        txFirst[txs] = outputs;
        txHeight[txs] = height;
        return txs++;
    }

    public void setTxid(int tx, byte[] txid) {
        System.arraycopy(txid, 0, txids, tx * 32, 32);
    }

    /** Adds an output of the current transaction; OP_RETURN outputs are born spent. */
    public int add(int scriptId) {
        if (outputs == scriptOf.length) {
            scriptOf = Arrays.copyOf(scriptOf, outputs * 2);
        }
        scriptOf[outputs] = scriptId;
        if (Scripts.type(scriptId) == Scripts.OP_RETURN) {
            spent.set(outputs);
        } else {
            unspent++;
        }
        return outputs++;
    }

    public int scriptOf(int serial) {
        return scriptOf[serial];
    }

    /** The transaction number that created output {@code serial}. */
    public int txOf(int serial) {
        int i = Arrays.binarySearch(txFirst, 0, txs, serial);
        if (i >= 0) {
            // several transactions may start at the same serial only if some have no outputs; they do not
            return i;
        }
        return -i - 2;
    }

    public int vout(int serial) {
        return serial - txFirst[txOf(serial)];
    }

    public int heightOf(int serial) {
        return txHeight[txOf(serial)];
    }

    public void writeTxid(ByteSink out, int tx) {
        out.bytes(txids, tx * 32, 32);
    }

    /**
     * Marks and returns an unspent output with serial below {@code limit}: the first unspent one
     * at or after {@code from}, wrapping to older outputs; -1 if there is none.
     */
    public int takeFrom(int from, int limit) {
        int s = spent.nextClearBit(from);
        if (s >= limit) {
            s = spent.nextClearBit(0);
            if (s >= limit) {
                return -1;
            }
        }
        spent.set(s);
        unspent--;
        return s;
    }
}
