package org.blockfilter.server;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.rpc.RpcException;
import org.blockfilter.server.store.DirectoryTrees;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.IndexVerifier;
import org.blockfilter.server.store.StoreException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code blockfilter-server verify}: reads every record of an index and reports damaged files and
 * records as height ranges ({@link IndexVerifier}); with {@code --node}, also each block hash
 * against the node's. Opens the index as a read-only secondary, so it runs beside the server.
 * Exit codes: 0 clean, 1 damage found or the index cannot be read, 2 bad options.
 */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Reads every record of the index and reports what is damaged, as height ranges.")
final class VerifyCommand implements Callable<Integer> {
    @CommandLine.Mixin
    IndexCommandOptions index;

    @Option(names = "--node", paramLabel = "URL", description = "Also check each block hash against this node's.")
    URI node;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (index.rpcCookie != null && node == null) {
            err.println("blockfilter-server verify: --rpc-cookie needs --node (see --help)");
            err.flush();
            return 2;
        }
        Path secondary = null;
        JsonRpcClient client = null;
        try {
            client = node == null ? null : index.client(node);
            BitcoinRpc rpc = client == null ? null : new BitcoinRpc(client);
            secondary = Files.createTempDirectory("blockfilter-verify-");
            try (IndexStore store = IndexStore.openSecondary(index.dataDir, secondary)) {
                IndexVerifier.Report report = IndexVerifier.verify(store, rpc == null ? null : rpc::blockHash);
                for (IndexVerifier.Problem p : report.problems()) {
                    out.println("damaged: " + p);
                }
                out.println("blockfilter-server verify: " + index.dataDir + " up to height " + report.tipHeight() + ": "
                        + (report.clean()
                                ? "no damage found"
                                : report.problems().size() + " problems; lowest height "
                                        + report.lowestHeight().orElse(0) + " (run `repair` with the server stopped)"));
                out.flush();
                return report.clean() ? 0 : 1;
            }
        } catch (StoreException | RpcException | IOException | IllegalArgumentException e) {
            err.println("blockfilter-server verify: " + e.getMessage());
            err.flush();
            return 1;
        } finally {
            if (client != null) {
                client.close();
            }
            DirectoryTrees.deleteTemporary(secondary);
        }
    }
}
