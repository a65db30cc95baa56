package org.blockfilter.wallet.labels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.blockfilter.wallet.LightWallet;
import org.blockfilter.wallet.testchain.TestWallets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** BIP 329 lines in and out, strict reading, and labels saved by two processes of one wallet both kept. */
class LabelsTest {
    @TempDir
    Path dir;

    @Test
    void bip329LinesRoundTripAndBadLinesAreNamed() {
        String text = "{\"type\":\"tx\",\"ref\":\"" + "cd".repeat(32)
                + "\",\"label\":\"salary\",\"origin\":\"wpkh([d34db33f/84'/0'/0'])\"}\n"
                + "\n{\"type\":\"output\",\"ref\":\"" + "cd".repeat(32)
                + ":1\",\"label\":\"change\",\"spendable\":false}\n";
        List<Labels.Label> read = Bip329.read(text);
        assertEquals(2, read.size());
        assertEquals(Boolean.FALSE, read.get(1).spendable());
        assertEquals(read, Bip329.read(Bip329.write(read)));
        String[][] bad = {
            {"[1,2]", "label line 1 is not a JSON object"},
            {"{\"ref\":\"x\"}", "label line 1 has no 'type'"},
            {"{\"type\":\"tx\",\"ref\":\"xyz\"}", "a tx label's ref must be a txid"},
            {"{\"type\":\"tx\",\"ref\":\"" + "cd".repeat(32) + "\"}\n{\"ref\":\"x\"}", "label line 2 has no 'type'"},
            {"{\"type\":\"addr\",\"ref\":\"a\",\"spendable\":\"yes\"}", "'spendable' must be true or false"},
            {"not json", "label line 1 is not JSON"},
        };
        for (String[] b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Bip329.read(b[0]));
            assertTrue(e.getMessage().contains(b[1]), e.getMessage());
        }
    }

    @Test
    void labelsSavedByTwoProcessesAreBothKept() {
        LightWallet created = TestWallets.create(dir);
        LightWallet a = LightWallet.load(created.file());
        LightWallet b = LightWallet.load(created.file());
        a.labels().put("tx", "ab".repeat(32), "from a");
        a.save();
        b.labels().put("addr", "bcrt1qexample", "from b");
        b.save();
        LightWallet again = LightWallet.load(created.file());
        assertEquals("from a", again.labels().text("tx", "ab".repeat(32)).orElseThrow());
        assertEquals("from b", again.labels().text("addr", "bcrt1qexample").orElseThrow());
        // A removal by one process is not undone by the other's later save.
        a.labels().put("tx", "ab".repeat(32), "");
        a.save();
        b.labels().put("addr", "bcrt1qother", "x");
        b.save();
        assertTrue(LightWallet.load(created.file())
                .labels()
                .text("tx", "ab".repeat(32))
                .isEmpty());
    }
}
