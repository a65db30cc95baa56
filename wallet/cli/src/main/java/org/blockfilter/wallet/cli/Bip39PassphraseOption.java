package org.blockfilter.wallet.cli;

import java.io.Console;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The BIP 39 passphrase ("25th word") of {@code create} and {@code restore}: from {@code
 * --bip39-passphrase-file}, {@code $BLOCKFILTER_BIP39_PASSPHRASE}, or a console prompt with
 * {@code --bip39-passphrase}; none (the empty passphrase) otherwise. It is not the file's
 * passphrase: it changes every key, and is sealed in the wallet with the mnemonic.
 */
final class Bip39PassphraseOption {
    static final String ENV = "BLOCKFILTER_BIP39_PASSPHRASE";

    @Option(
            names = "--bip39-passphrase",
            description = "ask for a BIP 39 passphrase on the console (also: --bip39-passphrase-file, $" + ENV
                    + "); a mnemonic with another passphrase gives other keys")
    boolean prompt;

    @Option(names = "--bip39-passphrase-file", description = "file holding the BIP 39 passphrase (first line, as is)")
    Path file;

    String read() {
        String p;
        if (file != null) {
            try {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                p = lines.isEmpty() ? "" : lines.get(0);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read BIP 39 passphrase file: " + e.getMessage(), e);
            }
        } else if (System.getenv(ENV) != null) {
            p = System.getenv(ENV);
        } else if (prompt) {
            Console console = System.console();
            if (console == null) {
                throw new IllegalArgumentException(
                        "--bip39-passphrase needs a console; use --bip39-passphrase-file or " + ENV);
            }
            p = new String(console.readPassword("BIP 39 passphrase: "));
            if (!p.equals(new String(console.readPassword("Repeat BIP 39 passphrase: ")))) {
                throw new IllegalArgumentException("BIP 39 passphrases differ");
            }
        } else {
            return "";
        }
        // BIP 39: the passphrase is NFKD-normalised before it salts the seed.
        return Normalizer.normalize(p, Normalizer.Form.NFKD);
    }
}
