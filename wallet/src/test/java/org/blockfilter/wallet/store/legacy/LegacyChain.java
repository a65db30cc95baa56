package org.blockfilter.wallet.store.legacy;

import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.testchain.TestWallets;

/**
 * The chain the wallet files in {@code src/test/resources/.../store/legacy/} were synced against
 * (written by the one-document wallet format, {@code version} 1, with every header from genesis),
 * rebuilt deterministically so a migration test can check what it loads and sync it further.
 * Payments go to {@link TestWallets#MNEMONIC}'s first P2WPKH receive addresses.
 */
public final class LegacyChain {
    /** The tip the fixture files were synced to. */
    public static final int SYNCED_TIP = 1_250;
    /** Heights that pay the wallet (one payment of {@link #PAYMENT} each, to receive index i). */
    public static final List<Integer> PAID_AT = List.of(120, 700, 1_050, 1_200);

    public static final Coin PAYMENT = Coin.CENT;

    private LegacyChain() {}

    /** The chain up to {@code tip} (at least {@link #SYNCED_TIP} to match the files). */
    public static RegtestChainBuilder build(WalletKeys keys, int tip) {
        HdAccount account = keys.account(AddressKind.P2WPKH).orElseThrow();
        RegtestChainBuilder chain = new RegtestChainBuilder();
        int paid = 0;
        while (chain.tipHeight() < tip) {
            int next = chain.tipHeight() + 1;
            if (PAID_AT.contains(next)) {
                Address a = account.derive(false, paid++).address();
                chain.mineBlock(List.of(chain.pay(List.of(a), PAYMENT)));
            } else {
                chain.mine(1);
            }
        }
        return chain;
    }
}
