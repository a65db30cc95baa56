package org.blockfilter.wallet.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Base64;

/**
 * The envelope of a wallet document sealed whole ({@link Sealing#ALL}): the header fields (version,
 * seal, key derivation, salt, key check value), a fresh nonce and the AES-256-GCM ciphertext of the
 * document, the header as associated data. {@link WalletFile} reads and writes it. Stateless.
 */
final class SealedEnvelope {
    static final String SEAL_ALL = "all";

    private SealedEnvelope() {}

    /** The sealed envelope's fields, decoded; {@code aad} is the header as GCM authenticates it. */
    record Envelope(int n, byte[] salt, byte[] check, byte[] nonce, byte[] ciphertext, byte[] aad) {}

    static ObjectNode seal(ObjectMapper json, byte[] body, FileKey key) {
        Base64.Encoder b64 = Base64.getEncoder();
        String salt = b64.encodeToString(key.salt());
        String check = b64.encodeToString(key.check());
        byte[] nonce = FileKey.newNonce();
        byte[] ct;
        try {
            ct = key.encrypt(
                    nonce,
                    body,
                    aad(WalletFile.SEALED_VERSION, SEAL_ALL, FileKey.KDF, key.n(), FileKey.R, FileKey.P, salt, check));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
        ObjectNode root = json.createObjectNode();
        root.put("version", WalletFile.SEALED_VERSION);
        root.put("seal", SEAL_ALL);
        root.put("kdf", FileKey.KDF);
        root.put("n", key.n());
        root.put("r", FileKey.R);
        root.put("p", FileKey.P);
        root.put("salt", salt);
        root.put("check", check);
        root.put("nonce", b64.encodeToString(nonce));
        root.put("ciphertext", b64.encodeToString(ct));
        root.put(WalletFile.CHECKSUM, WalletFile.checksum(root));
        return root;
    }

    /** The envelope's fields, checked (its checksum was checked by the caller). */
    static Envelope read(Path path, ObjectNode root) {
        String damaged = "wallet file " + path + " is damaged: ";
        int version = root.path("version").asInt(-1);
        if (version != WalletFile.SEALED_VERSION) {
            throw new WalletFileException(
                    "unsupported sealed wallet file version in " + path + ": " + root.path("version"), null);
        }
        String seal = root.path("seal").asText();
        String kdf = root.path("kdf").asText();
        int n = root.path("n").asInt(-1);
        int r = root.path("r").asInt(-1);
        int p = root.path("p").asInt(-1);
        if (!SEAL_ALL.equals(seal)
                || !FileKey.KDF.equals(kdf)
                || r != FileKey.R
                || p != FileKey.P
                || n < 2
                || n > (1 << 22)
                || Integer.bitCount(n) != 1) {
            throw new WalletFileException(
                    damaged + "unsupported seal " + seal + " or key derivation " + kdf + " N=" + n + " r=" + r + " p="
                            + p,
                    null);
        }
        String saltB = root.path("salt").asText();
        String checkB = root.path("check").asText();
        byte[] ct = field(damaged, "ciphertext", root.path("ciphertext").asText(), -1);
        if (ct.length < 16) {
            throw new WalletFileException(damaged + "ciphertext shorter than its tag", null);
        }
        return new Envelope(
                n,
                field(damaged, "salt", saltB, FileKey.SALT_BYTES),
                field(damaged, "check", checkB, FileKey.CHECK_BYTES),
                field(damaged, "nonce", root.path("nonce").asText(), FileKey.NONCE_BYTES),
                ct,
                aad(version, seal, kdf, n, r, p, saltB, checkB));
    }

    private static byte[] aad(int version, String seal, String kdf, int n, int r, int p, String salt, String check) {
        return String.join("|", "blockfilter-wallet", "" + version, seal, kdf, "" + n, "" + r, "" + p, salt, check)
                .getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] field(String damaged, String name, String base64, int length) {
        byte[] b;
        try {
            b = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new WalletFileException(damaged + name + " is not base64", e);
        }
        if (length >= 0 && b.length != length) {
            throw new WalletFileException(damaged + name + " has " + b.length + " bytes, expected " + length, null);
        }
        return b;
    }
}
