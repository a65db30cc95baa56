package org.blockfilter.wallet.spend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.bitcoinj.base.Coin;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.ledger.Utxo;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code send --from} spends only the coins named, {@code --exclude} never the ones named; a coin the wallet cannot spend is named. */
class CoinControlTest {
    @TempDir
    Path dir;

    @Test
    void paymentSpendsOnlyTheChosenCoinsAndNeverTheExcludedOnes() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        LightWallet w = TestWallets.create(dir);
        chain.mine(2);
        for (int i = 0; i < 3; i++) {
            chain.mineBlock(List.of(chain.pay(
                    List.of(w.keys()
                            .account(AddressKind.P2WPKH)
                            .orElseThrow()
                            .derive(false, i)
                            .address()),
                    Coin.COIN)));
        }
        new SyncEngine(w, List.of(new MemorySource("honest", chain)), SyncEngine.Options.defaults()).sync();
        WalletKeys keys = w.unlock(TestWallets.PASSPHRASE);
        List<TransactionOutPoint> coins = w.ledger().spendable(w.headers().tipHeight()).stream()
                .map(Utxo::outpoint)
                .toList();
        assertEquals(3, coins.size());
        Spender spender = new Spender(w);

        PreparedPayment from = spender.prepare(
                keys, chain.minerAddress(), Coin.CENT, 2, new CoinControl(Set.of(coins.get(1)), Set.of()));
        assertEquals(Set.of(coins.get(1)), inputs(from));

        PreparedPayment excluded = spender.prepare(
                keys,
                chain.minerAddress(),
                Coin.CENT,
                2,
                new CoinControl(Set.of(), Set.of(coins.get(0), coins.get(2))));
        assertEquals(Set.of(coins.get(1)), inputs(excluded));

        // The two other coins cannot pay 1.5 BTC: the excluded one is not used to make up the difference.
        assertThrows(
                InsufficientFundsException.class,
                () -> spender.prepare(
                        keys,
                        chain.minerAddress(),
                        Coin.valueOf(150_000_000),
                        2,
                        new CoinControl(Set.of(), Set.of(coins.get(0), coins.get(2)))));

        TransactionOutPoint unknown = new TransactionOutPoint(7, coins.get(0).hash());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> spender.prepare(
                        keys, chain.minerAddress(), Coin.CENT, 2, new CoinControl(Set.of(unknown), Set.of())));
        assertTrue(
                e.getMessage().contains(coins.get(0).hash() + ":7")
                        && e.getMessage().contains("no such unspent coin"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CoinControl(Set.of(unknown), Set.of(unknown)));
    }

    private static Set<TransactionOutPoint> inputs(PreparedPayment p) {
        return Transaction.read(ByteBuffer.wrap(p.raw())).getInputs().stream()
                .map(TransactionInput::getOutpoint)
                .collect(Collectors.toSet());
    }
}
