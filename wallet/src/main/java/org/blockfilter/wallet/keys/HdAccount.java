package org.blockfilter.wallet.keys;

import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.LegacyAddress;
import org.bitcoinj.base.Network;
import org.bitcoinj.base.SegwitAddress;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.HDKeyDerivation;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.wallet.descriptor.KeyOrigin;

/**
 * One BIP 44/84/86 account ({@code m/purpose'/coin'/0'}): derives the receive (0) and change (1)
 * chains. Holds the account private key when built from a seed, the public key only when
 * watch-only, and the master key's fingerprint when known (a wallet from a seed, or an xpub given
 * with its origin), which PSBT derivation fields name. Immutable; thread-safe.
 */
public final class HdAccount {
    /** {@code [d34db33f/84h/1h/0h]} in front of an xpub, as descriptors and hardware wallets write it. */
    private static final java.util.regex.Pattern ORIGIN =
            java.util.regex.Pattern.compile("\\[([0-9a-fA-F]{8})((?:/[0-9]+['hH]?)*)\\](.*)");

    private final AddressKind kind;
    private final Network network;
    private final DeterministicKey accountKey;
    private final DeterministicKey receiveChain;
    private final DeterministicKey changeChain;
    private final Integer masterFingerprint;

    private HdAccount(AddressKind kind, Network network, DeterministicKey accountKey, Integer masterFingerprint) {
        this.kind = kind;
        this.network = network;
        this.accountKey = accountKey;
        this.masterFingerprint = masterFingerprint;
        this.receiveChain = HDKeyDerivation.deriveChildKey(accountKey, ChildNumber.ZERO);
        this.changeChain = HDKeyDerivation.deriveChildKey(accountKey, ChildNumber.ONE);
    }

    /** The account under a BIP 32 master key: {@code m/purpose'/coin'/0'}, coin 0 on mainnet, 1 elsewhere. */
    public static HdAccount fromMaster(DeterministicKey master, AddressKind kind, Network network) {
        ChildNumber coin = accountPath(kind, network).get(1);
        DeterministicKey purpose = HDKeyDerivation.deriveChildKey(master, kind.purposeChild());
        DeterministicKey coinKey = HDKeyDerivation.deriveChildKey(purpose, coin);
        return new HdAccount(
                kind,
                network,
                HDKeyDerivation.deriveChildKey(coinKey, ChildNumber.ZERO_HARDENED),
                master.getFingerprint());
    }

    /**
     * A watch-only account from an extended public key (xpub/tpub, zpub/vpub), optionally preceded
     * by its origin {@code [fingerprint/purpose'/coin'/0']}, whose path must be the account's.
     */
    public static HdAccount watchOnly(String extendedPublicKey, AddressKind kind, Network network) {
        DeterministicKey key;
        String text = extendedPublicKey.trim();
        Integer fingerprint = null;
        java.util.regex.Matcher m = ORIGIN.matcher(text);
        if (m.matches()) {
            String expected = accountPath(kind, network).stream()
                    .map(c -> "/" + c.num() + "h")
                    .collect(java.util.stream.Collectors.joining());
            String given = m.group(2).replace('\'', 'h').replace('H', 'h');
            if (!given.equals(expected)) {
                throw new KeyFormatException(
                        "key origin path " + (given.isEmpty() ? "(none)" : given.substring(1)) + " is not the " + kind
                                + " account's " + expected.substring(1),
                        null);
            }
            fingerprint = (int) Long.parseLong(m.group(1), 16);
            text = m.group(3);
        }
        try {
            key = DeterministicKey.deserializeB58(text, network);
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("not an extended public key for " + network.id() + ": " + e.getMessage(), e);
        }
        if (key.hasPrivKey()) {
            throw new KeyFormatException(
                    "expected an extended public key, got a private one (refusing to store it unencrypted)", null);
        }
        return new HdAccount(kind, network, key, fingerprint);
    }

    /** This account with the master key's fingerprint, for a watch-only copy of an account from a seed. */
    public HdAccount withMasterFingerprint(Integer fingerprint) {
        return new HdAccount(kind, network, accountKey, fingerprint);
    }

    /** {@code purpose'/coin'/0'}: coin 0 on mainnet, 1 elsewhere. */
    static List<ChildNumber> accountPath(AddressKind kind, Network network) {
        ChildNumber coin = network == org.bitcoinj.base.BitcoinNetwork.MAINNET
                ? ChildNumber.COINTYPE_BTC
                : ChildNumber.COINTYPE_TBTC;
        return List.of(kind.purposeChild(), coin, ChildNumber.ZERO_HARDENED);
    }

    /** The BIP 32 fingerprint of the master key this account derives from, when known. */
    public java.util.Optional<Integer> masterFingerprint() {
        return java.util.Optional.ofNullable(masterFingerprint);
    }

    /**
     * Where the account key comes from: the master fingerprint and {@code purpose'/coin'/0'} when the
     * master is known, else the account key's own fingerprint and no steps (the key is its own origin).
     */
    public KeyOrigin origin() {
        return masterFingerprint != null
                ? new KeyOrigin(masterFingerprint, accountPath(kind, network))
                : new KeyOrigin(accountKey.getFingerprint(), List.of());
    }

    /**
     * The key a PSBT's derivation names, when it is one of this account's receive or change keys:
     * {@code fingerprint} is the master's followed by the full path, or the account key's own
     * followed by {@code change/index}.
     */
    public java.util.Optional<DeterministicKey> keyAt(int fingerprint, List<ChildNumber> path) {
        List<ChildNumber> rest = null;
        List<ChildNumber> full = accountPath(kind, network);
        if (masterFingerprint != null
                && fingerprint == masterFingerprint
                && path.size() == 5
                && path.subList(0, 3).equals(full)) {
            rest = path.subList(3, 5);
        } else if (fingerprint == accountKey.getFingerprint() && path.size() == 2) {
            rest = path;
        }
        if (rest == null
                || rest.get(0).isHardened()
                || rest.get(1).isHardened()
                || rest.get(0).num() > 1) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(key(rest.get(0).num() == 1, rest.get(1).num()));
    }

    /** The origin of the key at {@code change/index}, as PSBT derivation fields carry it. */
    public KeyOrigin origin(boolean change, int index) {
        return origin().then(List.of(change ? ChildNumber.ONE : ChildNumber.ZERO, new ChildNumber(index, false)));
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
