package org.blockfilter.server.p2p.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.Vectors;
import org.blockfilter.filters.wire.WireFormatException;
import org.junit.jupiter.api.Test;

/** Witness stripping for MSG_BLOCK / MSG_TX, on the BIP 158 vector blocks (some carry segwit transactions). */
class WitnessTest {
    @Test
    void strippedBlocksKeepEveryTxidAndLoseTheWitnesses() throws IOException {
        JsonNode rows = new ObjectMapper().readTree(Vectors.bytes("bip158/blockfilters.json"));
        int segwitTxs = 0;
        for (JsonNode row : rows) {
            if (row.size() < 3) {
                continue;
            }
            byte[] raw = HexFormat.of().parseHex(row.get(2).asText());
            Block original = Block.read(ByteBuffer.wrap(raw));
            byte[] stripped = Witness.stripBlock(raw);
            Block plain = Block.read(ByteBuffer.wrap(stripped));
            assertEquals(original.getHash(), plain.getHash());
            assertEquals(
                    original.getTransactions().size(), plain.getTransactions().size());
            for (int i = 0; i < original.getTransactions().size(); i++) {
                Transaction t = original.getTransactions().get(i);
                assertEquals(t.getTxId(), plain.getTransactions().get(i).getTxId());
                assertFalse(plain.getTransactions().get(i).hasWitnesses());
                if (t.hasWitnesses()) {
                    segwitTxs++;
                    byte[] tx = t.serialize();
                    assertTrue(Witness.stripTx(tx).length < tx.length);
                }
            }
            if (original.getTransactions().stream().noneMatch(Transaction::hasWitnesses)) {
                assertArrayEquals(raw, stripped, "a block without witnesses is unchanged");
            }
        }
        assertTrue(segwitTxs > 0, "the vectors include segwit transactions");
    }

    @Test
    void truncatedInputIsMalformedNotACrash() {
        assertThrows(WireFormatException.class, () -> Witness.stripTx(new byte[] {1, 0, 0, 0, 0, 2}));
        byte[] oneTxButNoBytes = new byte[81];
        oneTxButNoBytes[80] = 1;
        assertThrows(WireFormatException.class, () -> Witness.stripBlock(oneTxButNoBytes));
    }
}
