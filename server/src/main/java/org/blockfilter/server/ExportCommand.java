package org.blockfilter.server;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.blockfilter.server.export.StaticExport;
import org.blockfilter.server.rpc.BitcoinRpc;
import org.blockfilter.server.rpc.JsonRpcClient;
import org.blockfilter.server.rpc.RpcException;
import org.blockfilter.server.store.DirectoryTrees;
import org.blockfilter.server.store.IndexStore;
import org.blockfilter.server.store.StoreException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code blockfilter-server export}: writes (or brings up to date) the static, content-addressed
 * export of an index ({@link StaticExport}) for any HTTP server or CDN. It opens the index as a
 * read-only secondary, so it runs beside the server that indexes it. Exit codes: 0 done, 1
 * failed, 2 bad options.
 */
@Command(
        name = "export",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Writes the index as immutable, content-addressed files plus index.json, for any HTTP server.")
final class ExportCommand implements Callable<Integer> {
    @CommandLine.Mixin
    IndexCommandOptions index;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The export directory.")
    Path out;

    @Option(
            names = "--safety-depth",
            defaultValue = "6",
            description = "Export only blocks this many below the index's tip, so no normal reorg "
                    + "touches an exported file (default: ${DEFAULT-VALUE}).")
    int safetyDepth;

    @Option(
            names = "--network",
            paramLabel = "NAME",
            description = "Chain name written to index.json (default: the node's with --node, else the name of the"
                    + " network whose genesis block the index starts with, as the node names it: main, test,"
                    + " testnet4, signet, regtest).")
    String network;

    @Option(names = "--node", paramLabel = "URL", description = "Node JSON-RPC URL, for --blocks and the chain name.")
    URI node;

    @Option(
            names = "--blocks",
            description = "Also export the raw blocks (from --node), so wallets need no other source.")
    boolean blocks;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        // The executing command line's writers (ServerMain.run(out, err, ...) redirects them).
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        String problem = null;
        if (safetyDepth < 0) {
            problem = "--safety-depth must be >= 0: " + safetyDepth;
        } else if (blocks && node == null) {
            problem = "--blocks needs --node";
        } else if (index.rpcCookie != null && node == null) {
            problem = "--rpc-cookie needs --node";
        } else if (!Files.isDirectory(index.dataDir)) {
            problem = "--data-dir " + index.dataDir + " is not a directory";
        }
        if (problem != null) {
            err.println("blockfilter-server export: " + problem + " (see --help)");
            err.flush();
            return 2;
        }
        Path secondary = null;
        JsonRpcClient client = null;
        try {
            // The node, when given, names the network (unless --network does) and serves --blocks.
            if (node != null) {
                client = index.client(node);
            }
            BitcoinRpc rpc = client == null ? null : new BitcoinRpc(client);
            String chain = network;
            if (rpc != null && chain == null) {
                chain = rpc.blockchainInfo().path("chain").asText(null);
            }
            secondary = Files.createTempDirectory("blockfilter-export-");
            try (IndexStore store = IndexStore.openSecondary(index.dataDir, secondary)) {
                if (chain == null) {
                    chain = networkOf(store);
                }
                BitcoinRpc r = rpc;
                StaticExport.Result result =
                        StaticExport.export(store, out, safetyDepth, chain, blocks ? r::rawBlock : null);
                stdout.printf(
                        "blockfilter-server export: %s (%s) up to height %d (%s): %d files written, %d kept, %d blocks%n",
                        out,
                        chain,
                        result.tipHeight(),
                        result.tipHash(),
                        result.filesWritten(),
                        result.filesKept(),
                        result.blocksWritten());
                stdout.flush();
                return 0;
            }
        } catch (StoreException | IllegalStateException | RpcException | UncheckedIOException e) {
            err.println("blockfilter-server export: " + e.getMessage());
            err.flush();
            return 1;
        } catch (IOException e) {
            err.println("blockfilter-server export: " + e);
            err.flush();
            return 1;
        } finally {
            if (client != null) {
                client.close();
            }
            DirectoryTrees.deleteTemporary(secondary);
        }
    }

    /** The node's name of the network whose genesis the index starts with. */
    private static String networkOf(IndexStore store) {
        org.bitcoinj.base.Sha256Hash genesis =
                store.hashAt(0).orElseThrow(() -> new IllegalStateException("the index is empty"));
        return java.util.Arrays.stream(org.blockfilter.filters.chain.Chain.values())
                .filter(c -> c.genesisHash().equals(genesis))
                .map(org.blockfilter.filters.chain.Chain::coreName)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("the index starts at block " + genesis
                        + ", the genesis of no network known here: give --network or --node"));
    }
}
