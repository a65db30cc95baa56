package org.blockfilter.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.WalletKeys;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each example's {@code main}, run as an application runs it (a child JVM), against one demo server on free ports:
 * the server's embedded regtest node with a fixed 150-block chain, its faucet paying the addresses the examples look
 * for.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExamplesTest {
    /** BIP 39's test mnemonic; the wallet example restores it. */
    private static final String MNEMONIC =
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

    @TempDir
    Path dir;

    private DemoServer server;

    @BeforeAll
    void startServer() throws Exception {
        server = DemoServer.start(Files.createTempFile("demo-server", ".err"));
    }

    @AfterAll
    void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static String receiveAddress(List<String> mnemonic) {
        WalletKeys keys = WalletKeys.fromMnemonic(
                mnemonic,
                "",
                Chain.REGTEST.addressNetwork(),
                WalletKeys.DEFAULT_GAP_LIMIT,
                List.of(AddressKind.P2WPKH));
        return keys.nextReceive(AddressKind.P2WPKH).address().toString();
    }

    @Test
    void buildAndMatchFilterEqualsTheServersFiltersAndFindsThePaymentsBlock() throws Exception {
        String address = receiveAddress(WalletKeys.newMnemonic());
        JsonNode paid = server.faucet(address, "0.25");

        ExampleRun run = ExampleRun.of(dir, BuildAndMatchFilter.class, server.url(), address);

        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(
                run.out().contains("block " + paid.get("height").asInt() + " may pay or spend " + address),
                "the filter of the faucet's block matches the address:\n" + run);
        assertTrue(run.out().contains("filters, each equal to the server's"), run.toString());
    }

    @Test
    void syncWalletFromJavaFindsTheFaucetsPayment() throws Exception {
        JsonNode paid = server.faucet(receiveAddress(List.of(MNEMONIC.split(" "))), "1.5");

        ExampleRun run = ExampleRun.of(
                dir,
                SyncWalletFromJava.class,
                server.url(),
                dir.resolve("w.json").toString(),
                MNEMONIC);

        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("spendable 1.5 BTC"), "the payment synced:\n" + run);
        assertTrue(
                run.out()
                        .contains(paid.get("txid").asText() + " at height "
                                + paid.get("height").asInt() + ": 1.5 BTC"),
                "the payment is in the history:\n" + run);
    }

    @Test
    void syncBitcoinjWalletFindsTheFaucetsPayment() throws Exception {
        List<String> mnemonic = WalletKeys.newMnemonic();
        JsonNode paid = server.faucet(receiveAddress(mnemonic), "0.7");

        ExampleRun run = ExampleRun.of(
                dir,
                SyncBitcoinjWallet.class,
                server.url(),
                dir.resolve("bitcoinj.wallet").toString(),
                String.join(" ", mnemonic));

        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("balance 0.7 BTC"), "the payment synced:\n" + run);
        assertTrue(
                run.out()
                        .contains(paid.get("txid").asText() + " at height "
                                + paid.get("height").asInt() + ": 0.7 BTC"),
                "the payment is in bitcoinj's wallet:\n" + run);
    }
}
