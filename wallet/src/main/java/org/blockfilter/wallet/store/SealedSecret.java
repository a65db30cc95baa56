package org.blockfilter.wallet.store;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.generators.SCrypt;

/**
 * A secret sealed with a passphrase: key = scrypt(passphrase, salt, N, r, p) (32 bytes), then
 * AES-256-GCM with a random 96-bit nonce. Immutable record of base64 strings (the JSON shape in
 * the wallet file).
 *
 * <p>Telling a damaged file from a wrong passphrase: {@code check} is a key check value (the first
 * 16 bytes of HMAC-SHA256(key, "blockfilter key check")) and {@code digest} a SHA-256 over every
 * other field. A digest mismatch or a malformed field means the file is damaged, whatever the
 * passphrase. Otherwise a check-value mismatch means the passphrase is wrong, and a GCM tag failure
 * with a matching check value means the ciphertext is damaged. The check value lets a passphrase
 * guess be tested, but so does the GCM tag, at the same scrypt cost. Secrets sealed before these
 * two fields existed ({@code check} and {@code digest} null) cannot tell the two apart and say so.
 */
public record SealedSecret(
        String kdf, int n, int r, int p, String salt, String nonce, String ciphertext, String check, String digest) {
    /** scrypt cost (2^15, r 8, p 1: ~32 MiB, well under a second). */
    public static final int DEFAULT_N = 1 << 15;

    private static final int TAG_BITS = 128;
    private static final int SALT_BYTES = 16;
    private static final int NONCE_BYTES = 12;
    private static final int CHECK_BYTES = 16;
    private static final byte[] CHECK_LABEL = "blockfilter key check".getBytes(StandardCharsets.US_ASCII);

    /** A secret sealed before the key check value and digest existed. */
    public SealedSecret(String kdf, int n, int r, int p, String salt, String nonce, String ciphertext) {
        this(kdf, n, r, p, salt, nonce, ciphertext, null, null);
    }

    /**
     * Encrypts {@code secret} under a key derived from {@code passphrase} with scrypt at the default cost ({@link
     * #DEFAULT_N}).
     */
    public static SealedSecret seal(byte[] secret, char[] passphrase) {
        return seal(secret, passphrase, DEFAULT_N);
    }

    /** Seals with a chosen scrypt cost (tests use a small one). */
    public static SealedSecret seal(byte[] secret, char[] passphrase, int n) {
        SecureRandom random = new SecureRandom();
        byte[] salt = new byte[SALT_BYTES];
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(salt);
        random.nextBytes(nonce);
        byte[] key = derive(passphrase, salt, n, 8, 1);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BITS, nonce));
            byte[] ct = c.doFinal(secret);
            Base64.Encoder b = Base64.getEncoder();
            String check = b.encodeToString(checkValue(key));
            String saltB = b.encodeToString(salt);
            String nonceB = b.encodeToString(nonce);
            String ctB = b.encodeToString(ct);
            return new SealedSecret(
                    "scrypt", n, 8, 1, saltB, nonceB, ctB, check, digest("scrypt", n, 8, 1, saltB, nonceB, ctB, check));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /**
     * The secret; {@link WrongPassphraseException} when the passphrase is wrong,
     * {@link WalletFileException} (saying "damaged") when the sealed fields were changed.
     */
    public byte[] open(char[] passphrase) {
        if (!"scrypt".equals(kdf) || n < 2 || r < 1 || p < 1 || n > (1 << 22)) {
            throw new WalletFileException(
                    "sealed secret is damaged: unsupported key derivation " + kdf + " N=" + n + " r=" + r + " p=" + p,
                    null);
        }
        if (digest != null && !digest.equals(digest(kdf, n, r, p, salt, nonce, ciphertext, check))) {
            throw new WalletFileException(
                    "sealed secret is damaged: its digest does not match its fields (the file was changed)", null);
        }
        byte[] saltBytes = field("salt", salt, SALT_BYTES);
        byte[] nonceBytes = field("nonce", nonce, NONCE_BYTES);
        byte[] ct = field("ciphertext", ciphertext, -1);
        byte[] checkBytes = check == null ? null : field("check", check, CHECK_BYTES);
        if (ct.length < TAG_BITS / 8) {
            throw new WalletFileException("sealed secret is damaged: ciphertext shorter than its tag", null);
        }
        byte[] key = derive(passphrase, saltBytes, n, r, p);
        try {
            if (checkBytes != null && !MessageDigest.isEqual(checkBytes, checkValue(key))) {
                throw new WrongPassphraseException("wrong passphrase (the wallet's secret did not decrypt)");
            }
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BITS, nonceBytes));
            return c.doFinal(ct);
        } catch (AEADBadTagException e) {
            if (checkBytes != null) {
                throw new WalletFileException(
                        "sealed secret is damaged: the passphrase is right (its key check matches) but the ciphertext"
                                + " fails authentication",
                        e);
            }
            throw new WrongPassphraseException(
                    "wrong passphrase, or the sealed secret is damaged (a wallet file this old cannot tell which)");
        } catch (GeneralSecurityException e) {
            throw new WalletFileException("sealed secret is damaged: " + e.getMessage(), e);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    private static byte[] field(String name, String base64, int length) {
        byte[] b;
        try {
            b = Base64.getDecoder().decode(base64 == null ? "" : base64);
        } catch (IllegalArgumentException e) {
            throw new WalletFileException("sealed secret is damaged: " + name + " is not base64", e);
        }
        if (length >= 0 && b.length != length) {
            throw new WalletFileException(
                    "sealed secret is damaged: " + name + " has " + b.length + " bytes, expected " + length, null);
        }
        return b;
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

    /** SHA-256 (hex) over the other fields; package-private for tests that edit a field on purpose. */
    static String digest(String kdf, int n, int r, int p, String salt, String nonce, String ciphertext, String check) {
        String all = String.join("|", kdf, "" + n, "" + r, "" + p, salt, nonce, ciphertext, check);
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(all.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
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
