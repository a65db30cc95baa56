package org.blockfilter.wallet.keys;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import org.bitcoinj.base.Sha256Hash;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECPoint;

/**
 * The BIP 341 key tweak of a taproot output: output key {@code Q = P + int(hashTapTweak(x(P) || m))G}
 * with P the internal key lifted to even y and m the script tree's merkle root (none for BIP 86
 * single-key outputs), and the matching private key for key-path spends. bitcoinj 0.17 encodes
 * P2TR addresses but cannot tweak keys, so the arithmetic lives here (BouncyCastle).
 * Stateless; thread-safe.
 */
public final class Taproot {
    private static final X9ECParameters CURVE = CustomNamedCurves.getByName("secp256k1");

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
        ECPoint internal = CURVE.getCurve().decodePoint(even);
        ECPoint q = internal.add(CURVE.getG().multiply(tweak(xOnlyInternalKey, merkleRoot)))
                .normalize();
        if (q.isInfinity()) {
            throw new IllegalArgumentException("taproot output key is infinity");
        }
        return q.getAffineXCoord().getEncoded();
    }

    /**
     * The private key that signs for the output key of {@code internalPrivateKey} (32 bytes, big
     * endian) on the key path: {@code d' = (P has even y ? d : n - d) + t mod n}.
     */
    public static byte[] tweakPrivateKey(byte[] internalPrivateKey, byte[] merkleRoot) {
        if (internalPrivateKey.length != 32) {
            throw new IllegalArgumentException("private key must be 32 bytes, got " + internalPrivateKey.length);
        }
        BigInteger n = CURVE.getN();
        BigInteger d = new BigInteger(1, internalPrivateKey);
        if (d.signum() == 0 || d.compareTo(n) >= 0) {
            throw new IllegalArgumentException("private key out of range");
        }
        ECPoint p = CURVE.getG().multiply(d).normalize();
        if (p.getAffineYCoord().toBigInteger().testBit(0)) {
            d = n.subtract(d);
        }
        BigInteger tweaked =
                d.add(tweak(p.getAffineXCoord().getEncoded(), merkleRoot)).mod(n);
        if (tweaked.signum() == 0) {
            throw new IllegalArgumentException("tweaked private key is zero");
        }
        return to32(tweaked);
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
        if (t.compareTo(CURVE.getN()) >= 0) {
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
