package org.blockfilter.wallet.cli;

import java.util.EnumSet;
import java.util.List;
import org.blockfilter.wallet.keys.AddressKind;
import picocli.CommandLine.Option;

/** Options of the commands that write a wallet with a mnemonic (create and restore): its accounts and sealing. */
abstract class KeyedWalletOptions extends NewWalletOptions {
    @Option(names = "--kinds", split = ",", description = "accounts to derive (default: p2wpkh,p2pkh,p2tr)")
    List<String> kinds = List.of("p2wpkh", "p2pkh", "p2tr");

    @Option(
            names = "--seal",
            paramLabel = "all|secret-only",
            description = "all: the whole file is encrypted, every command needs the passphrase;"
                    + " secret-only: only the mnemonic, so sync runs unattended (default: ${DEFAULT-VALUE})",
            defaultValue = "all")
    String seal;

    @Override
    String seal() {
        return seal;
    }

    EnumSet<AddressKind> kindSet() {
        EnumSet<AddressKind> set = EnumSet.noneOf(AddressKind.class);
        kinds.forEach(k -> set.add(WalletCli.kind(k)));
        return set;
    }
}
