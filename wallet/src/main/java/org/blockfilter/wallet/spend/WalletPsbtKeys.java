package org.blockfilter.wallet.spend;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.ECKey;
import org.blockfilter.wallet.descriptor.KeyOrigin;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.psbt.PsbtKeys;

/**
 * The private keys of an unlocked wallet, found by a PSBT's derivation fields: the account's
 * origin (master fingerprint and {@code purpose'/coin'/0'}) then {@code change/index}, or the
 * account key's own fingerprint then {@code change/index}. So a multisig PSBT whose keys include
 * one of this wallet's account keys is signed for that key. Immutable.
 */
public final class WalletPsbtKeys implements PsbtKeys {
    private final List<HdAccount> accounts = new ArrayList<>();

    /** The signing keys of {@code unlocked}'s accounts that have private keys (watch-only accounts contribute none). */
    public WalletPsbtKeys(WalletKeys unlocked) {
        for (HdAccount a : unlocked.accounts()) {
            if (a.accountPrivateKey().isPresent()) {
                accounts.add(a);
            }
        }
        if (accounts.isEmpty()) {
            throw new IllegalArgumentException(
                    "a watch-only wallet cannot sign: sign on the wallet that holds the keys");
        }
    }

    @Override
    public Optional<ECKey> privateKey(byte[] publicKey, int fingerprint, List<ChildNumber> path) {
        for (HdAccount a : accounts) {
            DeterministicKey account = a.accountPrivateKey().orElseThrow();
            List<ChildNumber> rest = null;
            Optional<KeyOrigin> origin = a.descriptor().keys().get(0).origin();
            if (origin.isPresent()
                    && origin.get().fingerprint() == fingerprint
                    && path.size() == origin.get().path().size() + 2
                    && path.subList(0, origin.get().path().size())
                            .equals(origin.get().path())) {
                rest = path.subList(path.size() - 2, path.size());
            } else if (account.getFingerprint() == fingerprint && path.size() == 2) {
                rest = path;
            }
            if (rest != null
                    && !rest.get(0).isHardened()
                    && !rest.get(1).isHardened()
                    && rest.get(0).num() <= 1) {
                return Optional.of(a.key(rest.get(0).num() == 1, rest.get(1).num()));
            }
        }
        return Optional.empty();
    }
}
