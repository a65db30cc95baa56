package org.blockfilter.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.blockfilter.filters.chain.Chain;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.store.SealedSecret;
import org.blockfilter.wallet.store.Sealing;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One options value for every way of making a wallet: its defaults and copies. */
class NewWalletOptionsTest {
    @TempDir
    Path dir;

    @Test
    void theDefaultsSealTheSecretOnlyStartAtTheShippedCheckpointsAndHaveNoBip39Passphrase() {
        NewWallet.Options o = NewWallet.Options.of(Chain.MAINNET);
        assertEquals(Sealing.SECRET_ONLY, o.sealing());
        assertEquals(ChainStart.shipped(Chain.MAINNET), o.checkpoints());
        assertEquals("", o.bip39Passphrase());
        assertEquals(WalletKeys.DEFAULT_GAP_LIMIT, o.gapLimit());
        assertEquals(SealedSecret.DEFAULT_N, o.scryptN());
        assertTrue(o.birthday().fromTip());
    }

    @Test
    void eachCopyChangesOneField() {
        NewWallet.Options o = NewWallet.Options.of(Chain.REGTEST);
        NewWallet.Options c = o.withGapLimit(7)
                .withSealing(Sealing.ALL)
                .withScryptN(1 << 10)
                .withCheckpoints(List.of())
                .withBip39Passphrase("TREZOR")
                .withBirthday(LightWallet.Birthday.ofHeight(5));
        assertEquals(
                new NewWallet.Options(
                        Chain.REGTEST, 7, LightWallet.Birthday.ofHeight(5), Sealing.ALL, 1 << 10, List.of(), "TREZOR"),
                c);
        assertEquals(Sealing.SECRET_ONLY, o.sealing(), "the original is unchanged");
        assertThrows(IllegalArgumentException.class, () -> o.withGapLimit(0));
    }

    @Test
    void theBip39PassphraseOfTheOptionsIsTheWallets() {
        NewWallet.Options o = NewWallet.Options.of(Chain.REGTEST)
                .withBirthday(LightWallet.Birthday.ofHeight(0))
                .withScryptN(1 << 10);
        LightWallet plain = NewWallet.create(
                dir.resolve("a.json"), TestWallets.MNEMONIC, "pw".toCharArray(), EnumSet.of(AddressKind.P2WPKH), o);
        LightWallet trezor = NewWallet.create(
                dir.resolve("b.json"),
                TestWallets.MNEMONIC,
                "pw".toCharArray(),
                EnumSet.of(AddressKind.P2WPKH),
                o.withBip39Passphrase("TREZOR"));
        String a = plain.keys().account(AddressKind.P2WPKH).orElseThrow().extendedPublicKey();
        String b = trezor.keys().account(AddressKind.P2WPKH).orElseThrow().extendedPublicKey();
        assertTrue(!a.equals(b), "another BIP 39 passphrase, other keys");
    }

    @Test
    void aWatchOnlyWalletRefusesSealingASecretAndABip39Passphrase() {
        LightWallet full = TestWallets.create(dir);
        HdAccount account = full.keys().account(AddressKind.P2WPKH).orElseThrow();
        NewWallet.Options o = NewWallet.Options.of(Chain.REGTEST).withBirthday(LightWallet.Birthday.ofHeight(0));
        assertThrows(
                IllegalArgumentException.class,
                () -> NewWallet.watchOnly(dir.resolve("w1.json"), List.of(account), null, o));
        assertThrows(
                IllegalArgumentException.class,
                () -> NewWallet.watchOnly(
                        dir.resolve("w2.json"),
                        List.of(account),
                        null,
                        o.withSealing(Sealing.NONE).withBip39Passphrase("x")));
    }
}
