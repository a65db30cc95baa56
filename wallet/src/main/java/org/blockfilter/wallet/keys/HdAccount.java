package org.blockfilter.wallet.keys;

import org.bitcoinj.base.Address;
import org.bitcoinj.base.LegacyAddress;
import org.bitcoinj.base.Network;
import org.bitcoinj.base.SegwitAddress;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.HDKeyDerivation;
import org.bitcoinj.script.ScriptBuilder;

/**
 * One BIP 44/84/86 account ({@code m/purpose'/coin'/0'}): derives the receive (0) and change (1)
 * chains. Holds the account private key when built from a seed, the public key only when
 * watch-only. Immutable; thread-safe.
 */
public final class HdAccount {
    private final AddressKind kind;
    private final Network network;
    private final DeterministicKey accountKey;
    private final DeterministicKey receiveChain;
    private final DeterministicKey changeChain;

    private HdAccount(AddressKind kind, Network network, DeterministicKey accountKey) {
        this.kind = kind;
        this.network = network;
        this.accountKey = accountKey;
        this.receiveChain = HDKeyDerivation.deriveChildKey(accountKey, ChildNumber.ZERO);
        this.changeChain = HDKeyDerivation.deriveChildKey(accountKey, ChildNumber.ONE);
    }

    /** The account under a BIP 32 master key: {@code m/purpose'/coin'/0'}, coin 0 on mainnet, 1 elsewhere. */
    public static HdAccount fromMaster(DeterministicKey master, AddressKind kind, Network network) {
        ChildNumber coin = network == org.bitcoinj.base.BitcoinNetwork.MAINNET
                ? ChildNumber.COINTYPE_BTC
                : ChildNumber.COINTYPE_TBTC;
        DeterministicKey purpose = HDKeyDerivation.deriveChildKey(master, kind.purposeChild());
        DeterministicKey coinKey = HDKeyDerivation.deriveChildKey(purpose, coin);
        return new HdAccount(kind, network, HDKeyDerivation.deriveChildKey(coinKey, ChildNumber.ZERO_HARDENED));
    }

    /** A watch-only account from an extended public key (xpub/tpub, zpub/vpub). */
    public static HdAccount watchOnly(String extendedPublicKey, AddressKind kind, Network network) {
        DeterministicKey key;
        try {
            key = DeterministicKey.deserializeB58(extendedPublicKey.trim(), network);
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("not an extended public key for " + network.id() + ": " + e.getMessage(), e);
        }
        if (key.hasPrivKey()) {
            throw new KeyFormatException(
                    "expected an extended public key, got a private one (refusing to store it unencrypted)", null);
        }
        return new HdAccount(kind, network, key);
    }

    public AddressKind kind() {
        return kind;
    }

    public boolean watchOnly() {
        return !accountKey.hasPrivKey();
    }

    /** The account's extended public key (xpub/tpub; the account kind is stored beside it). */
    public String extendedPublicKey() {
        return accountKey.dropPrivateBytes().dropParent().serializePubB58(network);
    }

    /** The key at {@code change/index}; has a private key unless the account is watch-only. */
    public DeterministicKey key(boolean change, int index) {
        return HDKeyDerivation.deriveChildKey(change ? changeChain : receiveChain, new ChildNumber(index, false));
    }

    public DerivedAddress derive(boolean change, int index) {
        DeterministicKey key = key(change, index);
        Address address = switch (kind) {
            case P2PKH -> LegacyAddress.fromPubKeyHash(network, key.getPubKeyHash());
            case P2WPKH -> SegwitAddress.fromHash(network, key.getPubKeyHash());
            case P2TR -> SegwitAddress.fromProgram(network, 1, Taproot.outputKey(key.getPubKey()));
        };
        OutputScript script =
                OutputScript.of(ScriptBuilder.createOutputScript(address).program());
        return new DerivedAddress(kind, change, index, address, script);
    }
}
