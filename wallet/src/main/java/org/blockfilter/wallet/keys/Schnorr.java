package org.blockfilter.wallet.keys;

import fr.acinq.secp256k1.Secp256k1;

/**
 * BIP 340 Schnorr signatures of 32-byte messages (what BIP 341 signs) over secp256k1, by libsecp256k1 (Bitcoin Core's own library) through
 * ACINQ's JNI bindings, which carry the native library for linux, macOS and Windows. bitcoinj 0.17
 * has no Schnorr signer. Stateless; thread-safe (libsecp256k1 contexts are read-only after setup).
 */
public final class Schnorr {
    private Schnorr() {}

    /**
     * A 64-byte signature of a 32-byte message with a 32-byte private key. {@code auxRand} (32
     * bytes) is mixed into the nonce as BIP 340 recommends; the nonce is safe without it, and all
     * zeros gives the deterministic signature of the BIP 340/341 vectors.
     */
    public static byte[] sign(byte[] message, byte[] privateKey, byte[] auxRand) {
        check("message", message, 32);
        check("private key", privateKey, 32);
        check("aux_rand", auxRand, 32);
        return Secp256k1.Companion.get().signSchnorr(message, privateKey, auxRand);
    }

    /** Whether {@code signature} (64 bytes) is valid for the 32-byte message and x-only public key (32 bytes). */
    public static boolean verify(byte[] signature, byte[] message, byte[] xOnlyPublicKey) {
        check("message", message, 32);
        if (signature.length != 64 || xOnlyPublicKey.length != 32) {
            return false;
        }
        try {
            return Secp256k1.Companion.get().verifySchnorr(signature, message, xOnlyPublicKey);
        } catch (RuntimeException e) {
            // libsecp256k1 refuses a public key that is not on the curve: not a valid signature.
            return false;
        }
    }

    private static void check(String what, byte[] b, int length) {
        if (b == null || b.length != length) {
            throw new IllegalArgumentException(
                    what + " must be " + length + " bytes, got " + (b == null ? "null" : b.length));
        }
    }
}
