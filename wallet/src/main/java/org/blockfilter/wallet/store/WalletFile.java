package org.blockfilter.wallet.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Reads and writes the wallet file.
 *
 * <p>On-disk layout: {@code <name>} is one UTF-8 JSON document, {@link WalletFileContent}. A save
 * writes {@code <name>.tmp} in the same directory, fsyncs it, renames it over {@code <name>}
 * atomically and fsyncs the directory. A crash at any point leaves either the old or the new
 * complete file under {@code <name>}; a leftover {@code <name>.tmp} is never read and is
 * overwritten by the next save.
 *
 * <p>Stateless; thread-safe for different paths (callers serialise saves of one wallet).
 */
public final class WalletFile {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private WalletFile() {}

    /** Writes a new wallet; refuses to overwrite an existing one. */
    public static void create(Path path, WalletFileContent content) {
        if (Files.exists(path)) {
            throw new WalletFileException(
                    "wallet file already exists: " + path, new FileAlreadyExistsException(path.toString()));
        }
        save(path, content);
    }

    /** Replaces the wallet file atomically. */
    public static void save(Path path, WalletFileContent content) {
        Path abs = path.toAbsolutePath();
        Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
        try {
            byte[] bytes = JSON.writeValueAsBytes(content);
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
            throw new WalletFileException("could not save wallet " + abs + ": " + e.getMessage(), e);
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
            c = JSON.readValue(bytes, WalletFileContent.class);
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
