package org.blockfilter.server.http;

import java.io.IOException;
import java.nio.file.Path;
import org.blockfilter.server.node.NodeGateway;
import org.blockfilter.server.read.StoreFilterIndexReader;
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
            NodeGateway node = new TipNode(tip);
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
