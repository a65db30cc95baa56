package org.blockfilter.wallet.spend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.bitcoinj.core.Transaction;
import org.blockfilter.filters.Vectors;
import org.blockfilter.wallet.keys.Schnorr;
import org.blockfilter.wallet.keys.Taproot;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The official BIP 341 wallet vectors (testvectors/bip341/wallet-test-vectors.json): output-key
 * tweaks, and every key-path input of the vector transaction, through the tweaked private key, the
 * signature message, its hash and the witness signature (aux_rand all zeros, as the vectors).
 */
class Bip341VectorsTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final JsonNode VECTORS = Vectors.json("bip341/wallet-test-vectors.json");

    static Stream<JsonNode> scriptPubKeys() {
        return StreamSupport.stream(VECTORS.get("scriptPubKey").spliterator(), false);
    }

    static Stream<Arguments> keyPathInputs() {
        List<Arguments> out = new ArrayList<>();
        for (JsonNode tx : VECTORS.get("keyPathSpending")) {
            for (JsonNode in : tx.get("inputSpending")) {
                out.add(Arguments.of(in.get("given").get("txinIndex").asInt(), tx, in));
            }
        }
        return out.stream();
    }

    private static byte[] hexOrNull(JsonNode n) {
        return n == null || n.isNull() ? null : HEX.parseHex(n.asText());
    }

    @ParameterizedTest
    @MethodSource("scriptPubKeys")
    void outputKeyIsTheTweakedInternalKey(JsonNode v) {
        byte[] q = Taproot.outputKey(
                HEX.parseHex(v.get("given").get("internalPubkey").asText()),
                hexOrNull(v.get("intermediary").get("merkleRoot")));
        assertEquals(v.get("intermediary").get("tweakedPubkey").asText(), HEX.formatHex(q));
        assertEquals(v.get("expected").get("scriptPubKey").asText(), "5120" + HEX.formatHex(q));
    }

    @ParameterizedTest(name = "input {0}")
    @MethodSource("keyPathInputs")
    void keyPathSignatureMatchesTheVector(int index, JsonNode txVector, JsonNode in) {
        Transaction tx = Transaction.read(ByteBuffer.wrap(
                HEX.parseHex(txVector.get("given").get("rawUnsignedTx").asText())));
        List<TaprootSighash.SpentOutput> spent = new ArrayList<>();
        for (JsonNode u : txVector.get("given").get("utxosSpent")) {
            spent.add(new TaprootSighash.SpentOutput(
                    u.get("amountSats").asLong(),
                    HEX.parseHex(u.get("scriptPubKey").asText())));
        }
        JsonNode given = in.get("given");
        JsonNode mid = in.get("intermediary");
        int hashType = given.get("hashType").asInt();

        byte[] key = Taproot.tweakPrivateKey(
                HEX.parseHex(given.get("internalPrivkey").asText()), hexOrNull(given.get("merkleRoot")));
        assertEquals(mid.get("tweakedPrivkey").asText(), HEX.formatHex(key));
        assertEquals(mid.get("sigMsg").asText(), HEX.formatHex(TaprootSighash.message(tx, index, spent, hashType)));
        byte[] sighash = TaprootSighash.hash(tx, index, spent, hashType);
        assertEquals(mid.get("sigHash").asText(), HEX.formatHex(sighash));

        String sig = HEX.formatHex(Schnorr.sign(sighash, key, new byte[32]))
                + (hashType == TaprootSighash.SIGHASH_DEFAULT ? "" : String.format("%02x", hashType));
        assertEquals(in.get("expected").get("witness").get(0).asText(), sig);
    }
}
