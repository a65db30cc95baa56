package org.blockfilter.wallet.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.ledger.HistoryEntry;
import org.blockfilter.wallet.ledger.PendingStatus;
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
            row.put("status", e.status());
            row.put("net", e.net().toPlainString());
            row.put("fee", e.fee() == null ? null : e.fee().toPlainString());
            String label = label(w, e);
            row.put("label", label);
            boolean stuck = e.pending() != null && e.pending().kind() != PendingStatus.Kind.VALID;
            if (stuck) {
                row.put("why", e.pending().describe());
            }
            rows.add(row);
            human.append(String.format(
                    "%11s  %s  %s BTC%s%s%s%n",
                    e.height() < 0 ? e.status() : e.height(),
                    e.txid(),
                    e.net().toPlainString(),
                    e.fee() == null ? "" : " (fee " + e.fee().toPlainString() + ")",
                    stuck ? ": " + e.pending().describe() : "",
                    label == null ? "" : "  " + label));
        }
        cli.print(
                Map.of("transactions", rows),
                h.isEmpty() ? "no transactions" : human.toString().stripTrailing());
        return 0;
    }

    /** The transaction's label, else the labels of the wallet's addresses it pays (BIP 329 tx, then addr). */
    private static String label(LightWallet w, HistoryEntry e) {
        java.util.Optional<String> tx = w.labels().text("tx", e.txid().toString());
        if (tx.isPresent()) {
            return tx.get();
        }
        java.util.Set<String> texts = new java.util.LinkedHashSet<>();
        w.ledger().get(e.txid()).ifPresent(t -> {
            for (org.bitcoinj.core.TransactionOutput o : t.tx().getOutputs()) {
                w.keys()
                        .lookup(org.blockfilter.wallet.keys.OutputScript.of(o.getScriptBytes()))
                        .flatMap(a -> w.labels().text("addr", a.address().toString()))
                        .ifPresent(texts::add);
            }
        });
        return texts.isEmpty() ? null : String.join(", ", texts);
    }
}
