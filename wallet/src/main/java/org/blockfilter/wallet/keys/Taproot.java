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
 * The BIP 86 output key of a single-key taproot output: {@code Q = P + int(hashTapTweak(x(P)))G}
 * with P the internal key lifted to even y (BIP 340/341). bitcoinj 0.17 encodes P2TR addresses
 * but cannot derive this tweak or sign key-path spends, so the tweak lives here.
 * Stateless; thread-safe.
 */
public final class Taproot {
    private static final X9ECParameters CURVE = CustomNamedCurves.getByName("secp256k1");

    private Taproot() {}

    /** The 32-byte x-only output key for an internal public key (33-byte compressed SEC). */
    public static byte[] outputKey(byte[] compressedInternalKey) {
        if (compressedInternalKey.length != 33) {
            throw new IllegalArgumentException(
                    "internal key must be 33 bytes compressed, got " + compressedInternalKey.length);
        }
        byte[] xOnly = Arrays.copyOfRange(compressedInternalKey, 1, 33);
        byte[] even = new byte[33];
        even[0] = 0x02;
        System.arraycopy(xOnly, 0, even, 1, 32);
        ECPoint internal = CURVE.getCurve().decodePoint(even);
        BigInteger t = new BigInteger(1, taggedHash("TapTweak", xOnly));
        if (t.compareTo(CURVE.getN()) >= 0) {
            throw new IllegalArgumentException("taproot tweak out of range");
        }
        ECPoint q = internal.add(CURVE.getG().multiply(t)).normalize();
        if (q.isInfinity()) {
            throw new IllegalArgumentException("taproot output key is infinity");
        }
        return q.getAffineXCoord().getEncoded();
    }

    /** BIP 340 tagged hash: {@code SHA256(SHA256(tag) || SHA256(tag) || msg)}. */
    static byte[] taggedHash(String tag, byte[] msg) {
        byte[] tagHash = Sha256Hash.hash(tag.getBytes(StandardCharsets.UTF_8));
        MessageDigest d = Sha256Hash.newDigest();
        d.update(tagHash);
        d.update(tagHash);
        d.update(msg);
        return d.digest();
    }
}
