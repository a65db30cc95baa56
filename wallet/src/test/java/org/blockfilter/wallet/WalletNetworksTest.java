package org.blockfilter.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import org.bitcoinj.base.BitcoinNetwork;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.chain.HeaderCheckpoints;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A wallet on each network records it, derives its addresses and starts its headers at a shipped checkpoint. */
class WalletNetworksTest {
    @TempDir
    Path dir;

    private LightWallet create(Chain chain, LightWallet.Birthday birthday) {
        return NewWallet.create(
                dir.resolve(chain.cliName() + ".json"),
                TestWallets.MNEMONIC,
                TestWallets.PASSPHRASE,
                EnumSet.of(AddressKind.P2WPKH),
                NewWallet.Options.of(chain).withBirthday(birthday).withScryptN(1 << 10));
    }

    @Test
    void aTestnet4WalletIsRecordedAsTestnet4AndStartsAtItsLastCheckpoint() throws Exception {
        LightWallet w = create(Chain.TESTNET4, LightWallet.Birthday.atTip());
        assertEquals("testnet4", network(w.file()));
        LightWallet again = LightWallet.load(w.file());
        assertEquals(Chain.TESTNET4, again.chain());
        assertEquals(BitcoinNetwork.TESTNET, again.network()); // testnet's address encoding
        assertTrue(again.keys()
                .nextReceive(AddressKind.P2WPKH)
                .address()
                .toString()
                .startsWith("tb1q"));
        var last = HeaderCheckpoints.of(Chain.TESTNET4)
                .get(HeaderCheckpoints.of(Chain.TESTNET4).size() - 1);
        assertEquals(last, again.headers().checkpoint());
        assertEquals(143_136, again.headers().baseHeight());
    }

    @Test
    void aRestoredMainnetWalletStartsAtTheCheckpointBelowItsBirthday() {
        LightWallet w = create(Chain.MAINNET, LightWallet.Birthday.ofHeight(500_000));
        assertEquals(499_968, w.headers().baseHeight());
        assertEquals(
                HeaderCheckpoints.atOrBelow(Chain.MAINNET, 500_000), w.headers().checkpoint());
        assertTrue(w.keys().nextReceive(AddressKind.P2WPKH).address().toString().startsWith("bc1q"));
    }

    @Test
    void aFileThatSaysTestnetIsTestnet3AndIsWrittenBackAsTestnet3() throws Exception {
        LightWallet w = create(Chain.TESTNET3, LightWallet.Birthday.ofHeight(0));
        Path file = w.file();
        assertEquals("testnet3", network(file));
        setNetwork(file, "testnet");
        assertEquals(Chain.TESTNET3, LightWallet.load(file).chain());
    }

    @Test
    void aFileOnAnUnknownNetworkIsRefusedByName() throws Exception {
        LightWallet w = create(Chain.SIGNET, LightWallet.Birthday.ofHeight(0));
        Path file = w.file();
        setNetwork(file, "testnet5");
        Exception e = assertThrows(Exception.class, () -> LightWallet.load(file));
        assertTrue(
                e.getMessage()
                        .contains(
                                "unknown network 'testnet5'; use one of mainnet, testnet3, testnet4, signet, regtest"),
                e.getMessage());
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String network(Path file) throws IOException {
        return JSON.readTree(Files.readAllBytes(file)).path("network").asText();
    }

    /** Rewrites the file's network field, dropping the checksum as a deliberate editor would. */
    private static void setNetwork(Path file, String name) throws IOException {
        ObjectNode root = (ObjectNode) JSON.readTree(Files.readAllBytes(file));
        root.put("network", name);
        root.remove("checksum");
        Files.write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
    }
}
