package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import org.bitcoinj.base.Address;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.cli.InProcessCli;
import org.blockfilter.wallet.keys.AddressKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fees, relay rules and the balance through the CLI, with our server on the embedded node (which,
 * like a regtest Bitcoin Core without fee history, has no fee estimate): {@code send} without
 * {@code --fee-rate} says there is no estimate and to give one; a payment below the dust limit is
 * refused; while a payment is pending, {@code balance}'s spendable figure is what {@code send} can
 * spend.
 */
class FeesAndBalanceCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private String[] cli(String... rest) {
        return WalletFixture.cli(dir, rest);
    }

    @Test
    void sendWithoutAnEstimateDustAndTheSpendableFigureWhileASendIsPending() throws Exception {
        Files.writeString(dir.resolve("pw"), "pw\n");
        LightWallet w =
                WalletFixture.newWallet(dir.resolve("w.json"), "pw".toCharArray(), EnumSet.of(AddressKind.P2WPKH));
        Address mine = WalletFixture.receiving(w, AddressKind.P2WPKH, 0);
        try (EmbeddedNode node = EmbeddedNode.start()) {
            node.mineTo(101, mine); // coinbases 1 and 2 are mature at tip 101: 100 BTC spendable
            try (ServerOnNode server = new ServerOnNode(node)) {
                String url = server.baseUri().toString();
                JsonNode fees = JSON.readTree(HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create(url + "/api/v1/fee-estimates"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body());
                assertEquals("estimatesmartfee", fees.get("source").asText(), fees.toString());
                assertEquals(7, fees.get("estimates").size());
                for (JsonNode e : fees.get("estimates")) {
                    assertTrue(e.get("satPerVByte").isNull(), e.toString());
                    assertEquals(0, e.get("blocks").asInt(), e.toString());
                }

                assertEquals(
                        0,
                        InProcessCli.run(cli("sync", "--quiet", "--server", url))
                                .code());
                String to = node.miningAddress().toString();

                InProcessCli.Run noEstimate =
                        InProcessCli.run(cli("send", "--to", to, "--amount", "1", "--yes", "--server", url));
                assertEquals(1, noEstimate.code(), noEstimate.out() + noEstimate.err());
                assertTrue(
                        noEstimate.err().contains("no fee estimate for confirmation within 6 blocks"),
                        noEstimate.err());
                assertTrue(noEstimate.err().contains("Insufficient data or no feerate found"), noEstimate.err());
                assertTrue(noEstimate.err().contains("give --fee-rate"), noEstimate.err());

                InProcessCli.Run dust = InProcessCli.run(cli(
                        "send",
                        "--to",
                        mine.toString(),
                        "--amount",
                        "0.000001",
                        "--fee-rate",
                        "2",
                        "--yes",
                        "--server",
                        url));
                assertEquals(1, dust.code(), dust.out() + dust.err());
                assertTrue(dust.err().contains("below the dust limit of 294 sat for a P2WPKH output"), dust.err());

                InProcessCli.Run sent = InProcessCli.run(
                        cli("send", "--to", to, "--amount", "10", "--fee-rate", "2", "--yes", "--server", url));
                assertEquals(0, sent.code(), sent.out() + sent.err());
                JsonNode b = JSON.readTree(InProcessCli.run(cli("balance")).out());
                assertEquals(
                        new BigDecimal("50"), new BigDecimal(b.get("spendable").asText()), b.toString());
                assertEquals(
                        new BigDecimal("50"),
                        new BigDecimal(b.get("lockedByPending").asText()),
                        b.toString());
                assertTrue(
                        new BigDecimal(b.get("unconfirmed").asText()).compareTo(new BigDecimal("39.99")) > 0,
                        b.toString());

                InProcessCli.Run tooMuch = InProcessCli.run(
                        cli("send", "--to", to, "--amount", "51", "--fee-rate", "2", "--yes", "--server", url));
                assertEquals(1, tooMuch.code(), tooMuch.err());
                assertTrue(tooMuch.err().contains("spendable 50 BTC"), "send and balance agree: " + tooMuch.err());
            }
        }
    }
}
