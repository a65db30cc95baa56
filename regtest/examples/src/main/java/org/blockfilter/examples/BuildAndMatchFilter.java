package org.blockfilter.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.bitcoinj.base.Address;
import org.bitcoinj.base.AddressParser;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.script.ScriptBuilder;
import org.blockfilter.filters.BasicFilter;

/**
 * Builds the BIP 158 filter of every block from bitcoinj {@link Block}s, checks each against the server's, and finds
 * the blocks whose filter matches an address. A filter also covers the scripts a block's inputs spend, which the block
 * does not contain: here they come from the outputs of the blocks before it. Arguments: the server's URL, an address.
 */
public final class BuildAndMatchFilter {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    public static void main(String[] args) throws Exception {
        String server = args[0];
        Address address = AddressParser.getDefault().parseAddress(args[1]);
        byte[] script = ScriptBuilder.createOutputScript(address).program();
        Map<TransactionOutPoint, byte[]> outputs = new HashMap<>(); // every output so far, for the spent scripts

        int tip = json(server + "/api/v1/status").get("indexedHeight").asInt();
        for (int height = 0; height <= tip; height++) {
            JsonNode served = json(server + "/api/v1/filters/" + height);
            String url = server + "/api/v1/blocks/" + served.get("blockHash").asText();
            byte[] raw = get(url, "application/octet-stream").body(); // the block with its witnesses
            Block block = Block.read(ByteBuffer.wrap(raw));
            for (Transaction tx : block.getTransactions()) {
                tx.getOutputs().forEach(o -> outputs.put(o.getOutPointFor(), o.getScriptBytes()));
            }

            BasicFilter filter = BasicFilter.build(block, outputs::get);
            if (!filter.filterHash().toString().equals(served.get("filterHash").asText())) {
                throw new IllegalStateException("block " + height + ": our filter differs from the server's");
            }
            if (filter.match(script)) {
                System.out.println("block " + height + " may pay or spend " + address);
            }
        }
        System.out.println("built " + (tip + 1) + " filters, each equal to the server's");
    }

    private static HttpResponse<byte[]> get(String url, String accept) throws Exception {
        HttpRequest request =
                HttpRequest.newBuilder(URI.create(url)).header("Accept", accept).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    private static JsonNode json(String url) throws Exception {
        return new ObjectMapper().readTree(get(url, "application/json").body());
    }
}
