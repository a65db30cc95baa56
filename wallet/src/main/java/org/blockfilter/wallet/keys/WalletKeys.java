package org.blockfilter.wallet.keys;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bitcoinj.base.Network;
import org.bitcoinj.crypto.DeterministicKey;
import org.bitcoinj.crypto.HDKeyDerivation;
import org.bitcoinj.crypto.MnemonicCode;
import org.bitcoinj.crypto.MnemonicException;

/**
 * The wallet's accounts and the window of derived scripts it watches: on every receive and
 * change chain, all indexes up to the highest used one plus the gap limit. Marking a script
 * used slides its window forward; the caller then rescans for the new scripts.
 *
 * <p>Mutable and not thread-safe: the sync engine owns it. Methods never return null.
 */
public final class WalletKeys {
    /** BIP 44's recommended gap limit. */
    public static final int DEFAULT_GAP_LIMIT = 20;

    private final Network network;
    private final int gapLimit;
    private final Map<AddressKind, HdAccount> accounts;
    private final Map<AddressKind, Window[]> windows = new EnumMap<>(AddressKind.class);
    private final Map<OutputScript, DerivedAddress> byScript = new HashMap<>();

    /** Where one chain stands: how many keys are derived, the highest used and the next index to hand out. */
    public record ChainState(int highestUsed, int issued) {}

    private static final class Window {
        int derived;
        int highestUsed = -1;
        int issued;
    }

    private WalletKeys(Network network, int gapLimit, Map<AddressKind, HdAccount> accounts) {
        if (gapLimit < 1 || gapLimit > 10_000) {
            throw new IllegalArgumentException("gap limit must be in 1..10000, got " + gapLimit);
        }
        if (accounts.isEmpty()) {
            throw new IllegalArgumentException("a wallet needs at least one account");
        }
        this.network = network;
        this.gapLimit = gapLimit;
        this.accounts = new EnumMap<>(accounts);
        for (AddressKind kind : this.accounts.keySet()) {
            windows.put(kind, new Window[] {new Window(), new Window()});
            fill(kind, false);
            fill(kind, true);
        }
    }

    /** A fresh 12-word BIP 39 mnemonic from the system's secure random source. */
    public static List<String> newMnemonic() {
        byte[] entropy = new byte[16];
        new SecureRandom().nextBytes(entropy);
        return MnemonicCode.INSTANCE.toMnemonic(entropy);
    }

    /** Checks a mnemonic's words and checksum; throws {@link KeyFormatException} naming what is wrong. */
    public static void checkMnemonic(List<String> words) {
        try {
            MnemonicCode.INSTANCE.check(words);
        } catch (MnemonicException e) {
            throw new KeyFormatException(
                    "invalid BIP 39 mnemonic (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    /** Keys from a BIP 39 mnemonic (and optional BIP 39 passphrase, "" for none). */
    public static WalletKeys fromMnemonic(
            List<String> words, String bip39Passphrase, Network network, int gapLimit, Collection<AddressKind> kinds) {
        checkMnemonic(words);
        DeterministicKey master = HDKeyDerivation.createMasterPrivateKey(MnemonicCode.toSeed(words, bip39Passphrase));
        Map<AddressKind, HdAccount> accounts = new EnumMap<>(AddressKind.class);
        for (AddressKind kind : kinds) {
            accounts.put(kind, HdAccount.fromMaster(master, kind, network));
        }
        return new WalletKeys(network, gapLimit, accounts);
    }

    /** Keys from accounts already built (watch-only, or restored from the wallet file's public part). */
    public static WalletKeys of(Network network, int gapLimit, Collection<HdAccount> accounts) {
        Map<AddressKind, HdAccount> map = new EnumMap<>(AddressKind.class);
        for (HdAccount a : accounts) {
            if (map.put(a.kind(), a) != null) {
                throw new IllegalArgumentException("two accounts of kind " + a.kind());
            }
        }
        return new WalletKeys(network, gapLimit, map);
    }

    /** The network the wallet's addresses belong to. */
    public Network network() {
        return network;
    }

    /**
     * How many unused addresses each chain (receive and change of each account) keeps derived beyond the last used one.
     */
    public int gapLimit() {
        return gapLimit;
    }

    /** The wallet's accounts, one per address kind it has. */
    public Collection<HdAccount> accounts() {
        return List.copyOf(accounts.values());
    }

    /** The account of an address kind, if the wallet has one. */
    public Optional<HdAccount> account(AddressKind kind) {
        return Optional.ofNullable(accounts.get(kind));
    }

    /** Whether no account can sign (all have public keys only). */
    public boolean watchOnly() {
        return accounts.values().stream().allMatch(HdAccount::watchOnly);
    }

    /** Every script the wallet watches right now. */
    public List<OutputScript> watchedScripts() {
        return List.copyOf(byScript.keySet());
    }

    /**
     * How many scripts the wallet watches right now: every derived address up to the gap limit past the last used one.
     */
    public int watchedCount() {
        return byScript.size();
    }

    /**
     * The address a watched script belongs to, with its account kind and position; empty for a script that is not ours.
     */
    public Optional<DerivedAddress> lookup(OutputScript script) {
        return Optional.ofNullable(byScript.get(script));
    }

    /** Whether the script is one of the wallet's watched scripts. */
    public boolean isMine(OutputScript script) {
        return byScript.containsKey(script);
    }

    /**
     * Records that a script was seen on chain. Returns the scripts newly derived because the
     * window slid forward (empty when the script is not ours or the window did not move).
     */
    public List<OutputScript> markUsed(OutputScript script) {
        DerivedAddress a = byScript.get(script);
        if (a == null) {
            return List.of();
        }
        Window w = windows.get(a.kind())[a.change() ? 1 : 0];
        if (a.index() <= w.highestUsed) {
            return List.of();
        }
        w.highestUsed = a.index();
        w.issued = Math.max(w.issued, a.index() + 1);
        return fill(a.kind(), a.change());
    }

    /** The next receive address of an account not yet handed out or used. */
    public DerivedAddress nextReceive(AddressKind kind) {
        return issue(kind, false);
    }

    /** The next change address of an account not yet handed out or used. */
    public DerivedAddress nextChange(AddressKind kind) {
        return issue(kind, true);
    }

    private DerivedAddress issue(AddressKind kind, boolean change) {
        HdAccount account = accounts.get(kind);
        if (account == null) {
            throw new IllegalArgumentException("this wallet has no " + kind + " account");
        }
        Window w = windows.get(kind)[change ? 1 : 0];
        int index = Math.max(w.issued, w.highestUsed + 1);
        w.issued = index + 1;
        fill(kind, change);
        return account.derive(change, index);
    }

    /**
     * Where a chain (the receive or change chain of an account) stands: its highest used index and how many addresses
     * it has issued.
     */
    public ChainState chainState(AddressKind kind, boolean change) {
        Window w = windows.get(kind)[change ? 1 : 0];
        return new ChainState(w.highestUsed, w.issued);
    }

    /** Restores a chain's position from the wallet file. */
    public void restoreChainState(AddressKind kind, boolean change, ChainState state) {
        Window w = windows.get(kind)[change ? 1 : 0];
        w.highestUsed = Math.max(-1, state.highestUsed());
        w.issued = Math.max(0, state.issued());
        fill(kind, change);
    }

    private List<OutputScript> fill(AddressKind kind, boolean change) {
        Window w = windows.get(kind)[change ? 1 : 0];
        int target = Math.max(w.highestUsed + 1, w.issued) + gapLimit;
        List<OutputScript> added = new ArrayList<>();
        HdAccount account = accounts.get(kind);
        while (w.derived < target) {
            DerivedAddress a = account.derive(change, w.derived++);
            byScript.put(a.script(), a);
            added.add(a.script());
        }
        return added;
    }
}
