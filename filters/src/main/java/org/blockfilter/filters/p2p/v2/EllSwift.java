package org.blockfilter.filters.p2p.v2;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * ElligatorSwift for secp256k1 as BIP 324 specifies it: {@code XSwiftEC} (64 bytes of field
 * elements u, t to an x coordinate), its inverse {@code XSwiftECInv}, {@code XElligatorSwift}
 * (a public key as 64 bytes indistinguishable from random), and the x-only ECDH with the BIP's
 * tagged hash {@code bip324_ellswift_xonly_ecdh}. Written after the BIP's own {@code
 * reference.py} (bitcoin/bips {@code bip-0324/reference.py}) over {@link BigInteger} modulo p,
 * with BouncyCastle's secp256k1 curve for the point multiplications.
 *
 * <p>Why not libsecp256k1's ellswift module: the native library inside secp256k1-kmp 0.17.3 (our
 * BIP 340 dependency) is built with it ({@code secp256k1_ellswift_create}, {@code _decode},
 * {@code _xdh} are exported), but the binding's {@code Secp256k1} interface exposes no ellswift
 * function and its JNI layer has no entry point to call them, so from Java they are unreachable;
 * its {@code ecdh} returns libsecp's default SHA-256 of the compressed point, not the bare x
 * coordinate BIP 324 hashes. Cost: a handshake does a few modular exponentiations (well under a
 * millisecond); {@link BigInteger} and BouncyCastle's variable-base multiplication are not
 * constant time. The keys are ephemeral (one per connection, never stored), so a timing
 * observer could at most attack that one session's key, not a wallet key.
 *
 * <p>Stateless and thread-safe; no argument may be null.
 */
public final class EllSwift {
    /** The field prime 2^256 - 2^32 - 977. */
    static final BigInteger P = new BigInteger("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F", 16);
    /** The group order. */
    static final BigInteger N = new BigInteger("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16);

    private static final BigInteger SEVEN = BigInteger.valueOf(7);
    private static final BigInteger TWO = BigInteger.TWO;
    private static final BigInteger SQRT_EXP = P.add(BigInteger.ONE).shiftRight(2);
    private static final BigInteger LEGENDRE_EXP = P.subtract(BigInteger.ONE).shiftRight(1);
    /** sqrt(-3) mod p, the root (p+1)/4 gives, as the reference's {@code FE(-3).sqrt()}. */
    static final BigInteger MINUS_3_SQRT = sqrt(P.subtract(BigInteger.valueOf(3)));

    private static final X9ECParameters CURVE = CustomNamedCurves.getByName("secp256k1");
    private static final String ECDH_TAG = "bip324_ellswift_xonly_ecdh";

    /** Bytes of an encoded public key (u then t, 32 bytes each, big endian). */
    public static final int ENCODED_LENGTH = 64;

    private EllSwift() {}

    /** An ephemeral key: the 32-byte private key and its 64-byte ElligatorSwift encoding. */
    public record KeyPair(byte[] privateKey, byte[] encoded) {
        public KeyPair {
            privateKey = privateKey.clone();
            encoded = encoded.clone();
        }

        @Override
        public byte[] privateKey() {
            return privateKey.clone();
        }

        @Override
        public byte[] encoded() {
            return encoded.clone();
        }
    }

    /** A fresh key pair: a random private key, its x coordinate encoded with random u and case. */
    public static KeyPair create(SecureRandom random) {
        BigInteger d;
        do {
            d = new BigInteger(256, random);
        } while (d.signum() == 0 || d.compareTo(N) >= 0);
        ECPoint q = new FixedPointCombMultiplier().multiply(CURVE.getG(), d).normalize();
        BigInteger x = q.getAffineXCoord().toBigInteger();
        return new KeyPair(to32(d), encode(x, random));
    }

    /** XElligatorSwift: random (u, t) with XSwiftEC(u, t) = x, as 64 bytes. */
    static byte[] encode(BigInteger x, SecureRandom random) {
        while (true) {
            BigInteger u = new BigInteger(256, random);
            if (u.signum() == 0 || u.compareTo(N) >= 0) {
                continue;
            }
            BigInteger t = xswiftecInv(x, u, random.nextInt(8));
            if (t != null) {
                byte[] out = new byte[ENCODED_LENGTH];
                System.arraycopy(to32(u), 0, out, 0, 32);
                System.arraycopy(to32(t), 0, out, 32, 32);
                return out;
            }
        }
    }

    /** The x coordinate a 64-byte encoding stands for (every 64 bytes decode to one). */
    public static byte[] decode(byte[] encoded) {
        checkLength(encoded);
        return to32(decodeX(encoded));
    }

    private static BigInteger decodeX(byte[] encoded) {
        BigInteger u = new BigInteger(1, Arrays.copyOfRange(encoded, 0, 32)).mod(P);
        BigInteger t = new BigInteger(1, Arrays.copyOfRange(encoded, 32, 64)).mod(P);
        return xswiftec(u, t);
    }

    /** The x coordinate of privateKey times the point their 64 bytes encode (even y lifted). */
    public static byte[] ecdhXOnly(byte[] theirs, byte[] privateKey) {
        checkLength(theirs);
        BigInteger x = decodeX(theirs);
        BigInteger y = sqrt(x.modPow(BigInteger.valueOf(3), P).add(SEVEN).mod(P));
        ECPoint point = CURVE.getCurve().createPoint(x, y);
        BigInteger d = new BigInteger(1, privateKey);
        return to32(point.multiply(d).normalize().getAffineXCoord().toBigInteger());
    }

    /**
     * BIP 324's shared secret: the tagged hash of the initiator's encoding, the responder's
     * encoding and the x-only ECDH result.
     */
    public static byte[] sharedSecret(byte[] privateKey, byte[] theirs, byte[] ours, boolean initiating) {
        byte[] x = ecdhXOnly(theirs, privateKey);
        byte[] first = initiating ? ours : theirs;
        byte[] second = initiating ? theirs : ours;
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] tag = sha.digest(ECDH_TAG.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            sha.update(tag);
            sha.update(tag);
            sha.update(first);
            sha.update(second);
            sha.update(x);
            return sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** XSwiftEC: the x coordinate on the curve that field elements u, t map to. */
    static BigInteger xswiftec(BigInteger u, BigInteger t) {
        if (u.signum() == 0) {
            u = BigInteger.ONE;
        }
        if (t.signum() == 0) {
            t = BigInteger.ONE;
        }
        BigInteger u3p7 = u.modPow(BigInteger.valueOf(3), P).add(SEVEN).mod(P);
        if (u3p7.add(t.multiply(t)).mod(P).signum() == 0) {
            t = t.multiply(TWO).mod(P);
        }
        BigInteger bigX =
                u3p7.subtract(t.multiply(t)).multiply(inv(t.multiply(TWO))).mod(P);
        BigInteger bigY = bigX.add(t).multiply(inv(MINUS_3_SQRT.multiply(u))).mod(P);
        BigInteger xOverY = bigX.multiply(inv(bigY)).mod(P);
        BigInteger inv2 = inv(TWO);
        BigInteger[] candidates = {
            u.add(BigInteger.valueOf(4).multiply(bigY).multiply(bigY)).mod(P),
            xOverY.negate().subtract(u).multiply(inv2).mod(P),
            xOverY.subtract(u).multiply(inv2).mod(P)
        };
        for (BigInteger x : candidates) {
            if (isValidX(x)) {
                return x;
            }
        }
        throw new IllegalStateException("XSwiftEC found no curve point; the field arithmetic is wrong");
    }

    /** XSwiftECInv: t with XSwiftEC(u, t) = x for the given case 0..7, or null when that case has none. */
    static BigInteger xswiftecInv(BigInteger x, BigInteger u, int c) {
        BigInteger v;
        BigInteger s;
        if ((c & 2) == 0) {
            if (isValidX(x.negate().subtract(u).mod(P))) {
                return null;
            }
            v = (c & 1) == 0 ? x : x.negate().subtract(u).mod(P);
            BigInteger u3p7 = u.modPow(BigInteger.valueOf(3), P).add(SEVEN);
            BigInteger den = u.multiply(u).add(u.multiply(v)).add(v.multiply(v)).mod(P);
            if (den.signum() == 0) {
                return null; // the reference divides by it; zero has no inverse
            }
            s = u3p7.negate().multiply(inv(den)).mod(P);
        } else {
            s = x.subtract(u).mod(P);
            if (s.signum() == 0) {
                return null;
            }
            BigInteger u3p7 = u.modPow(BigInteger.valueOf(3), P).add(SEVEN);
            BigInteger inner = s.negate()
                    .multiply(BigInteger.valueOf(4)
                            .multiply(u3p7)
                            .add(BigInteger.valueOf(3).multiply(s).multiply(u).multiply(u)))
                    .mod(P);
            BigInteger r = sqrtOrNull(inner);
            if (r == null) {
                return null;
            }
            if ((c & 1) != 0) {
                if (r.signum() == 0) {
                    return null;
                }
                r = r.negate().mod(P);
            }
            v = u.negate().add(r.multiply(inv(s))).multiply(inv(TWO)).mod(P);
        }
        BigInteger w = sqrtOrNull(s);
        if (w == null) {
            return null;
        }
        if ((c & 4) != 0) {
            w = w.negate().mod(P);
        }
        BigInteger k = u.multiply(MINUS_3_SQRT.subtract(BigInteger.ONE))
                .multiply(inv(TWO))
                .subtract(v);
        return w.multiply(k).mod(P);
    }

    static boolean isValidX(BigInteger x) {
        return isSquare(x.modPow(BigInteger.valueOf(3), P).add(SEVEN).mod(P));
    }

    private static boolean isSquare(BigInteger a) {
        return a.signum() == 0 || a.modPow(LEGENDRE_EXP, P).equals(BigInteger.ONE);
    }

    private static BigInteger sqrtOrNull(BigInteger a) {
        BigInteger r = a.modPow(SQRT_EXP, P);
        return r.multiply(r).mod(P).equals(a.mod(P)) ? r : null;
    }

    private static BigInteger sqrt(BigInteger a) {
        BigInteger r = sqrtOrNull(a);
        if (r == null) {
            throw new IllegalStateException("no square root of a value that must have one");
        }
        return r;
    }

    private static BigInteger inv(BigInteger a) {
        return a.mod(P).modInverse(P);
    }

    static byte[] to32(BigInteger v) {
        byte[] b = v.toByteArray();
        byte[] out = new byte[32];
        int n = Math.min(b.length, 32);
        System.arraycopy(b, b.length - n, out, 32 - n, n);
        return out;
    }

    private static void checkLength(byte[] encoded) {
        if (encoded.length != ENCODED_LENGTH) {
            throw new IllegalArgumentException("an ElligatorSwift public key is 64 bytes, got " + encoded.length);
        }
    }
}
