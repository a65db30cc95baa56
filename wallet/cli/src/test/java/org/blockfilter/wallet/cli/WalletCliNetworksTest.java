package org.blockfilter.wallet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --network} names every network; the wallet file remembers it for the other commands. */
class WalletCliNetworksTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private String[] args(String wallet, String... rest) throws Exception {
        return InProcessCli.walletArgs(dir, dir.resolve(wallet), rest);
    }

    @Test
    void aTestnet4WalletKeepsItsNetworkForLaterCommands() throws Exception {
        InProcessCli.Run created =
                InProcessCli.run(args("t4.json", "--network", "testnet4", "create", "--seal", "secret-only"));
        assertEquals(0, created.code(), created.err());
        assertTrue(JSON.readTree(created.out()).get("receiveAddress").asText().startsWith("tb1q"), created.out());
        assertEquals(
                "testnet4",
                JSON.readTree(Files.readAllBytes(dir.resolve("t4.json")))
                        .path("network")
                        .asText());
        InProcessCli.Run receive = InProcessCli.run(args("t4.json", "receive"));
        assertEquals(0, receive.code(), receive.err());
        assertTrue(JSON.readTree(receive.out()).get("address").asText().startsWith("tb1q"), receive.out());
    }

    @Test
    void testnetIsTestnet3AndMainnetIsBc() throws Exception {
        assertEquals(
                0,
                InProcessCli.run(args("t3.json", "--network", "testnet", "create", "--seal", "secret-only"))
                        .code());
        assertEquals(
                "testnet3",
                JSON.readTree(Files.readAllBytes(dir.resolve("t3.json")))
                        .path("network")
                        .asText());
        InProcessCli.Run main = InProcessCli.run(args("m.json", "--network", "mainnet", "create"));
        JsonNode c = JSON.readTree(main.out());
        assertTrue(c.get("receiveAddress").asText().startsWith("bc1q"), main.out());
    }

    @Test
    void anUnknownNetworkIsNamedWithTheChoices() throws Exception {
        InProcessCli.Run r = InProcessCli.run(args("x.json", "--network", "testnet5", "create"));
        assertTrue(r.code() != 0);
        assertTrue(
                r.err().contains("unknown network 'testnet5'; use one of mainnet, testnet3, testnet4, signet, regtest"),
                r.err());
        assertTrue(!Files.exists(dir.resolve("x.json")));
    }
}
