package org.blockfilter.wallet.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.spend.InsufficientFundsException;
import org.blockfilter.wallet.spend.PreparedPayment;
import org.blockfilter.wallet.spend.Spender;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The balance while a payment is pending and after a reorg took away what it spent: the spendable
 * figure is exactly what a payment can spend, and a pending payment whose inputs left the chain
 * adds nothing to the balance or the history.
 */
class PendingBalanceTest {
    @TempDir
    Path dir;

    private static Address addr(LightWallet w, int index) {
        return w.keys()
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .derive(false, index)
                .address();
    }

    /** Syncs from {@code src}, then pays the miner 0.01 BTC at 2 sat/vB through it (pending). */
    private static PreparedPayment syncAndPayACent(LightWallet w, Spender spender, MemorySource src) {
        new SyncEngine(w, List.of(src), SyncEngine.Options.defaults()).sync();
        PreparedPayment p =
                spender.prepare(w.unlock(TestWallets.PASSPHRASE), src.chain().minerAddress(), Coin.CENT, 2);
        spender.broadcast(p, List.of(src));
        return p;
    }

    @Test
    void spendableIsZeroWhileAPendingPaymentSpendsTheOnlyCoin() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        LightWallet w = TestWallets.create(dir);
        chain.mine(2);
        chain.mineBlock(List.of(chain.pay(List.of(addr(w, 0)), Coin.COIN)));
        MemorySource src = new MemorySource("honest", chain);
        Spender spender = new Spender(w);
        syncAndPayACent(w, spender, src);

        int tip = w.headers().tipHeight();
        assertThrows(
                InsufficientFundsException.class,
                () -> spender.prepare(
                        w.unlock(TestWallets.PASSPHRASE), chain.minerAddress(), Coin.SATOSHI.multiply(1000), 2));
        assertEquals(Coin.ZERO, w.ledger().spendableBalance(tip), "send can spend nothing, so nothing is spendable");
    }

    @Test
    void aPendingPaymentWhoseParentLeftTheChainAddsNothing() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        LightWallet w = TestWallets.create(dir);
        chain.mine(6);
        chain.mineBlock(List.of(chain.pay(List.of(addr(w, 0)), Coin.COIN)));
        chain.mine(1);
        MemorySource src = new MemorySource("honest", chain);
        PreparedPayment p = syncAndPayACent(w, new Spender(w), src);
        assertTrue(p.change().isPositive());

        // A longer branch without the block that paid the wallet.
        RegtestChainBuilder fork = chain.forkAt(5);
        fork.mine(4);
        src.switchTo(fork);
        new SyncEngine(w, List.of(src), SyncEngine.Options.defaults()).sync();

        assertEquals(Coin.ZERO, w.ledger().balance(false), "no phantom change from a payment whose input is gone");
        for (HistoryEntry e : w.ledger().history()) {
            assertFalse(e.net().isPositive(), "history shows no phantom receipt: " + e);
        }
    }
}
