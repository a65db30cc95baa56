package org.blockfilter.regtest.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Coin;
import org.bitcoinj.base.ScriptType;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.crypto.ECKey;
import org.bitcoinj.script.ScriptBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The server's demo: a chain that ends now, a miner at a steady interval, and a faucet. */
class LiveDemoTest {
    private static final ECKey USER = ECKey.fromPrivate(java.math.BigInteger.valueOf(424242));
    private LiveDemo demo;

    @AfterEach
    void close() {
        if (demo != null) {
            demo.close();
        }
    }

    private LiveDemo fixedDemo() {
        demo = LiveDemo.start(new LiveDemo.Options(110, 3, Optional.empty(), Duration.ZERO));
        return demo;
    }

    @Test
    void theChainsBlockTimesAreCountedBackFromNowSoItsTipIsCurrent() {
        Instant before = Instant.now();
        EmbeddedNode node = fixedDemo().node();
        long tipTime = node.block(node.tipHash()).orElseThrow().time().getEpochSecond();
        // The last block is timed when the build started; a loaded machine builds 110 blocks in well under an hour.
        assertTrue(tipTime <= Instant.now().getEpochSecond(), "not in the future: " + tipTime);
        assertTrue(tipTime >= before.minus(Duration.ofHours(1)).getEpochSecond(), "current: " + tipTime);
        long firstTime =
                node.block(node.blockHash(1).orElseThrow()).orElseThrow().time().getEpochSecond();
        assertTrue(tipTime - firstTime >= 100 * 600L, "ten minutes apart: " + (tipTime - firstTime));
    }

    @Test
    void minesABlockAtEachIntervalOnItsOwn() {
        demo = LiveDemo.start(new LiveDemo.Options(0, 1, Optional.empty(), Duration.ofMillis(200)));
        // Generous: three blocks at 200 ms each within 60 s even on a loaded machine.
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (demo.node().tipHeight() < 3) {
            assertTrue(
                    System.nanoTime() < deadline,
                    "the miner made " + demo.node().tipHeight() + " blocks in 60 s");
            LockSupport.parkNanos(20_000_000);
        }
        assertTrue(demo.minerFailure().isEmpty());
    }

    @Test
    void aFixedChainDoesNotGrow() throws InterruptedException {
        int tip = fixedDemo().node().tipHeight();
        Thread.sleep(300); // nothing is scheduled, so nothing can change: a short look is enough
        assertEquals(tip, demo.node().tipHeight());
    }

    @Test
    void faucetPaysEveryAddressKindAndMinesThePayment() {
        EmbeddedNode node = fixedDemo().node();
        for (Address to : new Address[] {
            USER.toAddress(ScriptType.P2WPKH, BitcoinNetwork.REGTEST),
            USER.toAddress(ScriptType.P2PKH, BitcoinNetwork.REGTEST),
            taproot(BitcoinNetwork.REGTEST)
        }) {
            int before = node.tipHeight();
            DemoFaucet.Payment p = demo.faucet().pay(to.toString(), "1.5");
            assertEquals(before + 1, p.height(), to.toString());
            assertEquals(node.tipHeight(), p.height());
            Block block = node.block(node.blockHash(p.height()).orElseThrow()).orElseThrow();
            Transaction tx = block.getTransactions().stream()
                    .filter(t -> t.getTxId().equals(p.txid()))
                    .findFirst()
                    .orElseThrow();
            assertEquals(Coin.valueOf(150_000_000), tx.getOutput(0).getValue());
            assertEquals(ScriptBuilder.createOutputScript(to), tx.getOutput(0).getScriptPubKey());
        }
    }

    @Test
    void faucetRefusesBadInputNamingWhatIsWrong() {
        fixedDemo();
        String regtest =
                USER.toAddress(ScriptType.P2WPKH, BitcoinNetwork.REGTEST).toString();
        assertRefused(DemoFaucet.RefusedException.Kind.BAD_ADDRESS, "not an address", "bcrt1qnope", "1");
        assertRefused(
                DemoFaucet.RefusedException.Kind.WRONG_NETWORK,
                "a testnet address",
                USER.toAddress(ScriptType.P2WPKH, BitcoinNetwork.TESTNET).toString(),
                "1");
        assertRefused(
                DemoFaucet.RefusedException.Kind.WRONG_NETWORK,
                "a mainnet address",
                taproot(BitcoinNetwork.MAINNET).toString(),
                "1");
        assertRefused(DemoFaucet.RefusedException.Kind.BAD_AMOUNT, "number of BTC", regtest, "lots");
        assertRefused(DemoFaucet.RefusedException.Kind.BAD_AMOUNT, "more than 0", regtest, "-1");
        assertRefused(DemoFaucet.RefusedException.Kind.BAD_AMOUNT, "8 decimals", regtest, "0.000000001");
        assertRefused(DemoFaucet.RefusedException.Kind.BAD_AMOUNT, "dust limit of 294", regtest, "0.00000293");
        Coin all = demo.faucet().balance();
        assertTrue(all.isPositive());
        assertRefused(
                DemoFaucet.RefusedException.Kind.INSUFFICIENT_FUNDS,
                "the faucet holds",
                regtest,
                all.add(Coin.SATOSHI).toPlainString());
    }

    @Test
    void faucetSpendsTheMinersCoinbasesOnceMature() {
        demo = LiveDemo.start(new LiveDemo.Options(0, 1, Optional.empty(), Duration.ZERO));
        assertEquals(Coin.ZERO, demo.faucet().balance());
        demo.node().mine(101);
        // At tip 101 the next block (102) may spend the coinbases of blocks 1 and 2.
        assertEquals(Coin.FIFTY_COINS.multiply(2), demo.faucet().balance());
        DemoFaucet.Payment p = demo.faucet()
                .pay(USER.toAddress(ScriptType.P2WPKH, BitcoinNetwork.REGTEST).toString(), "10");
        assertEquals(102, p.height());
        Coin left = demo.faucet().balance();
        assertTrue(
                left.isGreaterThan(Coin.COIN.multiply(139)) && left.isLessThan(Coin.COIN.multiply(140)),
                "the change of 100 BTC less 10 and the fee, and block 3's coinbase: " + left);
    }

    /** A key-path taproot address of {@link #USER}'s x-only key (bitcoinj has no P2TR address from a key). */
    private static Address taproot(BitcoinNetwork network) {
        return org.bitcoinj.base.SegwitAddress.fromProgram(
                network, 1, java.util.Arrays.copyOfRange(USER.getPubKey(), 1, 33));
    }

    private void assertRefused(DemoFaucet.RefusedException.Kind kind, String says, String address, String amount) {
        DemoFaucet.RefusedException e = assertThrows(
                DemoFaucet.RefusedException.class, () -> demo.faucet().pay(address, amount));
        assertEquals(kind, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains(says), e.getMessage());
    }
}
