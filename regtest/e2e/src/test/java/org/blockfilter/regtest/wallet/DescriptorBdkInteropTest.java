package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.HDKeyDerivation;
import org.bitcoinj.crypto.MnemonicCode;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.regtest.bdk.BdkTestSupport;
import org.blockfilter.regtest.btcd.BtcdNode;
import org.blockfilter.regtest.harness.NodeLogOnFailure;
import org.blockfilter.regtest.scenario.ScenarioSpec;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.descriptor.Descriptor;
import org.blockfilter.wallet.descriptor.DescriptorKey;
import org.blockfilter.wallet.descriptor.KeyOrigin;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.ledger.Utxo;
import org.blockfilter.wallet.source.p2p.P2pSource;
import org.blockfilter.wallet.store.Sealing;
import org.blockfilter.wallet.sync.SyncEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our descriptors against BDK's (bdkpython, rust-miniscript underneath): the same descriptor gives
 * the same first 20 receive and change addresses in both, for every script type the wallet takes;
 * descriptors we export, a 2-of-3 {@code wsh(sortedmulti)} among them, import into BDK and show the
 * balance ours shows after each syncs the same btcd chain by BIP 157 (ours over P2P, BDK with
 * Kyoto), and BDK's exported descriptors import into a watch-only wallet of ours with BDK's balance.
 */
@ExtendWith(NodeLogOnFailure.class)
class DescriptorBdkInteropTest {
    private static final String BDK_MNEMONIC =
            "legal winner thank year wave sausage worth useful legal winner thank yellow";
    private static final BitcoinNetwork NET = BitcoinNetwork.REGTEST;

    @TempDir
    Path dir;

    private WalletFixture<BtcdNode> chain;

    @AfterEach
    void stop() {
        if (chain != null) {
            chain.close();
        }
    }

    /** {@code [fingerprint/path]tpub} of {@code mnemonic} at {@code path}. */
    private static String key(String mnemonic, int... hardenedPath) {
        DeterministicKey master =
                HDKeyDerivation.createMasterPrivateKey(MnemonicCode.toSeed(List.of(mnemonic.split(" ")), ""));
        DeterministicKey k = master;
        List<ChildNumber> path = new ArrayList<>();
        for (int p : hardenedPath) {
            path.add(new ChildNumber(p, true));
            k = HDKeyDerivation.deriveChildKey(k, path.get(path.size() - 1));
        }
        return "[" + new KeyOrigin(master.getFingerprint(), path) + "]"
                + DescriptorKey.publicKeyOf(k, NET).serializePubB58(NET) + "/<0;1>/*";
    }

    private static final String OURS = String.join(" ", WalletFixture.MNEMONIC);

    private static String multisig(String wrap) {
        String inner = "sortedmulti(2," + key(OURS, 48, 1, 0, 2) + "," + key(BDK_MNEMONIC, 48, 1, 0, 2) + ","
                + key(OURS, 48, 1, 1, 2) + ")";
        return wrap.replace("X", inner);
    }

    @Test
    void sameDescriptorsGiveTheSameFirst20ReceiveAndChangeAddressesForEachScriptType() {
        BdkScript bdk = new BdkScript(BdkTestSupport.pythonOrSkip(), dir);
        List<String> descriptors = List.of(
                "pkh(" + key(OURS, 44, 1, 0) + ")",
                "wpkh(" + key(OURS, 84, 1, 0) + ")",
                "sh(wpkh(" + key(OURS, 49, 1, 0) + "))",
                "tr(" + key(OURS, 86, 1, 0) + ")",
                multisig("wsh(X)"),
                multisig("sh(wsh(X))"),
                multisig("wsh(X)").replace("sortedmulti", "multi"));
        for (String text : descriptors) {
            Descriptor d = Descriptor.parse(text, NET);
            List<Descriptor> paths = d.singlePaths();
            JsonNode theirs = bdk.descriptorAddresses(
                    paths.get(0).toString(), paths.get(1).toString(), 20);
            for (int p = 0; p < 2; p++) {
                List<String> mine = new ArrayList<>();
                List<String> bdks = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    mine.add(d.derive(p, i).address().orElseThrow().toString());
                    bdks.add(theirs.get(p == 0 ? "receive" : "change").get(i).asText());
                }
                assertEquals(bdks, mine, text + (p == 0 ? " receive" : " change"));
            }
        }
    }

    /** BIP 39's first vector's mnemonic and passphrase ("TREZOR"), restored in both. */
    @Test
    void aMnemonicWithTheBip39VectorsPassphraseRestoresToBdksAddresses() {
        BdkScript bdk = new BdkScript(BdkTestSupport.pythonOrSkip(), dir);
        String abandon =
                "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
        JsonNode theirs = bdk.passphraseAddresses(abandon, "TREZOR", 20).get("receive");
        LightWallet w = NewWallet.create(
                dir.resolve("trezor.json"),
                List.of(abandon.split(" ")),
                "pw".toCharArray(),
                Set.of(AddressKind.P2WPKH),
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(LightWallet.Birthday.ofHeight(0))
                        .withScryptN(1 << 10)
                        .withBip39Passphrase("TREZOR"));
        HdAccount a =
                LightWallet.load(w.file()).keys().account(AddressKind.P2WPKH).orElseThrow();
        for (int i = 0; i < 20; i++) {
            assertEquals(theirs.get(i).asText(), a.derive(false, i).address().toString(), "receive " + i);
        }
        // Signing keys come from the sealed mnemonic and passphrase: the same addresses.
        HdAccount unlocked =
                w.unlock("pw".toCharArray()).account(AddressKind.P2WPKH).orElseThrow();
        assertEquals(theirs.get(3).asText(), unlocked.derive(false, 3).address().toString());
    }

    @Test
    void exportedDescriptorsImportIntoBdkWithTheSameBalanceAndBdksIntoOurs() throws Exception {
        BdkScript bdk = new BdkScript(BdkTestSupport.pythonOrSkip(), dir);
        chain = WalletFixture.onBtcd(ScenarioSpec.small(20_261_203L, 5));
        RegtestNode node = chain.node();
        InetSocketAddress p2p = node.p2pAddress().orElseThrow();

        LightWallet ours =
                WalletFixture.newWallet(dir.resolve("w.json"), "bdk".toCharArray(), Set.of(AddressKind.P2WPKH));
        HdAccount wpkh = ours.keys().account(AddressKind.P2WPKH).orElseThrow();
        Descriptor multi = Descriptor.parse(multisig("wsh(X)"), NET);
        JsonNode bdkExport = bdk.export(BDK_MNEMONIC, "84");
        LightWallet multiWallet = watch("multi.json", HdAccount.fromDescriptors(multi, null));
        LightWallet bdksInOurs = watch(
                "bdk84.json",
                HdAccount.fromDescriptors(
                        Descriptor.parse(bdkExport.get("receive").asText(), NET),
                        Descriptor.parse(bdkExport.get("change").asText(), NET)));
        HdAccount m = multiWallet.keys().account(AddressKind.P2WSH).orElseThrow();
        HdAccount b = bdksInOurs.keys().account(AddressKind.P2WPKH).orElseThrow();

        chain.pay(List.of(
                wpkh.derive(false, 0).address(),
                wpkh.derive(true, 3).address(),
                m.derive(false, 0).address(),
                m.derive(false, 7).address(),
                m.derive(true, 1).address(),
                b.derive(false, 0).address(),
                b.derive(false, 5).address()));
        node.mine(1);

        try (P2pSource source =
                P2pSource.connect(p2p, Chain.REGTEST, P2pSource.Options.DEFAULT.withTimeout(Duration.ofSeconds(10)))) {
            for (LightWallet w : List.of(ours, multiWallet, bdksInOurs)) {
                new SyncEngine(w, List.of(source), SyncEngine.Options.defaults()).sync();
            }
        }
        assertEquals(2, ours.ledger().utxos(true).size());
        assertEquals(3, multiWallet.ledger().utxos(true).size());
        assertEquals(2, bdksInOurs.ledger().utxos(true).size());

        Descriptor exported = wpkh.descriptor();
        assertSame(
                bdk.descriptorSync(
                        p2p,
                        exported.singlePaths().get(0).toString(),
                        exported.singlePaths().get(1).toString()),
                ours);
        assertSame(
                bdk.descriptorSync(
                        p2p,
                        multi.singlePaths().get(0).toString(),
                        multi.singlePaths().get(1).toString()),
                multiWallet);
        JsonNode bdkOwn = bdk.sync(BDK_MNEMONIC, p2p, List.of("84"), List.of())
                .get("wallets")
                .get("84");
        assertSame(bdkOwn, bdksInOurs);
    }

    private LightWallet watch(String name, HdAccount account) {
        return NewWallet.watchOnly(
                dir.resolve(name),
                List.of(account),
                null,
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(LightWallet.Birthday.ofHeight(0))
                        .withSealing(Sealing.NONE)
                        .withScryptN(1 << 10));
    }

    /** BDK's confirmed balance and coins equal the wallet's. */
    private static void assertSame(JsonNode bdk, LightWallet w) {
        Set<String> theirs = new TreeSet<>();
        bdk.get("utxos").forEach(u -> theirs.add(u.asText()));
        Set<String> mine = new TreeSet<>();
        for (Utxo u : w.ledger().utxos(true)) {
            mine.add(u.outpoint().hash() + ":" + u.outpoint().index());
        }
        assertEquals(theirs, mine, w.file().getFileName().toString());
        assertEquals(w.ledger().balance(true), Coin.valueOf(bdk.get("confirmed").asLong()));
    }
}
