package org.blockfilter.filters.gcs;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.blockfilter.filters.gcs.internal.HashSort;
import org.blockfilter.filters.gcs.internal.RiceCodec;
import org.blockfilter.filters.wire.CompactSize;
import org.blockfilter.filters.wire.WireFormatException;

/**
 * A Golomb-coded set (GCS) exactly as BIP 158 defines it: N distinct items are hashed with SipHash-2-4
 * under a 128-bit key into the range [0, N*M) by a 64x64->128 multiply, sorted, and their deltas
 * Golomb-Rice coded with parameter P. The encoding is CompactSize N followed by the bit stream, MSB first,
 * zero padded to a whole byte.
 *
 * <p>Immutable and thread-safe. Copies byte arrays in and out. Null arguments, null items and null
 * queries are rejected with {@link NullPointerException}. Equality is by P, M, key and encoding.
 *
 * <p>Decoding is strict: only encodings that {@link #build} can produce are accepted, so that
 * {@code decode(x).encoded()} equals {@code x}. See {@link #decode} for what that rejects.
 *
 * @see <a href="https://github.com/bitcoin/bips/blob/master/bip-0158.mediawiki#golomb-coded-sets">BIP 158: GCS</a>
 */
public final class GolombCodedSet {

    /** Largest P we support: the remainder plus stop bit must fit a 64-bit window with a byte offset. */
    public static final int MAX_P = 32;

    private final int p;
    private final long m;
    private final byte[] key;
    private final long k0;
    private final long k1;
    private final int n;
    private final long f;
    /** The encoding followed by {@link RiceCodec#PAD} zero bytes. Never handed out. */
    private final byte[] buf;

    private final int length;
    private final int headerLength;

    private GolombCodedSet(int p, long m, byte[] key, int n, byte[] buf, int length) {
        this.p = p;
        this.m = m;
        this.key = key;
        this.k0 = SipHash.keyHalf(key, 0);
        this.k1 = SipHash.keyHalf(key, 8);
        this.n = n;
        this.f = (long) n * m;
        this.buf = buf;
        this.length = length;
        this.headerLength = CompactSize.size(n);
    }

    /**
     * Builds the set of {@code items}. Items equal by content count once (N is the number of distinct
     * items); distinct items whose hashes collide in the range are both kept, as BIP 158 requires.
     *
     * @param p     Golomb-Rice parameter, 1..{@value #MAX_P}
     * @param m     inverse false-positive rate, 1..2^32-1
     * @param key16 the 128-bit SipHash key (16 bytes)
     * @throws IllegalArgumentException if a parameter is out of range or the encoding would not fit an array
     */
    public static GolombCodedSet build(int p, long m, byte[] key16, Collection<byte[]> items) {
        checkParams(p, m, key16);
        Objects.requireNonNull(items, "items");
        byte[] key = key16.clone();
        long k0 = SipHash.keyHalf(key, 0);
        long k1 = SipHash.keyHalf(key, 8);

        long[] hashes = new long[items.size()];
        int count = 0;
        for (byte[] item : items) {
            Objects.requireNonNull(item, "item");
            // Stored with the sign bit flipped so that a signed sort is an unsigned sort.
            hashes[count++] = SipHash.hash24(k0, k1, item, 0, item.length) ^ Long.MIN_VALUE;
        }
        HashSort.sort(hashes, count);
        if (hasAdjacentEqual(hashes, count)) {
            // Equal 64-bit hashes: duplicate items (or, rarely, a true collision). Dedupe by content.
            Set<ByteBuffer> distinct = new LinkedHashSet<>();
            for (byte[] item : items) {
                distinct.add(ByteBuffer.wrap(item));
            }
            count = 0;
            for (ByteBuffer item : distinct) {
                hashes[count++] = SipHash.hash24(k0, k1, item.array(), 0, item.array().length) ^ Long.MIN_VALUE;
            }
            HashSort.sort(hashes, count);
        }
        return encode(p, m, key, hashes, count);
    }

    private static boolean hasAdjacentEqual(long[] sorted, int count) {
        for (int i = 1; i < count; i++) {
            if (sorted[i] == sorted[i - 1]) {
                return true;
            }
        }
        return false;
    }

    /** Maps sorted (sign-flipped) hashes into [0, N*M) and Rice-codes the deltas. */
    private static GolombCodedSet encode(int p, long m, byte[] key, long[] flippedSortedHashes, int n) {
        long f = (long) n * m;
        // Hash-to-range is monotonic in the unsigned hash, so the mapped values are already sorted.
        long totalBits = 0;
        long prev = 0;
        for (int i = 0; i < n; i++) {
            long value = hashToRange(flippedSortedHashes[i] ^ Long.MIN_VALUE, f);
            flippedSortedHashes[i] = value;
            totalBits += RiceCodec.bits(value - prev, p);
            prev = value;
            if (totalBits < 0 || totalBits > 8L * (Integer.MAX_VALUE - 64)) {
                throw new IllegalArgumentException("encoding too large for P=" + p + ", M=" + m + ", N=" + n);
            }
        }
        int header = CompactSize.size(n);
        int length = header + (int) ((totalBits + 7) >>> 3);
        byte[] buf = new byte[length + RiceCodec.PAD];
        CompactSize.write(n, buf, 0);
        RiceCodec.Writer writer = new RiceCodec.Writer(buf, 8L * header, p);
        prev = 0;
        for (int i = 0; i < n; i++) {
            long value = flippedSortedHashes[i];
            writer.write(value - prev);
            prev = value;
        }
        return new GolombCodedSet(p, m, key, n, buf, length);
    }

    /**
     * Decodes and fully validates an encoding. Rejects with {@link FilterFormatException} (naming field,
     * value and byte offset):
     * <ul>
     *   <li>a truncated or non-canonical CompactSize N, and N &gt;= 2^32;</li>
     *   <li>N larger than the remaining bits could hold ({@code P+1} bits per element at least), before
     *       anything is allocated or decoded from N;</li>
     *   <li>a bit stream that ends inside an element;</li>
     *   <li>a unary run (quotient) or an element value reaching N*M: no encoder produces one;</li>
     *   <li>non-zero padding bits in the last byte, and any bytes after it.</li>
     * </ul>
     * Bitcoin Core accepts non-zero padding bits and values &gt;= N*M (it only checks N elements decode and
     * no bytes remain); it never produces either, and BIP 157 headers commit to the exact bytes, so
     * rejecting them loses no filter Core serves. Memory use is one copy of the input; time is linear in it.
     */
    public static GolombCodedSet decode(int p, long m, byte[] key16, byte[] encoded) {
        checkParams(p, m, key16);
        Objects.requireNonNull(encoded, "encoded");
        int length = encoded.length;
        long nValue;
        try {
            nValue = CompactSize.read(encoded, 0, length, "N", 0xffff_ffffL);
        } catch (WireFormatException e) {
            throw new FilterFormatException(e.field(), e.value(), e.offset(), e.reason());
        }
        int header = CompactSize.size(nValue);
        long dataBits = 8L * (length - header);
        if (nValue * (p + 1L) > dataBits) {
            throw new FilterFormatException(
                    "N",
                    nValue,
                    0,
                    "claims " + nValue + " elements but only " + dataBits + " bits follow, at least " + (p + 1)
                            + " per element");
        }
        if (nValue > Integer.MAX_VALUE) {
            throw new FilterFormatException("N", nValue, 0, "more elements than this implementation supports");
        }
        int n = (int) nValue;
        byte[] buf = Arrays.copyOf(encoded, length + RiceCodec.PAD);
        long f = nValue * m;
        long endBit = 8L * length;
        long end = new RiceCodec.Reader(buf, 8L * header, p).validate(n, endBit, f);
        long usedBytes = (end + 7) >>> 3;
        if (usedBytes < length) {
            throw new FilterFormatException(
                    "trailing data", (length - usedBytes) + " bytes", usedBytes, "bytes after the last element");
        }
        int tailBits = (int) (usedBytes * 8 - end);
        if (tailBits > 0 && (buf[length - 1] & ((1 << tailBits) - 1)) != 0) {
            throw new FilterFormatException(
                    "padding",
                    String.format("0x%02x", buf[length - 1] & 0xff),
                    length - 1,
                    "padding bits after the last element must be zero");
        }
        return new GolombCodedSet(p, m, key16.clone(), n, buf, length);
    }

    private static void checkParams(int p, long m, byte[] key16) {
        Objects.requireNonNull(key16, "key16");
        if (p < 1 || p > MAX_P) {
            throw new IllegalArgumentException("P must be in 1.." + MAX_P + ": " + p);
        }
        if (m < 1 || m > 0xffff_ffffL) {
            throw new IllegalArgumentException("M must be in 1..2^32-1: " + m);
        }
        if (key16.length != 16) {
            throw new IllegalArgumentException("key must be 16 bytes: " + key16.length);
        }
    }

    /** BIP 158 hash-to-range: {@code (hash * f) >> 64} with a 64x64->128 unsigned multiply. */
    public static long hashToRange(long hash, long f) {
        // Math.unsignedMultiplyHigh is Java 18+; this is its definition.
        return Math.multiplyHigh(hash, f) + ((hash >> 63) & f) + ((f >> 63) & hash);
    }

    /** The Golomb-Rice parameter. */
    public int p() {
        return p;
    }

    /** The inverse false-positive rate. */
    public long m() {
        return m;
    }

    /** N, the number of distinct items. */
    public int size() {
        return n;
    }

    /** A copy of the 16-byte key. */
    public byte[] key() {
        return key.clone();
    }

    /** A copy of the encoding: CompactSize N, then the Golomb-Rice bits. */
    public byte[] encoded() {
        return Arrays.copyOf(buf, length);
    }

    /** Length of {@link #encoded()} in bytes, without copying. */
    public int encodedLength() {
        return length;
    }

    /** The sorted values in [0, N*M) that the set holds (may repeat on a hash collision). */
    public long[] values() {
        long[] values = new long[n];
        RiceCodec.Reader reader = reader();
        long value = 0;
        for (int i = 0; i < n; i++) {
            value += reader.next();
            values[i] = value;
        }
        return values;
    }

    private RiceCodec.Reader reader() {
        return new RiceCodec.Reader(buf, 8L * headerLength, p);
    }

    /** Whether {@code item} may be in the set (false positives at rate about 1/M; no false negatives). */
    public boolean match(byte[] item) {
        Objects.requireNonNull(item, "item");
        if (n == 0) {
            return false;
        }
        long target = hashToRange(SipHash.hash24(k0, k1, item, 0, item.length), f) ^ Long.MIN_VALUE;
        RiceCodec.Reader reader = reader();
        long value = 0;
        for (int i = 0; i < n; i++) {
            value += reader.next();
            long flipped = value ^ Long.MIN_VALUE;
            if (flipped >= target) {
                return flipped == target;
            }
        }
        return false;
    }

    /**
     * Whether any of {@code items} may be in the set. An empty query matches nothing. Hashes and sorts the
     * query, then walks the stream once, stopping at the first match.
     */
    public boolean matchAny(Collection<byte[]> items) {
        Objects.requireNonNull(items, "items");
        if (n == 0 || items.isEmpty()) {
            for (byte[] item : items) {
                Objects.requireNonNull(item, "item");
            }
            return false;
        }
        long[] targets = new long[items.size()];
        int count = 0;
        for (byte[] item : items) {
            Objects.requireNonNull(item, "item");
            targets[count++] = SipHash.hash24(k0, k1, item, 0, item.length) ^ Long.MIN_VALUE;
        }
        // Sort the uniform hashes (fast bucket sort); hash-to-range is monotonic, so mapping keeps the order.
        HashSort.sort(targets, count);
        for (int i = 0; i < count; i++) {
            targets[i] = hashToRange(targets[i] ^ Long.MIN_VALUE, f) ^ Long.MIN_VALUE;
        }
        return matchSortedFlipped(targets, count);
    }

    /**
     * The position in {@code items} of the first item the set cannot hold, or -1 when it may hold them
     * all (each with false-positive rate about 1/M). Hashes and sorts the query, then walks the stream
     * once, so checking a whole block's scripts is linear in the set's size where calling
     * {@link #match} per item is quadratic.
     */
    public int firstAbsent(List<byte[]> items) {
        boolean[] present = matchEach(items);
        for (int i = 0; i < present.length; i++) {
            if (!present[i]) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Per item of {@code items}, whether the set may hold it (each absent one matches with false-positive
     * rate about 1/M): {@link #match} of each, in one walk of the stream for all of them, so asking which
     * of a block's thousands of scripts another filter holds is linear in the set's size, not quadratic.
     */
    public boolean[] matchEach(List<byte[]> items) {
        Objects.requireNonNull(items, "items");
        int count = items.size();
        boolean[] out = new boolean[count];
        long[] targets = new long[count];
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            byte[] item = Objects.requireNonNull(items.get(i), "item");
            targets[i] = hashToRange(SipHash.hash24(k0, k1, item, 0, item.length), f) ^ Long.MIN_VALUE;
            order[i] = i;
        }
        if (n == 0) {
            return out;
        }
        Arrays.sort(order, (a, b) -> Long.compare(targets[a], targets[b]));
        RiceCodec.Reader reader = reader();
        long value = 0;
        long current = 0;
        int read = 0;
        for (int index : order) {
            long target = targets[index];
            while ((read == 0 || current < target) && read < n) {
                value += reader.next();
                current = value ^ Long.MIN_VALUE;
                read++;
            }
            out[index] = read > 0 && current == target;
        }
        return out;
    }

    private boolean matchSortedFlipped(long[] targets, int count) {
        RiceCodec.Reader reader = reader();
        long value = 0;
        int t = 0;
        long target = targets[0];
        for (int i = 0; i < n; i++) {
            value += reader.next();
            long flipped = value ^ Long.MIN_VALUE;
            while (target < flipped) {
                if (++t == count) {
                    return false;
                }
                target = targets[t];
            }
            if (target == flipped) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof GolombCodedSet)) {
            return false;
        }
        GolombCodedSet other = (GolombCodedSet) o;
        return p == other.p
                && m == other.m
                && Arrays.equals(key, other.key)
                && Arrays.equals(buf, 0, length, other.buf, 0, other.length);
    }

    @Override
    public int hashCode() {
        int h = 31 * p + Long.hashCode(m);
        h = 31 * h + Arrays.hashCode(key);
        for (int i = 0; i < length; i++) {
            h = 31 * h + buf[i];
        }
        return h;
    }

    @Override
    public String toString() {
        String hex = HexFormat.of().formatHex(buf, 0, Math.min(length, 32));
        return "GolombCodedSet[P=" + p + ", M=" + m + ", N=" + n + ", " + length + " bytes: " + hex
                + (length > 32 ? "..." : "") + "]";
    }
}
