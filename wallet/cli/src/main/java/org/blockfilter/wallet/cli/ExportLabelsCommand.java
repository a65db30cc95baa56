package org.blockfilter.wallet.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.labels.Bip329;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
        name = "export-labels",
        mixinStandardHelpOptions = true,
        description = "Write the wallet's labels as BIP 329 JSON lines (to stdout, or --out FILE).")
final class ExportLabelsCommand implements Callable<Integer> {
    @ParentCommand
    WalletCli cli;

    @Option(names = "--out", description = "file to write (default: stdout)")
    Path out;

    @Override
    public Integer call() throws IOException {
        LightWallet w = cli.load();
        String lines = Bip329.write(w.labels().all());
        if (out == null) {
            cli.out.print(lines);
            cli.out.flush();
        } else {
            Files.writeString(out, lines, StandardCharsets.UTF_8);
            cli.print(
                    Map.of("labels", w.labels().size(), "file", out.toString()),
                    w.labels().size() + " labels written to " + out);
        }
        return 0;
    }
}
