package org.blockfilter.wallet.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.DerivedAddress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "receive", mixinStandardHelpOptions = true, description = "Show the next unused receive address.")
final class ReceiveCommand implements Callable<Integer> {
    @ParentCommand
    WalletCli cli;

    @Option(
            names = "--kind",
            description = "p2wpkh, p2pkh or p2tr (default: ${DEFAULT-VALUE})",
            defaultValue = "p2wpkh")
    String kind;

    @Override
    public Integer call() {
        LightWallet w = cli.load();
        DerivedAddress a = w.keys().nextReceive(WalletCli.kind(kind));
        w.save();
        cli.print(
                Map.of(
                        "address",
                        a.address().toString(),
                        "path",
                        a.relativePath(),
                        "kind",
                        a.kind().name()),
                a.address().toString());
        return 0;
    }
}
