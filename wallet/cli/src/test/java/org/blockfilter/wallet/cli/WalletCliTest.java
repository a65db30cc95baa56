package org.blockfilter.wallet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WalletCliTest {
    @TempDir
    Path dir;

    private static InProcessCli.Run run(String... args) {
        return InProcessCli.run(args);
    }

    private String[] base(String... rest) throws Exception {
        return InProcessCli.walletArgs(dir, dir.resolve("w.json"), rest);
    }

    @Test
    void createThenReceiveGivesFreshRegtestAddresses() throws Exception {
        InProcessCli.Run created = run(base("create", "--birthday-height", "0"));
        assertEquals(0, created.code(), created.err());
        JsonNode c = new ObjectMapper().readTree(created.out());
        assertEquals(12, c.get("mnemonic").asText().split(" ").length);
        String first = c.get("receiveAddress").asText();
        assertTrue(first.startsWith("bcrt1q"), first);

        // create must not hand out 0/0 itself (it once did, and the next receive printed 0/1).
        JsonNode r = new ObjectMapper().readTree(run(base("receive")).out());
        assertEquals(first, r.get("address").asText());
        assertEquals("0/0", r.get("path").asText());
        JsonNode next = new ObjectMapper().readTree(run(base("receive")).out());
        assertNotEquals(first, next.get("address").asText());
        assertEquals("0/1", next.get("path").asText());
        JsonNode tr = new ObjectMapper()
                .readTree(run(base("receive", "--kind", "p2tr")).out());
        assertTrue(tr.get("address").asText().startsWith("bcrt1p"));
    }

    @Test
    void aFailedSaveNamesTheWalletFileNotOnlyItsTemporaryFile() throws Exception {
        assertEquals(0, run(base("create")).code());
        Files.createDirectory(dir.resolve("w.json.tmp")); // the save's temporary file cannot be written
        InProcessCli.Run r = run(base("receive"));
        assertEquals(1, r.code());
        assertTrue(
                r.err()
                        .contains(
                                "could not save wallet " + dir.resolve("w.json").toAbsolutePath() + " "),
                r.err());
    }

    @Test
    void restoreFromMnemonicFileDerivesTheKnownAddress() throws Exception {
        Path m = dir.resolve("m.txt");
        Files.writeString(
                m, "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about\n");
        InProcessCli.Run r = run(base("restore", "--mnemonic-file", m.toString()));
        assertEquals(0, r.code(), r.err());
        // BIP 84's testnet vector m/84'/1'/0'/0/0 is tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl: same program, regtest
        // prefix.
        assertEquals(
                "bcrt1q6rz28mcfaxtmd6v789l9rrlrusdprr9pz3cppk",
                new ObjectMapper().readTree(r.out()).get("receiveAddress").asText());
    }

    @Test
    void abandonAndBumpNameWhatIsWrongWithTheTxid() throws Exception {
        run(base("create"));
        InProcessCli.Run bad = run(base("abandon", "xyz"));
        assertEquals(1, bad.code());
        assertTrue(bad.err().contains("TXID must be 64 hex digits, got 3 characters"), bad.err());
        InProcessCli.Run unknown = run(base("abandon", "ab".repeat(32)));
        assertEquals(1, unknown.code());
        assertTrue(unknown.err().contains("is not in this wallet"), unknown.err());
        InProcessCli.Run bump =
                run(base("bump", "ab".repeat(32), "--fee-rate", "5", "--yes", "--server", "http://127.0.0.1:1"));
        assertEquals(1, bump.code());
        assertTrue(bump.err().contains("is not in this wallet"), bump.err());
    }

    @Test
    void balanceAndHistoryOfANewWalletAreEmpty() throws Exception {
        run(base("create"));
        JsonNode b = new ObjectMapper().readTree(run(base("balance")).out());
        assertEquals("0", b.get("spendable").asText());
        JsonNode h = new ObjectMapper().readTree(run(base("history")).out());
        assertEquals(0, h.get("transactions").size());
    }

    @Test
    void badInputGivesExitCodeOneAndAClearMessage() throws Exception {
        InProcessCli.Run missing = run(base("balance"));
        assertEquals(1, missing.code());
        assertTrue(missing.err().contains("no wallet file"), missing.err());

        Path m = dir.resolve("bad.txt");
        Files.writeString(m, "abandon abandon abandon\n");
        InProcessCli.Run bad = run(base("restore", "--mnemonic-file", m.toString()));
        assertEquals(1, bad.code());
        assertTrue(bad.err().contains("mnemonic"), bad.err());

        run(base("create"));
        InProcessCli.Run noSource = run(base("sync"));
        assertEquals(1, noSource.code());
        assertTrue(noSource.err().contains("--server"), noSource.err());
    }

    @Test
    void aBadFetchPolicyIsAUsageErrorLikeAnyBadOptionValue() throws Exception {
        run(base("create"));
        InProcessCli.Run badTimeout = run(base("sync", "--timeout", "soon", "--server", "http://127.0.0.1:1"));
        for (String spec : List.of("decoys=99", "fast", "spread=1", "", "clusters=9", "clusters=two")) {
            InProcessCli.Run r = run(base("sync", "--fetch-policy", spec, "--server", "http://127.0.0.1:1"));
            assertEquals(badTimeout.code(), r.code(), spec + ": " + r.err());
            assertTrue(r.code() != 0, r.err());
            assertTrue(r.err().contains("--fetch-policy"), r.err());
            assertTrue(r.err().contains("fetch policy"), r.err());
        }
    }

    @Test
    void aBadP2pTransportIsAUsageErrorLikeAnyBadOptionValue() throws Exception {
        run(base("create"));
        InProcessCli.Run badTimeout = run(base("sync", "--timeout", "soon", "--peer", "127.0.0.1:1"));
        InProcessCli.Run r = run(base("sync", "--p2p-transport", "v3", "--peer", "127.0.0.1:1"));
        assertEquals(badTimeout.code(), r.code(), r.err());
        assertTrue(r.code() != 0, r.err());
        assertTrue(r.err().contains("--p2p-transport must be auto, v2 or v1, got 'v3'"), r.err());
    }

    @Test
    void syncHelpDocumentsTheFetchPolicyAndItsDefault() {
        InProcessCli.Run r = run("sync", "--help");
        assertEquals(0, r.code(), r.err());
        String usage = r.out().replaceAll("\\s+", " ");
        assertTrue(usage.contains("--fetch-policy=SPEC"), usage);
        assertTrue(usage.contains("Default: " + org.blockfilter.wallet.sync.FetchPolicy.DEFAULT_SPEC), usage);
        assertTrue(usage.contains("experiment 8"), usage);
        // what the default does not protect against, and where the per-adversary figures are
        assertTrue(usage.contains("section 'What the default leaks, per adversary'"), usage);
        assertTrue(usage.contains("gives nothing against a network observer"), usage);
        assertTrue(
                usage.contains("names a wallet script seen in more downloaded blocks than a decoy may be in ("
                        + org.blockfilter.wallet.sync.FetchPolicy.DECOY_MAX_BLOCKS + ")"),
                usage);
        assertTrue(usage.contains("clusters=K (0.." + org.blockfilter.wallet.sync.FetchPolicy.MAX_CLUSTERS), usage);
    }

    @Test
    void sendWithWrongPassphraseIsRefused() throws Exception {
        run(base("create"));
        Files.writeString(dir.resolve("pw.txt"), "wrong\n");
        InProcessCli.Run r = run(base(
                "send",
                "--to",
                "bcrt1q6rz28mcfaxtmd6v789l9rrlrusdprr9pz3cppk",
                "--amount",
                "0.1",
                "--fee-rate",
                "2",
                "--server",
                "http://127.0.0.1:1"));
        assertEquals(1, r.code());
        assertTrue(r.err().contains("wrong passphrase"), r.err());
    }

    @Test
    void sendTakesRegtestBase58AddressesAndNamesTheNetworkOfForeignOnes() throws Exception {
        assertEquals(0, run(base("create", "--birthday-height", "0")).code());
        String ownP2pkh = new ObjectMapper()
                .readTree(run(base("receive", "--kind", "p2pkh")).out())
                .get("address")
                .asText();
        for (String to :
                new String[] {"mxiMrfji71Pn5piJqtGWy9tfkQnKs8wYWe", "2N3vVYSK5XRgVSGWy21PnsRmBUywSQNdCsf", ownP2pkh}) {
            InProcessCli.Run r = run(base("send", "--to", to, "--amount", "0.01", "--fee-rate", "1", "--yes"));
            // The empty wallet cannot pay, but the address was taken.
            assertEquals(1, r.code(), r.err());
            assertTrue(r.err().contains("insufficient") || r.err().contains("Insufficient"), to + ": " + r.err());
        }

        InProcessCli.Run testnet = run(base(
                "send",
                "--to",
                "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx",
                "--amount",
                "0.01",
                "--fee-rate",
                "1",
                "--yes"));
        assertEquals(1, testnet.code());
        assertTrue(testnet.err().contains("segwit address for testnet/signet"), testnet.err());
    }

    /** The wallet options without a passphrase: as a cron job with no BLOCKFILTER_PASSPHRASE would run them. */
    private String[] noPassphrase(String... rest) {
        String[] head = {"--wallet", dir.resolve("w.json").toString(), "--json"};
        String[] all = new String[head.length + rest.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(rest, 0, all, head.length, rest.length);
        return all;
    }

    @Test
    void createSealsTheWholeFileByDefaultSoEveryCommandNeedsThePassphrase() throws Exception {
        InProcessCli.Run created = run(base("create"));
        assertEquals(0, created.code(), created.err());
        assertEquals(
                "all", new ObjectMapper().readTree(created.out()).get("seal").asText());
        String address =
                new ObjectMapper().readTree(created.out()).get("receiveAddress").asText();
        assertTrue(!Files.readString(dir.resolve("w.json")).contains(address));

        for (String[] cmd :
                new String[][] {{"balance"}, {"history"}, {"receive"}, {"sync", "--server", "http://127.0.0.1:1"}}) {
            InProcessCli.Run r = run(noPassphrase(cmd));
            assertEquals(1, r.code(), cmd[0] + ": " + r.err());
            assertTrue(r.err().contains("sealed whole"), cmd[0] + ": " + r.err());
            assertTrue(r.err().contains("BLOCKFILTER_PASSPHRASE"), cmd[0] + ": " + r.err());
        }
        assertEquals(0, run(base("balance")).code());

        Files.writeString(dir.resolve("pw.txt"), "wrong\n");
        InProcessCli.Run wrong = run(base("balance"));
        assertEquals(1, wrong.code());
        assertTrue(wrong.err().contains("wrong passphrase"), wrong.err());
    }

    @Test
    void secretOnlyWalletsBalanceWithoutAPassphraseAndResealConvertsBothWays() throws Exception {
        assertEquals(0, run(base("create", "--seal", "secret-only")).code());
        assertEquals(0, run(noPassphrase("balance")).code());

        InProcessCli.Run sealed = run(base("reseal", "--seal", "all"));
        assertEquals(0, sealed.code(), sealed.err());
        assertEquals(1, run(noPassphrase("balance")).code());
        assertEquals(0, run(base("balance")).code());

        InProcessCli.Run plain = run(base("reseal", "--seal", "secret-only"));
        assertEquals(0, plain.code(), plain.err());
        assertEquals(0, run(noPassphrase("balance")).code());

        InProcessCli.Run none = run(base("reseal", "--seal", "none"));
        assertEquals(1, none.code());
        assertTrue(none.err().contains("always seals its mnemonic"), none.err());
        Files.delete(dir.resolve("w.json"));
        InProcessCli.Run bad = run(base("create", "--seal", "some"));
        assertEquals(1, bad.code());
        assertTrue(bad.err().contains("use all, secret-only or none"), bad.err());
    }

    @Test
    void watchOnlyWalletsChooseAllOrNone() throws Exception {
        // The P2WPKH account of the "abandon ... about" mnemonic on regtest.
        String xpub =
                "tpubD6VNHtiSJLPpZfyJpFb2hSBfiUEjNmTZVDQb5rWm1LQBTiwTQFwTzprktVa7N9iCHDQkgRzfMTt3czZK9TrjmwBv4HNMjLUunKN7LmzHPYM";
        InProcessCli.Run secretOnly = run(base("watch", "--xpub", xpub, "--seal", "secret-only"));
        assertEquals(1, secretOnly.code());
        assertTrue(secretOnly.err().contains("no secret"), secretOnly.err());
        InProcessCli.Run none = run(base("watch", "--xpub", xpub, "--seal", "none"));
        assertEquals(0, none.code(), none.err());
        assertEquals(0, run(noPassphrase("balance")).code());
        assertTrue(Files.readString(dir.resolve("w.json")).contains(xpub));
        assertEquals(0, run(base("reseal", "--seal", "all")).code());
        assertEquals(1, run(noPassphrase("balance")).code());
        assertTrue(!Files.readString(dir.resolve("w.json")).contains(xpub));
    }
}
