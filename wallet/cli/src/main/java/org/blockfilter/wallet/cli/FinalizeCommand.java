package org.blockfilter.wallet.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.bitcoinj.core.Transaction;
import org.blockfilter.wallet.psbt.PsbtFinalizer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
        name = "finalize",
        mixinStandardHelpOptions = true,
        description = "Build the final scriptSigs and witnesses of a PSBT whose inputs have their signatures"
                + " (BIP 174 Input Finalizer); needs no wallet. Prints the transaction once it is complete.")
final class FinalizeCommand implements Callable<Integer> {
    @ParentCommand
    WalletCli cli;

    @Parameters(index = "0", paramLabel = "FILE", description = "PSBT file")
    Path file;

    @Option(names = "--out", description = "write the finalized PSBT here (default: FILE itself)")
    Path out;

    @Override
    public Integer call() {
        PsbtFinalizer.Result r = PsbtFinalizer.finalizeAll(PsbtFiles.read(file));
        Path target = out == null ? file : out;
        PsbtFiles.write(target, r.psbt());
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("complete", r.complete());
        j.put("incomplete", r.incomplete());
        if (!r.complete()) {
            cli.print(j, "not complete, wrote " + target + ":\n  " + String.join("\n  ", r.incomplete()));
            return 1;
        }
        Transaction tx = r.psbt().extract();
        j.put("txid", tx.getTxId().toString());
        j.put("hex", java.util.HexFormat.of().formatHex(tx.serialize()));
        cli.print(
                j,
                "complete: txid " + tx.getTxId() + ", wrote " + target + "\n"
                        + java.util.HexFormat.of().formatHex(tx.serialize()));
        return 0;
    }
}
