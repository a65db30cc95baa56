package org.blockfilter.bitcoinj;

import java.util.LinkedHashSet;
import java.util.Set;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptBuilder;
import org.bitcoinj.wallet.DeterministicKeyChain;
import org.bitcoinj.wallet.Wallet;
import org.blockfilter.wallet.keys.OutputScript;

/**
 * The output scripts a bitcoinj {@link Wallet} would recognise as its own, which compact filters are
 * matched against: for every active deterministic key chain (P2PKH, P2WPKH), the script of its type
 * for each issued key and each key of its look-ahead window, on the receive and the change branch;
 * for imported keys, their P2PKH and P2WPKH scripts; and the watched scripts. These are the keys
 * bitcoinj puts in its own Bloom filter, each in the one script form its wallet accepts for the
 * chain ({@code KeyChainGroup.findKeyFromPubKeyHash} matches a chain's keys only with its own
 * script type). Bare P2PK outputs are not matched (BIP 158 filters hold output scripts, and no
 * bitcoinj chain issues P2PK addresses). Stateless.
 */
public final class WalletScripts {
    private WalletScripts() {}

    /**
     * The scripts {@code wallet} watches now, in a stable order. Tops up each chain's look-ahead window first
     * ({@link DeterministicKeyChain#maybeLookAhead()}), as bitcoinj does before it builds a Bloom filter; the set
     * grows when the wallet issues or sees keys, so call it again after every block that paid the wallet.
     */
    public static Set<OutputScript> of(Wallet wallet) {
        Set<OutputScript> out = new LinkedHashSet<>();
        for (DeterministicKeyChain chain : wallet.getActiveKeyChains()) {
            chain.maybeLookAhead();
            ScriptType type = chain.getOutputScriptType() != null ? chain.getOutputScriptType() : ScriptType.P2PKH;
            for (ECKey key : chain.getLeafKeys()) {
                out.add(script(key, type));
            }
        }
        for (ECKey key : wallet.getImportedKeys()) {
            out.add(script(key, ScriptType.P2PKH));
            out.add(script(key, ScriptType.P2WPKH));
        }
        for (Script s : wallet.getWatchedScripts()) {
            out.add(OutputScript.of(s.program()));
        }
        return out;
    }

    private static OutputScript script(ECKey key, ScriptType type) {
        Script s = type == ScriptType.P2WPKH
                ? ScriptBuilder.createP2WPKHOutputScript(key)
                : ScriptBuilder.createP2PKHOutputScript(key);
        return OutputScript.of(s.program());
    }
}
