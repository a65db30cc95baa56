package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.bdk.BdkPython;
import org.blockfilter.regtest.bdk.BdkTestSupport;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.cli.InProcessCli;
import org.blockfilter.wallet.descriptor.Descriptor;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.WalletKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * PSBTs between our wallet (through its CLI) and BDK (bdkpython, {@code bdk/bdk_psbt.py}) on one
 * btcd chain: BDK signs what our watch-only wallet builds and we finalize and broadcast it; we sign
 * what BDK builds and BDK finalizes it; a 2-of-3 {@code wsh(sortedmulti)} of two of our keys and one
 * of BDK's is spent with one signature from each side, once built by BDK and once by our watch-only
 * multisig wallet. Every payment is mined by btcd.
 */
@ExtendWith(NodeLogOnFailure.class)
class PsbtBdkInteropTest {
    private static final String BDK_MNEMONIC =
            "legal winner thank year wave sausage worth useful legal winner thank yellow";
    private static final List<String> SECOND_MNEMONIC =
            List.of("letter advice cage absurd amount doctor acoustic avoid letter advice cage above".split(" "));
    private static final char[] PASSPHRASE = "psbt".toCharArray();
    /** {@code wpkh([fingerprint/84'/1'/0']tpub.../0/*)}: the origin and key of a BIP 84 descriptor. */
    private static final Pattern WPKH = Pattern.compile("wpkh\\((\\[[^]]+][a-zA-Z0-9]+)/0/\\*\\)#.*");

    @TempDir
    Path dir;

    private WalletFixture<BtcdNode> chain;
    private RegtestNode node;
    private String peer;
    private BdkPython python;
    private Path script;

    @AfterEach
    void stop() {
        if (chain != null) {
            chain.close();
        }
    }

    private void start(long seed) throws IOException {
        python = BdkTestSupport.pythonOrSkip();
        script = dir.resolve("bdk_psbt.py");
        for (String name : List.of("bdk_psbt.py", "bdk_wallet.py")) {
            try (InputStream in = PsbtBdkInteropTest.class.getResourceAsStream("/bdk/" + name)) {
                Files.write(dir.resolve(name), in.readAllBytes());
            }
        }
        Files.writeString(dir.resolve("pw"), new String(PASSPHRASE));
        chain = WalletFixture.onBtcd(ScenarioSpec.small(seed, 5));
        node = chain.node();
        var p2p = node.p2pAddress().orElseThrow();
        peer = p2p.getHostString() + ":" + p2p.getPort();
    }

    private JsonNode bdk(String... args) {
        BdkPython.Result r = python.run(script, List.of(args), Duration.ofMinutes(2));
        if (r.exitCode() != 0) {
            throw new AssertionError("bdk_psbt.py " + args[0] + " exited " + r.exitCode() + "\n" + r.stderr());
        }
        try {
            return new ObjectMapper().readTree(r.stdout());
        } catch (IOException e) {
            throw new AssertionError("bdk_psbt.py printed no JSON: " + r.stdout(), e);
        }
    }

    /** Our CLI on {@code wallet} (passphrase file {@code dir/pw}), JSON answers; fails on a non-zero exit. */
    private JsonNode cli(Path wallet, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of(
                "--wallet",
                wallet.toString(),
                "--passphrase-file",
                dir.resolve("pw").toString(),
                "--json"));
        all.addAll(List.of(args));
        InProcessCli.Run r = InProcessCli.run(all.toArray(String[]::new));
        assertEquals(0, r.code(), String.join(" ", args) + ": " + r.err() + r.out());
        return new ObjectMapper().readTree(r.out());
    }

    /**
     * The 2-of-3's signers on {@code unsigned} (Base64): BDK with its private descriptors, and our
     * wallet {@code ours} with one signature; their copies combined by us into {@code NAME-combined.psbt}.
     */
    private Path cosign(String unsigned, String bdkReceive, String bdkChange, Path ours, String name)
            throws IOException {
        Path fromBdk = write(
                name + "-bdk.txt",
                bdk("sign", bdkReceive, bdkChange, unsigned).get("psbt").asText());
        Path fromUs = write(name + "-ours.txt", unsigned);
        JsonNode signed = cli(ours, "sign", fromUs.toString(), "--yes");
        assertEquals(1, signed.get("signatures").asInt(), signed.toString());
        Path combined = dir.resolve(name + "-combined.psbt");
        cli(ours, "combine", fromBdk.toString(), fromUs.toString(), "--out", combined.toString());
        return combined;
    }

    /** {@code send --psbt-out}: 0.001 BTC to btcd's mining address at {@code rate} sat/vB, unsigned, into {@code out}. */
    private JsonNode buildPsbt(Path wallet, long rate, Path out) throws IOException {
        return cli(
                wallet,
                "send",
                "--to",
                node.miningAddress().toString(),
                "--amount",
                "0.001",
                "--fee-rate",
                Long.toString(rate),
                "--psbt-out",
                out.toString());
    }

    private Path write(String name, String base64) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, base64);
        return f;
    }

    private String read(Path f) throws IOException {
        return Files.readString(f).strip();
    }

    /** Whether btcd's tip block holds {@code txid}. */
    private boolean minedInTip(Sha256Hash txid) {
        return node.block(node.tipHash()).orElseThrow().getTransactions().stream()
                .anyMatch(t -> t.getTxId().equals(txid));
    }

    /** The BIP 84 account of {@code words} as a descriptor key {@code [fingerprint/84h/1h/0h]tpub}. */
    private static String accountKey(List<String> words) {
        HdAccount a = WalletKeys.fromMnemonic(words, "", BitcoinNetwork.REGTEST, 20, List.of(AddressKind.P2WPKH))
                .account(AddressKind.P2WPKH)
                .orElseThrow();
        return "[" + a.descriptor().keys().get(0).origin().orElseThrow() + "]" + a.extendedPublicKey();
    }

    @Test
    void bdkSignsWhatOurWatchOnlyWalletBuildsAndWeFinalizeAndBroadcastIt() throws IOException {
        start(20_261_203L);
        JsonNode theirs = bdk("descriptors", BDK_MNEMONIC, "84");
        Path watch = dir.resolve("watch.json");
        // BDK's public descriptors, with its key origin: what a hardware wallet exports.
        cli(
                watch,
                "watch",
                "--descriptor",
                theirs.get("receive").asText(),
                "--descriptor",
                theirs.get("change").asText(),
                "--seal",
                "none",
                "--birthday",
                "0");
        Address receive = LightWallet.load(watch)
                .keys()
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .derive(false, 0)
                .address();
        chain.pay(receive);
        node.mine(1);
        cli(watch, "sync", "--peer", peer);

        Path psbt = dir.resolve("payment.psbt");
        buildPsbt(watch, 2, psbt);
        // BDK holds the keys, as a hardware wallet or an offline machine would.
        JsonNode signed = bdk(
                "sign",
                theirs.get("receivePrivate").asText(),
                theirs.get("changePrivate").asText(),
                java.util.Base64.getEncoder().encodeToString(Files.readAllBytes(psbt)));
        assertFalse(signed.get("finalized").asBoolean(), "BDK left finalizing to us");
        Path back = write("signed.txt", signed.get("psbt").asText());
        JsonNode fin = cli(watch, "finalize", back.toString());
        assertTrue(fin.get("complete").asBoolean(), fin.toString());
        JsonNode sent = cli(watch, "broadcast", back.toString(), "--peer", peer);
        Sha256Hash txid = Sha256Hash.wrap(sent.get("txid").asText());
        assertEquals(fin.get("txid").asText(), txid.toString());
        node.mine(1);
        assertTrue(minedInTip(txid), "btcd mined " + txid);
        cli(watch, "sync", "--peer", peer);
        assertTrue(LightWallet.load(watch).ledger().get(txid).orElseThrow().height() > 0, "confirmed in our wallet");
    }

    @Test
    void weSignWhatBdkBuildsAndBdkFinalizesIt() throws IOException {
        start(20_261_204L);
        Path file = dir.resolve("w.json");
        LightWallet w = WalletFixture.newWallet(file, PASSPHRASE, EnumSet.of(AddressKind.P2WPKH));
        chain.pay(WalletFixture.receiving(w, AddressKind.P2WPKH, 0));
        node.mine(1);
        String key = accountKey(WalletFixture.MNEMONIC);
        String receive = "wpkh(" + key + "/0/*)";
        String change = "wpkh(" + key + "/1/*)";
        JsonNode built = bdk("build", receive, change, peer, node.miningAddress() + ":100000");
        Path psbt = write("from-bdk.txt", built.get("psbt").asText());

        JsonNode signed = cli(file, "sign", psbt.toString(), "--yes");
        assertEquals(1, signed.get("signatures").asInt(), signed.toString());
        JsonNode fin = bdk("finalize", receive, change, read(psbt));
        assertTrue(fin.get("finalized").asBoolean(), fin.toString());
        Sha256Hash txid =
                node.submitTransaction(HexFormat.of().parseHex(fin.get("raw").asText()));
        assertEquals(fin.get("txid").asText(), txid.toString());
        node.mine(1);
        assertTrue(minedInTip(txid), "btcd mined " + txid);
    }

    @Test
    void aTwoOfThreeWithTwoOfOurKeysAndOneOfBdksSpendsWithASignatureFromEachSide() throws IOException {
        start(20_261_205L);
        Path ours = dir.resolve("w.json");
        WalletFixture.newWallet(ours, PASSPHRASE, EnumSet.of(AddressKind.P2WPKH));
        JsonNode theirs = bdk("descriptors", BDK_MNEMONIC, "84");
        Matcher m = WPKH.matcher(theirs.get("receive").asText());
        assertTrue(m.matches());
        String bdkPublic = m.group(1);
        // BDK's own private key, as its BIP 84 private descriptor writes it: tprv (master) / 84'/1'/0'.
        String bdkPrivate = theirs.get("receivePrivate").asText().replaceAll("^wpkh\\((.*)/0/\\*\\)#.*$", "$1");
        String a = accountKey(WalletFixture.MNEMONIC);
        String b = accountKey(SECOND_MNEMONIC);
        String multi = "wsh(sortedmulti(2," + a + "/%1$d/*," + b + "/%1$d/*," + "%2$s/%1$d/*))";
        String bdkReceive = String.format(multi, 0, bdkPrivate);
        String bdkChange = String.format(multi, 1, bdkPrivate);

        // The multisig address, from our descriptor code: BDK must derive the same one.
        Address address = Descriptor.parse(String.format(multi, 0, bdkPublic), BitcoinNetwork.REGTEST)
                .derive(0, 0)
                .address()
                .orElseThrow();
        WalletFixture.Payment paid = chain.pay(address);
        node.mine(1);
        // Our watch-only multisig wallet, from the cosigners' public keys, receives and syncs through filters.
        Path msig = dir.resolve("multisig.json");
        cli(
                msig,
                "watch",
                "--descriptor",
                String.format(multi.replace("/%1$d/*", "/<0;1>/*"), 0, bdkPublic),
                "--seal",
                "none",
                "--birthday",
                "0");
        cli(msig, "sync", "--peer", peer);
        assertEquals(
                paid.value().toPlainString(),
                cli(msig, "balance").get("spendable").asText());
        JsonNode built = bdk("build", bdkReceive, bdkChange, peer, node.miningAddress() + ":200000");
        assertEquals(address.toString(), built.get("receive0").asText());
        String unsigned = built.get("psbt").asText();

        Path combined = cosign(unsigned, bdkReceive, bdkChange, ours, "bdk-built");
        JsonNode fin = cli(ours, "finalize", combined.toString());
        assertTrue(fin.get("complete").asBoolean(), fin.toString());
        Transaction tx = Transaction.read(
                java.nio.ByteBuffer.wrap(HexFormat.of().parseHex(fin.get("hex").asText())));
        assertEquals(4, tx.getInput(0).getWitness().getPushCount(), "empty, two signatures, the witness script");
        Sha256Hash txid = Sha256Hash.wrap(cli(ours, "broadcast", combined.toString(), "--peer", peer)
                .get("txid")
                .asText());
        node.mine(1);
        assertTrue(minedInTip(txid), "btcd mined " + txid);

        // Now our watch-only wallet builds the spend of BDK's change (on the multisig change chain).
        cli(msig, "sync", "--peer", peer);
        Coin change = Coin.parseCoin(cli(msig, "balance").get("spendable").asText());
        assertTrue(change.isPositive(), "BDK's change came back to the multisig wallet");
        Path ourBuilt = dir.resolve("our-built.psbt");
        long rate = 2;
        Coin fee = Coin.parseCoin(buildPsbt(msig, rate, ourBuilt).get("fee").asText());
        String ourUnsigned = java.util.Base64.getEncoder().encodeToString(Files.readAllBytes(ourBuilt));
        Path both = cosign(ourUnsigned, bdkReceive, bdkChange, ours, "our-built");
        JsonNode done = cli(msig, "finalize", both.toString());
        assertTrue(done.get("complete").asBoolean(), done.toString());
        Transaction spend = Transaction.read(
                java.nio.ByteBuffer.wrap(HexFormat.of().parseHex(done.get("hex").asText())));
        assertTrue(
                fee.value >= rate * spend.getVsize(),
                "fee " + fee.value + " sat pays " + rate + " sat/vB for " + spend.getVsize() + " vB");
        assertTrue(fee.value <= rate * (spend.getVsize() + 4), "the size estimate is within a few vbytes");
        Sha256Hash spent = Sha256Hash.wrap(cli(msig, "broadcast", both.toString(), "--peer", peer)
                .get("txid")
                .asText());
        node.mine(1);
        assertTrue(minedInTip(spent), "btcd mined " + spent);
        cli(msig, "sync", "--peer", peer);
        LightWallet after = LightWallet.load(msig);
        assertTrue(after.ledger().get(spent).orElseThrow().height() > 0, "confirmed in our wallet");
        HdAccount account = after.keys().account(AddressKind.P2WSH).orElseThrow();
        assertEquals(
                change.subtract(Coin.MILLICOIN).subtract(fee).toPlainString(),
                cli(msig, "balance").get("spendable").asText(),
                "the change came back to the multisig change chain");
        assertTrue(
                spend.getOutputs().stream()
                        .anyMatch(o -> java.util.Arrays.equals(
                                o.getScriptBytes(),
                                account.derive(true, 1).script().bytes())),
                "change at the multisig change chain's next index (BDK's change took index 0)");
    }
}
