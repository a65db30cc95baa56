package org.blockfilter.wallet.keys;

import fr.acinq.secp256k1.Secp256k1;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import org.bitcoinj.base.Sha256Hash;

/**
 * The BIP 341 key tweak of a taproot output: output key {@code Q = P + int(hashTapTweak(x(P) || m))G}
 * with P the internal key lifted to even y and m the script tree's merkle root (none for BIP 86
 * single-key outputs), and the matching private key for key-path spends. bitcoinj 0.17 encodes
 * P2TR addresses but cannot tweak keys, so the tweaks are libsecp256k1's
 * ({@code secp256k1_ec_pubkey_tweak_add}, {@code secp256k1_ec_seckey_negate},
 * {@code secp256k1_ec_seckey_tweak_add}).
 * Stateless; thread-safe.
 */
public final class Taproot {
    /** libsecp256k1 through ACINQ's JNI binding (as {@link Schnorr}). */
    private static final Secp256k1 SECP = Secp256k1.Companion.get();
    /** The curve order n (SEC 2), for the range check of the tweak. */
    private static final BigInteger N =
            new BigInteger("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16);

    private Taproot() {}

    /** The 32-byte x-only output key for an internal public key (33-byte compressed SEC), no script tree. */
    public static byte[] outputKey(byte[] compressedInternalKey) {
        if (compressedInternalKey.length != 33) {
            throw new IllegalArgumentException(
                    "internal key must be 33 bytes compressed, got " + compressedInternalKey.length);
        }
        return outputKey(Arrays.copyOfRange(compressedInternalKey, 1, 33), null);
    }

    /**
     * The 32-byte x-only output key for a 32-byte x-only internal key and a script tree's merkle
     * root ({@code null}: key path only, as BIP 86).
     */
    public static byte[] outputKey(byte[] xOnlyInternalKey, byte[] merkleRoot) {
        if (xOnlyInternalKey.length != 32) {
            throw new IllegalArgumentException("x-only internal key must be 32 bytes, got " + xOnlyInternalKey.length);
        }
        byte[] even = new byte[33];
        even[0] = 0x02;
        System.arraycopy(xOnlyInternalKey, 0, even, 1, 32);
        byte[] q;
        try {
            // libsecp256k1's secp256k1_ec_pubkey_tweak_add: P + tG, uncompressed (0x04 || x || y).
            q = SECP.pubKeyTweakAdd(SECP.pubkeyParse(even), to32(tweak(xOnlyInternalKey, merkleRoot)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "not a taproot internal key, or the output key is infinity: " + e.getMessage(), e);
        }
        return Arrays.copyOfRange(q, 1, 33);
    }

    /**
     * The private key that signs for the output key of {@code internalPrivateKey} (32 bytes, big
     * endian) on the key path: {@code d' = (P has even y ? d : n - d) + t mod n}.
     */
    public static byte[] tweakPrivateKey(byte[] internalPrivateKey, byte[] merkleRoot) {
        if (internalPrivateKey.length != 32) {
            throw new IllegalArgumentException("private key must be 32 bytes, got " + internalPrivateKey.length);
        }
        byte[] p;
        try {
            p = SECP.pubKeyCompress(SECP.pubkeyCreate(internalPrivateKey));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("private key out of range", e);
        }
        byte[] d = p[0] == 0x03 ? SECP.privKeyNegate(internalPrivateKey) : internalPrivateKey;
        byte[] t = to32(tweak(Arrays.copyOfRange(p, 1, 33), merkleRoot));
        try {
            return SECP.privKeyTweakAdd(d, t);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("tweaked private key is zero", e);
        }
    }

    /** {@code int(hashTapTweak(x(P) || merkleRoot))}, checked below the curve order. */
    static BigInteger tweak(byte[] xOnlyInternalKey, byte[] merkleRoot) {
        byte[] msg = xOnlyInternalKey;
        if (merkleRoot != null) {
            if (merkleRoot.length != 32) {
                throw new IllegalArgumentException("merkle root must be 32 bytes, got " + merkleRoot.length);
            }
            msg = Arrays.copyOf(xOnlyInternalKey, 64);
            System.arraycopy(merkleRoot, 0, msg, 32, 32);
        }
        BigInteger t = new BigInteger(1, taggedHash("TapTweak", msg));
        if (t.compareTo(N) >= 0) {
            throw new IllegalArgumentException("taproot tweak out of range");
        }
        return t;
    }

    /** BIP 340 tagged hash: {@code SHA256(SHA256(tag) || SHA256(tag) || msg)}. */
    public static byte[] taggedHash(String tag, byte[] msg) {
        byte[] tagHash = Sha256Hash.hash(tag.getBytes(StandardCharsets.UTF_8));
        MessageDigest d = Sha256Hash.newDigest();
        d.update(tagHash);
        d.update(tagHash);
        d.update(msg);
        return d.digest();
    }

    private static byte[] to32(BigInteger v) {
        byte[] raw = v.toByteArray();
        byte[] out = new byte[32];
        int len = Math.min(raw.length, 32);
        System.arraycopy(raw, raw.length - len, out, 32 - len, len);
        return out;
    }
}
