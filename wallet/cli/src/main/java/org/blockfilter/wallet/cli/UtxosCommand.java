package org.blockfilter.wallet.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.bitcoinj.core.TransactionOutPoint;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.DerivedAddress;
import org.blockfilter.wallet.ledger.Utxo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
        name = "utxos",
        mixinStandardHelpOptions = true,
        description = "The wallet's unspent coins: TXID:VOUT (for send --from/--exclude), amount, address, height,"
                + " whether a payment may spend it now, and its label.")
final class UtxosCommand implements Callable<Integer> {
    @ParentCommand
    WalletCli cli;

    @Option(
            names = "--all",
            description = "also coins not spendable now (unconfirmed, immature, held by a pending payment)")
    boolean all;

    @Override
    public Integer call() {
        LightWallet w = cli.load();
        int tip = w.headers().tipHeight();
        Set<TransactionOutPoint> spendable =
                w.ledger().spendable(tip).stream().map(Utxo::outpoint).collect(Collectors.toSet());
        List<Map<String, Object>> rows = new ArrayList<>();
        StringBuilder human = new StringBuilder();
        for (Utxo u : w.ledger().utxos(false)) {
            boolean now = spendable.contains(u.outpoint());
            if (!now && !all) {
                continue;
            }
            String coin = u.outpoint().hash() + ":" + u.outpoint().index();
            String address = w.keys()
                    .lookup(u.script())
                    .map(DerivedAddress::address)
                    .map(Object::toString)
                    .orElse("");
            String label = w.labels()
                    .text("output", coin)
                    .or(() -> w.labels().text("addr", address))
                    .orElse(null);
            String status =
                    now ? "spendable" : u.height() < 0 ? "unconfirmed" : !u.matureAt(tip) ? "immature" : "locked";
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("coin", coin);
            row.put("amount", u.value().toPlainString());
            row.put("address", address);
            row.put("height", u.height());
            row.put("status", status);
            row.put("label", label);
            rows.add(row);
            human.append(String.format(
                    "%s  %s BTC  %s  %s%s%n",
                    coin, u.value().toPlainString(), address, status, label == null ? "" : "  " + label));
        }
        cli.print(
                Map.of("utxos", rows),
                rows.isEmpty() ? "no coins" : human.toString().stripTrailing());
        return 0;
    }
}
