package org.blockfilter.wallet.keys;

import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Network;
import org.bitcoinj.crypto.ChildNumber;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.HDKeyDerivation;
import org.blockfilter.wallet.descriptor.Descriptor;
import org.blockfilter.wallet.descriptor.DescriptorException;
import org.blockfilter.wallet.descriptor.DescriptorKey;
import org.blockfilter.wallet.descriptor.DescriptorOutput;
import org.blockfilter.wallet.descriptor.KeyOrigin;

/**
 * One account of the wallet: a receive descriptor and a change descriptor (one BIP 389
 * {@code /<0;1>/*} descriptor, or two), each ranged, whose outputs the wallet derives. A BIP
 * 44/84/86 account from a seed ({@code m/purpose'/coin'/0'}) holds its account private key for
 * signing; a watch-only account holds public keys only. Immutable; thread-safe.
 */
public final class HdAccount {
    private final AddressKind kind;
    private final Network network;
    /** The account key of a single-key account (with its private key when from a seed); null for multisig. */
    private final DeterministicKey accountKey;
    /** The descriptor as the account was given: multipath, or the receive one of two. */
    private final Descriptor descriptor;
    /** The change descriptor when given separately; null for a multipath descriptor. */
    private final Descriptor changeDescriptor;

    private final Descriptor receive;
    private final Descriptor change;

    private HdAccount(
            AddressKind kind,
            Network network,
            DeterministicKey accountKey,
            Descriptor descriptor,
            Descriptor changeDescriptor) {
        this.kind = kind;
        this.network = network;
        this.accountKey = accountKey;
        this.descriptor = descriptor.publicOnly();
        this.changeDescriptor = changeDescriptor == null ? null : changeDescriptor.publicOnly();
        if (changeDescriptor == null) {
            if (descriptor.paths() != 2) {
                throw new DescriptorException("a wallet descriptor needs a receive and a change path: write it with"
                        + " /<0;1>/* or give the change descriptor as well (it has " + descriptor.paths() + " path"
                        + (descriptor.paths() == 1 ? ")" : "s)"));
            }
            List<Descriptor> paths = this.descriptor.singlePaths();
            this.receive = paths.get(0);
            this.change = paths.get(1);
        } else {
            if (descriptor.paths() != 1 || changeDescriptor.paths() != 1) {
                throw new DescriptorException("give either one descriptor with /<0;1>/*, or a receive and a change"
                        + " descriptor without multipath steps");
            }
            if (kindOf(changeDescriptor) != kind) {
                throw new DescriptorException("the change descriptor is " + kindOf(changeDescriptor)
                        + " and the receive descriptor " + kind + ": an account has one script type");
            }
            this.receive = this.descriptor;
            this.change = this.changeDescriptor;
        }
        if (!receive.ranged() || !change.ranged()) {
            throw new DescriptorException("a wallet descriptor must end in /* (one address per index): " + receive);
        }
    }

    /** The account under a BIP 32 master key: {@code m/purpose'/coin'/0'}, coin 0 on mainnet, 1 elsewhere; its descriptor carries the master's fingerprint. */
    public static HdAccount fromMaster(DeterministicKey master, AddressKind kind, Network network) {
        if (!kind.signable()) {
            throw new IllegalArgumentException(kind + " accounts come from descriptors, not from a seed alone");
        }
        ChildNumber coin = network == BitcoinNetwork.MAINNET ? ChildNumber.COINTYPE_BTC : ChildNumber.COINTYPE_TBTC;
        List<ChildNumber> path = List.of(kind.purposeChild(), coin, ChildNumber.ZERO_HARDENED);
        DeterministicKey key = master;
        for (ChildNumber c : path) {
            key = HDKeyDerivation.deriveChildKey(key, c);
        }
        KeyOrigin origin = new KeyOrigin(master.getFingerprint(), path);
        Descriptor d =
                Descriptor.singleKeyAccount(type(kind), origin, DescriptorKey.publicKeyOf(key, network), network);
        return new HdAccount(kind, network, key, d, null);
    }

    /** A watch-only account from an extended public key (xpub/tpub; zpub/vpub), no origin known. */
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
        if (!kind.signable() && kind != AddressKind.P2SH_P2WPKH) {
            throw new KeyFormatException(kind + " accounts need a descriptor (watch --descriptor)", null);
        }
        return new HdAccount(kind, network, key, Descriptor.singleKeyAccount(type(kind), null, key, network), null);
    }

    /**
     * A watch-only account from descriptors: one with {@code /<0;1>/*} ({@code change} null), or a
     * receive and a change descriptor. Types: pkh, wpkh, sh(wpkh), tr (key path), wsh(multi|sortedmulti),
     * sh(wsh(multi|sortedmulti)). Private keys in them are dropped.
     */
    public static HdAccount fromDescriptors(Descriptor descriptor, Descriptor change) {
        AddressKind kind = kindOf(descriptor);
        DeterministicKey key = null;
        if (descriptor.multisig().isEmpty()) {
            key = descriptor.publicOnly().keys().get(0).extendedKey().orElse(null);
        }
        return new HdAccount(kind, descriptor.network(), key, descriptor, change);
    }

    /** The account kind a descriptor makes, or a {@link DescriptorException} naming why it makes none. */
    public static AddressKind kindOf(Descriptor d) {
        boolean multi = d.multisig().isPresent();
        AddressKind kind = switch (d.type()) {
            case PKH -> AddressKind.P2PKH;
            case WPKH -> AddressKind.P2WPKH;
            case SH_WPKH -> AddressKind.P2SH_P2WPKH;
            case TR -> d.keys().size() == 1 ? AddressKind.P2TR : null;
            case WSH -> multi ? AddressKind.P2WSH : null;
            case SH_WSH -> multi ? AddressKind.P2SH_P2WSH : null;
            default -> null;
        };
        if (kind == null) {
            throw new DescriptorException("a wallet account is pkh, wpkh, sh(wpkh), tr(KEY) (key path),"
                    + " wsh(multi|sortedmulti) or sh(wsh(multi|sortedmulti)); not " + d);
        }
        boolean extended = d.keys().stream().allMatch(k -> k.extendedKey().isPresent());
        if (!extended) {
            throw new DescriptorException("every key of a wallet descriptor must be an extended key: " + d);
        }
        return kind;
    }

    private static Descriptor.Type type(AddressKind kind) {
        return switch (kind) {
            case P2PKH -> Descriptor.Type.PKH;
            case P2WPKH -> Descriptor.Type.WPKH;
            case P2TR -> Descriptor.Type.TR;
            case P2SH_P2WPKH -> Descriptor.Type.SH_WPKH;
            default -> throw new IllegalArgumentException(kind + " is not a single-key account");
        };
    }

    /** The kind of addresses this account derives. */
    public AddressKind kind() {
        return kind;
    }

    /** Whether the account has only its public key (an xpub): it derives addresses but cannot sign. */
    public boolean watchOnly() {
        return accountKey == null || !accountKey.hasPrivKey();
    }

    /**
     * What identifies the account in the wallet file and to the fetch policy's per-wallet hash: a
     * single-key account's extended public key (xpub/tpub, written without its parent as the
     * wallet has always written it; the kind is stored beside it), a multisig account's descriptor.
     */
    public String extendedPublicKey() {
        return accountKey != null
                ? accountKey.dropPrivateBytes().dropParent().serializePubB58(network)
                : descriptor.toString();
    }

    /** The descriptor as the account was given or built (public, with checksum): multipath, or the receive one of two. */
    public Descriptor descriptor() {
        return descriptor;
    }

    /** The change descriptor when the account was given two; empty for a multipath descriptor. */
    public Optional<Descriptor> changeDescriptor() {
        return Optional.ofNullable(changeDescriptor);
    }

    /** The single-path descriptor of one chain. */
    public Descriptor chain(boolean change) {
        return change ? this.change : receive;
    }

    /** The same account without private keys. */
    public HdAccount publicOnly() {
        return watchOnly()
                ? this
                : new HdAccount(
                        kind, network, DescriptorKey.publicKeyOf(accountKey, network), descriptor, changeDescriptor);
    }

    /**
     * The descriptor with the account private key (xprv/tprv) in place of the xpub, for an account
     * from a seed; empty for a watch-only account. Write it only where the user asked for it.
     */
    public Optional<Descriptor> privateDescriptor() {
        if (watchOnly()) {
            return Optional.empty();
        }
        KeyOrigin origin = descriptor.keys().get(0).origin().orElse(null);
        return Optional.of(Descriptor.singleKeyAccount(type(kind), origin, accountKey, network));
    }

    /** The account private key (BIP 32), present for an account from a seed. */
    public Optional<DeterministicKey> accountPrivateKey() {
        return watchOnly() ? Optional.empty() : Optional.of(accountKey);
    }

    /** The key at {@code change/index} of a single-key account; has a private key unless the account is watch-only. */
    public DeterministicKey key(boolean change, int index) {
        if (accountKey == null) {
            throw new IllegalStateException("a " + kind + " account has no single account key");
        }
        DeterministicKey chain =
                HDKeyDerivation.deriveChildKey(accountKey, change ? ChildNumber.ONE : ChildNumber.ZERO);
        return HDKeyDerivation.deriveChildKey(chain, new ChildNumber(index, false));
    }

    /** The output at {@code change/index} with everything a signer needs (keys with origins, scripts). */
    public DescriptorOutput output(boolean change, int index) {
        return chain(change).derive(0, index);
    }

    /** The address at {@code change/index} of this account: its kind, position, address and output script. */
    public DerivedAddress derive(boolean change, int index) {
        DescriptorOutput o = output(change, index);
        return new DerivedAddress(kind, change, index, o.address().orElseThrow(), o.script());
    }
}
