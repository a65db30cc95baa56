package org.blockfilter.regtest.wallet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.bitcoinj.base.Coin;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.regtest.RegtestNode;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.OutputScript;
import org.blockfilter.wallet.ledger.Utxo;

/** The ground truth for a synced wallet: its coins found by scanning every block of the node's best chain. */
public final class FullScan {
    private FullScan() {}

    /** The wallet's coins by a full scan of the node's best chain (scripts derived far past any gap window). */
    public static Map<TransactionOutPoint, Coin> coins(RegtestNode node, LightWallet w) {
        Set<OutputScript> mine = new HashSet<>();
        for (HdAccount a : w.keys().accounts()) {
            for (int i = 0; i < 80; i++) {
                mine.add(a.derive(false, i).script());
                mine.add(a.derive(true, i).script());
            }
        }
        Map<TransactionOutPoint, Coin> utxos = new HashMap<>();
        for (int h = 0; h <= node.tipHeight(); h++) {
            Block b = node.block(node.blockHash(h).orElseThrow()).orElseThrow();
            for (Transaction tx : b.getTransactions()) {
                if (!tx.isCoinBase()) {
                    for (TransactionInput in : tx.getInputs()) {
                        utxos.remove(in.getOutpoint());
                    }
                }
                for (TransactionOutput o : tx.getOutputs()) {
                    if (mine.contains(OutputScript.of(o.getScriptBytes()))) {
                        utxos.put(new TransactionOutPoint(o.getIndex(), tx.getTxId()), o.getValue());
                    }
                }
            }
        }
        return utxos;
    }

    /** The wallet's unspent coins and balance are exactly those of a full scan. */
    public static void assertWalletMatches(RegtestNode node, LightWallet w) {
        Map<TransactionOutPoint, Coin> truth = coins(node, w);
        List<Utxo> utxos = w.ledger().utxos(true);
        assertEquals(
                truth.keySet().stream().map(TransactionOutPoint::toString).collect(Collectors.toSet()),
                utxos.stream().map(u -> u.outpoint().toString()).collect(Collectors.toSet()));
        assertEquals(
                truth.values().stream().reduce(Coin.ZERO, Coin::add), w.ledger().balance(true));
    }
}
