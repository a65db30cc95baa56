package org.blockfilter.wallet.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.psbt.Psbt;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.spend.Spender;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
        name = "broadcast",
        mixinStandardHelpOptions = true,
        description = "Send the transaction of a finalized PSBT to the sources; once one accepts it, the wallet"
                + " records it as pending.")
final class BroadcastCommand extends NetworkOptions implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "finalized PSBT file")
    Path file;

    @Override
    public Integer call() {
        Psbt psbt = PsbtFiles.read(file);
        Transaction tx;
        try {
            tx = psbt.extract();
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
        LightWallet w = cli.load();
        List<ChainSource> sources = open(w.chain());
        Sha256Hash txid;
        try {
            txid = new Spender(w).broadcast(tx, sources);
        } finally {
            sources.forEach(ChainSource::close);
        }
        cli.print(Map.of("txid", txid.toString()), "sent " + txid);
        return 0;
    }
}
