package org.blockfilter.server.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Deletes directory trees the server and its commands created (temporary secondaries, earlier repair attempts). */
public final class DirectoryTrees {
    private DirectoryTrees() {}

    /** Deletes {@code dir} and everything in it; nothing if it does not exist. */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Deletes a temporary directory, if any, and ignores failure: a temporary directory left behind is not worth
     * failing a command that did its job for.
     */
    public static void deleteTemporary(Path dir) {
        if (dir == null) {
            return;
        }
        try {
            delete(dir);
        } catch (IOException e) {
            // left behind in the system's temporary directory
        }
    }
}
