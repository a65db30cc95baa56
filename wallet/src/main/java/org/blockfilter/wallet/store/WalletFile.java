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
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
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
 * <p>Stateless; thread-safe.
 */
public final class WalletFile {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** How long a save waits for another process that holds the wallet's lock. */
    public static final Duration DEFAULT_LOCK_WAIT = Duration.ofSeconds(10);

    private static final long LOCK_POLL_MILLIS = 20;
    private static final String CHECKSUM = "checksum";

    private WalletFile() {}

    /** Writes a new wallet; refuses to overwrite an existing one. */
    public static void create(Path path, WalletFileContent content) {
        try (Lock ignored = lock(path, DEFAULT_LOCK_WAIT)) {
            if (Files.exists(path)) {
                throw new WalletFileException(
                        "wallet file already exists: " + path, new FileAlreadyExistsException(path.toString()));
            }
            write(path, content);
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
        try (Lock ignored = lock(path, wait)) {
            WalletFileContent current = Files.exists(path) ? load(path) : null;
            WalletFileContent next = change.apply(current);
            write(path, next);
            return next;
        }
    }

    public static WalletFileContent update(Path path, UnaryOperator<WalletFileContent> change) {
        return update(path, change, DEFAULT_LOCK_WAIT);
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

    private static void write(Path path, WalletFileContent content) {
        Path abs = path.toAbsolutePath();
        Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
        try {
            byte[] bytes = JSON.writeValueAsBytes(withChecksum(content));
            try (FileChannel ch = FileChannel.open(
                    tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
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

    public static WalletFileContent load(Path path) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new WalletFileException("no wallet file at " + path + " (create or restore one first)", e);
        } catch (IOException e) {
            throw new WalletFileException("could not read wallet " + path + ": " + e.getMessage(), e);
        }
        WalletFileContent c;
        try {
            JsonNode tree = JSON.readTree(bytes);
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
            c = tree == null || tree.isMissingNode() ? null : JSON.treeToValue(tree, WalletFileContent.class);
        } catch (JsonProcessingException e) {
            throw new WalletFileException(
                    "not a readable wallet file: " + path + " (" + e.getOriginalMessage() + ")", e);
        } catch (IOException e) {
            throw new WalletFileException("could not read wallet " + path + ": " + e.getMessage(), e);
        }
        if (c == null || c.version() != WalletFileContent.CURRENT_VERSION) {
            throw new WalletFileException(
                    "unsupported wallet file version in " + path + ": " + (c == null ? "empty" : c.version()), null);
        }
        return c;
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

    private static String checksum(ObjectNode withoutChecksum) {
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
