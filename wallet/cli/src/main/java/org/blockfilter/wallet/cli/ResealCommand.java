package org.blockfilter.wallet.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.store.SealedSecret;
import org.blockfilter.wallet.store.Sealing;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
        name = "reseal",
        mixinStandardHelpOptions = true,
        description = "Rewrite the wallet file sealed another way: all (the whole file), secret-only (the"
                + " mnemonic only) or none (watch-only wallets). Sealing whole uses the wallet's passphrase.")
final class ResealCommand implements Callable<Integer> {
    @ParentCommand
    WalletCli cli;

    @Option(names = "--seal", required = true, description = "all, secret-only or none")
    String seal;

    @Override
    public Integer call() {
        Sealing target = Sealing.parse(seal);
        LightWallet w = cli.load();
        Sealing before = w.sealing();
        if (before == target) {
            cli.print(
                    Map.of("file", w.file().toString(), "seal", target.cliName(), "changed", false),
                    "wallet " + w.file() + " is already --seal " + target.cliName() + "; nothing to do");
            return 0;
        }
        // A watch-only wallet has no mnemonic to check the passphrase against: ask twice.
        w.reseal(target, target == Sealing.ALL ? cli.passphrase(w.watchOnly()) : null, SealedSecret.DEFAULT_N);
        cli.print(
                Map.of("file", w.file().toString(), "seal", target.cliName(), "changed", true),
                "wallet " + w.file() + " resealed: --seal " + before.cliName() + " -> " + target.cliName());
        return 0;
    }
}
