package org.blockfilter.server.export;

import java.nio.file.Path;
import org.blockfilter.server.store.IndexStore;

/**
 * {@link StaticExportStreamingTest}'s child JVM: exports the index in args[0] into args[1] with
 * safety depth 0 and prints {@code DONE}. An OutOfMemoryError ends it with a non-zero exit.
 */
final class ExportProcess {
    private ExportProcess() {}

    public static void main(String[] args) {
        try (IndexStore store = IndexStore.open(Path.of(args[0]))) {
            StaticExport.export(store, Path.of(args[1]), 0, "regtest", null);
        }
        System.out.println("DONE");
    }
}
