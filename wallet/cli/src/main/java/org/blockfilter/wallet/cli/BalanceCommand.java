package org.blockfilter.wallet.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.ledger.Balance;
import org.blockfilter.wallet.ledger.PendingStatus;
import org.blockfilter.wallet.ledger.Utxo;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(
        name = "balance",
        mixinStandardHelpOptions = true,
        description = "Spendable, locked by pending payments, immature and unconfirmed balance (as of the last sync).")
final class BalanceCommand implements Callable<Integer> {
    @ParentCommand
    WalletCli cli;

    @Override
    public Integer call() {
        LightWallet w = cli.load();
        int tip = w.headers().tipHeight();
        Balance b = w.ledger().balance(tip);
        List<Utxo> utxos = w.ledger().utxos(false);
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("spendable", b.spendable().toPlainString());
        j.put("lockedByPending", b.lockedByPending().toPlainString());
        j.put("immature", b.immature().toPlainString());
        j.put("unconfirmed", b.unconfirmed().toPlainString());
        j.put("total", b.total().toPlainString());
        j.put("syncedHeight", w.scannedHeight());
        j.put(
                "stuckPayments",
                b.stuck().stream()
                        .map(s -> Map.of("txid", s.txid().toString(), "status", s.label(), "why", s.describe()))
                        .toList());
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
        StringBuilder human = new StringBuilder()
                .append("spendable ")
                .append(b.spendable().toPlainString())
                .append(" BTC, locked by pending payments ")
                .append(b.lockedByPending().toPlainString())
                .append(" BTC, immature ")
                .append(b.immature().toPlainString())
                .append(" BTC (coinbase, ")
                .append(Utxo.COINBASE_MATURITY)
                .append(" confirmations needed), unconfirmed ")
                .append(b.unconfirmed().toPlainString())
                .append(" BTC (synced to height ")
                .append(w.scannedHeight())
                .append(", ")
                .append(utxos.size())
                .append(" coins)");
        for (PendingStatus s : b.stuck()) {
            human.append("\n").append(s.txid()).append(": ").append(s.describe());
        }
        cli.print(j, human.toString());
        return 0;
    }
}
