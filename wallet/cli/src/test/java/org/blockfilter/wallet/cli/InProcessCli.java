package org.blockfilter.wallet.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The wallet CLI run in this process with what it prints captured, for tests here and in the
 * e2e module (the CLI's test-jar). Stateless.
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

    /**
     * {@code --wallet wallet --passphrase-file dir/pw.txt --json} then {@code rest}; the passphrase
     * file (the test passphrase) is written on first use.
     */
    public static String[] walletArgs(Path dir, Path wallet, String... rest) throws IOException {
        Path pw = dir.resolve("pw.txt");
        if (!Files.exists(pw)) {
            Files.writeString(pw, "correct horse\n");
        }
        String[] head = {"--wallet", wallet.toString(), "--passphrase-file", pw.toString(), "--json"};
        String[] all = new String[head.length + rest.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(rest, 0, all, head.length, rest.length);
        return all;
    }
}
