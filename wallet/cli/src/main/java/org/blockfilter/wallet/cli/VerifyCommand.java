package org.blockfilter.wallet.cli;

import picocli.CommandLine.Command;

@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = "Check the wallet file, compare every stored filter header (a sync compares only the"
                + " stored tip) and the block headers and checkpoints with the given sources, roll back what they"
                + " contradict and the blocks do not refute, then sync.")
final class VerifyCommand extends SyncCommand {
    @Override
    boolean everyStoredHeader() {
        return true;
    }
}
