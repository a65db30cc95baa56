package org.blockfilter.wallet.cli;

import org.blockfilter.wallet.LightWallet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "rescan",
        mixinStandardHelpOptions = true,
        description = "Forget the filter headers and the scan from --from on, fetch them again and rescan; found"
                + " transactions are kept.")
final class RescanCommand extends SyncCommand {
    @Option(names = "--from", required = true, description = "first block height to fetch and scan again")
    int from;

    @Override
    void before(LightWallet w) {
        if (from < 0) {
            throw new IllegalArgumentException("--from must be >= 0, got " + from);
        }
        w.rescanFrom(from);
    }
}
