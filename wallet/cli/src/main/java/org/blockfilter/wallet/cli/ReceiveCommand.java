package org.blockfilter.wallet.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.keys.DerivedAddress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "receive", mixinStandardHelpOptions = true, description = "Show the next unused receive address.")
final class ReceiveCommand implements Callable<Integer> {
    @ParentCommand
    WalletCli cli;

    @Option(
            names = "--kind",
            description = "the account: p2wpkh, p2pkh, p2tr, p2sh-p2wpkh, p2wsh, p2sh-p2wsh (default: p2wpkh, or the"
                    + " wallet's only account)")
    String kind;

    @Option(names = "--label", description = "a BIP 329 label for the address (shown by history and utxos)")
    String label;

    @Override
    public Integer call() {
        LightWallet w = cli.load();
        AddressKind k = kind != null
                ? WalletCli.kind(kind)
                : w.keys().account(AddressKind.P2WPKH).isPresent()
                        ? AddressKind.P2WPKH
                        : w.keys().accounts().iterator().next().kind();
        DerivedAddress a = w.keys().nextReceive(k);
        if (label != null) {
            w.labels().put("addr", a.address().toString(), label);
        }
        w.save();
        Map<String, Object> j = new java.util.LinkedHashMap<>();
        j.put("address", a.address().toString());
        j.put("path", a.relativePath());
        j.put("kind", a.kind().name());
        if (label != null) {
            j.put("label", label);
        }
        cli.print(j, a.address().toString());
        return 0;
    }
}
