package org.blockfilter.filters.bloom;

/**
 * MurmurHash3 x86_32, the hash BIP 37 uses, with an arbitrary 32-bit seed.
 *
 * <p>bitcoinj only exposes the hash already reduced modulo a filter's bit count, so the raw
 * 32-bit function is here, checked against Bitcoin Core's vectors. Stateless and thread-safe.
 */
public final class MurmurHash3 {
    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private MurmurHash3() {}

    /** The 32-bit hash of all of {@code data} (non-null) for {@code seed}. */
    public static int hash32(int seed, byte[] data) {
        return hash32(seed, data, 0, data.length);
    }

    /** The 32-bit hash of {@code data[offset, offset + length)} for {@code seed}; allocation-free. */
    public static int hash32(int seed, byte[] data, int offset, int length) {
        int h1 = seed;
        int end = offset + (length & ~3);
        for (int i = offset; i < end; i += 4) {
            int k1 = (data[i] & 0xff) | (data[i + 1] & 0xff) << 8 | (data[i + 2] & 0xff) << 16 | data[i + 3] << 24;
            h1 ^= mixK1(k1);
            h1 = Integer.rotateLeft(h1, 13);
            h1 = h1 * 5 + 0xe6546b64;
        }
        int k1 = 0;
        switch (length & 3) {
            case 3:
                k1 ^= (data[end + 2] & 0xff) << 16;
            // fall through
            case 2:
                k1 ^= (data[end + 1] & 0xff) << 8;
            // fall through
            case 1:
                k1 ^= data[end] & 0xff;
                h1 ^= mixK1(k1);
                break;
            default:
                break;
        }
        h1 ^= length;
        h1 ^= h1 >>> 16;
        h1 *= 0x85ebca6b;
        h1 ^= h1 >>> 13;
        h1 *= 0xc2b2ae35;
        h1 ^= h1 >>> 16;
        return h1;
    }

    /** The seed of hash function {@code i} of a filter with tweak {@code tweak} (BIP 37). */
    public static int seed(int hashNum, int tweak) {
        return (int) (hashNum * Bip37.SEED_MULTIPLIER + Integer.toUnsignedLong(tweak));
    }

    private static int mixK1(int k1) {
        k1 *= C1;
        k1 = Integer.rotateLeft(k1, 15);
        return k1 * C2;
    }
}
