package org.blockfilter.server.http;

import java.util.List;
import java.util.Map;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.node.NodeGateway;
import org.blockfilter.server.read.FilterIndexReader;
import org.blockfilter.server.read.IndexedFilter;

/** The REST tests' chain, index and fake node, for the P2P tests in another package. */
public final class P2pFixtures {
    private P2pFixtures() {}

    /**
     * A test chain of {@code length} blocks (BIP 158 vector blocks first), its index, and a node
     * that knows every block plus one beyond the index and rejects transactions paying 0.
     */
    public record Fixture(
            FilterIndexReader index,
            NodeGateway node,
            List<IndexedFilter> active,
            IndexedFilter stale,
            Sha256Hash unindexedButKnownToNode,
            Map<Sha256Hash, byte[]> headers,
            Map<Sha256Hash, byte[]> rawBlocks) {}

    public static Fixture build(int length) {
        RestTestChain chain = RestTestChain.build(length);
        return new Fixture(
                new InMemoryIndex(chain),
                new FakeNode(chain, 0, true),
                List.copyOf(chain.active),
                chain.stale,
                chain.unindexedButKnownToNode,
                Map.copyOf(chain.headers),
                Map.copyOf(chain.rawBlocks));
    }

    /** Starts the REST server on the fixture (free port, loopback). */
    public static RestServer rest(Fixture f) {
        return RestServer.start(RestConfig.defaults(), f.index(), f.node());
    }
}
