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

    byte[] encrypt(byte[] aad, byte[] plaintext) {
        ChaCha20Poly1305 aead = aead(true, aad);
        byte[] out = new byte[aead.getOutputSize(plaintext.length)];
        int n = aead.processBytes(plaintext, 0, plaintext.length, out, 0);
        try {
            aead.doFinal(out, n);
        } catch (InvalidCipherTextException e) {
            throw new IllegalStateException("encryption cannot fail", e);
        }
        advance();
        return out;
    }

    /** The plaintext, or null when the tag does not authenticate {@code aad} and the ciphertext. */
    byte[] decrypt(byte[] aad, byte[] ciphertext, int off, int len) {
        ChaCha20Poly1305 aead = aead(false, aad);
        byte[] out = new byte[Math.max(0, len - TAG_LENGTH)];
        byte[] result;
        try {
            int n = aead.processBytes(ciphertext, off, len, out, 0);
            aead.doFinal(out, n);
            result = out;
        } catch (InvalidCipherTextException | IllegalArgumentException e) {
            result = null;
        }
        advance();
        return result;
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
