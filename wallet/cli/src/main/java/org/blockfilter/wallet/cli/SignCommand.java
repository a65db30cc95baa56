package org.blockfilter.wallet.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.psbt.Psbt;
import org.blockfilter.wallet.psbt.PsbtSigner;
import org.blockfilter.wallet.spend.WalletPsbtKeys;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
        name = "sign",
        mixinStandardHelpOptions = true,
        description = "Sign the inputs of a PSBT (BIP 174) that this wallet's keys can sign; needs no network, so"
                + " it runs on an offline machine. Shows the payment and asks first (or --yes).")
final class SignCommand implements Callable<Integer> {
    @ParentCommand
    WalletCli cli;

    @Parameters(index = "0", paramLabel = "FILE", description = "PSBT file (binary .psbt or Base64)")
    Path file;

    @Option(names = "--out", description = "write the signed PSBT here (default: FILE itself)")
    Path out;

    @Option(names = "--yes", description = "sign without asking")
    boolean yes;

    @Override
    public Integer call() {
        Psbt psbt = PsbtFiles.read(file);
        LightWallet w = cli.load();
        String what = PsbtFiles.describe(psbt, w.network());
        if (!yes && !ask(what)) {
            return 1;
        }
        PsbtSigner.Result r = PsbtSigner.sign(psbt, new WalletPsbtKeys(w.unlock(cli.passphrase(false))));
        Path target = out == null ? file : out;
        PsbtFiles.write(target, r.psbt());
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("signatures", r.signatures());
        j.put("skipped", r.skipped());
        j.put("file", target.toString());
        String skipped = r.skipped().isEmpty() ? "" : "\nnot signed:\n  " + String.join("\n  ", r.skipped());
        cli.print(j, what + "\nadded " + r.signatures() + " signature(s) to " + target + skipped);
        return r.signatures() > 0 ? 0 : 1;
    }

    private boolean ask(String what) {
        java.io.Console console = System.console();
        if (console == null) {
            cli.err.println(what);
            throw new IllegalArgumentException("not signed: confirm with --yes when there is no console");
        }
        String answer = console.readLine("%s%nSign? [y/N] ", what);
        return answer != null && answer.trim().equalsIgnoreCase("y");
    }
}
