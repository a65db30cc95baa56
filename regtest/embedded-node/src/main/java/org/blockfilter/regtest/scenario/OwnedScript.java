package org.blockfilter.regtest.scenario;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bitcoinj.base.Address;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.Script;

/**
 * A scriptPubKey a scenario wallet receives to, with what is needed to spend it. Immutable
 * (bitcoinj's Script compares by program bytes).
 *
 * @param wallet       the owning wallet's index
 * @param kind         the output type
 * @param scriptPubKey the output script, which is what BIP 158 filters contain
 * @param address      its address, where it has one (bare multisig has none)
 * @param keys         the keys in the script, in script order
 * @param redeemScript the P2SH redeem script or P2WSH witness script, where there is one
 */
public record OwnedScript(
        int wallet,
        OutputKind kind,
        Script scriptPubKey,
        Optional<Address> address,
        List<ECKey> keys,
        Optional<Script> redeemScript) {
    public OwnedScript {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(scriptPubKey, "scriptPubKey");
        Objects.requireNonNull(address, "address");
        keys = List.copyOf(keys);
        Objects.requireNonNull(redeemScript, "redeemScript");
    }

    /** A copy of the output script's bytes. */
    public byte[] program() {
        return scriptPubKey.program();
    }
}
