package org.blockfilter.server;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.blockfilter.server.index.IndexRepair;
import org.blockfilter.server.index.IndexingException;
import org.blockfilter.server.index.NodeAnswerException;
import org.blockfilter.server.index.RpcBlockSource;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.rpc.RpcException;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.IndexVerifier;
import org.blockfilter.server.store.StoreException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code blockfilter-server repair}: rebuilds the damaged part of an index from the node
 * ({@link IndexRepair}), or everything from {@code --reindex-from HEIGHT}. Needs the server
 * stopped. Exit codes: 0 repaired (or nothing to repair), 1 failed, 2 bad options.
 */
@Command(
        name = "repair",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Rebuilds the damaged heights of the index from the node, keeping the rest (server stopped).")
final class RepairCommand implements Callable<Integer> {
    @CommandLine.Mixin
    IndexCommandOptions index;

    @Option(names = "--node", required = true, paramLabel = "URL", description = "Node JSON-RPC URL.")
    URI node;

    @Option(
            names = "--reindex-from",
            paramLabel = "HEIGHT",
            description = "Index again from this height even if it is sound (default: the lowest damaged height).")
    Integer reindexFrom;

    @CommandLine.Mixin
    UndoDepthOption undo;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if ((reindexFrom != null && reindexFrom < 0) || undo.undoDepth < 1) {
            err.println("blockfilter-server repair: --reindex-from must be >= 0 and --undo-depth >= 1 (see --help)");
            err.flush();
            return 2;
        }
        if (!IndexStore.holdsIndex(index.dataDir)) {
            err.println("blockfilter-server repair: no index in --data-dir " + index.dataDir
                    + " (repair mends an index the server built; start the server on an empty directory to build one)");
            err.flush();
            return 2;
        }
        try (JsonRpcClient client = index.client(node)) {
            RpcBlockSource source = new RpcBlockSource(new BitcoinRpc(client));
            IndexRepair.Result r =
                    IndexRepair.repair(index.dataDir, undo.undoDepth, source, Optional.ofNullable(reindexFrom));
            for (IndexVerifier.Problem p : r.found().problems()) {
                out.println("damaged: " + p);
            }
            if (r.fromHeight() < 0) {
                out.println("blockfilter-server repair: " + index.dataDir + " up to height " + r.tipHeight()
                        + ": no damage found, nothing to repair");
            } else {
                out.println(
                        "blockfilter-server repair: " + index.dataDir + " indexed again from height " + r.fromHeight()
                                + " to " + r.tipHeight() + " and verified; the damaged copy is in "
                                + r.damagedCopy().map(Path::toString).orElse("-") + " (delete it when done)");
            }
            out.flush();
            return 0;
        } catch (StoreException | RpcException | IndexingException | NodeAnswerException | IOException e) {
            err.println("blockfilter-server repair: " + e.getMessage());
            err.flush();
            return 1;
        }
    }
}
