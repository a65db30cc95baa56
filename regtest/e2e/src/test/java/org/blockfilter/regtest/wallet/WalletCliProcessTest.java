package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.cli.WalletCli;
import org.blockfilter.wallet.keys.AddressKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wallet CLI as a real process with the packaged application's classpath (logback and the
 * server's logback.xml, which logs to stdout). Clean stdout and documented exit codes: before the fix {@code --json
 * sync} printed a log line on stdout before the JSON, and a sync whose only server was unreachable
 * exited 2 ("sync stopped") instead of the documented 3 (network failure).
 */
class WalletCliProcessTest {
    @TempDir
    Path dir;

    private record Result(int code, String out, String err) {}

    private Result cli(String... args) throws IOException, InterruptedException {
        return cliWithPassphrase(null, args);
    }

    /** Runs the CLI with {@code BLOCKFILTER_PASSPHRASE} set to {@code passphrase}, or unset when null. */
    private Result cliWithPassphrase(String passphrase, String... args) throws IOException, InterruptedException {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(
                java,
                // The packaged application's logging (the server's logback.xml, to stdout), not the tests'.
                "-Dlogback.configurationFile=logback.xml",
                "-cp",
                System.getProperty("java.class.path"),
                WalletCli.class.getName()));
        cmd.addAll(List.of(args));
        Path out = dir.resolve("out-" + System.nanoTime());
        Path err = dir.resolve("err-" + System.nanoTime());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().remove("BLOCKFILTER_PASSPHRASE");
        if (passphrase != null) {
            pb.environment().put("BLOCKFILTER_PASSPHRASE", passphrase);
        }
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the CLI finished");
        return new Result(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private Path wallet() {
        return wallet(Chain.REGTEST);
    }

    private Path wallet(Chain network) {
        Path file = dir.resolve(network.cliName() + ".json");
        NewWallet.create(
                file,
                List.of("abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
                        .split(" ")),
                "pw".toCharArray(),
                EnumSet.of(AddressKind.P2WPKH),
                NewWallet.Options.of(network)
                        .withBirthday(LightWallet.Birthday.ofHeight(0))
                        .withScryptN(1 << 10));
        return file;
    }

    /** The CLI with {@code args} and {@code --server} of our server on an embedded node with {@code blocks} blocks. */
    private Result againstServer(int blocks, String... args) throws Exception {
        try (EmbeddedNode node = EmbeddedNode.start()) {
            node.mine(blocks);
            try (ServerOnNode server = new ServerOnNode(node)) {
                List<String> all = new ArrayList<>(List.of(args));
                all.add("--server");
                all.add(server.baseUri().toString());
                return cli(all.toArray(String[]::new));
            }
        }
    }

    @Test
    void jsonSyncPrintsOnlyJsonOnStdout() throws Exception {
        Path file = wallet();
        Result r = againstServer(10, "--wallet", file.toString(), "--json", "sync");
        assertEquals(0, r.code(), r.out() + r.err());
        JsonNode j = new ObjectMapper().readTree(r.out()); // fails on anything before or after the object
        assertEquals(10, j.get("height").asInt(), r.out());
        assertTrue(r.out().trim().startsWith("{") && r.out().trim().endsWith("}"), r.out());
    }

    @Test
    void anHonestServerOfAnotherNetworkIsNamedAsSuchAndExitsOne() throws Exception {
        Path file = wallet(Chain.TESTNET3);
        Result r = againstServer(3, "--wallet", file.toString(), "sync", "--quiet");
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("OTHER_NETWORK: is on another network: its genesis is "), r.err());
        assertTrue(r.err().contains("(regtest's); this wallet is a testnet3 wallet"), r.err());
    }

    @Test
    void unreachableServerExitsThreeAsDocumented() throws Exception {
        Path file = wallet();
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        Result r = cli(
                "--wallet",
                file.toString(),
                "sync",
                "--quiet",
                "--timeout",
                "5",
                "--server",
                "http://127.0.0.1:" + closedPort);
        assertEquals(3, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("127.0.0.1:" + closedPort), r.err());
    }

    @Test
    void aWalletCreatedWithTheDefaultSealIsSealedWholeAndSyncsOnlyWithItsPassphrase() throws Exception {
        Path file = dir.resolve("sealed.json");
        Result created = cliWithPassphrase("demo-pass", "--wallet", file.toString(), "--json", "create");
        assertEquals(0, created.code(), created.out() + created.err());
        String address =
                new ObjectMapper().readTree(created.out()).get("receiveAddress").asText();
        assertTrue(!Files.readString(file).contains(address), "the address is not in the file");
        try (EmbeddedNode node = EmbeddedNode.start()) {
            node.mine(5);
            try (ServerOnNode server = new ServerOnNode(node)) {
                String url = server.baseUri().toString();
                Result without = cli("--wallet", file.toString(), "sync", "--quiet", "--server", url);
                assertEquals(1, without.code(), without.out() + without.err());
                assertTrue(without.err().contains("sealed whole"), without.err());
                assertTrue(without.err().contains("BLOCKFILTER_PASSPHRASE"), without.err());

                Result with = cliWithPassphrase(
                        "demo-pass", "--wallet", file.toString(), "--json", "sync", "--quiet", "--server", url);
                assertEquals(0, with.code(), with.out() + with.err());
                assertEquals(
                        5, new ObjectMapper().readTree(with.out()).get("height").asInt());
                assertTrue(!Files.readString(file).contains(address), "still sealed after the sync's save");
            }
        }
    }
}
