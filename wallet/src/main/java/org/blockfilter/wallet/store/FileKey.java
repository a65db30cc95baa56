package org.blockfilter.wallet.store;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.generators.SCrypt;

/**
 * The key of a wholly sealed wallet file ({@link Sealing#ALL}): scrypt(passphrase, salt, N, r, p),
 * 32 bytes, derived once per process and kept by the loaded wallet so that every save, and the
 * re-read under the lock before it, encrypts and decrypts without running scrypt again. The salt is
 * per file (new at create and at reseal); every save uses a fresh random 96-bit GCM nonce.
 *
 * <p>{@link #check()} is the key check value (the first 16 bytes of HMAC-SHA256(key, "blockfilter
 * key check"), as in {@link SealedSecret}): stored in the file's header, it tells a wrong passphrase
 * from a damaged file. Immutable (the arrays are copied in and out); thread-safe.
 */
public final class FileKey {
    static final String KDF = "scrypt";
    static final int R = 8;
    static final int P = 1;
    static final int SALT_BYTES = 16;
    static final int NONCE_BYTES = 12;
    static final int CHECK_BYTES = 16;
    private static final int TAG_BITS = 128;
    private static final byte[] CHECK_LABEL = "blockfilter key check".getBytes(StandardCharsets.US_ASCII);

    private final int n;
    private final byte[] salt;
    private final byte[] key;
    private final byte[] check;

    private FileKey(int n, byte[] salt, byte[] key) {
        this.n = n;
        this.salt = salt.clone();
        this.key = key;
        this.check = checkValue(key);
    }

    /** A new key with a fresh random salt (create, reseal). */
    public static FileKey create(char[] passphrase, int n) {
        if (passphrase == null || passphrase.length == 0) {
            throw new IllegalArgumentException("a passphrase is required to seal the whole wallet file");
        }
        byte[] salt = new byte[SALT_BYTES];
        new SecureRandom().nextBytes(salt);
        return derive(passphrase, salt, n);
    }

    /** The key for a file's stored salt and cost; the caller compares {@link #check()} with the stored one. */
    static FileKey derive(char[] passphrase, byte[] salt, int n) {
        byte[] pw = new String(passphrase).getBytes(StandardCharsets.UTF_8);
        try {
            return new FileKey(n, salt, SCrypt.generate(pw, salt, n, R, P, 32));
        } finally {
            Arrays.fill(pw, (byte) 0);
        }
    }

    /** The scrypt cost parameter N this key was derived with. */
    public int n() {
        return n;
    }

    byte[] salt() {
        return salt.clone();
    }

    byte[] check() {
        return check.clone();
    }

    /** Whether this key was derived for the given stored salt, cost and check value. */
    boolean fits(byte[] storedSalt, int storedN, byte[] storedCheck) {
        return storedN == n && Arrays.equals(storedSalt, salt) && MessageDigest.isEqual(storedCheck, check);
    }

    /** AES-256-GCM of {@code plaintext} under {@code nonce}, authenticating {@code aad}. */
    byte[] encrypt(byte[] nonce, byte[] plaintext, byte[] aad) throws GeneralSecurityException {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BITS, nonce));
        c.updateAAD(aad);
        return c.doFinal(plaintext);
    }

    /** The plaintext; {@code AEADBadTagException} when the ciphertext, nonce or header was changed. */
    byte[] decrypt(byte[] nonce, byte[] ciphertext, byte[] aad) throws GeneralSecurityException {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BITS, nonce));
        c.updateAAD(aad);
        return c.doFinal(ciphertext);
    }

    static byte[] newNonce() {
        byte[] nonce = new byte[NONCE_BYTES];
        new SecureRandom().nextBytes(nonce);
        return nonce;
    }

    private static byte[] checkValue(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Arrays.copyOf(mac.doFinal(CHECK_LABEL), CHECK_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 unavailable", e);
        }
    }
}
