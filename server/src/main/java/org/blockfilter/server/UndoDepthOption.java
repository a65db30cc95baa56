package org.blockfilter.server;

import org.blockfilter.server.store.IndexStore;
import picocli.CommandLine.Option;

/**
 * {@code --undo-depth}, as a picocli mixin of the server and of {@code repair}, which must keep
 * the same undo data as the server that built the index. Mutable, filled by picocli; not
 * thread-safe.
 */
final class UndoDepthOption {
    @Option(
            names = "--undo-depth",
            defaultValue = "" + IndexStore.DEFAULT_UNDO_DEPTH,
            description = "Blocks of undo data kept, the deepest reorg followed (default: ${DEFAULT-VALUE}).")
    int undoDepth;
}
