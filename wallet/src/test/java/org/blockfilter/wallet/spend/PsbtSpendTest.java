package org.blockfilter.wallet.spend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.script.Script;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.descriptor.Descriptor;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.Schnorr;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.psbt.Bip32Derivation;
import org.blockfilter.wallet.psbt.Psbt;
import org.blockfilter.wallet.psbt.PsbtField;
import org.blockfilter.wallet.psbt.PsbtFinalizer;
import org.blockfilter.wallet.psbt.PsbtSigner;
import org.blockfilter.wallet.store.Sealing;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A payment built as a PSBT by one wallet (watch-only or not), signed by the wallet with the keys, finalized. */
class PsbtSpendTest {
    @TempDir
    Path dir;

    private static final List<AddressKind> SEED_KINDS =
            List.of(AddressKind.P2WPKH, AddressKind.P2PKH, AddressKind.P2TR);

    private static final BitcoinNetwork REGTEST = BitcoinNetwork.REGTEST;

    private final RegtestChainBuilder chain = new RegtestChainBuilder();

    /** The test mnemonic's wallet, paid once on each of its three kinds. */
    private LightWallet fundedOnEveryKind() {
        LightWallet w = TestWallets.create(dir);
        List<Address> to = new ArrayList<>();
        for (AddressKind k : SEED_KINDS) {
            to.add(w.keys().account(k).orElseThrow().derive(false, 0).address());
        }
        chain.mine(2);
        chain.mineBlock(List.of(chain.pay(to, Coin.CENT)));
        new SyncEngine(w, List.of(new MemorySource("honest", chain)), SyncEngine.Options.defaults()).sync();
        return w;
    }

    private static Psbt roundTrip(Psbt p) {
        return Psbt.fromBase64(p.toBase64());
    }

    @Test
    void aPsbtCarriesWhatASignerNeedsAndTheWalletWithTheKeysSignsEveryKind() {
        LightWallet w = fundedOnEveryKind();
        PsbtPayment built = new Spender(w).preparePsbt(chain.minerAddress(), Coin.CENT.multiply(2), 2);
        Psbt psbt = roundTrip(built.psbt());
        Transaction unsigned = psbt.unsignedTx();
        assertEquals(3, unsigned.getInputs().size());
        assertEquals(built.summary().fee(), psbt.fee().orElseThrow());
        int master = w.keys()
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .descriptor()
                .keys()
                .get(0)
                .origin()
                .orElseThrow()
                .fingerprint();
        for (int i = 0; i < 3; i++) {
            var in = psbt.input(i);
            Script spk = Script.parse(psbt.spentOutput(i).orElseThrow().getScriptBytes());
            if (org.bitcoinj.script.ScriptPattern.isP2TR(spk)) {
                assertTrue(in.has(PsbtField.IN_WITNESS_UTXO.type()));
                byte[] internal = in.get(PsbtField.IN_TAP_INTERNAL_KEY.type()).orElseThrow();
                Bip32Derivation d =
                        Bip32Derivation.readTaproot(in.get(PsbtField.IN_TAP_BIP32_DERIVATION.type(), internal)
                                .orElseThrow());
                assertEquals(master, d.fingerprint());
                assertEquals("[86H, 1H, 0H, 0, 0]", d.path().toString());
            } else {
                assertTrue(
                        in.has(PsbtField.IN_NON_WITNESS_UTXO.type()), "input " + i + " has its previous transaction");
                Bip32Derivation d = Bip32Derivation.read(
                        in.all(PsbtField.IN_BIP32_DERIVATION.type()).get(0).value());
                assertEquals(master, d.fingerprint());
                assertEquals(5, d.path().size());
            }
        }
        assertTrue(psbt.output(1).has(PsbtField.OUT_BIP32_DERIVATION.type()), "the change output names its key");

        PsbtSigner.Result signed = PsbtSigner.sign(psbt, new WalletPsbtKeys(w.unlock(TestWallets.PASSPHRASE)));
        assertEquals(3, signed.signatures(), signed.skipped().toString());
        PsbtFinalizer.Result fin = PsbtFinalizer.finalizeAll(roundTrip(signed.psbt()));
        assertTrue(fin.complete(), fin.incomplete().toString());
        Transaction tx = roundTrip(fin.psbt()).extract();
        // A P2PKH input's scriptSig is part of the txid: compare what was signed instead.
        assertEquals(outputs(unsigned), outputs(tx));
        for (int i = 0; i < 3; i++) {
            assertEquals(unsigned.getInput(i).getOutpoint(), tx.getInput(i).getOutpoint());
        }
        assertTaprootInputVerifies(fin.psbt(), tx);
    }

    private static List<String> outputs(Transaction tx) {
        return tx.getOutputs().stream()
                .map(o -> java.util.HexFormat.of().formatHex(o.serialize()))
                .toList();
    }

    /** bitcoinj cannot run taproot scripts: check the key-path signature against the output key. */
    private static void assertTaprootInputVerifies(Psbt psbt, Transaction tx) {
        List<TaprootSighash.SpentOutput> spent = new ArrayList<>();
        for (int i = 0; i < tx.getInputs().size(); i++) {
            TransactionOutput o = psbt.spentOutput(i).orElseThrow();
            spent.add(new TaprootSighash.SpentOutput(o.getValue().value, o.getScriptBytes()));
        }
        int checked = 0;
        for (int i = 0; i < tx.getInputs().size(); i++) {
            byte[] spk = spent.get(i).scriptPubKey();
            if (spk.length == 34 && spk[0] == 0x51) {
                byte[] sighash = TaprootSighash.hash(tx, i, spent, TaprootSighash.SIGHASH_DEFAULT);
                byte[] sig = tx.getInput(i).getWitness().getPush(0);
                assertTrue(Schnorr.verify(sig, sighash, Arrays.copyOfRange(spk, 2, 34)));
                checked++;
            }
        }
        assertEquals(1, checked);
    }

    @Test
    void aWatchOnlyWalletBuildsWhatTheSeedWalletSigns() {
        LightWallet seed = fundedOnEveryKind();
        HdAccount account = seed.keys().account(AddressKind.P2WPKH).orElseThrow();
        // With the origin (a descriptor, as export-descriptors writes it), and a bare xpub without one.
        List<HdAccount> accounts = List.of(
                HdAccount.fromDescriptors(Descriptor.parse(account.descriptor().toString(), seed.network()), null),
                HdAccount.watchOnly(account.extendedPublicKey(), AddressKind.P2WPKH, seed.network()));
        for (int n = 0; n < accounts.size(); n++) {
            Path file = dir.resolve("watch-" + n + ".json");
            LightWallet watch = watchOnly(file, accounts.get(n));
            new SyncEngine(watch, List.of(new MemorySource("honest", chain)), SyncEngine.Options.defaults()).sync();
            watch = LightWallet.load(file); // the origin survives the file
            Psbt psbt = new Spender(watch)
                    .preparePsbt(chain.minerAddress(), Coin.MILLICOIN, 2)
                    .psbt();
            Bip32Derivation d = Bip32Derivation.read(psbt.input(0)
                    .all(PsbtField.IN_BIP32_DERIVATION.type())
                    .get(0)
                    .value());
            assertEquals(n == 0 ? 5 : 2, d.path().size(), "path from the master, or from the account key");
            PsbtSigner.Result signed = PsbtSigner.sign(psbt, new WalletPsbtKeys(seed.unlock(TestWallets.PASSPHRASE)));
            assertEquals(1, signed.signatures(), signed.skipped().toString());
            assertTrue(PsbtFinalizer.finalizeAll(signed.psbt()).complete());
        }
    }

    @Test
    void anotherWalletAddsNoSignatureAndFinalizeSaysWhatIsMissing() {
        LightWallet w = fundedOnEveryKind();
        Psbt psbt = new Spender(w)
                .preparePsbt(chain.minerAddress(), Coin.MILLICOIN, 2)
                .psbt();
        WalletKeys other = WalletKeys.fromMnemonic(WalletKeys.newMnemonic(), "", w.network(), 20, SEED_KINDS);
        PsbtSigner.Result r = PsbtSigner.sign(psbt, new WalletPsbtKeys(other));
        assertEquals(0, r.signatures());
        assertEquals(psbt, r.psbt());
        assertFalse(r.skipped().isEmpty());
        PsbtFinalizer.Result fin = PsbtFinalizer.finalizeAll(psbt);
        assertFalse(fin.complete());
        assertTrue(
                fin.incomplete().get(0).contains("input 0 has no"),
                fin.incomplete().toString());
    }

    @Test
    void signaturesMadeApartCombine() {
        LightWallet w = fundedOnEveryKind();
        Psbt psbt = new Spender(w)
                .preparePsbt(chain.minerAddress(), Coin.CENT.multiply(2), 2)
                .psbt();
        WalletKeys keys = w.unlock(TestWallets.PASSPHRASE);
        // Two signers that each hold one account's keys sign the same PSBT; the combination has both.
        WalletKeys p2wpkhOnly =
                WalletKeys.fromMnemonic(TestWallets.MNEMONIC, "", w.network(), 20, List.of(AddressKind.P2WPKH));
        WalletKeys others = WalletKeys.fromMnemonic(
                TestWallets.MNEMONIC, "", w.network(), 20, List.of(AddressKind.P2PKH, AddressKind.P2TR));
        Psbt a = PsbtSigner.sign(psbt, new WalletPsbtKeys(p2wpkhOnly)).psbt();
        Psbt b = PsbtSigner.sign(psbt, new WalletPsbtKeys(others)).psbt();
        assertFalse(PsbtFinalizer.finalizeAll(a).complete());
        Psbt combined = a.combine(b);
        assertTrue(PsbtFinalizer.finalizeAll(combined).complete());
        assertEquals(3, PsbtSigner.sign(psbt, new WalletPsbtKeys(keys)).signatures());
    }

    /**
     * A 2-of-3 {@code wsh(sortedmulti)} of two seed wallets' BIP 84 account keys and a third
     * cosigner: the watch-only wallet builds the spend (fee from the multisig input size, change
     * on the multisig change chain with its witness script and every cosigner's derivation), the
     * two seed wallets sign apart, the combination finalizes, and its fee rate is at least the one asked.
     */
    @ParameterizedTest(name = "nested in P2SH: {0}")
    @ValueSource(booleans = {false, true})
    void aWatchOnlyMultisigWalletBuildsWhatTwoCosignersSign(boolean nested) {
        WalletKeys a = WalletKeys.fromMnemonic(TestWallets.MNEMONIC, "", REGTEST, 20, List.of(AddressKind.P2WPKH));
        WalletKeys b = WalletKeys.fromMnemonic(WalletKeys.newMnemonic(), "", REGTEST, 20, List.of(AddressKind.P2WPKH));
        WalletKeys c = WalletKeys.fromMnemonic(WalletKeys.newMnemonic(), "", REGTEST, 20, List.of(AddressKind.P2WPKH));
        String multi = "wsh(sortedmulti(2," + cosigner(a) + "," + cosigner(b) + "," + cosigner(c) + "))";
        if (nested) {
            multi = "sh(" + multi + ")";
        }
        AddressKind kind = nested ? AddressKind.P2SH_P2WSH : AddressKind.P2WSH;
        Path file = dir.resolve("multi.json");
        LightWallet watch = watchOnly(file, HdAccount.fromDescriptors(Descriptor.parse(multi, REGTEST), null));
        HdAccount account = watch.keys().account(kind).orElseThrow();
        chain.mine(2);
        chain.mineBlock(List.of(chain.pay(List.of(account.derive(false, 0).address()), Coin.CENT)));
        new SyncEngine(watch, List.of(new MemorySource("honest", chain)), SyncEngine.Options.defaults()).sync();

        long rate = 3;
        PsbtPayment built = new Spender(watch).preparePsbt(chain.minerAddress(), Coin.MILLICOIN, rate);
        Psbt psbt = roundTrip(built.psbt());
        assertEquals(built.summary().fee(), psbt.fee().orElseThrow());
        assertTrue(psbt.input(0).has(PsbtField.IN_WITNESS_SCRIPT.type()));
        assertEquals(nested, psbt.input(0).has(PsbtField.IN_REDEEM_SCRIPT.type()));
        assertEquals(nested, psbt.output(1).has(PsbtField.OUT_REDEEM_SCRIPT.type()));
        assertEquals(3, psbt.input(0).all(PsbtField.IN_BIP32_DERIVATION.type()).size());
        Address changeAddress = built.summary().changeAddress();
        assertEquals(account.derive(true, 0).address(), changeAddress, "change on the multisig change chain");
        var change = psbt.output(1);
        assertTrue(
                Arrays.equals(
                        account.output(true, 0).witnessScript().orElseThrow(),
                        change.get(PsbtField.OUT_WITNESS_SCRIPT.type()).orElseThrow()),
                "the change output carries its witness script");
        assertEquals(3, change.all(PsbtField.OUT_BIP32_DERIVATION.type()).size(), "a derivation per cosigner");

        PsbtSigner.Result byA = PsbtSigner.sign(psbt, new WalletPsbtKeys(a));
        PsbtSigner.Result byB = PsbtSigner.sign(psbt, new WalletPsbtKeys(b));
        assertEquals(1, byA.signatures(), byA.skipped().toString());
        assertEquals(1, byB.signatures(), byB.skipped().toString());
        assertFalse(PsbtFinalizer.finalizeAll(byA.psbt()).complete());
        PsbtFinalizer.Result fin =
                PsbtFinalizer.finalizeAll(roundTrip(byA.psbt().combine(byB.psbt())));
        assertTrue(fin.complete(), fin.incomplete().toString());
        Transaction tx = roundTrip(fin.psbt()).extract();
        // A P2SH-P2WSH input's scriptSig is part of the txid: compare what was signed instead.
        assertEquals(outputs(psbt.unsignedTx()), outputs(tx));
        assertEquals(psbt.unsignedTx().getInput(0).getOutpoint(), tx.getInput(0).getOutpoint());
        assertEquals(nested ? 35 : 0, tx.getInput(0).getScriptBytes().length);
        int vsize = tx.getVsize();
        assertTrue(
                built.summary().vsize() >= vsize, "estimate " + built.summary().vsize() + " < real " + vsize);
        assertTrue(
                built.summary().vsize() - vsize <= 3,
                "estimate " + built.summary().vsize() + " vs " + vsize);
        assertTrue(built.summary().fee().value >= rate * vsize, "pays at least the rate asked");
    }

    /** An {@code sh(wpkh)} watch-only wallet builds (change on its own change chain) what the seed wallet signs. */
    @Test
    void aNestedSegwitWatchOnlyWalletBuildsWhatTheSeedWalletSigns() {
        WalletKeys a = WalletKeys.fromMnemonic(TestWallets.MNEMONIC, "", REGTEST, 20, List.of(AddressKind.P2WPKH));
        Path file = dir.resolve("nested.json");
        LightWallet watch = watchOnly(
                file, HdAccount.fromDescriptors(Descriptor.parse("sh(wpkh(" + cosigner(a) + "))", REGTEST), null));
        HdAccount account = watch.keys().account(AddressKind.P2SH_P2WPKH).orElseThrow();
        chain.mine(2);
        chain.mineBlock(List.of(chain.pay(List.of(account.derive(false, 0).address()), Coin.CENT)));
        new SyncEngine(watch, List.of(new MemorySource("honest", chain)), SyncEngine.Options.defaults()).sync();
        PsbtPayment built = new Spender(watch).preparePsbt(chain.minerAddress(), Coin.MILLICOIN, 2);
        assertEquals(account.derive(true, 0).address(), built.summary().changeAddress());
        PsbtSigner.Result signed = PsbtSigner.sign(built.psbt(), new WalletPsbtKeys(a));
        assertEquals(1, signed.signatures(), signed.skipped().toString());
        PsbtFinalizer.Result fin = PsbtFinalizer.finalizeAll(signed.psbt());
        assertTrue(fin.complete(), fin.incomplete().toString());
        int vsize = fin.psbt().extract().getVsize();
        assertTrue(built.summary().vsize() >= vsize && built.summary().vsize() - vsize <= 2, vsize + " vB");
    }

    /** A watch-only wallet of {@code account} in {@code file}, scanning from the genesis block. */
    private static LightWallet watchOnly(Path file, HdAccount account) {
        return NewWallet.watchOnly(
                file,
                List.of(account),
                null,
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(LightWallet.Birthday.ofHeight(0))
                        .withSealing(Sealing.NONE)
                        .withCheckpoints(List.of()));
    }

    /** A cosigner key as a wallet from a seed exports it: its BIP 84 account key with its origin. */
    private static String cosigner(WalletKeys k) {
        String d = k.account(AddressKind.P2WPKH).orElseThrow().descriptor().toString();
        return d.substring("wpkh(".length(), d.indexOf(')'));
    }
}
