package org.blockfilter.wallet.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.DerivedAddress;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Options of the commands that write a new wallet file: create, restore and watch. */
abstract class NewWalletOptions {
    @ParentCommand
    WalletCli cli;

    @Option(
            names = "--gap-limit",
            description = "unused addresses watched past the last used one (default: ${DEFAULT-VALUE})",
            defaultValue = "20")
    int gapLimit;

    @Option(
            names = "--birthday",
            paramLabel = "DATE|HEIGHT",
            description = "first block height, or first day (YYYY-MM-DD, UTC), to scan; the header chain starts at"
                    + " the highest checkpoint at or below it (create: the tip of the first sync; restore and"
                    + " watch: the earliest height the account kinds could have been paid, see docs/wallet.md)")
    String birthday;

    @Option(names = "--birthday-height", hidden = true, description = "same as --birthday HEIGHT")
    Integer birthdayHeight;

    @Option(names = "--birthday-date", hidden = true, description = "same as --birthday DATE")
    String birthdayDate;

    /** The --seal value (each command declares the option with the values it takes). */
    abstract String seal();

    Integer created(LightWallet w, List<String> mnemonic) {
        // Shown, not issued: the next `receive` (P2WPKH by default) gives this same address.
        AddressKind kind = w.keys().account(AddressKind.P2WPKH).isPresent()
                ? AddressKind.P2WPKH
                : w.keys().accounts().iterator().next().kind();
        DerivedAddress first = w.keys()
                .account(kind)
                .orElseThrow()
                .derive(false, w.keys().chainState(kind, false).issued());
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("file", w.file().toString());
        j.put("network", cli.network);
        j.put("seal", w.sealing().cliName());
        if (mnemonic != null) {
            j.put("mnemonic", String.join(" ", mnemonic));
        }
        j.put("receiveAddress", first.address().toString());
        String human = "wallet written to " + w.file() + " (--seal "
                + w.sealing().cliName() + ")\n"
                + (mnemonic != null
                        ? "mnemonic (write it down; it is shown only now):\n  " + String.join(" ", mnemonic) + "\n"
                        : "")
                + "first receive address: " + first.address();
        cli.print(j, human);
        return 0;
    }
}
