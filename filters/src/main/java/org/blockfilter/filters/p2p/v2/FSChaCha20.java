package org.blockfilter.filters.p2p.v2;

import org.bouncycastle.crypto.engines.ChaCha7539Engine;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;

/**
 * BIP 324's FSChaCha20: the stream cipher for the 3-byte length fields. One ChaCha20 keystream
 * (RFC 8439, BouncyCastle's {@link ChaCha7539Engine}) runs on across chunks; after every 224th
 * chunk the next 32 keystream bytes become the key and the nonce's 64-bit part counts the rekeys.
 * Mutable, not thread-safe: one per direction of a connection.
 */
final class FSChaCha20 {
    private final ChaCha7539Engine engine = new ChaCha7539Engine();
    private long chunkCounter;

    FSChaCha20(byte[] initialKey) {
        init(initialKey);
    }

    private void init(byte[] key) {
        engine.init(
                true, new ParametersWithIV(new KeyParameter(key), Rekeying.nonce(0, chunkCounter / Rekeying.INTERVAL)));
    }

    /** Encrypts or decrypts one chunk (XOR with the keystream), rekeying after every 224th. */
    byte[] crypt(byte[] chunk) {
        byte[] out = new byte[chunk.length];
        engine.processBytes(chunk, 0, chunk.length, out, 0);
        if ((chunkCounter + 1) % Rekeying.INTERVAL == 0) {
            byte[] key = new byte[32];
            engine.processBytes(new byte[32], 0, 32, key, 0);
            chunkCounter++;
            init(key);
        } else {
            chunkCounter++;
        }
        return out;
    }
}
