package org.blockfilter.wallet.descriptor;

import java.util.List;
import java.util.Locale;
import org.bitcoinj.crypto.ChildNumber;

/**
 * Where a key comes from: the fingerprint of the key its derivation starts at (for a wallet's
 * keys, the BIP 32 master key) and the derivation steps from there, as BIP 174's
 * {@code PSBT_IN_BIP32_DERIVATION} carries it. Immutable; {@code path} never null (empty for the
 * key itself).
 *
 * @param fingerprint the first 4 bytes of HASH160 of the starting key's public key, big endian
 * @param path        the steps from that key
 */
public record KeyOrigin(int fingerprint, List<ChildNumber> path) {
    public KeyOrigin {
        path = List.copyOf(path);
    }

    /** This origin followed by more steps. */
    public KeyOrigin then(List<ChildNumber> more) {
        List<ChildNumber> all = new java.util.ArrayList<>(path);
        all.addAll(more);
        return new KeyOrigin(fingerprint, all);
    }

    /** The fingerprint as 8 lowercase hex digits. */
    public String fingerprintHex() {
        return String.format(Locale.ROOT, "%08x", fingerprint);
    }

    /** As written inside a descriptor's brackets: {@code d34db33f/84h/1h/0h}. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(fingerprintHex());
        for (ChildNumber c : path) {
            b.append('/').append(step(c));
        }
        return b.toString();
    }

    static String step(ChildNumber c) {
        return c.num() + (c.isHardened() ? "h" : "");
    }
}
