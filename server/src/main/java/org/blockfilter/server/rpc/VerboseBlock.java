package org.blockfilter.server.rpc;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.filters.wire.WireWriter;

/**
 * What the indexer takes from Bitcoin Core's {@code getblock hash 3} (Core >= 23): the block
 * reassembled from its header fields and each transaction's {@code hex}, and the {@code
 * vin[].prevout.scriptPubKey.hex} of every input but the coinbase, in block order. Read from the
 * token stream so a large answer is never held as a tree.
 *
 * <p>{@code raw} is empty when a transaction came without {@code hex}; {@code prevoutsComplete}
 * is false when some spending input came without a prevout script (older Core, btcd and the
 * embedded node answer verbosity 3 as 2: no prevouts; btcd also names the array {@code rawtx}),
 * and then {@code prevoutScripts} holds only those reported. Holds its arrays without copying;
 * made and read by the indexer only.
 */
public record VerboseBlock(
        byte[] raw,
        List<byte[]> prevoutScripts,
        int spendingInputs,
        boolean prevoutsComplete,
        boolean txObjects,
        Sha256Hash prevBlockHash) {
    private static final HexFormat HEX = HexFormat.of();
    private static final String METHOD = "getblock";

    /**
     * True if the answer shows whether prevouts are reported: it has a spending input, or no
     * {@code tx} array of objects at all (btcd's {@code rawtx}, or verbosity 1).
     */
    public boolean conclusive() {
        return spendingInputs > 0 || !txObjects;
    }

    static VerboseBlock read(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw invalid("result", "an object", p);
        }
        long version = -1;
        long time = -1;
        long nonce = -1;
        long bits = -1;
        Sha256Hash prev = Sha256Hash.ZERO_HASH;
        Sha256Hash merkle = null;
        Tx txs = new Tx();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "version" -> version = integer(p, "result.version", 0xFFFF_FFFFL, true);
                case "time" -> time = integer(p, "result.time", 0xFFFF_FFFFL, false);
                case "nonce" -> nonce = integer(p, "result.nonce", 0xFFFF_FFFFL, false);
                case "bits" -> bits = hexInteger(p, "result.bits");
                case "previousblockhash" -> prev = hash(p, "result.previousblockhash");
                case "merkleroot" -> merkle = hash(p, "result.merkleroot");
                case "tx" -> txs.readArray(p);
                default -> p.skipChildren();
            }
        }
        if (version < 0 || time < 0 || nonce < 0 || bits < 0 || merkle == null) {
            throw invalid("result", "a block with version, time, nonce, bits and merkleroot", p);
        }
        byte[] raw = new byte[0];
        if (txs.allHex && !txs.bytes.isEmpty()) {
            long size = 80 + 9;
            for (byte[] tx : txs.bytes) {
                size += tx.length;
            }
            WireWriter out = new WireWriter((int) Math.min(size, Integer.MAX_VALUE - 16))
                    .u32le(version)
                    .hash(prev)
                    .hash(merkle)
                    .u32le(time)
                    .u32le(bits)
                    .u32le(nonce)
                    .compactSize(txs.bytes.size());
            for (byte[] tx : txs.bytes) {
                out.bytes(tx);
            }
            raw = out.toByteArray();
        }
        return new VerboseBlock(
                raw,
                txs.prevouts,
                txs.spendingInputs,
                txs.txObjects && txs.prevouts.size() == txs.spendingInputs,
                txs.txObjects,
                prev);
    }

    /** Transactions as they stream by; only hex and prevout scripts are kept. */
    private static final class Tx {
        final List<byte[]> bytes = new ArrayList<>();
        final List<byte[]> prevouts = new ArrayList<>();
        boolean allHex = true;
        boolean txObjects;
        int spendingInputs;

        void readArray(JsonParser p) throws IOException {
            if (p.currentToken() != JsonToken.START_ARRAY) {
                throw invalid("result.tx", "an array", p);
            }
            while (p.nextToken() != JsonToken.END_ARRAY) {
                if (p.currentToken() != JsonToken.START_OBJECT) {
                    allHex = false; // verbosity 1: txids only
                    p.skipChildren();
                    continue;
                }
                txObjects = true;
                readTx(p);
            }
        }

        private void readTx(JsonParser p) throws IOException {
            byte[] hex = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (field.equals("hex")) {
                    hex = hexBytes(p, "result.tx[].hex");
                } else if (field.equals("vin")) {
                    readInputs(p);
                } else {
                    p.skipChildren();
                }
            }
            if (hex == null) {
                allHex = false;
            } else {
                bytes.add(hex);
            }
        }

        private void readInputs(JsonParser p) throws IOException {
            if (p.currentToken() != JsonToken.START_ARRAY) {
                throw invalid("result.tx[].vin", "an array", p);
            }
            while (p.nextToken() == JsonToken.START_OBJECT) {
                boolean coinbase = false;
                byte[] script = null;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    p.nextToken();
                    if (field.equals("coinbase")) {
                        coinbase = true;
                        p.skipChildren();
                    } else if (field.equals("prevout") && p.currentToken() == JsonToken.START_OBJECT) {
                        script = readPrevout(p);
                    } else {
                        p.skipChildren();
                    }
                }
                if (!coinbase) {
                    spendingInputs++;
                    if (script != null) {
                        prevouts.add(script);
                    }
                }
            }
            if (p.currentToken() != JsonToken.END_ARRAY) {
                throw invalid("result.tx[].vin[]", "an object", p);
            }
        }

        private static byte[] readPrevout(JsonParser p) throws IOException {
            byte[] script = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (field.equals("scriptPubKey") && p.currentToken() == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String f = p.currentName();
                        p.nextToken();
                        if (f.equals("hex")) {
                            script = hexBytes(p, "result.tx[].vin[].prevout.scriptPubKey.hex");
                        } else {
                            p.skipChildren();
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
            return script;
        }
    }

    private static long integer(JsonParser p, String field, long max, boolean signed32) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw invalid(field, "an integer", p);
        }
        long v = p.getLongValue();
        if (signed32 && v < 0 && v >= Integer.MIN_VALUE) {
            v &= 0xFFFF_FFFFL; // Core prints the block version as a signed 32-bit number
        }
        if (v < 0 || v > max) {
            throw invalid(field, "an integer in 0.." + max, p);
        }
        return v;
    }

    private static long hexInteger(JsonParser p, String field) throws IOException {
        String text = p.currentToken() == JsonToken.VALUE_STRING ? p.getText() : "";
        if (text.isEmpty() || text.length() > 8) {
            throw invalid(field, "up to 8 hex digits", p);
        }
        try {
            return Long.parseLong(text, 16);
        } catch (NumberFormatException e) {
            throw invalid(field, "up to 8 hex digits", p);
        }
    }

    private static Sha256Hash hash(JsonParser p, String field) throws IOException {
        byte[] b = hexBytes(p, field);
        if (b.length != 32) {
            throw invalid(field, "64 hex digits", p);
        }
        return Sha256Hash.wrap(b);
    }

    private static byte[] hexBytes(JsonParser p, String field) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw invalid(field, "a hex string", p);
        }
        try {
            return HEX.parseHex(p.getText());
        } catch (IllegalArgumentException e) {
            throw invalid(field, "a hex string", p);
        }
    }

    private static RpcException invalid(String field, String expected, JsonParser p) {
        return new RpcException(
                METHOD,
                RpcException.TRANSPORT,
                "invalid answer: " + field + " must be " + expected + ", got " + p.currentToken() + " at byte "
                        + p.currentLocation().getByteOffset(),
                null);
    }
}
