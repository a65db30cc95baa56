package org.blockfilter.wallet.store;

import java.util.Locale;

/**
 * What the wallet file keeps secret, chosen when the wallet is created and changed by {@code reseal}.
 * A wallet with keys always seals its mnemonic; a watch-only wallet has none.
 */
public enum Sealing {
    /** The whole file (keys, addresses, history, chain state) is encrypted: every command needs the passphrase. */
    ALL,
    /** Only the mnemonic is sealed; addresses, history and chain state are plain, so sync runs unattended. */
    SECRET_ONLY,
    /** Watch-only wallets: nothing is sealed. */
    NONE;

    /** The CLI spelling: {@code all}, {@code secret-only}, {@code none}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The sealing with this CLI spelling; throws {@link IllegalArgumentException} listing the valid ones otherwise. */
    public static Sealing parse(String s) {
        for (Sealing m : values()) {
            if (m.cliName().equals(s)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown --seal " + s + "; use all, secret-only or none");
    }
}
