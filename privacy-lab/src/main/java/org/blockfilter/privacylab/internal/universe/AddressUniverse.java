package org.blockfilter.privacylab.internal.universe;

/**
 * The adversary's candidate addresses: a deterministic, streamable stand-in for the blockchain's address set.
 *
 * <p>Candidate {@code i} is derived from {@code (seed, i)} alone with the SplitMix64 finaliser, so any range can be
 * generated independently (parallel scans) and the same seed always gives the same universe. A candidate has a
 * 20-byte HASH160 and a 33-byte compressed-looking public key. Neither is a real curve point or a real hash of the
 * other: a Bloom filter sees only opaque bytes hashed with MurmurHash3, so uniformly random bytes are exactly as
 * likely to be false positives as real addresses, and generating 33M real keys would take hours.
 * Immutable and thread-safe.
 */
public final class AddressUniverse {
    /** Bytes of an address's HASH160. */
    public static final int HASH_BYTES = 20;
    /** Bytes of a compressed public key. */
    public static final int PUBKEY_BYTES = 33;

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final long seed;

    public AddressUniverse(long seed) {
        this.seed = seed;
    }

    /** Writes candidate {@code index}'s HASH160 into {@code out[0..20)}. */
    public void hash160(long index, byte[] out) {
        long z = stream(index, 0);
        putLong(out, 0, mix(z));
        putLong(out, 8, mix(z + GOLDEN));
        putInt(out, 16, (int) mix(z + 2 * GOLDEN));
    }

    /** Writes candidate {@code index}'s public key into {@code out[0..33)}: 0x02/0x03 then 32 bytes. */
    public void pubKey(long index, byte[] out) {
        long z = stream(index, 1);
        long first = mix(z);
        out[0] = (byte) (2 + (first & 1));
        putLong(out, 1, mix(z + GOLDEN));
        putLong(out, 9, mix(z + 2 * GOLDEN));
        putLong(out, 17, mix(z + 3 * GOLDEN));
        putLong(out, 25, mix(z + 4 * GOLDEN));
    }

    private long stream(long index, int kind) {
        return mix(seed ^ mix(index * 2 + kind + 1)) * GOLDEN;
    }

    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static void putLong(byte[] b, int off, long v) {
        for (int i = 0; i < 8; i++) {
            b[off + i] = (byte) (v >>> (8 * i));
        }
    }

    private static void putInt(byte[] b, int off, int v) {
        for (int i = 0; i < 4; i++) {
            b[off + i] = (byte) (v >>> (8 * i));
        }
    }
}
