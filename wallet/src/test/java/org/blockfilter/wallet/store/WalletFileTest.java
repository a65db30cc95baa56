package org.blockfilter.wallet.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WalletFileTest {
    @TempDir
    Path dir;

    @Test
    void walletSurvivesRestartWithSameAddressesAndPositions() {
        LightWallet w = TestWallets.create(dir);
        String first = w.keys().nextReceive(AddressKind.P2WPKH).address().toString();
        w.keys().nextReceive(AddressKind.P2WPKH);
        w.save();
        LightWallet again = LightWallet.load(w.file());
        assertEquals(
                w.keys().watchedScripts().size(), again.keys().watchedScripts().size());
        assertEquals(2, again.keys().chainState(AddressKind.P2WPKH, false).issued());
        assertEquals(
                first,
                again.keys()
                        .account(AddressKind.P2WPKH)
                        .orElseThrow()
                        .derive(false, 0)
                        .address()
                        .toString());
        assertTrue(again.keys().watchOnly(), "the public part must not hold private keys");
    }

    @Test
    void mnemonicIsNotStoredInTheClear() throws Exception {
        LightWallet w = TestWallets.create(dir);
        String text = Files.readString(w.file());
        assertFalse(text.contains("abandon"));
    }

    @Test
    void rightPassphraseUnlocksPrivateKeys() {
        LightWallet w = TestWallets.create(dir);
        var keys = LightWallet.load(w.file()).unlock(TestWallets.PASSPHRASE);
        assertTrue(keys.account(AddressKind.P2WPKH).orElseThrow().key(false, 0).hasPrivKey());
    }

    @Test
    void wrongPassphraseGivesClearError() {
        LightWallet w = TestWallets.create(dir);
        WrongPassphraseException e = assertThrows(
                WrongPassphraseException.class, () -> LightWallet.load(w.file()).unlock("wrong".toCharArray()));
        assertTrue(e.getMessage().contains("wrong passphrase"));
    }

    @Test
    void sealedSecretRoundTripsAndDetectsTampering() {
        SealedSecret s = SealedSecret.seal("secret".getBytes(StandardCharsets.UTF_8), "pw".toCharArray(), 1 << 10);
        assertArrayEquals("secret".getBytes(StandardCharsets.UTF_8), s.open("pw".toCharArray()));
        byte[] ct = java.util.Base64.getDecoder().decode(s.ciphertext());
        ct[0] ^= 1;
        SealedSecret tampered = new SealedSecret(
                s.kdf(),
                s.n(),
                s.r(),
                s.p(),
                s.salt(),
                s.nonce(),
                java.util.Base64.getEncoder().encodeToString(ct),
                s.check(),
                s.digest());
        // A changed ciphertext is damage, not a wrong passphrase.
        WalletFileException e = assertThrows(WalletFileException.class, () -> tampered.open("pw".toCharArray()));
        assertTrue(e.getMessage().contains("damaged"), e.getMessage());
    }

    @Test
    void crashMidWriteLeavesThePreviousWalletIntact() throws Exception {
        LightWallet w = TestWallets.create(dir);
        w.keys().nextReceive(AddressKind.P2WPKH);
        w.save();
        byte[] before = Files.readAllBytes(w.file());
        // A crash after writing half of the next version: only the temp file is partial.
        Path tmp = w.file().resolveSibling("wallet.json.tmp");
        Files.write(tmp, java.util.Arrays.copyOf(before, before.length / 2));
        LightWallet loaded = LightWallet.load(w.file());
        assertEquals(1, loaded.keys().chainState(AddressKind.P2WPKH, false).issued());
        // The next save replaces the stale temp file and leaves none behind.
        loaded.keys().nextReceive(AddressKind.P2WPKH);
        loaded.save();
        assertFalse(Files.exists(tmp));
        assertEquals(
                2,
                LightWallet.load(w.file())
                        .keys()
                        .chainState(AddressKind.P2WPKH, false)
                        .issued());
    }

    @Test
    void truncatedWalletFileIsReportedNotMisread() throws Exception {
        LightWallet w = TestWallets.create(dir);
        byte[] all = Files.readAllBytes(w.file());
        Files.write(w.file(), java.util.Arrays.copyOf(all, all.length / 3));
        WalletFileException e = assertThrows(WalletFileException.class, () -> LightWallet.load(w.file()));
        assertTrue(e.getMessage().contains("not a readable wallet file"), e.getMessage());
    }

    @Test
    void missingWalletFileIsReported() {
        WalletFileException e =
                assertThrows(WalletFileException.class, () -> LightWallet.load(dir.resolve("nope.json")));
        assertTrue(e.getMessage().contains("no wallet file"));
    }

    @Test
    void createRefusesToOverwriteAWallet() {
        TestWallets.create(dir);
        assertThrows(WalletFileException.class, () -> TestWallets.create(dir));
    }
}
