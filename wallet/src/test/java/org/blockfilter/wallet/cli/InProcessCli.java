package org.blockfilter.wallet.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The wallet CLI run in this process with what it prints captured, for tests here and in the
 * e2e module (wallet test-jar). Stateless.
 */
public final class InProcessCli {
    private InProcessCli() {}

    /** What one run returned and printed on stdout and stderr. */
    public record Run(int code, String out, String err) {}

    /** Runs the wallet CLI with {@code args}. */
    public static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = WalletCli.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
