package org.blockfilter.regtest.internal;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the last lines of a node's log file. Stateless. */
public final class LogTail {
    private static final int MAX_BYTES = 64 * 1024;

    private LogTail() {}

    /** The last {@code lines} lines of {@code file}; a note instead if it cannot be read. Never null. */
    public static String of(Path file, int lines) {
        if (file == null || !Files.isRegularFile(file)) {
            return "(no log file" + (file == null ? "" : " at " + file) + ")";
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long length = raf.length();
            int n = (int) Math.min(length, MAX_BYTES);
            byte[] bytes = new byte[n];
            raf.seek(length - n);
            raf.readFully(bytes);
            String[] all = new String(bytes, StandardCharsets.UTF_8).split("\r?\n");
            int from = Math.max(0, all.length - lines);
            return String.join("\n", java.util.Arrays.copyOfRange(all, from, all.length));
        } catch (IOException e) {
            return "(cannot read log " + file + ": " + e + ")";
        }
    }
}
