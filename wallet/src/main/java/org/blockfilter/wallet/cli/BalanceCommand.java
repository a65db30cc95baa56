package org.blockfilter.wallet.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.bitcoinj.base.Coin;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.ledger.Utxo;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(
        name = "balance",
        mixinStandardHelpOptions = true,
        description = "Confirmed, immature and unconfirmed balance (as of the last sync).")
final class BalanceCommand implements Callable<Integer> {
    @ParentCommand
    WalletCli cli;

    @Override
    public Integer call() {
        LightWallet w = cli.load();
        int tip = w.headers().tipHeight();
        Coin confirmed = w.ledger().spendableBalance(tip);
        Coin immature = w.ledger().immatureBalance(tip);
        Coin total = w.ledger().balance(false);
        Coin unconfirmed = total.subtract(confirmed).subtract(immature);
        List<Utxo> utxos = w.ledger().utxos(false);
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("confirmed", confirmed.toPlainString());
        j.put("immature", immature.toPlainString());
        j.put("unconfirmedDelta", unconfirmed.toPlainString());
        j.put("total", total.toPlainString());
        j.put("syncedHeight", w.scannedHeight());
        j.put(
                "utxos",
                utxos.stream()
                        .map(u -> Map.of(
                                "outpoint",
                                u.outpoint().toString(),
                                "value",
                                u.value().toPlainString(),
                                "height",
                                u.height(),
                                "spendable",
                                u.height() >= 0 && u.matureAt(tip)))
                        .toList());
        cli.print(
                j,
                "confirmed " + confirmed.toPlainString() + " BTC, immature " + immature.toPlainString()
                        + " BTC (coinbase, " + Utxo.COINBASE_MATURITY + " confirmations needed), unconfirmed "
                        + unconfirmed.toPlainString() + " BTC (synced to height " + w.scannedHeight() + ", "
                        + utxos.size() + " coins)");
        return 0;
    }
}
