package org.blockfilter.wallet.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.ledger.PendingStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
        name = "abandon",
        mixinStandardHelpOptions = true,
        description = "Forget a pending payment that will never confirm and release its coins; a later sync that"
                + " finds it in a block records it again.")
final class AbandonCommand implements Callable<Integer> {
    @ParentCommand
    WalletCli cli;

    @Parameters(index = "0", paramLabel = "TXID", description = "txid of the pending payment")
    String txid;

    @Override
    public Integer call() {
        Sha256Hash id = WalletCli.txid(txid);
        LightWallet w = cli.load();
        PendingStatus before = w.ledger().pendingStatus(id).orElse(null);
        List<Sha256Hash> gone = w.ledger().abandon(id);
        w.save();
        String spendable = w.ledger().spendableBalance(w.headers().tipHeight()).toPlainString();
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("abandoned", gone.stream().map(Sha256Hash::toString).toList());
        j.put("spendable", spendable);
        StringBuilder human = new StringBuilder("abandoned ").append(id);
        if (gone.size() > 1) {
            human.append(" and ").append(gone.size() - 1).append(" pending payment(s) spending its outputs");
        }
        human.append("; spendable now ").append(spendable).append(" BTC");
        if (before != null && before.kind() == PendingStatus.Kind.VALID) {
            human.append("\nit could still confirm if a node holds it: a new payment with the same coins replaces it"
                    + " only if it pays a higher fee (BIP 125), and a sync that finds it in a block records it again");
        }
        cli.print(j, human.toString());
        return 0;
    }
}
