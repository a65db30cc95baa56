package org.blockfilter.wallet.store;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.generators.SCrypt;

/**
 * A secret sealed with a passphrase: key = scrypt(passphrase, salt, N, r, p) (32 bytes), then
 * AES-256-GCM with a random 96-bit nonce; the tag authenticates the ciphertext, so a wrong
 * passphrase is detected rather than yielding garbage. Immutable record of base64 strings
 * (the JSON shape in the wallet file).
 */
public record SealedSecret(String kdf, int n, int r, int p, String salt, String nonce, String ciphertext) {
    /** scrypt cost (2^15, r 8, p 1: ~32 MiB, well under a second). */
    public static final int DEFAULT_N = 1 << 15;

    private static final int TAG_BITS = 128;

    public static SealedSecret seal(byte[] secret, char[] passphrase) {
        return seal(secret, passphrase, DEFAULT_N);
    }

    /** Seals with a chosen scrypt cost (tests use a small one). */
    public static SealedSecret seal(byte[] secret, char[] passphrase, int n) {
        SecureRandom random = new SecureRandom();
        byte[] salt = new byte[16];
        byte[] nonce = new byte[12];
        random.nextBytes(salt);
        random.nextBytes(nonce);
        byte[] key = derive(passphrase, salt, n, 8, 1);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BITS, nonce));
            byte[] ct = c.doFinal(secret);
            Base64.Encoder b = Base64.getEncoder();
            return new SealedSecret(
                    "scrypt", n, 8, 1, b.encodeToString(salt), b.encodeToString(nonce), b.encodeToString(ct));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /** The secret; {@link WrongPassphraseException} when the passphrase is wrong. */
    public byte[] open(char[] passphrase) {
        if (!"scrypt".equals(kdf) || n < 2 || r < 1 || p < 1 || n > (1 << 22)) {
            throw new WalletFileException(
                    "unsupported key derivation " + kdf + " N=" + n + " r=" + r + " p=" + p, null);
        }
        Base64.Decoder d = Base64.getDecoder();
        byte[] key = derive(passphrase, d.decode(salt), n, r, p);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BITS, d.decode(nonce)));
            return c.doFinal(d.decode(ciphertext));
        } catch (AEADBadTagException e) {
            throw new WrongPassphraseException("wrong passphrase (the wallet's secret did not decrypt)");
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new WalletFileException("sealed secret is malformed: " + e.getMessage(), e);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    private static byte[] derive(char[] passphrase, byte[] salt, int n, int r, int p) {
        byte[] pw = new String(passphrase).getBytes(StandardCharsets.UTF_8);
        try {
            return SCrypt.generate(pw, salt, n, r, p, 32);
        } finally {
            Arrays.fill(pw, (byte) 0);
        }
    }
}
