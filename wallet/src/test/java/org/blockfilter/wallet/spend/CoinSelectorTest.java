package org.blockfilter.wallet.spend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.TransactionOutPoint;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.ledger.Utxo;
import org.junit.jupiter.api.Test;

class CoinSelectorTest {
    private static final OutputScript P2WPKH = OutputScript.ofHex("0014" + "11".repeat(20));

    private static Utxo coin(long sats, int n) {
        return new Utxo(
                new TransactionOutPoint(n, Sha256Hash.of(new byte[] {(byte) n})), Coin.valueOf(sats), P2WPKH, 10);
    }

    private static CoinSelection select(List<Utxo> coins, long amount, long rate) {
        return CoinSelector.select(
                coins, u -> TxSize.inputVBytes(AddressKind.P2WPKH), Coin.valueOf(amount), rate, 22, P2WPKH.bytes());
    }

    @Test
    void payingWithLargeCoinCreatesChangeAndChargesTheRate() {
        CoinSelection s = select(List.of(coin(1_000_000, 1)), 100_000, 10);
        assertTrue(s.hasChange());
        // 11 overhead + 31 recipient + 31 change + 68 input = 141 vB
        assertEquals(141, s.estimatedVBytes());
        assertEquals(1_410, s.fee().value);
        assertEquals(1_000_000 - 100_000 - 1_410, s.change().value);
    }

    @Test
    void dustChangeIsFoldedIntoTheFee() {
        // One coin of amount + no-change fee (110 vB * 10) + 200 sats: a 200-sat change would be dust.
        CoinSelection s = select(List.of(coin(100_000 + 1_100 + 200, 1)), 100_000, 10);
        assertFalse(s.hasChange());
        assertEquals(1_300, s.fee().value);
        assertEquals(1, s.inputs().size());
    }

    @Test
    void prefersASingleCoinThatAvoidsChange() {
        CoinSelection s = select(List.of(coin(5_000_000, 1), coin(101_500, 2), coin(3_000_000, 3)), 100_000, 10);
        assertEquals(1, s.inputs().size());
        assertEquals(101_500, s.inputs().get(0).value().value);
        assertFalse(s.hasChange());
    }

    @Test
    void combinesLargestCoinsFirstWhenNoneSuffices() {
        CoinSelection s = select(List.of(coin(60_000, 1), coin(70_000, 2), coin(10_000, 3)), 100_000, 1);
        assertEquals(2, s.inputs().size());
        assertEquals(70_000, s.inputs().get(0).value().value);
    }

    @Test
    void insufficientFundsSaysHowMuchIsMissing() {
        InsufficientFundsException e =
                assertThrows(InsufficientFundsException.class, () -> select(List.of(coin(50_000, 1)), 100_000, 5));
        assertEquals(50_000, e.available().value);
        assertTrue(e.needed().value > 100_000);
        assertTrue(e.getMessage().contains("short by"));
    }

    @Test
    void rejectsNonPositiveAmountAndAbsurdFeeRate() {
        assertThrows(IllegalArgumentException.class, () -> select(List.of(coin(50_000, 1)), 0, 5));
        assertThrows(IllegalArgumentException.class, () -> select(List.of(coin(50_000, 1)), 1_000, 0));
    }
}
