package org.blockfilter.wallet.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Reads and writes the wallet file.
 *
 * <p>On-disk layout: {@code <name>} is one UTF-8 JSON document, {@link WalletFileContent} plus a
 * {@code checksum} field (SHA-256 of the rest, see {@link #withChecksum}; older files without it
 * are read). A save
 * writes {@code <name>.tmp} in the same directory, fsyncs it, renames it over {@code <name>}
 * atomically and fsyncs the directory. A crash at any point leaves either the old or the new
 * complete file under {@code <name>}; a leftover {@code <name>.tmp} is never read and is
 * overwritten by the next save. {@code <name>.lock} is an empty file whose OS lock every create and
 * save holds (see {@link #lock}), so processes sharing a wallet take turns and each save is a
 * read-modify-write of the file as it is at that moment ({@link #update}).
 *
 * <p>A wallet sealed whole ({@link Sealing#ALL}) is instead an envelope, one JSON document: {@code
 * version} {@value #SEALED_VERSION}, {@code seal} "all", the key derivation ({@code kdf} "scrypt",
 * {@code n}, {@code r}, {@code p}, base64 {@code salt}), the key check value {@code check} (see
 * {@link FileKey}), a fresh random base64 {@code nonce} on every save and the base64 {@code
 * ciphertext}: AES-256-GCM of the {@link WalletFileContent} JSON above (its {@code checksum}
 * included), with the header fields as associated data, so none of them can be changed unnoticed.
 * The envelope has its own {@code checksum} too, so accidental damage is reported as damage
 * before any passphrase is tried. Plain files (secret-only and none) are the document itself.
 *
 * <p>The document is {@link WalletFileContent} ({@code version} {@value WalletFileContent#CURRENT_VERSION}),
 * whose block and filter headers live in flat files beside it ({@link ChainFiles}). A file of the
 * one-document format ({@link LegacyWalletFileContent}, {@code version} 1) is read as such and
 * rewritten once by {@link #migrate}.
 *
 * <p>Stateless; thread-safe.
 */
public final class WalletFile {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** How long a save waits for another process that holds the wallet's lock. */
    public static final Duration DEFAULT_LOCK_WAIT = Duration.ofSeconds(10);

    private static final long LOCK_POLL_MILLIS = 20;
    static final String CHECKSUM = "checksum";
    /** Version of the sealed envelope; the plain document inside keeps {@link WalletFileContent#CURRENT_VERSION}. */
    public static final int SEALED_VERSION = 2;

    /** Bytes of the last document this thread wrote (for tests and benchmarks of what a save costs). */
    private static final ThreadLocal<long[]> LAST_WRITE = ThreadLocal.withInitial(() -> new long[1]);

    private WalletFile() {}

    /** Bytes of the last document (envelope included) this thread wrote. */
    public static long lastWriteBytes() {
        return LAST_WRITE.get()[0];
    }

    /** Writes a new wallet; refuses to overwrite an existing one. */
    public static void create(Path path, WalletFileContent content) {
        create(path, content, null);
    }

    /** Writes a new wallet, sealed whole with {@code key} (null: plain); refuses to overwrite an existing one. */
    public static void create(Path path, WalletFileContent content, FileKey key) {
        create(path, content, key, () -> {});
    }

    /** {@link #create} that runs {@code beforeWrite} (writing the header files) under the lock, before the document. */
    public static void create(Path path, WalletFileContent content, FileKey key, Runnable beforeWrite) {
        try (Lock ignored = lock(path, DEFAULT_LOCK_WAIT)) {
            if (Files.exists(path)) {
                throw new WalletFileException(
                        "wallet file already exists: " + path, new FileAlreadyExistsException(path.toString()));
            }
            beforeWrite.run();
            write(path, content, key);
        }
    }

    /** Replaces the wallet file atomically, under the lock. Prefer {@link #update}, which sees other processes' saves. */
    public static void save(Path path, WalletFileContent content) {
        update(path, current -> content, DEFAULT_LOCK_WAIT);
    }

    /**
     * Read-modify-write under the wallet's lock: reads the file as it is now (null when there is
     * none), lets {@code change} merge into it, writes the result atomically and returns it. So a
     * save never overwrites what another process saved since this one loaded the file.
     */
    public static WalletFileContent update(Path path, UnaryOperator<WalletFileContent> change, Duration wait) {
        return update(path, null, null, change, wait);
    }

    /**
     * {@link #update} of a file sealed with {@code readKey} (null: plain), written sealed with
     * {@code writeKey} (null: plain); the two differ only when resealing. The file must still be
     * sealed as {@code readKey} says: when another process resealed it since, this fails rather
     * than silently undo that.
     */
    public static WalletFileContent update(
            Path path, FileKey readKey, FileKey writeKey, UnaryOperator<WalletFileContent> change, Duration wait) {
        try (Lock ignored = lock(path, wait)) {
            WalletFileContent current = null;
            if (Files.exists(path)) {
                Opened o;
                try {
                    o = read(path, readKey, null);
                } catch (PassphraseRequiredException e) {
                    o = new Opened(null, null);
                }
                if (o.legacy() != null) {
                    throw new WalletFileException(
                            "wallet " + path.toAbsolutePath() + " was rewritten in the one-document format since this"
                                    + " process loaded it; nothing was saved, run the command again",
                            null);
                }
                if (o.key() != readKey || o.content() == null) {
                    throw new WalletFileException(
                            "wallet " + path.toAbsolutePath() + " was resealed by another process since this one"
                                    + " loaded it; nothing was saved, run the command again",
                            null);
                }
                current = o.content();
            }
            WalletFileContent next = change.apply(current);
            write(path, next, writeKey);
            return next;
        }
    }

    /**
     * Reads, changes and writes the wallet file under its lock, waiting for another process's lock up to the default
     * time; returns what was written.
     */
    public static WalletFileContent update(Path path, UnaryOperator<WalletFileContent> change) {
        return update(path, change, DEFAULT_LOCK_WAIT);
    }

    /**
     * Rewrites a one-document wallet file (sealed with {@code key}, null: plain) as the current
     * document under the lock: {@code convert} writes the header files and returns the document,
     * which is written last, so a crash leaves the old file (migrated again next time) or the new
     * one. When another process migrated it first, its document is returned unchanged.
     */
    public static WalletFileContent migrate(
            Path path, FileKey key, Function<LegacyWalletFileContent, WalletFileContent> convert) {
        try (Lock ignored = lock(path, DEFAULT_LOCK_WAIT)) {
            Opened o = read(path, key, null);
            if (o.legacy() == null) {
                return o.content();
            }
            WalletFileContent next = convert.apply(o.legacy());
            write(path, next, key);
            return next;
        }
    }

    /**
     * Writes {@code content} over the wallet file; only from inside {@link #update}'s change, which
     * holds the lock: for a save that must commit a shorter chain before it rewrites header records
     * (a reorg).
     */
    public static void writeLocked(Path path, WalletFileContent content, FileKey key) {
        write(path, content, key);
    }

    /**
     * Takes the exclusive lock on the wallet at {@code path}: an OS file lock on the sibling
     * {@code <name>.lock}, shared by every process (and every channel in this one) that uses this
     * class. Waits up to {@code wait}, then fails naming the file.
     */
    public static Lock lock(Path path, Duration wait) {
        Path abs = path.toAbsolutePath();
        Path lockFile = abs.resolveSibling(abs.getFileName() + ".lock");
        FileChannel ch;
        try {
            ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new WalletFileException("could not open the lock file " + lockFile + ": " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + wait.toNanos();
        try {
            while (true) {
                try {
                    FileLock l = ch.tryLock();
                    if (l != null) {
                        return new Lock(ch, l);
                    }
                } catch (OverlappingFileLockException e) {
                    // Held through another channel of this JVM: wait like for another process.
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new WalletFileException(
                            "wallet " + abs + " is in use by another process (its lock " + lockFile
                                    + " was held for more than " + wait.toMillis() + " ms); try again when it is done",
                            null);
                }
                Thread.sleep(LOCK_POLL_MILLIS);
            }
        } catch (IOException e) {
            closeQuietly(ch);
            throw new WalletFileException("could not lock " + lockFile + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            closeQuietly(ch);
            Thread.currentThread().interrupt();
            throw new WalletFileException("interrupted while waiting for the lock on " + abs, e);
        } catch (RuntimeException e) {
            closeQuietly(ch);
            throw e;
        }
    }

    /** A held wallet lock; {@link #close()} releases it. The lock file itself stays (deleting it would race). */
    public static final class Lock implements AutoCloseable {
        private final FileChannel channel;
        private final FileLock lock;

        private Lock(FileChannel channel, FileLock lock) {
            this.channel = channel;
            this.lock = lock;
        }

        @Override
        public void close() {
            try {
                lock.release();
            } catch (IOException e) {
                // Closing the channel below releases it too.
            }
            closeQuietly(channel);
        }
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // Nothing left to release.
        }
    }

    private static void write(Path path, WalletFileContent content, FileKey key) {
        Path abs = path.toAbsolutePath();
        Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
        try {
            byte[] bytes = JSON.writeValueAsBytes(withChecksum(content));
            if (key != null) {
                bytes = JSON.writeValueAsBytes(SealedEnvelope.seal(JSON, bytes, key));
            }
            try (FileChannel ch = FileChannel.open(
                    tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            LAST_WRITE.get()[0] = bytes.length;
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new WalletFileException(
                        "the file system cannot rename atomically; refusing a non-atomic save of " + abs, e);
            }
            fsyncDirectory(abs.getParent());
        } catch (IOException e) {
            throw new WalletFileException(
                    "could not save wallet " + abs + " (writing " + tmp.getFileName() + " then renaming it): "
                            + e.getMessage(),
                    e);
        }
    }

    /** Reads a plain wallet file; a sealed one fails with {@link PassphraseRequiredException}. */
    public static WalletFileContent load(Path path) {
        return read(path, null, null).content();
    }

    /**
     * What {@link #open} read: the content and the file's key (null for a plain file); for a file of
     * the one-document format {@code content} is null and {@code legacy} holds it.
     */
    public record Opened(WalletFileContent content, FileKey key, LegacyWalletFileContent legacy) {
        Opened(WalletFileContent content, FileKey key) {
            this(content, key, null);
        }
    }

    /**
     * Reads a wallet file of any sealing. A sealed one is decrypted with a key derived from
     * {@code passphrase} (once; keep {@link Opened#key()} for later saves): {@link
     * PassphraseRequiredException} when {@code passphrase} is null, {@link WrongPassphraseException}
     * when its key check value does not match, {@link WalletFileException} saying "damaged" when the
     * file was changed. A plain file ignores the passphrase.
     */
    public static Opened open(Path path, char[] passphrase) {
        return read(path, null, passphrase);
    }

    private static Opened read(Path path, FileKey key, char[] passphrase) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new WalletFileException("no wallet file at " + path + " (create or restore one first)", e);
        } catch (IOException e) {
            throw new WalletFileException("could not read wallet " + path + ": " + e.getMessage(), e);
        }
        JsonNode tree = tree(path, bytes);
        if (tree instanceof ObjectNode root && root.has("seal")) {
            verifyChecksum(path, root);
            SealedEnvelope.Envelope env = SealedEnvelope.read(path, root);
            FileKey k = key;
            if (k == null || !k.fits(env.salt(), env.n(), env.check())) {
                if (passphrase == null) {
                    if (key != null) {
                        return new Opened(null, null); // resealed by another process: the caller says so
                    }
                    throw new PassphraseRequiredException("wallet file " + path + " is sealed whole (--seal all):"
                            + " every command needs its passphrase");
                }
                k = FileKey.derive(passphrase, env.salt(), env.n());
                if (!MessageDigest.isEqual(k.check(), env.check())) {
                    throw new WrongPassphraseException("wrong passphrase for wallet file " + path
                            + " (its key check value does not match; the file itself is intact)");
                }
            }
            byte[] body;
            try {
                body = k.decrypt(env.nonce(), env.ciphertext(), env.aad());
            } catch (GeneralSecurityException e) {
                throw new WalletFileException(
                        "wallet file " + path + " is damaged: the passphrase is right (its key check matches) but"
                                + " the sealed content fails authentication (edited or corrupted on disk); restore"
                                + " a backup",
                        e);
            }
            return plain(path, tree(path, body), k);
        }
        return plain(path, tree, null);
    }

    private static JsonNode tree(Path path, byte[] bytes) {
        try {
            return JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw new WalletFileException(
                    "not a readable wallet file: " + path + " (" + e.getOriginalMessage() + ")", e);
        } catch (IOException e) {
            throw new WalletFileException("could not read wallet " + path + ": " + e.getMessage(), e);
        }
    }

    /** Removes and checks the {@code checksum} field, if there is one. */
    private static void verifyChecksum(Path path, JsonNode tree) {
        if (tree instanceof ObjectNode root && root.has(CHECKSUM)) {
            String stored = root.remove(CHECKSUM).asText();
            if (!stored.equals(checksum(root))) {
                throw new WalletFileException(
                        "wallet file " + path + " is damaged: its checksum does not match its content (edited or"
                                + " corrupted on disk); restore a backup, or remove the \"" + CHECKSUM
                                + "\" field to load it anyway (it is then checked field by field, and the next"
                                + " verify compares it with the sources)",
                        null);
            }
        }
    }

    private static Opened plain(Path path, JsonNode tree, FileKey key) {
        verifyChecksum(path, tree);
        int version = tree == null ? -1 : tree.path("version").asInt(-1);
        try {
            if (version == WalletFileContent.CURRENT_VERSION
                    || version == WalletFileContent.VERSION_3
                    || version == WalletFileContent.VERSION_2) {
                return new Opened(JSON.treeToValue(tree, WalletFileContent.class), key);
            }
            if (version == LegacyWalletFileContent.VERSION) {
                return new Opened(null, key, JSON.treeToValue(tree, LegacyWalletFileContent.class));
            }
        } catch (JsonProcessingException e) {
            throw new WalletFileException(
                    "not a readable wallet file: " + path + " (" + e.getOriginalMessage() + ")", e);
        }
        throw new WalletFileException(
                "unsupported wallet file version in " + path + ": " + (tree == null ? "empty" : tree.path("version")),
                null);
    }

    /**
     * The document with a {@code checksum} field: SHA-256 of the document's JSON without it. It
     * finds accidental damage (a flipped bit, a half-finished edit); it is no protection against
     * someone who edits the file on purpose and recomputes it, which is why {@code LightWallet}
     * also checks each field and sync checks the stored chains against the sources.
     */
    private static ObjectNode withChecksum(WalletFileContent content) {
        ObjectNode root = JSON.valueToTree(content);
        root.put(CHECKSUM, checksum(root));
        return root;
    }

    static String checksum(ObjectNode withoutChecksum) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(JSON.writeValueAsBytes(withoutChecksum)));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void fsyncDirectory(Path dir) {
        if (dir == null) {
            return;
        }
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Some platforms cannot open directories; the rename is still atomic there.
        }
    }
}
