package org.blockfilter.server.http;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.server.index.StoreFilterIndexReader;
import org.blockfilter.server.node.NodeGateway;
import org.blockfilter.server.store.IndexStore;

/**
 * A REST server over an on-disk index, run in a child JVM by {@link RangeStreamingTest} so that
 * the test chooses its heap. Usage: {@code RangeServerProcess DATA_DIR}. Prints {@code PORT <n>},
 * serves until its standard input closes, then closes the server and the store and prints
 * {@code CLOSED} (a cursor that was never released would keep the store from closing).
 */
public final class RangeServerProcess {
    private RangeServerProcess() {}

    public static void main(String[] args) throws IOException {
        try (IndexStore store = IndexStore.open(Path.of(args[0]))) {
            int tip = store.tip().orElseThrow().height();
            NodeGateway node = new NodeGateway() {
                @Override
                public int nodeHeight() {
                    return tip;
                }

                @Override
                public boolean hasBlock(Sha256Hash blockHash) {
                    return false;
                }

                @Override
                public Optional<byte[]> rawBlock(Sha256Hash blockHash) {
                    return Optional.empty();
                }

                @Override
                public Sha256Hash relay(byte[] rawTx) {
                    throw new UnsupportedOperationException("no relay in this test server");
                }

                @Override
                public org.blockfilter.server.node.FeeEstimates feeEstimates(java.util.List<Integer> targets) {
                    throw new UnsupportedOperationException("no fee estimates in this test server");
                }
            };
            try (RestServer server = RestServer.start(RestConfig.defaults(), new StoreFilterIndexReader(store), node)) {
                System.out.println("PORT " + server.port());
                System.out.flush();
                while (System.in.read() >= 0) {
                    // serve until the test closes our stdin
                }
            }
        }
        System.out.println("CLOSED");
        System.out.flush();
    }
}
