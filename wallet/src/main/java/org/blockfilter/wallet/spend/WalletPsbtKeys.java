package org.blockfilter.wallet.spend;

import java.util.List;
import java.util.Optional;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.ECKey;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.psbt.PsbtKeys;

/**
 * The private keys of an unlocked wallet, found by a PSBT's derivation fields (master fingerprint
 * and full path, or account fingerprint and {@code change/index}). Immutable.
 */
public final class WalletPsbtKeys implements PsbtKeys {
    private final List<HdAccount> accounts;

    public WalletPsbtKeys(WalletKeys unlocked) {
        if (unlocked.watchOnly()) {
            throw new IllegalArgumentException(
                    "a watch-only wallet cannot sign: sign on the wallet that holds the keys");
        }
        this.accounts = List.copyOf(unlocked.accounts());
    }

    @Override
    public Optional<ECKey> privateKey(byte[] publicKey, int fingerprint, List<ChildNumber> path) {
        for (HdAccount a : accounts) {
            Optional<DeterministicKey> k = a.keyAt(fingerprint, path).filter(DeterministicKey::hasPrivKey);
            if (k.isPresent()) {
                return Optional.of(k.get());
            }
        }
        return Optional.empty();
    }
}
