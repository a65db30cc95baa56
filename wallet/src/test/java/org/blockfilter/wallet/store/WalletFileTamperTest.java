package org.blockfilter.wallet.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.sync.SyncReport;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wallet files edited or damaged on disk. Before the fix a scannedHeight of
 * 999999 or -5 was accepted ("synced to height 999999: 0 filters"), a flipped stored filter header
 * went unnoticed, a transaction without {@code raw} died with a NullPointerException text, and a
 * damaged sealed secret was reported as a wrong passphrase.
 */
class WalletFileTamperTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private LightWallet wallet;
    private RegtestChainBuilder chain;

    @BeforeEach
    void syncedWalletWithAPayment() {
        wallet = TestWallets.create(dir);
        chain = new RegtestChainBuilder();
        chain.mine(3);
        Address a = wallet.keys()
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .derive(false, 0)
                .address();
        chain.mineBlock(List.of(chain.pay(List.of(a), Coin.COIN)));
        chain.mine(3);
        new SyncEngine(wallet, List.of(new MemorySource("honest", chain)), SyncEngine.Options.defaults()).sync();
    }

    /** Edits the file's JSON; {@code keepChecksum} false drops the checksum, as a deliberate editor would. */
    private void edit(boolean keepChecksum, Consumer<ObjectNode> change) throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(Files.readAllBytes(wallet.file()));
        change.accept(root);
        if (!keepChecksum) {
            root.remove("checksum");
        }
        Files.write(wallet.file(), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
    }

    private String loadError() {
        WalletFileException e = assertThrows(WalletFileException.class, () -> LightWallet.load(wallet.file()));
        assertTrue(e.getMessage().contains(wallet.file().toString()), e.getMessage());
        return e.getMessage();
    }

    @Test
    void scannedHeightBeyondTheStoredChainIsRejected() throws Exception {
        edit(false, r -> r.put("scannedHeight", 999_999));
        String m = loadError();
        assertTrue(m.contains("scannedHeight 999999"), m);
    }

    @Test
    void negativeScannedHeightIsRejected() throws Exception {
        edit(false, r -> r.put("scannedHeight", -5));
        assertTrue(loadError().contains("scannedHeight -5"));
    }

    /** Flips one bit of record {@code index} of a flat file; {@code fixCrc} recomputes its CRC, as a deliberate editor would. */
    private static void flipRecord(Path file, int payload, int index, boolean fixCrc) throws Exception {
        byte[] all = Files.readAllBytes(file);
        int off = index * (payload + 4);
        all[off + 5] ^= 1;
        if (fixCrc) {
            java.util.zip.CRC32C c = new java.util.zip.CRC32C();
            c.update(java.nio.ByteBuffer.allocate(8).putLong(0, index));
            c.update(all, off, payload);
            java.nio.ByteBuffer.wrap(all).putInt(off + payload, (int) c.getValue());
        }
        Files.write(file, all);
    }

    @Test
    void flippedFilterHeaderAtTheTipIsNoticedOnLoadNamingTheFile() throws Exception {
        Path fh = ChainFiles.filterHeaders(wallet.file());
        flipRecord(fh, 32, wallet.filterHeaders().tipHeight(), false);
        WalletFileException e = assertThrows(WalletFileException.class, () -> LightWallet.load(wallet.file()));
        assertTrue(e.getMessage().contains(fh.toString()) && e.getMessage().contains("checksum"), e.getMessage());
    }

    @Test
    void flippedFilterHeaderInTheMiddleIsAnErrorNamingTheFileNotBlamedOnTheSource() throws Exception {
        Path fh = ChainFiles.filterHeaders(wallet.file());
        flipRecord(fh, 32, 2, false);
        LightWallet w = LightWallet.load(wallet.file());
        WalletFileException e = assertThrows(
                WalletFileException.class,
                () -> new SyncEngine(w, List.of(new MemorySource("honest", chain)), SyncEngine.Options.defaults())
                        .verifyAndSync());
        assertTrue(
                e.getMessage().contains(fh.toString()) && e.getMessage().contains("rescan --from 2"), e.getMessage());
    }

    @Test
    void flippedFilterHeaderWithItsChecksumRecomputedIsRepairedByVerify() throws Exception {
        flipRecord(ChainFiles.filterHeaders(wallet.file()), 32, 2, true);
        LightWallet w = LightWallet.load(wallet.file());
        SyncReport r = new SyncEngine(w, List.of(new MemorySource("honest", chain)), SyncEngine.Options.defaults())
                .verifyAndSync();
        assertEquals(List.of(), r.dropped(), "the honest source is not blamed for the file");
        assertEquals(1, r.rollbacks().size(), r.rollbacks().toString());
        assertEquals(chain.filterHeader(chain.tipHeight()), w.filterHeaders().header(chain.tipHeight()));
        assertEquals(chain.filterHeader(2), w.filterHeaders().header(2));
    }

    @Test
    void brokenHeaderChainIsRejected() throws Exception {
        Path headers = ChainFiles.headers(wallet.file());
        flipRecord(headers, 80, wallet.headers().tipHeight(), true);
        WalletFileException e = assertThrows(WalletFileException.class, () -> LightWallet.load(wallet.file()));
        assertTrue(e.getMessage().contains(headers.toString()) && e.getMessage().contains("commits"), e.getMessage());
    }

    @Test
    void transactionWithoutRawBytesIsAClearError() throws Exception {
        edit(false, r -> ((ObjectNode) r.get("transactions").get(0)).remove("raw"));
        String m = loadError();
        assertTrue(m.contains("no raw bytes"), m);
        assertTrue(!m.contains("NullPointer"), m);
    }

    @Test
    void transactionWhoseBytesDoNotHashToItsTxidIsRejected() throws Exception {
        edit(false, r -> {
            ObjectNode tx = (ObjectNode) r.get("transactions").get(0);
            String raw = tx.get("raw").asText();
            tx.put("raw", raw.substring(0, raw.length() - 2) + (raw.endsWith("00") ? "01" : "00"));
        });
        assertTrue(loadError().contains("do not hash to its txid"));
    }

    @Test
    void transactionInABlockTheChainDoesNotHaveIsRejected() throws Exception {
        edit(false, r -> ((ObjectNode) r.get("transactions").get(0)).put("height", 2));
        assertTrue(loadError().contains("block"));
    }

    @Test
    void checkpointsBeyondTheChainAreRejected() throws Exception {
        edit(false, r -> r.put("checkpointCount", 1));
        assertTrue(loadError().contains("checkpoint"));
    }

    @Test
    void damagedSealedSecretSaysDamagedNotWrongPassphrase() throws Exception {
        edit(false, r -> {
            ObjectNode s = (ObjectNode) r.get("secret");
            byte[] ct = Base64.getDecoder().decode(s.get("ciphertext").asText());
            ct[0] ^= 1;
            s.put("ciphertext", Base64.getEncoder().encodeToString(ct));
        });
        LightWallet w = LightWallet.load(wallet.file());
        WalletFileException e = assertThrows(WalletFileException.class, () -> w.unlock(TestWallets.PASSPHRASE));
        assertTrue(e.getMessage().contains("damaged"), e.getMessage());
        assertTrue(e.getMessage().contains(wallet.file().toAbsolutePath().toString()), e.getMessage());
    }

    @Test
    void ciphertextChangedWithItsDigestRecomputedIsDamagedForTheRightPassphraseOnly() {
        SealedSecret s = SealedSecret.seal("secret".getBytes(StandardCharsets.UTF_8), "pw".toCharArray(), 1 << 10);
        byte[] ct = Base64.getDecoder().decode(s.ciphertext());
        ct[0] ^= 1;
        String ctB = Base64.getEncoder().encodeToString(ct);
        SealedSecret edited = new SealedSecret(
                s.kdf(),
                s.n(),
                s.r(),
                s.p(),
                s.salt(),
                s.nonce(),
                ctB,
                s.check(),
                SealedSecret.digest(s.kdf(), s.n(), s.r(), s.p(), s.salt(), s.nonce(), ctB, s.check()));
        WalletFileException e = assertThrows(WalletFileException.class, () -> edited.open("pw".toCharArray()));
        assertTrue(e.getMessage().contains("passphrase is right"), e.getMessage());
        assertThrows(WrongPassphraseException.class, () -> edited.open("wrong".toCharArray()));
    }

    @Test
    void wrongPassphraseIsStillAWrongPassphrase() {
        assertThrows(
                WrongPassphraseException.class,
                () -> LightWallet.load(wallet.file()).unlock("wrong".toCharArray()));
        SealedSecret s = SealedSecret.seal("secret".getBytes(StandardCharsets.UTF_8), "pw".toCharArray(), 1 << 10);
        assertArrayEquals("secret".getBytes(StandardCharsets.UTF_8), s.open("pw".toCharArray()));
        assertThrows(WrongPassphraseException.class, () -> s.open("pW".toCharArray()));
    }
}
