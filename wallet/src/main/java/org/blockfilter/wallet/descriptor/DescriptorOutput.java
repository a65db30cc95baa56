package org.blockfilter.wallet.descriptor;

import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.Address;
import org.blockfilter.wallet.keys.OutputScript;

/**
 * One output a descriptor describes, at one chain and index: its script, its address, its keys
 * with their origins, and the scripts a signer needs. Immutable; copies its bytes in and out.
 * Optional parts are empty where the descriptor has none (e.g. no redeem script outside {@code sh()}).
 */
public final class DescriptorOutput {
    private final OutputScript script;
    private final Address address;
    private final List<DerivedKey> keys;
    private final byte[] redeemScript;
    private final byte[] witnessScript;
    private final byte[] internalKey;
    private final byte[] merkleRoot;

    DescriptorOutput(
            OutputScript script,
            Address address,
            List<DerivedKey> keys,
            byte[] redeemScript,
            byte[] witnessScript,
            byte[] internalKey,
            byte[] merkleRoot) {
        this.script = script;
        this.address = address;
        this.keys = List.copyOf(keys);
        this.redeemScript = copy(redeemScript);
        this.witnessScript = copy(witnessScript);
        this.internalKey = copy(internalKey);
        this.merkleRoot = copy(merkleRoot);
    }

    /** The scriptPubKey. */
    public OutputScript script() {
        return script;
    }

    /** The address of the script; empty for scripts without one ({@code pk()}, bare {@code multi()}, most {@code raw()}). */
    public Optional<Address> address() {
        return Optional.ofNullable(address);
    }

    /**
     * Every key in the output, in the order the descriptor writes them (for {@code sortedmulti()}
     * not the script's sorted order; for {@code tr()} the internal key first, then the leaves' keys).
     */
    public List<DerivedKey> keys() {
        return keys;
    }

    /** {@code sh()}'s redeem script: the inner script (for {@code sh(wsh(...))} the P2WSH program, for {@code sh(wpkh())} the P2WPKH program). */
    public Optional<byte[]> redeemScript() {
        return Optional.ofNullable(copy(redeemScript));
    }

    /** {@code wsh()}'s witness script. */
    public Optional<byte[]> witnessScript() {
        return Optional.ofNullable(copy(witnessScript));
    }

    /** {@code tr()}'s 32-byte x-only internal key (BIP 341), which the output key tweaks. */
    public Optional<byte[]> internalKey() {
        return Optional.ofNullable(copy(internalKey));
    }

    /** {@code tr()}'s script-tree merkle root (BIP 341); empty for a key-path-only output. */
    public Optional<byte[]> merkleRoot() {
        return Optional.ofNullable(copy(merkleRoot));
    }

    private static byte[] copy(byte[] b) {
        return b == null ? null : b.clone();
    }

    @Override
    public String toString() {
        return script.hex();
    }
}
