package org.blockfilter.bitcoinj;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.ScriptBuilder;
import org.bitcoinj.wallet.DeterministicKeyChain;
import org.bitcoinj.wallet.Wallet;
import org.blockfilter.wallet.keys.OutputScript;
import org.junit.jupiter.api.Test;

class WalletScriptsTest {
    private static OutputScript p2wpkh(ECKey k) {
        return OutputScript.of(ScriptBuilder.createP2WPKHOutputScript(k).program());
    }

    private static OutputScript p2pkh(ECKey k) {
        return OutputScript.of(ScriptBuilder.createP2PKHOutputScript(k).program());
    }

    @Test
    void eachChainWatchesItsOwnScriptTypeOnBothBranchesWithTheLookAhead() {
        Wallet w = TestWallet.create();
        Set<OutputScript> scripts = WalletScripts.of(w);
        int keys = 0;
        for (DeterministicKeyChain c : w.getActiveKeyChains()) {
            keys += c.getLeafKeys().size();
        }
        assertEquals(keys, scripts.size(), "one script per key of each chain");
        int window = w.getActiveKeyChains().get(0).getLookaheadSize();
        assertTrue(keys >= 4 * window, keys + " keys for a look-ahead of " + window);

        ECKey segwitFirst = TestWallet.key(ScriptType.P2WPKH, false, 0);
        ECKey segwitChange = TestWallet.key(ScriptType.P2WPKH, true, window - 1);
        ECKey legacyFirst = TestWallet.key(ScriptType.P2PKH, false, 0);
        assertTrue(scripts.contains(p2wpkh(segwitFirst)));
        assertTrue(scripts.contains(p2wpkh(segwitChange)), "change branch, last key of the look-ahead");
        assertTrue(scripts.contains(p2pkh(legacyFirst)));
        // bitcoinj matches a chain's key only in its own script type.
        assertFalse(scripts.contains(p2pkh(segwitFirst)));
        assertFalse(scripts.contains(p2wpkh(legacyFirst)));
        assertFalse(scripts.contains(p2wpkh(TestWallet.key(ScriptType.P2WPKH, false, keys))), "beyond the window");
    }

    @Test
    void issuingKeysMovesTheLookAheadWindow() {
        Wallet w = TestWallet.create();
        int window = w.getActiveKeyChains().get(0).getLookaheadSize();
        ECKey far = TestWallet.key(ScriptType.P2WPKH, false, 2 * window);
        assertFalse(WalletScripts.of(w).contains(p2wpkh(far)));
        for (int i = 0; i < window + 1; i++) {
            w.freshReceiveKey();
        }
        assertTrue(WalletScripts.of(w).contains(p2wpkh(far)), "issued keys plus the window reach it");
    }

    @Test
    void importedKeysWatchBothFormsAndWatchedScriptsThemselves() {
        Wallet w = TestWallet.create();
        ECKey imported = new ECKey();
        w.importKey(imported);
        ECKey watchedKey = new ECKey();
        w.addWatchedAddress(watchedKey.toAddress(ScriptType.P2WPKH, BitcoinNetwork.REGTEST));
        Set<OutputScript> scripts = WalletScripts.of(w);
        assertTrue(scripts.contains(p2pkh(imported)));
        assertTrue(scripts.contains(p2wpkh(imported)));
        assertTrue(scripts.contains(p2wpkh(watchedKey)));
        assertFalse(scripts.contains(p2pkh(watchedKey)), "a watched address is that one script");
    }
}
