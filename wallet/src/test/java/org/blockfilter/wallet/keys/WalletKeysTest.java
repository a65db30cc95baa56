package org.blockfilter.wallet.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.crypto.HDKeyDerivation;
import org.bitcoinj.crypto.MnemonicCode;
import org.junit.jupiter.api.Test;

/** Addresses from the BIP 44, 84 and 86 test vectors (mnemonic "abandon ... about", mainnet). */
class WalletKeysTest {
    private static final List<String> ABANDON = List.of(
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about".split(" "));

    private static WalletKeys mainnet(int gap) {
        return WalletKeys.fromMnemonic(ABANDON, "", BitcoinNetwork.MAINNET, gap, AddressKind.seedKinds());
    }

    @Test
    void derivesBip84Vectors() {
        HdAccount a = mainnet(20).account(AddressKind.P2WPKH).orElseThrow();
        assertEquals(
                "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
                a.derive(false, 0).address().toString());
        assertEquals(
                "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g",
                a.derive(false, 1).address().toString());
        assertEquals(
                "bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el",
                a.derive(true, 0).address().toString());
    }

    @Test
    void derivesBip86TaprootVectors() {
        HdAccount a = mainnet(20).account(AddressKind.P2TR).orElseThrow();
        assertEquals(
                "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr",
                a.derive(false, 0).address().toString());
        assertEquals(
                "bc1p4qhjn9zdvkux4e44uhx8tc55attvtyu358kutcqkudyccelu0was9fqzwh",
                a.derive(false, 1).address().toString());
        assertEquals(
                "bc1p3qkhfews2uk44qtvauqyr2ttdsw7svhkl9nkm9s9c3x4ax5h60wqwruhk7",
                a.derive(true, 0).address().toString());
    }

    @Test
    void derivesBip44Vector() {
        HdAccount a = mainnet(20).account(AddressKind.P2PKH).orElseThrow();
        assertEquals(
                "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA",
                a.derive(false, 0).address().toString());
    }

    @Test
    void watchOnlyFromZpubDerivesTheSameAddresses() {
        HdAccount w = HdAccount.watchOnly(
                "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs",
                AddressKind.P2WPKH,
                BitcoinNetwork.MAINNET);
        assertTrue(w.watchOnly());
        assertEquals(
                "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
                w.derive(false, 0).address().toString());
    }

    @Test
    void watchOnlyFromOwnXpubMatchesFullAccount() {
        HdAccount full = mainnet(20).account(AddressKind.P2TR).orElseThrow();
        HdAccount w = HdAccount.watchOnly(full.extendedPublicKey(), AddressKind.P2TR, BitcoinNetwork.MAINNET);
        assertEquals(full.derive(true, 7).address(), w.derive(true, 7).address());
    }

    @Test
    void rejectsPrivateExtendedKeyForWatchOnly() {
        String xprv = HDKeyDerivation.createMasterPrivateKey(MnemonicCode.toSeed(ABANDON, ""))
                .serializePrivB58(BitcoinNetwork.MAINNET);
        KeyFormatException e = assertThrows(
                KeyFormatException.class, () -> HdAccount.watchOnly(xprv, AddressKind.P2WPKH, BitcoinNetwork.MAINNET));
        assertTrue(e.getMessage().contains("private"), e.getMessage());
    }

    @Test
    void rejectsMnemonicWithBadChecksum() {
        List<String> bad = List.of(
                "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon"
                        .split(" "));
        assertThrows(KeyFormatException.class, () -> WalletKeys.checkMnemonic(bad));
    }

    @Test
    void watchesGapLimitScriptsOnEachChainOfEachAccount() {
        assertEquals(3 * 2 * 20, mainnet(20).watchedCount());
        assertEquals(3 * 2 * 5, mainnet(5).watchedCount());
    }

    @Test
    void usingAnAddressSlidesItsChainsWindow() {
        WalletKeys keys = mainnet(20);
        DerivedAddress a15 = keys.account(AddressKind.P2WPKH).orElseThrow().derive(false, 15);
        List<OutputScript> fresh = keys.markUsed(a15.script());
        assertEquals(16, fresh.size());
        DerivedAddress a35 = keys.account(AddressKind.P2WPKH).orElseThrow().derive(false, 35);
        assertTrue(keys.isMine(a35.script()));
        assertFalse(keys.isMine(
                keys.account(AddressKind.P2WPKH).orElseThrow().derive(false, 36).script()));
        assertTrue(keys.markUsed(a15.script()).isEmpty());
    }

    @Test
    void nextReceiveSkipsUsedAndIssuedAddresses() {
        WalletKeys keys = mainnet(20);
        assertEquals(0, keys.nextReceive(AddressKind.P2WPKH).index());
        assertEquals(1, keys.nextReceive(AddressKind.P2WPKH).index());
        keys.markUsed(
                keys.account(AddressKind.P2WPKH).orElseThrow().derive(false, 9).script());
        assertEquals(10, keys.nextReceive(AddressKind.P2WPKH).index());
    }

    @Test
    void unknownScriptIsNotMineAndDoesNotMoveTheWindow() {
        WalletKeys keys = mainnet(20);
        int before = keys.watchedCount();
        assertTrue(keys.markUsed(OutputScript.ofHex("0014" + "00".repeat(20))).isEmpty());
        assertEquals(before, keys.watchedCount());
    }
}
