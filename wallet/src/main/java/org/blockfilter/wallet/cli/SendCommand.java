package org.blockfilter.wallet.cli;

import java.io.Console;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressDecoder;
import org.blockfilter.wallet.keys.WalletKeys;
import org.blockfilter.wallet.source.ChainSource;
import org.blockfilter.wallet.spend.PreparedPayment;
import org.blockfilter.wallet.spend.Spender;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "send",
        mixinStandardHelpOptions = true,
        description = "Pay an address: shows the fee, asks to confirm (or --yes), signs and broadcasts.")
final class SendCommand extends NetworkOptions implements Callable<Integer> {
    @Option(names = "--to", required = true, description = "recipient address")
    String to;

    @Option(names = "--amount", required = true, description = "amount in BTC, e.g. 0.015")
    BigDecimal amount;

    @Option(names = "--fee-rate", required = true, description = "fee rate in sat/vB")
    long feeRate;

    @Option(names = "--yes", description = "send without asking")
    boolean yes;

    @Override
    public Integer call() {
        LightWallet w = cli.load();
        Address address = AddressDecoder.decode(to, w.network());
        Coin value;
        try {
            value = Coin.valueOf(amount.movePointRight(8).longValueExact());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("amount has more than 8 decimals: " + amount);
        }
        WalletKeys unlocked = w.unlock(cli.passphrase(false));
        Spender spender = new Spender(w);
        PreparedPayment p = spender.prepare(unlocked, address, value, feeRate);
        String summary = "pay " + p.amount().toPlainString() + " BTC to " + p.recipient() + "\nfee "
                + p.fee().toPlainString()
                + " BTC (" + p.vsize() + " vB, " + String.format("%.2f", p.effectiveSatPerVByte()) + " sat/vB), "
                + p.inputs() + " input(s), change "
                + (p.changeAddress() == null
                        ? "none (dust folded into fee)"
                        : p.change().toPlainString() + " BTC to " + p.changeAddress());
        if (!yes) {
            Console console = System.console();
            if (console == null) {
                cli.err.println(summary);
                throw new IllegalArgumentException("not sent: confirm with --yes when there is no console");
            }
            String answer = console.readLine("%s%nSend? [y/N] ", summary);
            if (answer == null || !answer.trim().equalsIgnoreCase("y")) {
                cli.err.println("not sent");
                return 1;
            }
        }
        List<ChainSource> sources = open(w.network());
        try {
            spender.broadcast(p, sources);
        } finally {
            sources.forEach(ChainSource::close);
        }
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("txid", p.txid().toString());
        j.put("amount", p.amount().toPlainString());
        j.put("fee", p.fee().toPlainString());
        j.put("vsize", p.vsize());
        j.put("change", p.change().toPlainString());
        cli.print(j, summary + "\nsent " + p.txid());
        return 0;
    }
}
