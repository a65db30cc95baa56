package org.blockfilter.wallet.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.descriptor.Descriptor;
import org.blockfilter.wallet.keys.HdAccount;
import org.blockfilter.wallet.keys.WalletKeys;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(
        name = "export-descriptors",
        mixinStandardHelpOptions = true,
        description = "Print the wallet's output descriptors (BIP 380): one per account with /<0;1>/*, and its"
                + " receive and change descriptors. Public keys only unless --private.")
final class ExportDescriptorsCommand implements Callable<Integer> {
    @ParentCommand
    WalletCli cli;

    @Option(
            names = "--private",
            description = "include the private keys (xprv/tprv): asks for the passphrase; anyone who sees the output"
                    + " can spend the wallet's coins")
    boolean withPrivate;

    @Override
    public Integer call() {
        LightWallet w = cli.load();
        List<HdAccount> accounts = new ArrayList<>(w.keys().accounts());
        if (withPrivate) {
            if (w.watchOnly()) {
                throw new IllegalArgumentException("this wallet is watch-only: it has no private keys to export");
            }
            WalletKeys unlocked = w.unlock(cli.passphrase(false));
            accounts = new ArrayList<>(unlocked.accounts());
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        StringBuilder human = new StringBuilder();
        for (HdAccount a : accounts) {
            Descriptor d = withPrivate ? a.privateDescriptor().orElseThrow() : a.descriptor();
            List<Descriptor> paths = a.changeDescriptor().isPresent()
                    ? List.of(a.descriptor(), a.changeDescriptor().get())
                    : d.singlePaths();
            String receive = text(paths.get(0));
            String change = text(paths.get(paths.size() - 1));
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("kind", a.kind().name());
            row.put("descriptor", a.changeDescriptor().isPresent() ? null : text(d));
            row.put("receive", receive);
            row.put("change", change);
            rows.add(row);
            human.append(a.kind().name().toLowerCase(java.util.Locale.ROOT)).append('\n');
            if (a.changeDescriptor().isEmpty()) {
                human.append("  ").append(text(d)).append('\n');
            }
            human.append("  receive ").append(receive).append('\n');
            human.append("  change  ").append(change).append('\n');
        }
        cli.print(Map.of("descriptors", rows), human.toString().stripTrailing());
        return 0;
    }

    private String text(Descriptor d) {
        return withPrivate ? d.toPrivateString() : d.toString();
    }
}
