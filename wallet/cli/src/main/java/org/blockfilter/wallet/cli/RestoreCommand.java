package org.blockfilter.wallet.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.store.Sealing;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "restore",
        mixinStandardHelpOptions = true,
        description = "Restore a wallet from a BIP 39 mnemonic (read from --mnemonic-file or stdin).")
final class RestoreCommand extends KeyedWalletOptions implements Callable<Integer> {
    @picocli.CommandLine.Mixin
    Bip39PassphraseOption bip39 = new Bip39PassphraseOption();

    @Option(names = "--mnemonic-file", description = "file holding the mnemonic words")
    Path mnemonicFile;

    @Override
    public Integer call() throws IOException {
        String text = mnemonicFile != null
                ? Files.readString(mnemonicFile, StandardCharsets.UTF_8)
                : new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("no mnemonic given");
        }
        List<String> words =
                List.of(text.trim().toLowerCase(java.util.Locale.ROOT).split("\\s+"));
        WalletKeys.checkMnemonic(words);
        // The BIP 39 passphrase is read (and prompted for) before the file passphrase.
        NewWallet.Options options = NewWallet.Options.of(cli.network())
                .withGapLimit(gapLimit)
                .withBirthday(
                        WalletCli.birthday(birthday, birthdayHeight, birthdayDate, () -> cli.safeBirthday(kindSet())))
                .withSealing(Sealing.parse(seal()))
                .withBip39Passphrase(bip39.read());
        LightWallet w = NewWallet.create(cli.wallet, words, cli.passphrase(true), kindSet(), options);
        return created(w, null);
    }
}
