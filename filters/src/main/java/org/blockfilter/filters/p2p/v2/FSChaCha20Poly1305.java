package org.blockfilter.filters.p2p.v2;

import java.util.Arrays;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.engines.ChaCha7539Engine;
import org.bouncycastle.crypto.modes.ChaCha20Poly1305;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;

/**
 * BIP 324's FSChaCha20Poly1305: RFC 8439 ChaCha20-Poly1305 (BouncyCastle's {@link
 * ChaCha20Poly1305}) with the nonce {@code LE32(n mod 224) || LE64(n / 224)} for the n-th packet,
 * and after every 224th packet a new key, the first 32 bytes of ChaCha20's block 1 under the nonce
 * {@code 0xFFFFFFFF || LE64(n / 224)}. Mutable, not thread-safe: one per direction.
 */
final class FSChaCha20Poly1305 {
    /** Bytes of the Poly1305 tag. */
    static final int TAG_LENGTH = 16;

    private byte[] key;
    private long packetCounter;

    FSChaCha20Poly1305(byte[] initialKey) {
        this.key = initialKey.clone();
    }

    /**
     * Encrypts the plaintext {@code head || body} (two pieces, so that a caller's payload is read
     * where it is) into {@code out} from {@code off}: the ciphertext, then the tag.
     */
    void encrypt(byte[] aad, byte[] head, byte[] body, byte[] out, int off) {
        ChaCha20Poly1305 aead = aead(true, aad);
        int n = aead.processBytes(head, 0, head.length, out, off);
        n += aead.processBytes(body, 0, body.length, out, off + n);
        try {
            aead.doFinal(out, off + n);
        } catch (InvalidCipherTextException e) {
            throw new IllegalStateException("encryption cannot fail", e);
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
            ChaCha20Poly1305 aead = aead(false, aad);
            try {
                int n = aead.processBytes(in, off, len, out, outOff);
                aead.doFinal(out, outOff + n);
            } catch (InvalidCipherTextException e) {
                ok = false;
            }
        }
        advance();
        return ok;
    }

    private ChaCha20Poly1305 aead(boolean encrypt, byte[] aad) {
        ChaCha20Poly1305 aead = new ChaCha20Poly1305();
        byte[] nonce = Rekeying.nonce((int) (packetCounter % Rekeying.INTERVAL), packetCounter / Rekeying.INTERVAL);
        aead.init(encrypt, new AEADParameters(new KeyParameter(key), TAG_LENGTH * 8, nonce, aad));
        return aead;
    }

    private void advance() {
        if ((packetCounter + 1) % Rekeying.INTERVAL == 0) {
            ChaCha7539Engine block = new ChaCha7539Engine();
            block.init(
                    true,
                    new ParametersWithIV(new KeyParameter(key), Rekeying.nonce(-1, packetCounter / Rekeying.INTERVAL)));
            byte[] stream = new byte[64 + 32];
            block.processBytes(new byte[stream.length], 0, stream.length, stream, 0);
            Arrays.fill(key, (byte) 0);
            key = Arrays.copyOfRange(stream, 64, 96);
        }
        packetCounter++;
    }
}
