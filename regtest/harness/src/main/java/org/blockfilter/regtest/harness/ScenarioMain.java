package org.blockfilter.regtest.harness;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.bitcoinj.crypto.ECKey;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.btcd.BtcdOptions;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.OwnedScript;
import org.blockfilter.regtest.scenario.ScenarioRunner;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.regtest.scenario.ScenarioWallet;

/**
 * Builds a scenario chain on a fresh node and keeps the node running so the server, the wallet
 * or external tools can use it:
 * {@code ScenarioMain [--backend btcd|embedded] [--seed S] [--blocks N] [--truth FILE]}.
 * Prints the RPC URL with credentials and the P2P address; {@code --truth} writes the wallets
 * (addresses, scripts, regtest WIF keys) and their balances as JSON. Runs until interrupted.
 */
public final class ScenarioMain {
    private ScenarioMain() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        String backend = "btcd";
        long seed = 1;
        int blocks = 300;
        Path truthFile = null;
        try {
            for (int i = 0; i < args.length; i += 2) {
                String value = i + 1 < args.length ? args[i + 1] : null;
                if (value == null && !args[i].equals("--help")) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                switch (args[i]) {
                    case "--backend" -> backend = value;
                    case "--seed" -> seed = Long.parseLong(value);
                    case "--blocks" -> blocks = Integer.parseInt(value);
                    case "--truth" -> truthFile = Path.of(value);
                    case "--help" -> {
                        usage(System.out);
                        return;
                    }
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            if (!backend.equals("btcd") && !backend.equals("embedded")) {
                throw new IllegalArgumentException("--backend must be btcd or embedded: " + backend);
            }
            if (blocks < 1 || blocks > 10_000) {
                throw new IllegalArgumentException("--blocks must be in 1..10000: " + blocks);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            usage(System.err);
            System.exit(2);
            return;
        }
        ScenarioSpec spec = ScenarioSpec.standard(seed)
                .withBlocks(blocks)
                .withReorgs(blocks > 200 ? List.of(new ScenarioSpec.Reorg(200, 3)) : List.of());
        RegtestNode node = backend.equals("btcd")
                ? BtcdNode.start(BtcdOptions.of(spec.miningAddress()))
                : EmbeddedNode.start(EmbeddedNode.Config.defaults().withMiningAddress(spec.miningAddress()));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            node.close();
                            stopped.countDown();
                        },
                        "scenario-node-shutdown"));
        GroundTruth truth = ScenarioRunner.run(node, spec);
        PrintStream out = System.out;
        out.println(node.name() + " regtest node: " + truth.tipHeight() + " blocks, "
                + truth.transactions().size() + " scenario transactions (" + spec + ")");
        out.println("tip:  " + truth.tipHash());
        out.println("url:  http://" + node.rpcUser() + ":" + node.rpcPassword() + "@"
                + node.rpcUri().getAuthority());
        node.p2pAddress().ifPresent(p2p -> out.println("p2p:  " + p2p.getHostString() + ":" + p2p.getPort()));
        if (truthFile != null) {
            writeTruth(truth, truthFile);
            out.println("truth: " + truthFile.toAbsolutePath());
        }
        out.println("Ctrl-C stops the node and deletes its data.");
        stopped.await();
    }

    /** The wallets and balances as JSON, for tools outside this module (regtest keys only). */
    static void writeTruth(GroundTruth truth, Path file) throws IOException {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = json.createObjectNode();
        root.put("seed", truth.spec().seed());
        root.put("tipHeight", truth.tipHeight());
        root.put("tipHash", truth.tipHash().toString());
        ArrayNode wallets = root.putArray("wallets");
        for (ScenarioWallet w : truth.wallets()) {
            ObjectNode node = wallets.addObject();
            node.put("index", w.index());
            node.put("name", w.name());
            node.put("balanceSats", truth.balance(w.index()).value);
            node.put("outputs", truth.outputsOf(w.index()).size());
            ArrayNode keys = node.putArray("keysWif");
            for (ECKey k : w.keys()) {
                keys.add(k.getPrivateKeyAsWiF(RegtestNode.PARAMS.network()));
            }
            ArrayNode scripts = node.putArray("scripts");
            for (OwnedScript s : w.scripts()) {
                ObjectNode sn = scripts.addObject();
                sn.put("kind", s.kind().name());
                sn.put("scriptPubKey", HexFormat.of().formatHex(s.program()));
                s.address().ifPresent(a -> sn.put("address", a.toString()));
            }
        }
        json.writeValue(file.toFile(), root);
    }

    private static void usage(PrintStream out) {
        out.println("usage: ScenarioMain [--backend btcd|embedded] [--seed S] [--blocks N] [--truth FILE]");
    }
}
