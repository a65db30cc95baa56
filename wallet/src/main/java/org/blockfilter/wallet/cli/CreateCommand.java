package org.blockfilter.wallet.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.store.SealedSecret;
import org.blockfilter.wallet.store.Sealing;
import picocli.CommandLine.Command;

@Command(name = "create", mixinStandardHelpOptions = true, description = "Create a wallet with a new BIP 39 mnemonic.")
final class CreateCommand extends KeyedWalletOptions implements Callable<Integer> {
    @picocli.CommandLine.Mixin
    Bip39PassphraseOption bip39 = new Bip39PassphraseOption();

    @Override
    public Integer call() {
        List<String> mnemonic = WalletKeys.newMnemonic();
        LightWallet w = NewWallet.create(
                cli.wallet,
                cli.network(),
                new NewWallet.Secret(mnemonic, bip39.read()),
                cli.passphrase(true),
                kindSet(),
                gapLimit,
                WalletCli.birthday(birthday, birthdayHeight, birthdayDate, LightWallet.Birthday::atTip),
                SealedSecret.DEFAULT_N,
                Sealing.parse(seal()),
                org.blockfilter.wallet.ChainStart.shipped(cli.network()));
        return created(w, mnemonic);
    }
}
