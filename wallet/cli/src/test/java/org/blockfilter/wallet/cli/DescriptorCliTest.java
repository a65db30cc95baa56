package org.blockfilter.wallet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.HDKeyDerivation;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * export-descriptors, watch --descriptor, the BIP 39 passphrase of restore, labels and utxos,
 * through the command line.
 */
class DescriptorCliTest {
    private static final String ABANDON =
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private String[] args(String wallet, String... rest) throws Exception {
        return InProcessCli.walletArgs(dir, dir.resolve(wallet), rest);
    }

    private JsonNode ok(String... args) throws Exception {
        InProcessCli.Run r = InProcessCli.run(args);
        assertEquals(0, r.code(), r.err());
        return JSON.readTree(r.out());
    }

    private static JsonNode kind(JsonNode rows, String kind) {
        for (JsonNode r : rows) {
            if (r.get("kind").asText().equals(kind)) {
                return r;
            }
        }
        throw new AssertionError("no " + kind + " in " + rows);
    }

    private Path mnemonic() throws Exception {
        Path m = dir.resolve("words.txt");
        Files.writeString(m, ABANDON + "\n");
        return m;
    }

    @Test
    void exportedDescriptorsMakeAWatchOnlyWalletWithTheSameAddresses() throws Exception {
        ok(args("w.json", "restore", "--mnemonic-file", mnemonic().toString(), "--seal", "secret-only"));
        JsonNode exported = ok(args("w.json", "export-descriptors")).get("descriptors");
        assertEquals(3, exported.size());
        for (JsonNode d : exported) {
            String text = d.get("descriptor").asText();
            assertFalse(text.contains("tprv"), text);
            assertTrue(text.matches(".*\\[73c5da0a/(44|84|86)h/1h/0h\\]tpub.*/<0;1>/\\*\\)#[a-z0-9]{8}"), text);
        }
        JsonNode wpkh = kind(exported, "P2WPKH");
        ok(args("watch.json", "watch", "--descriptor", wpkh.get("descriptor").asText(), "--seal", "none"));
        for (int i = 0; i < 3; i++) {
            assertEquals(
                    ok(args("w.json", "receive")).get("address").asText(),
                    ok(args("watch.json", "receive")).get("address").asText());
        }
        // Receive and change given as two descriptors make the same account.
        ok(args(
                "two.json",
                "watch",
                "--descriptor",
                wpkh.get("receive").asText(),
                "--descriptor",
                wpkh.get("change").asText(),
                "--seal",
                "none"));
        assertEquals(
                wpkh.get("change"),
                ok(args("two.json", "export-descriptors"))
                        .get("descriptors")
                        .get(0)
                        .get("change"));
        assertEquals(
                ok(args("watch.json", "export-descriptors"))
                        .get("descriptors")
                        .get(0)
                        .get("change"),
                ok(args("two.json", "export-descriptors"))
                        .get("descriptors")
                        .get(0)
                        .get("change"));
    }

    @Test
    void privateExportNeedsTheFlagAndThePassphraseAndIsRefusedByWatch() throws Exception {
        ok(args("w.json", "restore", "--mnemonic-file", mnemonic().toString()));
        JsonNode priv = ok(args("w.json", "export-descriptors", "--private")).get("descriptors");
        String d = priv.get(0).get("descriptor").asText();
        assertTrue(d.contains("tprv"), d);
        InProcessCli.Run noPass =
                InProcessCli.run("--wallet", dir.resolve("w.json").toString(), "export-descriptors", "--private");
        assertEquals(1, noPass.code());
        assertTrue(noPass.err().contains("passphrase"), noPass.err());
        InProcessCli.Run watch = InProcessCli.run(args("x.json", "watch", "--descriptor", d, "--seal", "none"));
        assertEquals(1, watch.code());
        assertTrue(watch.err().contains("holds private keys"), watch.err());
    }

    @Test
    void watchNamesWhatIsWrongWithADescriptor() throws Exception {
        String tpub =
                "tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M";
        String[][] cases = {
            {"wpkh(" + tpub + "/<0;1>/*)#00000000", "bad descriptor checksum #00000000"},
            {"wpkj(" + tpub + "/<0;1>/*)", "unknown function 'wpkj'"},
            {"wpkh(" + tpub + "/1h/<0;1>/*)", "hardened derivation step 1h after extended public key"},
            {
                "wpkh(xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL/<0;1>/*)",
                "is a key for mainnet (xpub/xprv); this descriptor is read for regtest"
            },
            {"wpkh(" + tpub + "/0/*)", "give its change descriptor after it"},
            {"wsh(pk(" + tpub + "/<0;1>/*))", "a wallet account is pkh, wpkh"},
        };
        for (String[] c : cases) {
            InProcessCli.Run r = InProcessCli.run(args("bad.json", "watch", "--descriptor", c[0], "--seal", "none"));
            assertEquals(1, r.code(), c[0]);
            assertTrue(r.err().contains(c[1]), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
            assertFalse(Files.exists(dir.resolve("bad.json")));
        }
    }

    @Test
    void restoreWithTheBip39VectorsPassphraseDerivesFromTheVectorsSeed() throws Exception {
        Path pass = dir.resolve("bip39.txt");
        Files.writeString(pass, "TREZOR\n");
        ok(args(
                "t.json",
                "--network",
                "mainnet",
                "restore",
                "--mnemonic-file",
                mnemonic().toString(),
                "--bip39-passphrase-file",
                pass.toString()));
        // BIP 39's first vector (trezor/python-mnemonic vectors.json): this mnemonic with "TREZOR".
        byte[] seed = HexFormat.of()
                .parseHex(
                        "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04");
        DeterministicKey master = HDKeyDerivation.createMasterPrivateKey(seed);
        HdAccount expected = HdAccount.fromMaster(master, AddressKind.P2WPKH, BitcoinNetwork.MAINNET);
        JsonNode r = ok(args("t.json", "receive"));
        assertEquals(
                expected.derive(false, 0).address().toString(), r.get("address").asText());
        String d = kind(ok(args("t.json", "export-descriptors")).get("descriptors"), "P2WPKH")
                .get("descriptor")
                .asText();
        assertTrue(d.contains(String.format("[%08x/84h/0h/0h]", master.getFingerprint())), d);
        // The passphrase is sealed with the mnemonic: the keys unlocked for signing are the same.
        String priv = kind(ok(args("t.json", "export-descriptors", "--private")).get("descriptors"), "P2WPKH")
                .get("descriptor")
                .asText();
        assertTrue(priv.contains("xprv"), priv);
        assertEquals(
                d,
                org.blockfilter.wallet.descriptor.Descriptor.parse(priv, BitcoinNetwork.MAINNET)
                        .toString());
    }

    @Test
    void labelsFromReceiveShowInHistoryAndUtxosAndRoundTripAsBip329() throws Exception {
        ok(args("w.json", "restore", "--mnemonic-file", mnemonic().toString(), "--seal", "secret-only"));
        JsonNode r = ok(args("w.json", "receive", "--label", "rent from Bob"));
        assertEquals("rent from Bob", r.get("label").asText());
        Path out = dir.resolve("labels.jsonl");
        ok(args("w.json", "export-labels", "--out", out.toString()));
        String lines = Files.readString(out);
        assertEquals(
                "{\"type\":\"addr\",\"ref\":\"" + r.get("address").asText() + "\",\"label\":\"rent from Bob\"}\n",
                lines);

        ok(args("other.json", "restore", "--mnemonic-file", mnemonic().toString(), "--seal", "secret-only"));
        Files.writeString(out, lines + "{\"type\":\"tx\",\"ref\":\"" + "ab".repeat(32) + "\",\"label\":\"coffee\"}\n");
        JsonNode imported = ok(args("other.json", "import-labels", out.toString()));
        assertEquals(2, imported.get("imported").asInt());
        Files.writeString(out, "{\"type\":\"note\",\"ref\":\"x\",\"label\":\"?\"}\n");
        InProcessCli.Run bad = InProcessCli.run(args("other.json", "import-labels", out.toString()));
        assertEquals(1, bad.code());
        assertTrue(bad.err().contains("label line 1: unknown label type note"), bad.err());
        org.blockfilter.wallet.LightWallet other = org.blockfilter.wallet.LightWallet.load(dir.resolve("other.json"));
        assertEquals(2, other.labels().size(), "the bad file imported nothing");
        assertEquals("coffee", other.labels().text("tx", "ab".repeat(32)).orElseThrow());
        assertEquals(
                "rent from Bob",
                other.labels().text("addr", r.get("address").asText()).orElseThrow());
    }
}
