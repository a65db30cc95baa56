package org.blockfilter.regtest.embedded;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.AddressParser;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.base.exceptions.AddressFormatException;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.TransactionOutput;
import org.bitcoinj.script.Script;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.filters.chain.Dust;
import org.blockfilter.regtest.embedded.internal.OutPoint;
import org.blockfilter.regtest.scenario.GroundTruth;
import org.blockfilter.regtest.scenario.OwnedOutput;
import org.blockfilter.regtest.scenario.OwnedScript;
import org.blockfilter.regtest.scenario.ScenarioSigner;
import org.blockfilter.regtest.scenario.ScenarioSpec;

/**
 * The demo's faucet: pays an address from the demo chain's coins (the scenario wallets' unspent
 * outputs, then the miner's mature coinbases and the faucet's own change), mines the payment into
 * a block at once and says where it landed. Change goes to the miner's address. Thread-safe
 * (one payment at a time); never returns null.
 */
public final class DemoFaucet {
    /** A payment made: its txid, the height of the block that confirmed it, what it paid and to whom. */
    public record Payment(Sha256Hash txid, int height, Coin amount, Address address) {}

    /** Why a payment was refused; {@link #getMessage()} names the input and what was wrong with it. */
    public static final class RefusedException extends RuntimeException {
        /** What was wrong. */
        public enum Kind {
            BAD_ADDRESS,
            WRONG_NETWORK,
            BAD_AMOUNT,
            INSUFFICIENT_FUNDS
        }

        private final Kind kind;

        RefusedException(Kind kind, String message) {
            super(message);
            this.kind = kind;
        }

        public Kind kind() {
            return kind;
        }
    }

    private final EmbeddedNode node;
    private final OwnedScript miner;
    private final List<OwnedOutput> coins = new ArrayList<>();
    private int scannedHeight;

    private DemoFaucet(EmbeddedNode node, OwnedScript miner, int scannedHeight) {
        this.node = node;
        this.miner = miner;
        this.scannedHeight = scannedHeight;
    }

    /**
     * A faucet holding {@code truth}'s unspent outputs (of the kinds the scenario signs) and, as
     * the node mines on, every output paying the miner's address ({@code spec.miningAddress()},
     * which must be the node's mining address).
     */
    public static DemoFaucet of(EmbeddedNode node, GroundTruth truth) {
        OwnedScript miner = truth.wallets().get(0).scripts().get(0);
        DemoFaucet faucet = new DemoFaucet(node, miner, truth.tipHeight());
        for (OwnedOutput o : truth.outputs()) {
            if (o.unspent() && o.script().kind().spentByScenario()) {
                faucet.coins.add(o);
            }
        }
        return faucet;
    }

    /** A faucet of an empty demo chain: only the miner's coinbases of {@code spec}, once mature. */
    public static DemoFaucet empty(EmbeddedNode node, ScenarioSpec spec) {
        OwnedScript miner = new OwnedScript(
                0,
                org.blockfilter.regtest.scenario.OutputKind.P2WPKH,
                ScriptBuilder.createP2WPKHOutputScript(spec.miningKey()),
                Optional.of(spec.miningAddress()),
                List.of(spec.miningKey()),
                Optional.empty());
        return new DemoFaucet(node, miner, 0);
    }

    /** What the faucet can pay now: its unspent, mature coins (fees come out of them too). */
    public synchronized Coin balance() {
        return sum(spendable());
    }

    /**
     * Pays {@code amount} BTC (a decimal string such as {@code "1.5"}) to {@code address} and mines it.
     *
     * @throws RefusedException for an address that does not parse, one of another network, an
     *     amount that is not a positive number of BTC with at most 8 decimals or is below the
     *     address's dust limit, or more than the faucet holds
     * @throws RejectedException if the node refuses the payment (it should not)
     */
    public synchronized Payment pay(String address, String amount) {
        Address to = parseAddress(address);
        Script script = ScriptBuilder.createOutputScript(to);
        Coin value = parseAmount(amount, script);
        List<OwnedOutput> available = spendable();
        ScenarioSigner.Spend spend = ScenarioSigner.pay(
                        available, script, value, miner, Dust.threshold(miner.program()))
                .orElseThrow(() -> new RefusedException(
                        RefusedException.Kind.INSUFFICIENT_FUNDS,
                        "the faucet holds " + sum(available).toPlainString() + " BTC (fees come out of it too), not"
                                + " enough for the " + value.toPlainString() + " BTC asked for"));
        Sha256Hash txid = node.submitTransaction(spend.tx().serialize());
        coins.removeAll(spend.inputs());
        if (node.chain().confirmingBlock(txid).isEmpty()) {
            node.mine(1);
        }
        int height = node.chain().confirmingBlock(txid).orElseThrow().height();
        return new Payment(txid, height, value, to);
    }

    private static Coin sum(List<OwnedOutput> list) {
        return list.stream().map(OwnedOutput::value).reduce(Coin.ZERO, Coin::add);
    }

    /** The coins the next block may spend, after a look at the blocks mined since the last one. */
    private List<OwnedOutput> spendable() {
        refresh();
        int next = node.tipHeight() + 1;
        return new ArrayList<>(coins.stream()
                .filter(c -> !c.coinbase() || next - c.height() >= ScenarioSpec.COINBASE_MATURITY)
                .toList());
    }

    /** Adds outputs to the miner mined since the last look and drops coins that are no longer unspent. */
    private void refresh() {
        int tip = node.tipHeight();
        byte[] minerProgram = miner.program();
        for (int h = scannedHeight + 1; h <= tip; h++) {
            Block b = node.block(node.blockHash(h).orElseThrow()).orElseThrow();
            for (Transaction tx : b.getTransactions()) {
                for (TransactionOutput out : tx.getOutputs()) {
                    if (java.util.Arrays.equals(out.getScriptBytes(), minerProgram)) {
                        coins.add(new OwnedOutput(
                                new TransactionOutPoint(out.getIndex(), tx.getTxId()),
                                miner,
                                out.getValue(),
                                h,
                                b.getHash(),
                                tx.isCoinBase(),
                                Optional.empty()));
                    }
                }
            }
        }
        scannedHeight = tip;
        coins.removeIf(c -> node.chain().utxo(OutPoint.of(c.outpoint())).isEmpty());
    }

    private static Address parseAddress(String address) {
        Objects.requireNonNull(address, "address");
        try {
            // Regtest shares base58 version bytes with testnet and signet (as in Core); bech32 prefixes are its own
            // (bcrt).
            return AddressParser.getDefault(BitcoinNetwork.REGTEST).parseAddress(address);
        } catch (AddressFormatException e) {
            try {
                Address other = AddressParser.getDefault().parseAddress(address);
                throw new RefusedException(
                        RefusedException.Kind.WRONG_NETWORK,
                        "address " + address + " is a " + other.network() + " address; the demo chain is regtest"
                                + " (its addresses start with bcrt1, m, n or 2)");
            } catch (AddressFormatException notAnAddress) {
                throw new RefusedException(
                        RefusedException.Kind.BAD_ADDRESS,
                        "not an address: \"" + abbreviate(address) + "\" (" + e.getMessage() + ")");
            }
        }
    }

    private static Coin parseAmount(String amount, Script to) {
        Objects.requireNonNull(amount, "amount");
        BigDecimal btc;
        try {
            btc = new BigDecimal(amount.trim());
        } catch (NumberFormatException e) {
            throw new RefusedException(
                    RefusedException.Kind.BAD_AMOUNT,
                    "amount must be a number of BTC such as \"1.5\", got \"" + abbreviate(amount) + "\"");
        }
        if (btc.signum() <= 0
                || btc.stripTrailingZeros().scale() > 8
                || btc.compareTo(BigDecimal.valueOf(21_000_000)) > 0) {
            throw new RefusedException(
                    RefusedException.Kind.BAD_AMOUNT,
                    "amount must be more than 0 and at most 21000000 BTC with at most 8 decimals, got " + amount);
        }
        Coin value = Coin.valueOf(btc.movePointRight(8).longValueExact());
        long dust = Dust.threshold(to.program());
        if (value.value < dust) {
            throw new RefusedException(
                    RefusedException.Kind.BAD_AMOUNT,
                    "amount " + amount + " BTC is below the dust limit of " + dust + " sat for that address");
        }
        return value;
    }

    private static String abbreviate(String s) {
        return s.length() <= 100 ? s : s.substring(0, 100) + "...";
    }
}
