package org.blockfilter.wallet.spend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Coin;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionInput;
import org.blockfilter.filters.chain.Dust;
import org.blockfilter.filters.testing.RegtestChainBuilder;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.keys.AddressKind;
import org.blockfilter.wallet.sync.SyncEngine;
import org.blockfilter.wallet.testchain.MemorySource;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a node relays: no output below its dust limit, and every payment replaceable (BIP 125). */
class RelayRulesTest {
    @TempDir
    Path dir;

    private LightWallet funded(RegtestChainBuilder chain) {
        LightWallet w = TestWallets.create(dir);
        Address a = w.keys()
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .derive(false, 0)
                .address();
        chain.mine(2);
        chain.mineBlock(List.of(chain.pay(List.of(a), Coin.COIN)));
        new SyncEngine(w, List.of(new MemorySource("honest", chain)), SyncEngine.Options.defaults()).sync();
        return w;
    }

    @Test
    void aPaymentBelowTheRecipientsDustLimitIsRefused() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        LightWallet w = funded(chain);
        Address p2wpkh = w.keys()
                .account(AddressKind.P2WPKH)
                .orElseThrow()
                .derive(false, 5)
                .address();

        // send --amount 0.000001: 100 sat to a P2WPKH address, below Core's 294.
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new Spender(w).prepare(w.unlock(TestWallets.PASSPHRASE), p2wpkh, Coin.valueOf(100), 2));
        assertTrue(e.getMessage().contains("dust") && e.getMessage().contains("294"), e.getMessage());
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}: {2} sat")
    @org.junit.jupiter.params.provider.CsvSource({
        "P2PKH,  76a914" + "1111111111111111111111111111111111111111" + "88ac, 546",
        "P2SH,   a914" + "1111111111111111111111111111111111111111" + "87, 540",
        "P2WPKH, 0014" + "1111111111111111111111111111111111111111" + ", 294",
        "P2WSH,  0020" + "1111111111111111111111111111111111111111111111111111111111111111" + ", 330",
        "P2TR,   5120" + "1111111111111111111111111111111111111111111111111111111111111111" + ", 330",
        "OP_RETURN, 6a0474657374, 0"
    })
    void dustLimitsAreBitcoinCores(String kind, String scriptHex, long sats) {
        assertEquals(sats, Dust.threshold(java.util.HexFormat.of().parseHex(scriptHex)), kind);
    }

    @Test
    void everyInputSignalsReplaceability() {
        RegtestChainBuilder chain = new RegtestChainBuilder();
        LightWallet w = funded(chain);
        PreparedPayment p =
                new Spender(w).prepare(w.unlock(TestWallets.PASSPHRASE), chain.minerAddress(), Coin.CENT, 2);
        Transaction tx = Transaction.read(ByteBuffer.wrap(p.raw()));
        for (TransactionInput in : tx.getInputs()) {
            assertEquals(0xfffffffdL, in.getSequenceNumber());
        }
    }
}
