package org.blockfilter.wallet.cli;

import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.store.SealedSecret;
import org.blockfilter.wallet.store.Sealing;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "watch",
        mixinStandardHelpOptions = true,
        description = "Create a watch-only wallet from an account xpub/tpub/zpub/vpub.")
final class WatchCommand extends NewWalletOptions implements Callable<Integer> {
    @Option(names = "--xpub", required = true, description = "account-level extended public key")
    String xpub;

    @Option(
            names = "--seal",
            paramLabel = "all|none",
            description = "all: the whole file is encrypted, every command needs the passphrase; none: nothing"
                    + " is (a watch-only file holds no secret) (default: ${DEFAULT-VALUE})",
            defaultValue = "all")
    String seal;

    @Override
    String seal() {
        return seal;
    }

    @Option(
            names = "--kind",
            description = "script type of the account (default: ${DEFAULT-VALUE})",
            defaultValue = "p2wpkh")
    String kind;

    @Override
    public Integer call() {
        Sealing sealing = Sealing.parse(seal);
        LightWallet w = LightWallet.watchOnly(
                cli.wallet,
                cli.network(),
                xpub,
                WalletCli.kind(kind),
                gapLimit,
                WalletCli.birthday(
                        birthday,
                        birthdayHeight,
                        birthdayDate,
                        () -> cli.safeBirthday(java.util.EnumSet.of(WalletCli.kind(kind)))),
                sealing,
                sealing == Sealing.ALL ? cli.passphrase(true) : null,
                SealedSecret.DEFAULT_N);
        return created(w, null);
    }
}
