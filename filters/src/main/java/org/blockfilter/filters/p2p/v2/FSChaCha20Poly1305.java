package org.blockfilter.filters.p2p.v2;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * BIP 324's FSChaCha20Poly1305: RFC 8439 ChaCha20-Poly1305 with the nonce {@code LE32(n mod 224)
 * || LE64(n / 224)} for the n-th packet, and after every 224th packet a new key, the first 32 bytes
 * of ChaCha20's block 1 under the nonce {@code 0xFFFFFFFF || LE64(n / 224)}. The AEAD is the JDK's
 * own ({@code Cipher.getInstance("ChaCha20-Poly1305")}, SunJCE): it takes about half the CPU of
 * BouncyCastle's {@code ChaCha20Poly1305}, whose ChaCha20 XORs byte by byte ({@code
 * V2CipherBenchmark}). Mutable, not thread-safe: one per direction.
 */
final class FSChaCha20Poly1305 {
    /** Bytes of the Poly1305 tag. */
    static final int TAG_LENGTH = 16;

    private final Cipher aead = cipher("ChaCha20-Poly1305");
    private byte[] key;
    private SecretKeySpec keySpec;
    private long packetCounter;

    FSChaCha20Poly1305(byte[] initialKey) {
        setKey(initialKey.clone());
    }

    private void setKey(byte[] newKey) {
        key = newKey;
        keySpec = new SecretKeySpec(key, "ChaCha20");
    }

    /**
     * Encrypts the plaintext {@code head || body} (two pieces, so that a caller's payload is read
     * where it is) into {@code out} from {@code off}: the ciphertext, then the tag.
     */
    void encrypt(byte[] aad, byte[] head, byte[] body, byte[] out, int off) {
        try {
            init(Cipher.ENCRYPT_MODE, aad);
            int n = aead.update(head, 0, head.length, out, off);
            n += aead.update(body, 0, body.length, out, off + n);
            aead.doFinal(out, off + n);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ChaCha20-Poly1305 encryption into a packet cannot fail", e);
        }
        advance();
    }

    /**
     * Decrypts {@code in[off, off + len)}, ciphertext then tag, into {@code out} from {@code
     * outOff} ({@code out} may be {@code in} at the same offset). False when the tag does not
     * authenticate {@code aad} and the ciphertext, or {@code len} is shorter than a tag; {@code
     * out}'s bytes are then unspecified.
     */
    boolean decrypt(byte[] aad, byte[] in, int off, int len, byte[] out, int outOff) {
        boolean ok = len >= TAG_LENGTH;
        if (ok) {
            try {
                init(Cipher.DECRYPT_MODE, aad);
                aead.doFinal(in, off, len, out, outOff);
            } catch (AEADBadTagException e) {
                ok = false;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("ChaCha20-Poly1305 decryption into a packet cannot fail", e);
            }
        }
        advance();
        return ok;
    }

    private static Cipher cipher(String transformation) {
        try {
            return Cipher.getInstance(transformation);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no " + transformation + " (SunJCE has it since Java 11)", e);
        }
    }

    private void init(int mode, byte[] aad) throws GeneralSecurityException {
        byte[] nonce = Rekeying.nonce((int) (packetCounter % Rekeying.INTERVAL), packetCounter / Rekeying.INTERVAL);
        aead.init(mode, keySpec, new IvParameterSpec(nonce));
        aead.updateAAD(aad);
    }

    private void advance() {
        if ((packetCounter + 1) % Rekeying.INTERVAL == 0) {
            Cipher block = cipher("ChaCha20");
            byte[] next;
            try {
                block.init(
                        Cipher.ENCRYPT_MODE,
                        keySpec,
                        new ChaCha20ParameterSpec(Rekeying.nonce(-1, packetCounter / Rekeying.INTERVAL), 1));
                next = block.doFinal(new byte[32]);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("ChaCha20 of one block cannot fail", e);
            }
            Arrays.fill(key, (byte) 0);
            setKey(next);
        }
        packetCounter++;
    }
}
