package org.blockfilter.regtest.mainnet.internal;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.bitcoinj.base.Sha256Hash;
import org.blockfilter.regtest.mainnet.Prevout;
import org.blockfilter.regtest.mainnet.ProfileChain;
import org.blockfilter.regtest.mainnet.ScriptType;

/**
 * Answers Bitcoin Core's JSON-RPC (1.0 and 2.0, single requests and batches) from a {@link
 * ProfileChain}: the calls the filter server makes ({@code getblockchaininfo},
 * {@code getnetworkinfo}, {@code getblockcount}, {@code getbestblockhash}, {@code getblockhash},
 * {@code getblock} at verbosity 0-3, {@code getblockheader}) plus {@code uptime}, {@code stop}
 * and one extension for the benchmark harness, {@code setservedheight h}, which moves the tip
 * the node reports (blocks above it stay fetchable by hash, as on a node that knows them).
 * Errors answer as Core does: an error object, HTTP 500 (404 for an unknown method).
 * Thread-safe.
 */
public final class RpcHandler {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();
    private static final int MAX_REQUEST = 1 << 20;

    private final ProfileChain chain;
    private final byte[] authorization;
    private final AtomicInteger servedHeight;
    private final AtomicReferenceArray<byte[]> coinbaseTxids;
    private final long started = System.currentTimeMillis();
    private final Runnable onStop;

    public RpcHandler(ProfileChain chain, String user, String password, int servedHeight, Runnable onStop) {
        this.chain = chain;
        this.authorization = ("Basic "
                        + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)))
                .getBytes(StandardCharsets.UTF_8);
        this.servedHeight = new AtomicInteger(servedHeight);
        this.coinbaseTxids = new AtomicReferenceArray<>(chain.tipHeight() + 1);
        this.onStop = onStop;
    }

    /** An RPC error as Core reports it. */
    private static final class RpcError extends RuntimeException {
        final int code;

        RpcError(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    public void handle(HttpExchange ex) throws IOException {
        try (ex) {
            if (!"POST".equals(ex.getRequestMethod())) {
                ex.sendResponseHeaders(405, -1);
                return;
            }
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            if (auth == null || !MessageDigest.isEqual(auth.getBytes(StandardCharsets.UTF_8), authorization)) {
                ex.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"jsonrpc\"");
                ex.sendResponseHeaders(401, -1);
                return;
            }
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readNBytes(MAX_REQUEST + 1);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
            int status = 200;
            JsonNode request;
            try {
                request = body.length > MAX_REQUEST ? null : JSON.readTree(body);
            } catch (IOException e) {
                request = null;
            }
            boolean stop = false;
            try (JsonGenerator g = JSON.getFactory().createGenerator(out, JsonEncoding.UTF8)) {
                if (request == null || !(request.isObject() || request.isArray())) {
                    status = 500;
                    writeError(g, null, -32700, "Parse error", false);
                } else if (request.isArray()) {
                    g.writeStartArray();
                    for (JsonNode r : request) {
                        stop |= "stop".equals(r.path("method").asText());
                        answer(g, r);
                    }
                    g.writeEndArray();
                } else {
                    stop = "stop".equals(request.path("method").asText());
                    status = answer(g, request);
                }
            }
            byte[] bytes = out.toByteArray();
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(status, bytes.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(bytes);
            }
            if (stop) {
                Thread t = new Thread(onStop, "mainnet-profile-stop");
                t.setDaemon(true);
                t.start();
            }
        }
    }

    /** Writes one answer; returns the HTTP status a single 1.0 request gets. */
    private int answer(JsonGenerator g, JsonNode request) throws IOException {
        boolean v2 = "2.0".equals(request.path("jsonrpc").asText(null));
        JsonNode id = request.get("id");
        String method = request.path("method").asText("");
        JsonNode params = request.path("params");
        // Render the result into a buffer first so that an error midway leaves no partial answer.
        ByteArrayOutputStream result = new ByteArrayOutputStream(1 << 12);
        try (JsonGenerator r = JSON.getFactory().createGenerator(result, JsonEncoding.UTF8)) {
            call(r, method, params);
        } catch (RpcError e) {
            writeError(g, id, e.code, e.getMessage(), v2);
            return e.code == -32601 ? 404 : 500;
        } catch (RuntimeException e) {
            writeError(g, id, -1, String.valueOf(e.getMessage()), v2);
            return 500;
        }
        g.writeStartObject();
        if (v2) {
            g.writeStringField("jsonrpc", "2.0");
        }
        g.writeFieldName("result");
        g.writeRawValue(new String(result.toByteArray(), StandardCharsets.UTF_8));
        if (!v2) {
            g.writeNullField("error");
        }
        g.writeFieldName("id");
        writeId(g, id);
        g.writeEndObject();
        return 200;
    }

    private static void writeId(JsonGenerator g, JsonNode id) throws IOException {
        if (id == null) {
            g.writeNull();
        } else {
            g.writeTree(id);
        }
    }

    private static void writeError(JsonGenerator g, JsonNode id, int code, String message, boolean v2)
            throws IOException {
        g.writeStartObject();
        if (v2) {
            g.writeStringField("jsonrpc", "2.0");
        } else {
            g.writeNullField("result");
        }
        g.writeObjectFieldStart("error");
        g.writeNumberField("code", code);
        g.writeStringField("message", message);
        g.writeEndObject();
        g.writeFieldName("id");
        writeId(g, id);
        g.writeEndObject();
    }

    private void call(JsonGenerator g, String method, JsonNode params) throws IOException {
        int tip = servedHeight.get();
        switch (method) {
            case "getblockcount" -> g.writeNumber(tip);
            case "getbestblockhash" -> g.writeString(chain.hashAt(tip).toString());
            case "getblockhash" -> {
                JsonNode h = params.path(0);
                if (!h.canConvertToInt()) {
                    throw new RpcError(-1, "JSON value of type " + h.getNodeType() + " is not of expected type number");
                }
                if (h.asInt() < 0 || h.asInt() > tip) {
                    throw new RpcError(-8, "Block height out of range");
                }
                g.writeString(chain.hashAt(h.asInt()).toString());
            }
            case "getblockchaininfo" -> {
                g.writeStartObject();
                g.writeStringField("chain", "regtest");
                g.writeNumberField("blocks", tip);
                g.writeNumberField("headers", tip);
                g.writeStringField("bestblockhash", chain.hashAt(tip).toString());
                g.writeNumberField("difficulty", 4.656542373906925e-10);
                g.writeNumberField("verificationprogress", 1);
                g.writeBooleanField("initialblockdownload", false);
                g.writeBooleanField("pruned", false);
                g.writeStringField("warnings", "mainnet-profile chain (docs/mainnet-profile.md)");
                g.writeEndObject();
            }
            case "getnetworkinfo" -> {
                g.writeStartObject();
                g.writeNumberField("version", 270000);
                g.writeStringField("subversion", "/mainnet-profile:0.1/");
                g.writeNumberField("protocolversion", 70016);
                g.writeStringField("localservices", "0000000000000409");
                g.writeBooleanField("networkactive", true);
                g.writeNumberField("connections", 0);
                g.writeEndObject();
            }
            case "getblock" -> getBlock(g, params);
            case "getblockheader" -> {
                int h = heightOf(params.path(0));
                byte[] raw = chain.rawBlock(h);
                boolean verbose = !params.has(1) || params.get(1).asBoolean(true);
                if (!verbose) {
                    g.writeString(HEX.formatHex(raw, 0, 80));
                } else {
                    g.writeStartObject();
                    headerFields(g, h, raw);
                    g.writeEndObject();
                }
            }
            case "uptime" -> g.writeNumber((System.currentTimeMillis() - started) / 1000);
            case "ping" -> g.writeNull();
            case "stop" -> g.writeString("mainnet-profile node stopping");
            case "setservedheight" -> {
                JsonNode h = params.path(0);
                if (!h.canConvertToInt() || h.asInt() < 0 || h.asInt() > chain.tipHeight()) {
                    throw new RpcError(-8, "height must be 0.." + chain.tipHeight());
                }
                servedHeight.set(h.asInt());
                g.writeNumber(h.asInt());
            }
            case "sendrawtransaction" -> throw new RpcError(-26, "the mainnet-profile chain is fixed; no relay");
            default -> throw new RpcError(-32601, "Method not found");
        }
    }

    private int heightOf(JsonNode hash) {
        if (!hash.isTextual() || !hash.asText().matches("[0-9a-fA-F]{64}")) {
            throw new RpcError(
                    -8,
                    "blockhash must be of length 64 (not " + hash.asText().length() + ", for '" + hash.asText() + "')");
        }
        Optional<Integer> h = chain.heightOf(Sha256Hash.wrap(hash.asText()));
        if (h.isEmpty()) {
            throw new RpcError(-5, "Block not found");
        }
        return h.get();
    }

    private void getBlock(JsonGenerator g, JsonNode params) throws IOException {
        int h = heightOf(params.path(0));
        JsonNode v = params.path(1);
        int verbosity = v.isMissingNode() || v.isNull() ? 1 : v.isBoolean() ? (v.asBoolean() ? 1 : 0) : v.asInt(-1);
        if (verbosity < 0 || verbosity > 3) {
            throw new RpcError(-8, "Verbosity must be in range 0..3");
        }
        byte[] raw = chain.rawBlock(h);
        if (verbosity == 0) {
            g.writeString(HEX.formatHex(raw));
            return;
        }
        RawBlock block = RawBlock.parse(raw);
        List<Prevout> prevouts = verbosity == 3 ? chain.prevouts(h) : List.of();
        g.writeStartObject();
        headerFields(g, h, raw);
        g.writeNumberField("size", raw.length);
        int stripped = 80 + varIntSize(block.txs().size());
        for (RawBlock.Tx tx : block.txs()) {
            stripped += tx.strippedSize();
        }
        g.writeNumberField("strippedsize", stripped);
        g.writeNumberField("weight", stripped * 3L + raw.length);
        g.writeNumberField("nTx", block.txs().size());
        g.writeArrayFieldStart("tx");
        int next = 0;
        for (RawBlock.Tx tx : block.txs()) {
            if (verbosity == 1) {
                g.writeString(Sha256Hash.wrapReversed(tx.txid()).toString());
                continue;
            }
            next = writeTx(g, raw, tx, prevouts, next, verbosity == 3);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private int writeTx(
            JsonGenerator g, byte[] raw, RawBlock.Tx tx, List<Prevout> prevouts, int next, boolean withPrevouts)
            throws IOException {
        boolean coinbase = next == 0
                && tx.inputs().size() == 1
                && isZero(tx.inputs().get(0).prevTxid());
        g.writeStartObject();
        g.writeStringField("txid", Sha256Hash.wrapReversed(tx.txid()).toString());
        g.writeStringField("hash", Sha256Hash.wrapReversed(tx.wtxid()).toString());
        g.writeNumberField("version", tx.version());
        int size = tx.bytes().length();
        long weight = tx.strippedSize() * 3L + size;
        g.writeNumberField("size", size);
        g.writeNumberField("vsize", (weight + 3) / 4);
        g.writeNumberField("weight", weight);
        g.writeNumberField("locktime", tx.lockTime());
        g.writeArrayFieldStart("vin");
        for (RawBlock.Input in : tx.inputs()) {
            g.writeStartObject();
            if (coinbase) {
                g.writeStringField("coinbase", hex(raw, in.scriptSig()));
            } else {
                g.writeStringField(
                        "txid", Sha256Hash.wrapReversed(in.prevTxid()).toString());
                g.writeNumberField("vout", in.vout());
                g.writeObjectFieldStart("scriptSig");
                g.writeStringField("hex", hex(raw, in.scriptSig()));
                g.writeEndObject();
            }
            if (!in.witness().isEmpty()) {
                g.writeArrayFieldStart("txinwitness");
                for (RawBlock.Range w : in.witness()) {
                    g.writeString(hex(raw, w));
                }
                g.writeEndArray();
            }
            if (withPrevouts && !coinbase) {
                Prevout p = prevouts.get(next++);
                g.writeObjectFieldStart("prevout");
                g.writeBooleanField("generated", isCoinbaseOutput(p.height(), in.prevTxid()));
                g.writeNumberField("height", p.height());
                g.writeNumberField("value", BigDecimal.valueOf(p.value(), 8));
                g.writeObjectFieldStart("scriptPubKey");
                g.writeStringField("hex", HEX.formatHex(p.script()));
                ScriptType type = ScriptType.classify(p.script());
                g.writeStringField("type", type == null ? "nonstandard" : type.coreName());
                g.writeEndObject();
                g.writeEndObject();
            } else if (!coinbase) {
                next++;
            }
            g.writeNumberField("sequence", in.sequence());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("vout");
        int n = 0;
        for (RawBlock.Output out : tx.outputs()) {
            g.writeStartObject();
            g.writeNumberField("value", BigDecimal.valueOf(out.value(), 8));
            g.writeNumberField("n", n++);
            g.writeObjectFieldStart("scriptPubKey");
            byte[] script = Arrays.copyOfRange(
                    raw,
                    out.script().offset(),
                    out.script().offset() + out.script().length());
            g.writeStringField("hex", HEX.formatHex(script));
            ScriptType type = ScriptType.classify(script);
            g.writeStringField("type", type == null ? "nonstandard" : type.coreName());
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeStringField("hex", hex(raw, tx.bytes()));
        g.writeEndObject();
        return next;
    }

    private boolean isCoinbaseOutput(int height, byte[] txid) {
        byte[] cb = coinbaseTxids.get(height);
        if (cb == null) {
            cb = RawBlock.coinbaseTxid(chain.rawBlock(height));
            coinbaseTxids.set(height, cb);
        }
        return Arrays.equals(cb, txid);
    }

    private void headerFields(JsonGenerator g, int h, byte[] raw) throws IOException {
        g.writeStringField("hash", chain.hashAt(h).toString());
        g.writeNumberField("confirmations", Math.max(-1, servedHeight.get() - h + 1));
        g.writeNumberField("height", h);
        g.writeNumberField("version", u32(raw, 0));
        g.writeStringField(
                "merkleroot",
                Sha256Hash.wrapReversed(Arrays.copyOfRange(raw, 36, 68)).toString());
        g.writeNumberField("time", u32(raw, 68));
        g.writeStringField("bits", String.format("%08x", u32(raw, 72)));
        g.writeNumberField("nonce", u32(raw, 76));
        if (h > 0) {
            g.writeStringField("previousblockhash", chain.hashAt(h - 1).toString());
        }
        if (h < chain.tipHeight()) {
            g.writeStringField("nextblockhash", chain.hashAt(h + 1).toString());
        }
    }

    private static long u32(byte[] b, int off) {
        return (b[off] & 0xffL) | (b[off + 1] & 0xffL) << 8 | (b[off + 2] & 0xffL) << 16 | (b[off + 3] & 0xffL) << 24;
    }

    private static int varIntSize(long n) {
        return n < 0xfd ? 1 : n <= 0xffff ? 3 : 5;
    }

    private static boolean isZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    private static String hex(byte[] raw, RawBlock.Range r) {
        return HEX.formatHex(raw, r.offset(), r.offset() + r.length());
    }
}
