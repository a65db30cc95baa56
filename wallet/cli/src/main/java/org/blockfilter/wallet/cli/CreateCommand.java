package org.blockfilter.wallet.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.store.Sealing;
import picocli.CommandLine.Command;

@Command(name = "create", mixinStandardHelpOptions = true, description = "Create a wallet with a new BIP 39 mnemonic.")
final class CreateCommand extends KeyedWalletOptions implements Callable<Integer> {
    @picocli.CommandLine.Mixin
    Bip39PassphraseOption bip39 = new Bip39PassphraseOption();

    @Override
    public Integer call() {
        List<String> mnemonic = WalletKeys.newMnemonic();
        // The BIP 39 passphrase is read (and prompted for) before the file passphrase.
        NewWallet.Options options = NewWallet.Options.of(cli.network())
                .withGapLimit(gapLimit)
                .withBirthday(WalletCli.birthday(birthday, birthdayHeight, birthdayDate, LightWallet.Birthday::atTip))
                .withSealing(Sealing.parse(seal()))
                .withBip39Passphrase(bip39.read());
        LightWallet w = NewWallet.create(cli.wallet, mnemonic, cli.passphrase(true), kindSet(), options);
        return created(w, mnemonic);
    }
}
