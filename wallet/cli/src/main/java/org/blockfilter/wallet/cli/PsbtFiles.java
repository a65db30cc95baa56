package org.blockfilter.wallet.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.Network;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutput;
import org.blockfilter.wallet.psbt.Psbt;
import org.blockfilter.wallet.psbt.PsbtFormatException;

/**
 * Reading and writing PSBT files for the commands: binary for a {@code .psbt} name (BIP 174's file
 * extension), Base64 text otherwise; either is read. Errors name the file. Stateless.
 */
final class PsbtFiles {
    private PsbtFiles() {}

    static Psbt read(Path file) {
        try {
            return Psbt.read(file);
        } catch (PsbtFormatException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read PSBT file " + file + ": " + e, e);
        }
    }

    static void write(Path file, Psbt psbt) {
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            if (file.getFileName().toString().endsWith(".psbt")) {
                Files.write(tmp, psbt.serialize());
            } else {
                Files.writeString(tmp, psbt.toBase64() + "\n", StandardCharsets.US_ASCII);
            }
            Files.move(
                    tmp,
                    file,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write PSBT file " + file + ": " + e, e);
        }
    }

    /** What a signer should show before signing: where the money goes, and the fee when every UTXO is known. */
    static String describe(Psbt psbt, Network network) {
        Transaction tx = psbt.unsignedTx();
        List<String> lines = new ArrayList<>();
        lines.add("PSBT of " + tx.getInputs().size() + " input(s), unsigned txid " + tx.getTxId());
        for (TransactionOutput o : tx.getOutputs()) {
            String to;
            try {
                Address a = o.getScriptPubKey().getToAddress(network);
                to = a.toString();
            } catch (RuntimeException e) {
                to = "script " + java.util.HexFormat.of().formatHex(o.getScriptBytes());
            }
            lines.add("  pay " + o.getValue().toPlainString() + " BTC to " + to);
        }
        lines.add(
                psbt.fee().map(f -> "  fee " + f.toPlainString() + " BTC").orElse("  fee unknown (a UTXO is missing)"));
        return String.join("\n", lines);
    }
}
