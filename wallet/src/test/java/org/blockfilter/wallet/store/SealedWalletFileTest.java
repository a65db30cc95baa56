package org.blockfilter.wallet.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.DerivedAddress;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.ledger.WalletTx;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A wallet file sealed whole ({@link Sealing#ALL}): what its bytes hide, how it fails, resealing, old files. */
class SealedWalletFileTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** A synced wallet with a received payment (P2WPKH and P2TR) and an issued address. */
    private static LightWallet withHistory(LightWallet w) {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        chain.mine(3);
        Address a = w.keys()
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .derive(false, 0)
                .address();
        Address t = w.keys()
                .account(AddressKind.P2TR)
                .orElseThrow()
                .derive(false, 1)
                .address();
        chain.mineBlock(List.of(chain.pay(List.of(a, t), Coin.COIN)));
        chain.mine(3);
        new SyncEngine(
                        w,
                        List.of(new MemorySource("honest", chain), new MemorySource("second", chain)),
                        SyncEngine.Options.defaults())
                .sync();
        w.keys().nextReceive(AddressKind.P2PKH);
        w.save();
        return w;
    }

    /** Every string (addresses, xpubs, txids, raw transactions, scripts in hex and base64) the file must hide. */
    private static List<String> revealing(LightWallet w) {
        List<String> out = new ArrayList<>();
        for (HdAccount acc : w.keys().accounts()) {
            out.add(acc.extendedPublicKey());
            for (boolean change : new boolean[] {false, true}) {
                for (int i = 0; i < 25; i++) {
                    DerivedAddress d = acc.derive(change, i);
                    out.add(d.address().toString());
                    byte[] script = org.bitcoinj.script.ScriptBuilder.createOutputScript(d.address())
                            .program();
                    out.add(HexFormat.of().formatHex(script));
                    out.add(Base64.getEncoder().encodeToString(script));
                }
            }
        }
        for (WalletTx tx : w.ledger().transactions()) {
            out.add(tx.txid().toString());
            out.add(HexFormat.of().formatHex(tx.txid().getReversedBytes()));
            out.add(HexFormat.of().formatHex(tx.raw()));
            for (TransactionOutput o : tx.tx().getOutputs()) {
                out.add(HexFormat.of().formatHex(o.getScriptBytes()));
            }
        }
        out.add("abandon");
        return out;
    }

    /** The strings of {@code needles} that occur in the file, as text or as raw bytes. */
    private static List<String> found(Path file, List<String> needles) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        String text = new String(bytes, StandardCharsets.ISO_8859_1).toLowerCase(java.util.Locale.ROOT);
        List<String> hits = new ArrayList<>();
        for (String n : needles) {
            if (text.contains(n.toLowerCase(java.util.Locale.ROOT))) {
                hits.add(n);
            } else if (n.matches("([0-9a-f]{2}){8,}")
                    && text.contains(new String(HexFormat.of().parseHex(n), StandardCharsets.ISO_8859_1))) {
                hits.add(n + " (raw bytes)");
            }
        }
        return hits;
    }

    @Test
    void aSealedFileContainsNoAddressXpubTxidOrScript() throws Exception {
        LightWallet w = withHistory(TestWallets.createSealed(dir));
        assertEquals(1, w.ledger().transactions().size());
        List<String> needles = revealing(w);
        assertEquals(List.of(), found(w.file(), needles));

        // The same wallet sealed secret-only shows them: the search finds what is there.
        Path plainDir = Files.createDirectory(dir.resolve("plain"));
        LightWallet plain = withHistory(TestWallets.create(plainDir));
        List<String> shown = found(plain.file(), revealing(plain));
        assertTrue(shown.contains(
                plain.keys().account(AddressKind.P2WPKH).orElseThrow().extendedPublicKey()));
        assertTrue(shown.contains(plain.ledger().transactions().get(0).txid().toString()), shown.toString());
    }

    @Test
    void aSealedWalletLoadsWithItsPassphraseAndRoundTrips() {
        LightWallet w = withHistory(TestWallets.createSealed(dir));
        LightWallet again = LightWallet.load(w.file(), TestWallets.PASSPHRASE);
        assertEquals(Sealing.ALL, again.sealing());
        assertEquals(w.ledger().balance(true), again.ledger().balance(true));
        assertEquals(w.scannedHeight(), again.scannedHeight());
        assertEquals(1, again.keys().chainState(AddressKind.P2PKH, false).issued());
        assertTrue(again.unlock(TestWallets.PASSPHRASE)
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .key(false, 0)
                .hasPrivKey());
    }

    @Test
    void eachSaveUsesAFreshNonce() throws Exception {
        LightWallet w = TestWallets.createSealed(dir);
        String first = JSON.readTree(Files.readAllBytes(w.file())).get("nonce").asText();
        w.save();
        String second = JSON.readTree(Files.readAllBytes(w.file())).get("nonce").asText();
        assertFalse(first.equals(second));
        assertEquals(
                JSON.readTree(Files.readAllBytes(w.file())).get("salt").asText(),
                JSON.readTree(Files.readAllBytes(w.file())).get("salt").asText());
    }

    @Test
    void loadingASealedWalletWithoutAPassphraseSaysItIsSealed() {
        LightWallet w = TestWallets.createSealed(dir);
        PassphraseRequiredException e =
                assertThrows(PassphraseRequiredException.class, () -> LightWallet.load(w.file()));
        assertTrue(e.getMessage().contains("sealed whole"), e.getMessage());
        assertTrue(e.getMessage().contains(w.file().toString()), e.getMessage());
    }

    @Test
    void aWrongPassphraseIsAWrongPassphrase() {
        LightWallet w = withHistory(TestWallets.createSealed(dir));
        WrongPassphraseException e = assertThrows(
                WrongPassphraseException.class, () -> LightWallet.load(w.file(), "correct horsE".toCharArray()));
        assertTrue(e.getMessage().contains("wrong passphrase"), e.getMessage());
        assertTrue(e.getMessage().contains(w.file().toString()), e.getMessage());
    }

    private void edit(Path file, boolean keepChecksum, Consumer<ObjectNode> change) throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(Files.readAllBytes(file));
        change.accept(root);
        if (!keepChecksum) {
            root.remove("checksum");
        }
        Files.write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
    }

    private static void flipCiphertext(ObjectNode r) {
        byte[] ct = Base64.getDecoder().decode(r.get("ciphertext").asText());
        ct[ct.length / 2] ^= 1;
        r.put("ciphertext", Base64.getEncoder().encodeToString(ct));
    }

    @Test
    void aFlippedByteIsDamageNotAWrongPassphrase() throws Exception {
        LightWallet w = withHistory(TestWallets.createSealed(dir));
        edit(w.file(), true, SealedWalletFileTest::flipCiphertext);
        WalletFileException e =
                assertThrows(WalletFileException.class, () -> LightWallet.load(w.file(), TestWallets.PASSPHRASE));
        assertTrue(e.getMessage().contains("damaged"), e.getMessage());
        assertTrue(e.getMessage().contains("checksum"), e.getMessage());
        // Caught before any passphrase is tried, so a wrong one gets the same answer.
        WalletFileException wrong =
                assertThrows(WalletFileException.class, () -> LightWallet.load(w.file(), "nope".toCharArray()));
        assertTrue(wrong.getMessage().contains("damaged"), wrong.getMessage());
    }

    @Test
    void anEditedCiphertextWithoutItsChecksumIsDamageForTheRightPassphrase() throws Exception {
        LightWallet w = withHistory(TestWallets.createSealed(dir));
        edit(w.file(), false, SealedWalletFileTest::flipCiphertext);
        WalletFileException e =
                assertThrows(WalletFileException.class, () -> LightWallet.load(w.file(), TestWallets.PASSPHRASE));
        assertTrue(e.getMessage().contains("damaged"), e.getMessage());
        assertTrue(e.getMessage().contains("passphrase is right"), e.getMessage());
        assertThrows(WrongPassphraseException.class, () -> LightWallet.load(w.file(), "nope".toCharArray()));
    }

    @Test
    void anEditedHeaderFailsAuthentication() throws Exception {
        LightWallet w = TestWallets.createSealed(dir);
        edit(w.file(), false, r -> r.put("version", 2).put("seal", "all").put("r", 8));
        LightWallet.load(w.file(), TestWallets.PASSPHRASE); // unchanged header: still opens
        edit(w.file(), false, r -> r.put("nonce", Base64.getEncoder().encodeToString(new byte[12])));
        WalletFileException e =
                assertThrows(WalletFileException.class, () -> LightWallet.load(w.file(), TestWallets.PASSPHRASE));
        assertTrue(e.getMessage().contains("fails authentication"), e.getMessage());
        edit(w.file(), false, r -> r.put("nonce", "short"));
        assertTrue(assertThrows(WalletFileException.class, () -> LightWallet.load(w.file(), TestWallets.PASSPHRASE))
                .getMessage()
                .contains("nonce"));
    }

    @Test
    void resealRoundTripKeepsEverything() throws Exception {
        LightWallet w = withHistory(TestWallets.createSealed(dir));
        List<String> needles = revealing(w);
        Coin balance = w.ledger().balance(true);

        w.reseal(Sealing.SECRET_ONLY, null, 1 << 10);
        LightWallet plain = LightWallet.load(w.file()); // no passphrase needed any more
        assertEquals(Sealing.SECRET_ONLY, plain.sealing());
        assertEquals(balance, plain.ledger().balance(true));
        assertFalse(found(w.file(), needles).isEmpty(), "secret-only shows addresses and history");

        plain.reseal(Sealing.ALL, TestWallets.PASSPHRASE, 1 << 10);
        assertEquals(List.of(), found(w.file(), needles));
        assertThrows(PassphraseRequiredException.class, () -> LightWallet.load(w.file()));
        LightWallet sealed = LightWallet.load(w.file(), TestWallets.PASSPHRASE);
        assertEquals(balance, sealed.ledger().balance(true));
        assertEquals(w.scannedHeight(), sealed.scannedHeight());
        assertEquals(
                w.ledger().transactions().size(), sealed.ledger().transactions().size());
        // Saves after the reseal keep sealing it.
        sealed.keys().nextReceive(AddressKind.P2WPKH);
        sealed.save();
        assertEquals(List.of(), found(w.file(), needles));
    }

    @Test
    void sealingWholeNeedsThePassphraseThatOpensTheMnemonic() {
        LightWallet w = TestWallets.create(dir);
        assertThrows(WrongPassphraseException.class, () -> w.reseal(Sealing.ALL, "other".toCharArray(), 1 << 10));
        assertEquals(Sealing.SECRET_ONLY, LightWallet.load(w.file()).sealing());
        assertThrows(IllegalArgumentException.class, () -> w.reseal(Sealing.NONE, null, 1 << 10));
    }

    @Test
    void aProcessThatLoadedBeforeAResealDoesNotUndoIt() {
        LightWallet w = TestWallets.createSealed(dir);
        LightWallet earlier = LightWallet.load(w.file(), TestWallets.PASSPHRASE);
        w.reseal(Sealing.SECRET_ONLY, null, 1 << 10);
        earlier.keys().nextReceive(AddressKind.P2WPKH);
        WalletFileException e = assertThrows(WalletFileException.class, earlier::save);
        assertTrue(e.getMessage().contains("resealed by another process"), e.getMessage());
        assertEquals(Sealing.SECRET_ONLY, LightWallet.load(w.file()).sealing());
    }

    @Test
    void aWatchOnlyWalletCanBeSealedWholeOrNotAtAll() throws Exception {
        String xpub = TestWallets.create(dir)
                .keys()
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .extendedPublicKey();
        Path sealedFile = dir.resolve("watch-all.json");
        LightWallet sealed = NewWallet.watchOnly(
                sealedFile,
                List.of(HdAccount.watchOnly(xpub, AddressKind.P2WPKH, Chain.REGTEST.addressNetwork())),
                "watch".toCharArray(),
                NewWallet.Options.of(Chain.REGTEST)
                        .withBirthday(LightWallet.Birthday.ofHeight(0))
                        .withSealing(Sealing.ALL)
                        .withScryptN(1 << 10));
        assertEquals(List.of(), found(sealedFile, List.of(xpub)));
        assertEquals(
                Sealing.ALL, LightWallet.load(sealedFile, "watch".toCharArray()).sealing());
        assertThrows(PassphraseRequiredException.class, () -> LightWallet.load(sealedFile));
        sealed.reseal(Sealing.NONE, null, 1 << 10);
        assertEquals(Sealing.NONE, LightWallet.load(sealedFile).sealing());
        assertThrows(
                IllegalArgumentException.class,
                () -> NewWallet.watchOnly(
                        dir.resolve("watch-secret.json"),
                        List.of(HdAccount.watchOnly(xpub, AddressKind.P2WPKH, Chain.REGTEST.addressNetwork())),
                        null,
                        NewWallet.Options.of(Chain.REGTEST)
                                .withBirthday(LightWallet.Birthday.ofHeight(0))
                                .withScryptN(1 << 10)));
    }

    /** {@code wallet-secret-only-v1.json} was written by the code before whole-file sealing (main at 81a6b65). */
    @Test
    void anOldSecretOnlyFileStillLoadsUnchangedAndCanBeSealed() throws Exception {
        Path file = dir.resolve("old.json");
        try (InputStream in = getClass().getResourceAsStream("wallet-secret-only-v1.json")) {
            Files.copy(in, file);
        }
        LightWallet old = LightWallet.load(file);
        assertEquals(Sealing.SECRET_ONLY, old.sealing());
        assertEquals(Coin.COIN, old.ledger().balance(true));
        assertTrue(old.unlock(TestWallets.PASSPHRASE)
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .key(false, 0)
                .hasPrivKey());
        old.reseal(Sealing.ALL, TestWallets.PASSPHRASE, 1 << 10);
        assertEquals(List.of(), found(file, revealing(old)));
        assertEquals(
                Coin.COIN,
                LightWallet.load(file, TestWallets.PASSPHRASE).ledger().balance(true));
    }
}
