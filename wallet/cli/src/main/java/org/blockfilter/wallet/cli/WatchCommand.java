package org.blockfilter.wallet.cli;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.NewWallet;
import org.blockfilter.wallet.descriptor.Descriptor;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.store.Sealing;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "watch",
        mixinStandardHelpOptions = true,
        description = "Create a watch-only wallet from an account xpub/tpub/zpub/vpub, or from output descriptors.")
final class WatchCommand extends NewWalletOptions implements Callable<Integer> {
    @Option(names = "--xpub", description = "account-level extended public key")
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
            description = "with --xpub: script type of the account (default: ${DEFAULT-VALUE})",
            defaultValue = "p2wpkh")
    String kind;

    @Option(
            names = "--descriptor",
            paramLabel = "DESCRIPTOR",
            description = "an account's descriptor (BIP 380): one with /<0;1>/* (receive and change), or two in a row"
                    + " (receive, then change); repeat for more accounts. pkh, wpkh, sh(wpkh), tr (key path),"
                    + " wsh(multi|sortedmulti), sh(wsh(...)). Private keys are refused")
    List<String> descriptors = new ArrayList<>();

    @Override
    public Integer call() {
        if ((xpub == null) == descriptors.isEmpty()) {
            throw new IllegalArgumentException("give either --xpub or --descriptor");
        }
        Sealing sealing = Sealing.parse(seal);
        List<HdAccount> accounts = xpub != null
                ? List.of(HdAccount.watchOnly(
                        xpub, WalletCli.kind(kind), cli.network().addressNetwork()))
                : accounts();
        EnumSet<AddressKind> kinds = EnumSet.noneOf(AddressKind.class);
        accounts.forEach(a -> kinds.add(a.kind()));
        LightWallet w = NewWallet.watchOnly(
                cli.wallet,
                accounts,
                sealing == Sealing.ALL ? cli.passphrase(true) : null,
                NewWallet.Options.of(cli.network())
                        .withGapLimit(gapLimit)
                        .withBirthday(WalletCli.birthday(
                                birthday, birthdayHeight, birthdayDate, () -> cli.safeBirthday(kinds)))
                        .withSealing(sealing));
        return created(w, null);
    }

    private List<HdAccount> accounts() {
        List<HdAccount> out = new ArrayList<>();
        for (int i = 0; i < descriptors.size(); i++) {
            Descriptor d = parse(i);
            if (d.paths() == 1 && d.ranged()) {
                if (i + 1 >= descriptors.size()) {
                    throw new IllegalArgumentException("descriptor " + (i + 1) + " has no multipath step /<0;1>/*: give"
                            + " its change descriptor after it, or write it with /<0;1>/*");
                }
                out.add(HdAccount.fromDescriptors(d, parse(++i)));
            } else {
                out.add(HdAccount.fromDescriptors(d, null));
            }
        }
        return out;
    }

    private Descriptor parse(int i) {
        Descriptor d;
        try {
            d = Descriptor.parse(descriptors.get(i), cli.network().addressNetwork());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--descriptor " + (i + 1) + ": " + e.getMessage(), e);
        }
        if (d.hasPrivateKeys()) {
            throw new IllegalArgumentException("descriptor " + (i + 1) + " holds private keys: a watch-only wallet"
                    + " takes public descriptors (export them with export-descriptors, without --private)");
        }
        return d;
    }
}
