package org.blockfilter.wallet.cli;

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
import org.blockfilter.wallet.spend.CoinControl;
import org.blockfilter.wallet.spend.FeeRateChoice;
import org.blockfilter.wallet.spend.PreparedPayment;
import org.blockfilter.wallet.spend.PsbtPayment;
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

    @Option(
            names = "--fee-rate",
            description = "fee rate in sat/vB (default: the sources' estimate for --target-blocks)")
    Long feeRate;

    @Option(
            names = "--target-blocks",
            description = "without --fee-rate: confirmation target, in blocks, of the fee estimate (1..1008,"
                    + " default: ${DEFAULT-VALUE})",
            defaultValue = "" + FeeRateChoice.DEFAULT_TARGET_BLOCKS)
    int targetBlocks;

    @Option(names = "--yes", description = "send without asking")
    boolean yes;

    @Option(
            names = "--psbt-out",
            paramLabel = "FILE",
            description = "write the unsigned payment as a PSBT (BIP 174; binary for a .psbt name, else Base64) to"
                    + " FILE instead of signing and sending it: for a watch-only wallet, an offline signer or a"
                    + " hardware wallet, then sign, finalize and broadcast")
    java.nio.file.Path psbtOut;

    @Option(
            names = "--from",
            paramLabel = "TXID:VOUT",
            split = ",",
            description = "coin control: spend only these coins (see utxos); repeat or separate with commas")
    List<String> from = List.of();

    @Option(
            names = "--exclude",
            paramLabel = "TXID:VOUT",
            split = ",",
            description = "coin control: never spend these coins")
    List<String> exclude = List.of();

    private CoinControl coinControl() {
        return new CoinControl(
                from.stream().map(WalletCli::outpoint).collect(java.util.stream.Collectors.toSet()),
                exclude.stream().map(WalletCli::outpoint).collect(java.util.stream.Collectors.toSet()));
    }

    @Override
    public Integer call() {
        coinControl(); // a malformed coin is refused before anything is asked or opened
        LightWallet w = cli.load();
        Address address = AddressDecoder.decode(to, w.network());
        Coin value;
        try {
            value = Coin.valueOf(amount.movePointRight(8).longValueExact());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("amount has more than 8 decimals: " + amount);
        }
        // Without --fee-rate the sources are asked for an estimate first, and kept for the broadcast.
        List<ChainSource> sources = feeRate == null ? open(w.chain()) : null;
        String feeLine = "";
        String rateFrom = "--fee-rate";
        long rate;
        PreparedPayment p;
        try {
            if (feeRate != null) {
                rate = feeRate;
            } else {
                FeeRateChoice choice = FeeRateChoice.choose(sources, targetBlocks);
                rate = choice.satPerVByte();
                feeLine = choice.describe() + "\n";
                rateFrom = choice.chosen().detail();
            }
            Spender spender = new Spender(w);
            if (psbtOut != null) {
                PsbtPayment unsigned = spender.preparePsbt(address, value, rate, coinControl());
                PsbtFiles.write(psbtOut, unsigned.psbt());
                w.save(); // keeps the change address it handed out
                cli.print(
                        Map.of(
                                "psbt",
                                psbtOut.toString(),
                                "fee",
                                unsigned.summary().fee().toPlainString()),
                        feeLine + unsigned.summary().summary() + "\nwrote unsigned PSBT " + psbtOut
                                + " (size and rate are estimates until it is signed)");
                return 0;
            }
            WalletKeys unlocked = w.unlock(cli.passphrase(false));
            p = spender.prepare(unlocked, address, value, rate, coinControl());
            if (!confirmed(feeLine + p.summary(), yes)) {
                return 1;
            }
            if (sources == null) {
                sources = open(w.chain());
            }
            spender.broadcast(p, sources);
        } finally {
            if (sources != null) {
                sources.forEach(ChainSource::close);
            }
        }
        String summary = feeLine + p.summary();
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("txid", p.txid().toString());
        j.put("amount", p.amount().toPlainString());
        j.put("fee", p.fee().toPlainString());
        j.put("vsize", p.vsize());
        j.put("feeRate", rate);
        j.put("feeRateFrom", rateFrom);
        j.put("change", p.change().toPlainString());
        cli.print(j, summary + "\nsent " + p.txid());
        return 0;
    }
}
