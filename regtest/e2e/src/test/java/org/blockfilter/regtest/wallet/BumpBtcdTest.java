package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.cli.InProcessCli;
import org.blockfilter.wallet.keys.AddressKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fees against btcd: a payment sent through the CLI signals BIP 125, {@code bump} replaces it in
 * btcd's mempool (btcd enforces the replacement rules: higher rate, fee plus its relay fee, no new
 * unconfirmed inputs), the mined replacement is what the wallet keeps while the replaced payment
 * is gone; and our server asks btcd's {@code estimatefee} for {@code /api/v1/fee-estimates}.
 */
@ExtendWith(NodeLogOnFailure.class)
class BumpBtcdTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private WalletFixture<BtcdNode> chain;

    @AfterEach
    void stop() {
        if (chain != null) {
            chain.close();
        }
    }

    private String[] cli(String... rest) {
        return WalletFixture.cli(dir, rest);
    }

    private List<String> mempool() {
        return chain.node().mempool().stream().map(Sha256Hash::toString).toList();
    }

    /** Waits (bounded) until btcd's mempool holds {@code present} and not {@code absent}. */
    private void awaitMempool(String present, String absent) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(20);
        while (Instant.now().isBefore(deadline)) {
            List<String> m = mempool();
            if (m.contains(present) && (absent == null || !m.contains(absent))) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("btcd's mempool " + mempool() + " never held " + present
                + (absent == null ? "" : " without " + absent));
    }

    @Test
    void bumpIsAcceptedByBtcdAndTheReplacedPaymentIsGoneOnceTheReplacementIsMined() throws Exception {
        ScenarioSpec spec = ScenarioSpec.small(20_261_202L, 5);
        chain = WalletFixture.onBtcd(spec);
        BtcdNode node = chain.node();
        Files.writeString(dir.resolve("pw"), "e2e\n");
        LightWallet w =
                WalletFixture.newWallet(dir.resolve("w.json"), "e2e".toCharArray(), EnumSet.of(AddressKind.P2WPKH));
        chain.pay(WalletFixture.receiving(w, AddressKind.P2WPKH, 0));
        node.mine(1);
        String peer = "127.0.0.1:" + node.p2pAddress().orElseThrow().getPort();
        assertEquals(0, InProcessCli.run(cli("sync", "--quiet", "--peer", peer)).code());

        InProcessCli.Run sent = InProcessCli.run(cli(
                "send",
                "--to",
                spec.miningAddress().toString(),
                "--amount",
                "0.001",
                "--fee-rate",
                "2",
                "--yes",
                "--peer",
                peer));
        assertEquals(0, sent.code(), sent.err());
        String original = JSON.readTree(sent.out()).get("txid").asText();
        awaitMempool(original, null);

        InProcessCli.Run low = InProcessCli.run(cli("bump", original, "--fee-rate", "2", "--yes", "--peer", peer));
        assertEquals(1, low.code(), low.err());
        assertTrue(low.err().contains("already pays"), low.err());

        InProcessCli.Run bumped = InProcessCli.run(cli("bump", original, "--fee-rate", "12", "--yes", "--peer", peer));
        assertEquals(0, bumped.code(), bumped.out() + bumped.err());
        JsonNode b = JSON.readTree(bumped.out());
        String replacement = b.get("txid").asText();
        assertEquals(original, b.get("replaces").asText());
        awaitMempool(replacement, original); // btcd replaced the original

        JsonNode history = JSON.readTree(InProcessCli.run(cli("history")).out()).get("transactions");
        assertTrue(history.toString().contains("\"status\":\"replaced\""), history.toString());

        Sha256Hash block = node.mine(1).get(0);
        assertTrue(node.block(block).orElseThrow().getTransactions().stream()
                .anyMatch(t -> t.getTxId().toString().equals(replacement)));
        assertEquals(0, InProcessCli.run(cli("sync", "--quiet", "--peer", peer)).code());
        LightWallet after = LightWallet.load(dir.resolve("w.json"), "e2e".toCharArray());
        assertTrue(after.ledger().get(Sha256Hash.wrap(original)).isEmpty(), "the replaced payment is gone");
        assertEquals(
                node.tipHeight(),
                after.ledger().get(Sha256Hash.wrap(replacement)).orElseThrow().height());
        JsonNode balance = JSON.readTree(InProcessCli.run(cli("balance")).out());
        assertEquals("0", balance.get("lockedByPending").asText());
        assertEquals(0, balance.get("stuckPayments").size());
    }

    @Test
    void theServerAsksBtcdsEstimatefee() throws Exception {
        chain = WalletFixture.onBtcd(ScenarioSpec.small(20_261_203L, 5));
        try (ServerOnNode server = new ServerOnNode(chain.node())) {
            HttpClient http = HttpClient.newHttpClient();
            JsonNode six = JSON.readTree(http.send(
                            HttpRequest.newBuilder(URI.create(server.baseUri() + "/api/v1/fee-estimates?target=6"))
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body());
            assertEquals("estimatefee", six.get("source").asText(), six.toString());
            JsonNode e = six.get("estimates").get(0);
            assertEquals(6, e.get("target").asInt());
            assertTrue(e.get("satPerVByte").isNull() != e.get("error").isNull(), e.toString());
            JsonNode far = JSON.readTree(http.send(
                            HttpRequest.newBuilder(URI.create(server.baseUri() + "/api/v1/fee-estimates?target=30"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body());
            JsonNode f = far.get("estimates").get(0);
            assertTrue(f.get("satPerVByte").isNull());
            assertFalse(f.get("error").asText().isEmpty(), f.toString());
        }
    }
}
