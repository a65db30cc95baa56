package org.blockfilter.server.http.internal;

import org.bitcoinj.core.BloomFilter;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A client's BIP 37 {@code filterload} filter, parsed strictly, with Bitcoin Core's matching
 * semantics: an empty bit field matches everything and ignores inserts (Core's guard against
 * CVE-2013-5700). Membership tests and inserts use bitcoinj's {@link BloomFilter}. Mutable (the
 * update flags insert outpoints while scanning) and confined to one request.
 */
final class Bip37Filter {
    /** BIP 37: a filter's bit field is at most 36,000 bytes. */
    static final int MAX_FILTER_BYTES = 36_000;
    /** BIP 37: at most 50 hash functions. */
    static final long MAX_HASH_FUNCS = 50;
    static final int UPDATE_NONE = 0;
    static final int UPDATE_ALL = 1;
    static final int UPDATE_P2PUBKEY_ONLY = 2;
    private static final int UPDATE_MASK = 3;

    private final BloomFilter bloom;
    private final int dataLength;
    private final long hashFuncs;
    private final int flags;

    private Bip37Filter(BloomFilter bloom, int dataLength, long hashFuncs, int flags) {
        this.bloom = bloom;
        this.dataLength = dataLength;
        this.hashFuncs = hashFuncs;
        this.flags = flags;
    }

    /**
     * Parses {@code filterload} payload bytes: CompactSize length, bit field, uint32 nHashFuncs,
     * uint32 nTweak, uint8 nFlags, and nothing after.
     *
     * @throws BadRequestException naming the field and offset of the first problem
     */
    static Bip37Filter parse(byte[] payload) {
        ByteBuffer in = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        if (!in.hasRemaining()) {
            throw bad("filter is empty: expected CompactSize length at offset 0");
        }
        long length = readCompactSize(in);
        if (length > MAX_FILTER_BYTES) {
            throw new BadRequestException("filter_too_large",
                    "filter bit field of " + length + " bytes exceeds the BIP 37 limit of " + MAX_FILTER_BYTES);
        }
        if (in.remaining() < length + 9) {
            throw bad("filter truncated: " + payload.length + " bytes, need " + (in.position() + length + 9));
        }
        in.position(in.position() + (int) length);
        int hashFuncsOffset = in.position();
        long hashFuncs = Integer.toUnsignedLong(in.getInt());
        if (hashFuncs > MAX_HASH_FUNCS) {
            throw new BadRequestException("too_many_hash_functions", "nHashFuncs " + hashFuncs + " at offset "
                    + hashFuncsOffset + " exceeds the BIP 37 limit of " + MAX_HASH_FUNCS);
        }
        in.getInt();
        int flags = in.get() & 0xff;
        if (in.hasRemaining()) {
            throw bad(in.remaining() + " trailing bytes after nFlags at offset " + in.position());
        }
        BloomFilter bloom = BloomFilter.read(ByteBuffer.wrap(payload));
        return new Bip37Filter(bloom, (int) length, hashFuncs, flags);
    }

    private static long readCompactSize(ByteBuffer in) {
        int first = in.get() & 0xff;
        int width = first < 0xfd ? 0 : first == 0xfd ? 2 : first == 0xfe ? 4 : 8;
        if (in.remaining() < width) {
            throw bad("truncated CompactSize length at offset 0");
        }
        long value = switch (width) {
            case 0 -> first;
            case 2 -> Short.toUnsignedLong(in.getShort());
            case 4 -> Integer.toUnsignedLong(in.getInt());
            default -> in.getLong();
        };
        long min = width == 2 ? 0xfd : width == 4 ? 0x10000 : width == 8 ? 0x100000000L : 0;
        if (Long.compareUnsigned(value, min) < 0) {
            throw bad("non-canonical CompactSize length at offset 0");
        }
        return value < 0 ? Long.MAX_VALUE : value;
    }

    private static BadRequestException bad(String message) {
        return new BadRequestException("bad_filter", message);
    }

    int dataLength() {
        return dataLength;
    }

    long hashFuncs() {
        return hashFuncs;
    }

    int updateMode() {
        return flags & UPDATE_MASK;
    }

    boolean contains(byte[] object) {
        return dataLength == 0 || bloom.contains(object);
    }

    void insert(byte[] object) {
        if (dataLength != 0) {
            bloom.insert(object);
        }
    }
}
