package org.blockfilter.wallet.psbt;

import java.util.List;
import java.util.Optional;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.ECKey;

/**
 * The private keys a signer holds, found by what a PSBT's derivation fields say: the fingerprint
 * of the key the path starts at and the path. An implementation returns the key only when it
 * derives exactly {@code publicKey} (33 bytes compressed; for taproot, the even-y lift of the
 * x-only key is compared by its x coordinate by the caller).
 */
@FunctionalInterface
public interface PsbtKeys {
    /**
     * The private key that derives from the key with this fingerprint along {@code path} and whose public key is {@code
     * publicKey}; empty when this signer holds no such key.
     */
    Optional<ECKey> privateKey(byte[] publicKey, int fingerprint, List<ChildNumber> path);
}
