package org.blockfilter.server.node;

import java.net.URI;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Service-provider interface for the embedded regtest node. The server's {@code --embedded}
 * mode (its default) finds an implementation with {@link ServiceLoader}; the {@code regtest}
 * module provides it, so the dependency between the modules keeps pointing one way
 * (server &lt;- regtest) while the packaged application can still start a node in-process.
 */
public interface EmbeddedNodeLauncher {

    /**
     * Starts an in-process regtest node serving Bitcoin Core's JSON-RPC dialect on a free
     * 127.0.0.1 port, with a deterministic demo chain of about {@code demoBlocks} blocks with
     * realistic transactions (built from {@code seed}).
     */
    Handle start(int demoBlocks, long seed);

    /** A running embedded node. */
    interface Handle extends AutoCloseable {
        /** JSON-RPC endpoint without credentials. */
        URI rpcUri();

        String rpcUser();

        String rpcPassword();

        /** Stops the node and deletes its temporary data. */
        @Override
        void close();
    }

    /** The first launcher on the class path, if any. */
    static Optional<EmbeddedNodeLauncher> find() {
        return ServiceLoader.load(EmbeddedNodeLauncher.class).findFirst();
    }
}
