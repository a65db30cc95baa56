package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.regtest.embedded.EmbeddedNode;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.cli.InProcessCli;
import org.blockfilter.wallet.keys.AddressKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Coinbase maturity: a wallet that mined 120 regtest blocks owns 120 coinbases, of which only
 * the 21 with 100 confirmations are spendable. Before the fix {@code balance} showed all of them
 * as confirmed and {@code send} could pick immature ones, which the node rejects.
 */
class CoinbaseMaturityTest {
    @TempDir
    Path dir;

    @Test
    void immatureCoinbasesAreShownApartAndNeverSpent() throws Exception {
        Path file = dir.resolve("w.json");
        Path pw = dir.resolve("pw");
        Files.writeString(pw, "pw\n");
        LightWallet w = WalletFixture.newWallet(file, "pw".toCharArray(), EnumSet.of(AddressKind.P2WPKH));
        Address mine = WalletFixture.receiving(w, AddressKind.P2WPKH, 0);
        try (EmbeddedNode node = EmbeddedNode.start()) {
            node.mineTo(120, mine); // heights 1..120: 1..21 have >= 100 confirmations at tip 120
            try (ServerOnNode server = new ServerOnNode(node)) {
                String[] base = {"--wallet", file.toString(), "--passphrase-file", pw.toString(), "--json"};
                InProcessCli.Run synced = InProcessCli.run(concat(
                        base, "sync", "--quiet", "--server", server.baseUri().toString()));
                assertEquals(0, synced.code(), synced.err());

                InProcessCli.Run balance = InProcessCli.run(concat(base, "balance"));
                assertEquals(0, balance.code(), balance.err());
                JsonNode b = new ObjectMapper().readTree(balance.out());
                assertEquals(
                        new BigDecimal("1050"),
                        new BigDecimal(b.get("spendable").asText()),
                        b.toString());
                assertEquals(
                        new BigDecimal("4950"), new BigDecimal(b.get("immature").asText()), b.toString());
                assertEquals(
                        new BigDecimal("6000"), new BigDecimal(b.get("total").asText()), b.toString());

                InProcessCli.Run tooMuch = InProcessCli.run(concat(
                        base,
                        "send",
                        "--to",
                        mine.toString(),
                        "--amount",
                        "1100",
                        "--fee-rate",
                        "2",
                        "--yes",
                        "--server",
                        server.baseUri().toString()));
                assertEquals(1, tooMuch.code(), tooMuch.out() + tooMuch.err());
                assertTrue(
                        tooMuch.err().contains("insufficient")
                                || tooMuch.err().contains("Insufficient")
                                || tooMuch.err().contains("missing"),
                        tooMuch.err());

                InProcessCli.Run sent = InProcessCli.run(concat(
                        base,
                        "send",
                        "--to",
                        mine.toString(),
                        "--amount",
                        "1000",
                        "--fee-rate",
                        "2",
                        "--yes",
                        "--server",
                        server.baseUri().toString()));
                assertEquals(0, sent.code(), sent.out() + sent.err());
                Sha256Hash txid = Sha256Hash.wrap(
                        new ObjectMapper().readTree(sent.out()).get("txid").asText());
                assertTrue(node.mempool().contains(txid), "the node accepted the spend of mature coinbases only");
            }
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
