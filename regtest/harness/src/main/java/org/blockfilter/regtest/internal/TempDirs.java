package org.blockfilter.regtest.internal;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Deletes temporary node directories. */
public final class TempDirs {
    private TempDirs() {}

    /** Deletes {@code dir} recursively; best effort, never throws (used in close paths). */
    public static void deleteQuietly(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    // Gone already (a node deleting its own files while stopping): fine.
                    if (e instanceof java.nio.file.NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (java.nio.file.NoSuchFileException e) {
            // Deleted concurrently: nothing left to do.
        } catch (IOException e) {
            System.err.println("warning: could not delete " + dir + ": " + e);
        }
    }
}
