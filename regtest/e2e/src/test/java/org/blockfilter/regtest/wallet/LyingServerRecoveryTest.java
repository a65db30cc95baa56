package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import org.bitcoinj.base.Address;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.cli.InProcessCli;
import org.blockfilter.wallet.keys.AddressKind;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Recovery from a lying server, end to end: the wallet CLI syncs through an HTTP proxy in front of our real
 * server (on the embedded node) that flips one bit of one filter hash in the binary
 * {@code /api/v1/filter-headers} answer. The liar is named; then the same wallet file syncs against
 * the honest server directly, which must succeed without blaming it. Before the fix the liar's
 * filter headers were persisted as verified and every honest sync failed with
 * {@code <honest> LIED at height 250: filter does not hash to its committed filter header}.
 */
class LyingServerRecoveryTest {
    private static final int PAID_AT = 201;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "lie at height {0}, tip {1}")
    @CsvSource({"250, 320", "1020, 1050"}) // the second past the checkpoint at 1000
    void honestServerRecoversTheWalletAfterALyingProxy(int lieHeight, int tip) throws IOException {
        Path file = dir.resolve("w.json");
        LightWallet w = WalletFixture.newWallet(file, "pw".toCharArray(), EnumSet.of(AddressKind.P2WPKH));
        Address paid = WalletFixture.receiving(w, AddressKind.P2WPKH, 0);
        try (EmbeddedNode node = EmbeddedNode.start()) {
            node.mine(PAID_AT - 1);
            node.mineTo(1, paid);
            node.mine(tip - PAID_AT);
            try (ServerOnNode server = new ServerOnNode(node);
                    LyingProxy proxy = new LyingProxy(server.baseUri(), lieHeight)) {
                String wallet = file.toString();
                InProcessCli.Run lied = InProcessCli.run(
                        "--wallet",
                        wallet,
                        "sync",
                        "--quiet",
                        "--server",
                        proxy.uri().toString());
                assertTrue(proxy.lies() > 0, "the proxy lied");
                assertEquals(2, lied.code(), lied.out() + lied.err());
                assertTrue(lied.err().contains("rest:" + proxy.uri() + " LIED at height " + lieHeight), lied.err());

                InProcessCli.Run honest = InProcessCli.run(
                        "--wallet",
                        wallet,
                        "--json",
                        "sync",
                        "--quiet",
                        "--server",
                        server.baseUri().toString());
                assertEquals(0, honest.code(), honest.out() + honest.err());
                JsonNode j = new ObjectMapper().readTree(honest.out());
                assertEquals(tip, j.get("height").asInt());
                assertTrue(j.get("dropped").isEmpty(), j.toString());
                assertEquals(25, j.get("balance").asDouble(), j.toString()); // regtest halves every 150 blocks

                // The next run from the file agrees too.
                InProcessCli.Run again = InProcessCli.run(
                        "--wallet",
                        wallet,
                        "--json",
                        "verify",
                        "--quiet",
                        "--server",
                        server.baseUri().toString());
                assertEquals(0, again.code(), again.out() + again.err());
                assertTrue(
                        new ObjectMapper().readTree(again.out()).get("dropped").isEmpty(), again.out());
            }
        }
    }
}
