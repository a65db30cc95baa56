package org.blockfilter.wallet.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.psbt.Psbt;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(
        name = "combine",
        mixinStandardHelpOptions = true,
        description = "Merge PSBTs of the same transaction signed apart (BIP 174 Combiner); needs no wallet.")
final class CombineCommand implements Callable<Integer> {
    @ParentCommand
    WalletCli cli;

    @Parameters(arity = "2..*", paramLabel = "FILE", description = "PSBT files of one transaction")
    List<Path> files;

    @Option(names = "--out", required = true, description = "where to write the combined PSBT")
    Path out;

    @Override
    public Integer call() {
        Psbt combined = PsbtFiles.read(files.get(0));
        for (Path f : files.subList(1, files.size())) {
            try {
                combined = combined.combine(PsbtFiles.read(f));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(f + ": " + e.getMessage(), e);
            }
        }
        PsbtFiles.write(out, combined);
        cli.print(Map.of("file", out.toString()), "combined " + files.size() + " PSBTs into " + out);
        return 0;
    }
}
