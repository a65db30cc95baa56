package org.blockfilter.regtest.scenario;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;

/**
 * What a scenario built, read back from the node's final best chain: the wallets, every output
 * that pays a wallet (spent or not), every scenario transaction with its block, every reorg, and
 * the best chain's block hashes. Wallet and privacy tests compare their results with this.
 * Immutable.
 *
 * @param blockHashes best-chain block hashes, index = height (0 is genesis)
 */
public record GroundTruth(
        ScenarioSpec spec,
        List<ScenarioWallet> wallets,
        List<OwnedOutput> outputs,
        List<ScenarioTx> transactions,
        List<ReorgRecord> reorgs,
        List<Sha256Hash> blockHashes) {
    public GroundTruth {
        wallets = List.copyOf(wallets);
        outputs = List.copyOf(outputs);
        transactions = List.copyOf(transactions);
        reorgs = List.copyOf(reorgs);
        blockHashes = List.copyOf(blockHashes);
    }

    public int tipHeight() {
        return blockHashes.size() - 1;
    }

    public Sha256Hash tipHash() {
        return blockHashes.get(blockHashes.size() - 1);
    }

    /** The wallet's balance: its unspent outputs on the best chain, immature coinbases included. */
    public Coin balance(int wallet) {
        return outputs.stream()
                .filter(o -> o.wallet() == wallet && o.unspent())
                .map(OwnedOutput::value)
                .reduce(Coin.ZERO, Coin::add);
    }

    /** {@link #balance(int)} of every wallet, by wallet index. */
    public Map<Integer, Coin> balances() {
        Map<Integer, Coin> map = new TreeMap<>();
        for (ScenarioWallet w : wallets) {
            map.put(w.index(), balance(w.index()));
        }
        return map;
    }

    /** Outputs paying {@code wallet}, spent or not, in chain order. */
    public List<OwnedOutput> outputsOf(int wallet) {
        return outputs.stream().filter(o -> o.wallet() == wallet).toList();
    }

    /** Number of transactions on the best chain, coinbases included. */
    public int chainTransactionCount() {
        return transactions.size() + tipHeight() + 1;
    }
}
