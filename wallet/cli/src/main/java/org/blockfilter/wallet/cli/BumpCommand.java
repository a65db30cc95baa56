package org.blockfilter.wallet.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.spend.FeeBumper;
import org.blockfilter.wallet.spend.PreparedPayment;
import org.blockfilter.wallet.spend.Spender;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
        name = "bump",
        mixinStandardHelpOptions = true,
        description = "Replace a pending payment by one paying a higher fee rate (BIP 125): same recipients, less"
                + " change, another coin if the change cannot pay; shows the fee, asks to confirm (or --yes).")
final class BumpCommand extends NetworkOptions implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TXID", description = "txid of the pending payment")
    String txid;

    @Option(names = "--fee-rate", required = true, description = "new fee rate in sat/vB, above the one it pays")
    long feeRate;

    @Option(names = "--yes", description = "send without asking")
    boolean yes;

    @Override
    public Integer call() {
        Sha256Hash id = WalletCli.txid(txid);
        LightWallet w = cli.load();
        PreparedPayment p = new FeeBumper(w).bump(w.unlock(cli.passphrase(false)), id, feeRate);
        String summary = "replace " + id + " with " + p.txid() + ": " + p.summary();
        boolean signals = w.ledger()
                .get(id)
                .map(t -> FeeBumper.signalsReplaceability(t.tx()))
                .orElse(true);
        if (!signals) {
            summary += "\nnote: " + id + " does not signal BIP 125 replaceability: nodes without full RBF (btcd)"
                    + " refuse the replacement; Bitcoin Core 28 and later accept it";
        }
        if (!confirmed(summary, yes)) {
            return 1;
        }
        List<ChainSource> sources = open(w.chain());
        try {
            new Spender(w).broadcast(p, sources);
        } finally {
            sources.forEach(ChainSource::close);
        }
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("txid", p.txid().toString());
        j.put("replaces", id.toString());
        j.put("amount", p.amount().toPlainString());
        j.put("fee", p.fee().toPlainString());
        j.put("vsize", p.vsize());
        j.put("feeRate", feeRate);
        j.put("change", p.change().toPlainString());
        cli.print(j, summary + "\nsent " + p.txid() + ", replacing " + id);
        return 0;
    }
}
