package org.blockfilter.wallet.store;

import java.nio.file.Path;

/**
 * The flat files beside a wallet document {@code <name>}: {@code <name>.headers} (80-byte block
 * headers from the chain's base), {@code <name>.filterheaders} (32-byte BIP 157 filter headers
 * from the filter chain's start) and {@code <name>.checkpoints} (32-byte BIP 157 filter-header
 * checkpoints, heights 1000, 2000, ...), each a {@link RecordFile}. Stateless.
 */
public final class ChainFiles {
    /** Bytes of one block-header record. */
    public static final int HEADER_BYTES = 80;
    /** Bytes of one filter-header or checkpoint record. */
    public static final int HASH_BYTES = 32;

    private ChainFiles() {}

    /** The block-header file of the wallet at {@code wallet}: {@code <name>.headers} beside it. */
    public static Path headers(Path wallet) {
        return sibling(wallet, ".headers");
    }

    /** The filter-header file of the wallet at {@code wallet}: {@code <name>.filterheaders} beside it. */
    public static Path filterHeaders(Path wallet) {
        return sibling(wallet, ".filterheaders");
    }

    /** The checkpoint file of the wallet at {@code wallet}: {@code <name>.checkpoints} beside it. */
    public static Path checkpoints(Path wallet) {
        return sibling(wallet, ".checkpoints");
    }

    private static Path sibling(Path wallet, String suffix) {
        Path abs = wallet.toAbsolutePath();
        return abs.resolveSibling(abs.getFileName() + suffix);
    }
}
