package org.blockfilter.wallet.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.ledger.HistoryEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "history", mixinStandardHelpOptions = true, description = "The wallet's transactions, oldest first.")
final class HistoryCommand implements Callable<Integer> {
    @ParentCommand
    WalletCli cli;

    @Override
    public Integer call() {
        LightWallet w = cli.load();
        List<HistoryEntry> h = w.ledger().history();
        List<Map<String, Object>> rows = new ArrayList<>();
        StringBuilder human = new StringBuilder();
        for (HistoryEntry e : h) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("txid", e.txid().toString());
            row.put("height", e.height());
            row.put("net", e.net().toPlainString());
            row.put("fee", e.fee() == null ? null : e.fee().toPlainString());
            rows.add(row);
            human.append(String.format(
                    "%8s  %s  %s BTC%s%n",
                    e.height() < 0 ? "pending" : e.height(),
                    e.txid(),
                    e.net().toPlainString(),
                    e.fee() == null ? "" : " (fee " + e.fee().toPlainString() + ")"));
        }
        cli.print(
                Map.of("transactions", rows),
                h.isEmpty() ? "no transactions" : human.toString().stripTrailing());
        return 0;
    }
}
