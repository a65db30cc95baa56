package org.blockfilter.wallet.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.labels.Bip329;
import org.blockfilter.wallet.labels.Labels;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
        name = "import-labels",
        mixinStandardHelpOptions = true,
        description = "Read BIP 329 JSON lines into the wallet's labels (a label for the same reference is replaced)."
                + " Nothing is imported if any line is wrong.")
final class ImportLabelsCommand implements Callable<Integer> {
    @ParentCommand
    WalletCli cli;

    @Parameters(index = "0", paramLabel = "FILE", description = "BIP 329 JSON lines")
    Path file;

    @Override
    public Integer call() throws IOException {
        List<Labels.Label> read = Bip329.read(Files.readString(file, StandardCharsets.UTF_8));
        LightWallet w = cli.load();
        read.forEach(w.labels()::put);
        w.save();
        cli.print(
                Map.of("imported", read.size(), "labels", w.labels().size()),
                read.size() + " labels imported; the wallet has " + w.labels().size());
        return 0;
    }
}
