package org.blockfilter.server.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.wire.WireFormatException;
import org.blockfilter.filters.wire.WireReader;
import org.blockfilter.filters.wire.WireWriter;

/**
 * The byte layout of {@link IndexStore}'s keys and values (described at the top of {@link
 * IndexStore}): height and outpoint keys, the tip value, block records and undo records. Knows
 * nothing of RocksDB. Stateless and thread-safe.
 */
final class RecordCodec {
    /** Height, header, filter hash, filter header, previous filter header: all but the filter. */
    static final int RECORD_FIXED = 4 + StoredBlock.HEADER_SIZE + 3 * 32;

    /** The layout version this code reads and writes, under {@link #KEY_VERSION}. */
    static final int LAYOUT_VERSION = 1;
    /** Metadata keys (column family "default"). */
    static final byte[] KEY_VERSION = "version".getBytes(StandardCharsets.US_ASCII);

    static final byte[] KEY_GENESIS = "genesis".getBytes(StandardCharsets.US_ASCII);
    static final byte[] KEY_TIP = "tip".getBytes(StandardCharsets.US_ASCII);

    private static final int OUTPOINT_KEY = 36;

    private RecordCodec() {}

    static byte[] heightKey(int height) {
        return ByteBuffer.allocate(4).putInt(height).array();
    }

    // Hot (two per input and one per output, in the prepare stage): no ByteBuffer, no copy of
    // the hash before reversing it (Sha256Hash.serialize() copies, then reverses).
    static byte[] outpointKey(Sha256Hash txId, long index) {
        byte[] hash = txId.getBytes();
        byte[] key = new byte[OUTPOINT_KEY];
        for (int i = 0; i < 32; i++) {
            key[i] = hash[31 - i];
        }
        key[32] = (byte) (index >>> 24);
        key[33] = (byte) (index >>> 16);
        key[34] = (byte) (index >>> 8);
        key[35] = (byte) index;
        return key;
    }

    static byte[] tipValue(int height, byte[] hashKey) {
        return ByteBuffer.allocate(36).putInt(height).put(hashKey).array();
    }

    /** The tip value's height and hash. */
    static ChainTip decodeTip(byte[] value) {
        if (value.length != 36) {
            throw new StoreException("store corrupt: tip record has " + value.length + " bytes");
        }
        ByteBuffer in = ByteBuffer.wrap(value);
        return new ChainTip(in.getInt(), readHash(in));
    }

    /** The height a block record starts with, without decoding the rest. */
    static int recordHeight(byte[] value) {
        return ByteBuffer.wrap(value).getInt();
    }

    static byte[] encodeBlock(StoredBlock b) {
        byte[] filter = b.filterUnsafe();
        return ByteBuffer.allocate(RECORD_FIXED + filter.length)
                .putInt(b.height())
                .put(b.headerUnsafe())
                .put(b.filterHash().serialize())
                .put(b.filterHeader().serialize())
                .put(b.prevFilterHeader().serialize())
                .put(filter)
                .array();
    }

    static StoredBlock decodeBlock(Sha256Hash hash, byte[] value) {
        if (value.length < RECORD_FIXED) {
            throw new StoreException("store corrupt: block record of " + hash + " has " + value.length + " bytes");
        }
        ByteBuffer in = ByteBuffer.wrap(value);
        int height = in.getInt();
        byte[] header = new byte[StoredBlock.HEADER_SIZE];
        in.get(header);
        Sha256Hash filterHash = readHash(in);
        Sha256Hash filterHeader = readHash(in);
        Sha256Hash prev = readHash(in);
        byte[] filter = new byte[in.remaining()];
        in.get(filter);
        return new StoredBlock(hash, height, header, filterHash, filterHeader, prev, filter);
    }

    private static Sha256Hash readHash(ByteBuffer in) {
        byte[] b = new byte[32];
        in.get(b);
        return Sha256Hash.wrapReversed(b);
    }

    static byte[] encodeUndo(List<UnspentOutput> spent, List<UnspentOutput> created) {
        int size = 18 + created.size() * OUTPOINT_KEY;
        for (UnspentOutput out : spent) {
            size += OUTPOINT_KEY + 9 + out.scriptUnsafe().length;
        }
        WireWriter buf = new WireWriter(size);
        buf.compactSize(spent.size());
        for (UnspentOutput out : spent) {
            buf.bytes(outpointKey(out.txId(), out.index())).varBytes(out.scriptUnsafe());
        }
        buf.compactSize(created.size());
        for (UnspentOutput out : created) {
            buf.bytes(outpointKey(out.txId(), out.index()));
        }
        return buf.toByteArray();
    }

    /**
     * What disconnecting a block does to the UTXO family: the outputs it spent, to put back (key
     * and script), and the keys of the outputs it created, to delete.
     */
    record Undo(List<byte[]> spentKeys, List<byte[]> spentScripts, List<byte[]> createdKeys) {}

    /**
     * Decodes an undo record strictly.
     *
     * @throws StoreException naming the block if the record is malformed or has trailing bytes
     */
    static Undo decodeUndo(Sha256Hash blockHash, byte[] value) {
        WireReader in = new WireReader(value);
        try {
            int spentCount = in.count("undo spent count", Integer.MAX_VALUE, OUTPOINT_KEY + 1);
            List<byte[]> spentKeys = new ArrayList<>(spentCount);
            List<byte[]> spentScripts = new ArrayList<>(spentCount);
            for (int i = 0; i < spentCount; i++) {
                spentKeys.add(in.bytes("undo spent outpoint", OUTPOINT_KEY));
                spentScripts.add(in.varBytes("undo spent script", in.remaining()));
            }
            int createdCount = in.count("undo created count", Integer.MAX_VALUE, OUTPOINT_KEY);
            List<byte[]> createdKeys = new ArrayList<>(createdCount);
            for (int i = 0; i < createdCount; i++) {
                createdKeys.add(in.bytes("undo created outpoint", OUTPOINT_KEY));
            }
            in.end("undo record");
            return new Undo(spentKeys, spentScripts, createdKeys);
        } catch (WireFormatException e) {
            throw new StoreException("store corrupt: undo data of " + blockHash + ": " + e.getMessage(), e);
        } catch (java.nio.BufferUnderflowException e) {
            throw new StoreException("store corrupt: truncated undo data for " + blockHash, e);
        }
    }
}
