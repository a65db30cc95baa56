package org.blockfilter.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code verify} and {@code repair} share the index and cookie options; {@code --node} is each command's own. */
class IndexCommandOptionsTest {
    @Test
    void bothCommandsReadTheSharedOptions() {
        VerifyCommand verify = new VerifyCommand();
        new CommandLine(verify)
                .parseArgs("--data-dir", "/tmp/idx", "--node", "http://127.0.0.1:1", "--rpc-cookie", "/tmp/c");
        assertEquals(Path.of("/tmp/idx"), verify.index.dataDir);
        assertEquals(Path.of("/tmp/c"), verify.index.rpcCookie);
        assertEquals(URI.create("http://127.0.0.1:1"), verify.node);

        RepairCommand repair = new RepairCommand();
        new CommandLine(repair).parseArgs("--data-dir", "/tmp/idx", "--node", "http://127.0.0.1:1");
        assertEquals(Path.of("/tmp/idx"), repair.index.dataDir);
        assertNull(repair.index.rpcCookie);
    }

    @Test
    void nodeIsOptionalForVerifyAndRequiredForRepair() {
        VerifyCommand verify = new VerifyCommand();
        new CommandLine(verify).parseArgs("--data-dir", "/tmp/idx");
        assertNull(verify.node);

        var e = assertThrows(
                CommandLine.MissingParameterException.class,
                () -> new CommandLine(new RepairCommand()).parseArgs("--data-dir", "/tmp/idx"));
        assertTrue(e.getMessage().contains("--node"), e.getMessage());
    }

    @Test
    void dataDirIsRequiredByBoth() {
        for (Object command : new Object[] {new VerifyCommand(), new RepairCommand()}) {
            var e = assertThrows(
                    CommandLine.MissingParameterException.class,
                    () -> new CommandLine(command).parseArgs("--node", "http://127.0.0.1:1"));
            assertTrue(e.getMessage().contains("--data-dir"), e.getMessage());
        }
    }

    @Test
    void aCookieWithoutANodeIsRefusedByVerify() {
        CommandLine cli = new CommandLine(new VerifyCommand());
        var err = new java.io.StringWriter();
        cli.setErr(new java.io.PrintWriter(err));
        assertEquals(2, cli.execute("--data-dir", "/tmp/idx", "--rpc-cookie", "/tmp/c"));
        assertTrue(err.toString().contains("--rpc-cookie needs --node"), err.toString());
    }
}
