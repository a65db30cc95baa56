package org.blockfilter.filters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.params.TestNet3Params;

/**
 * Builds the BIP 158 basic filter of one block and matches scripts against it.
 *
 * <pre>
 * FilterDemo [--block HEX | --block-file FILE] [--prev SCRIPT_HEX ...] [--prev-header HASH] [SCRIPT_HEX ...]
 * </pre>
 * Without a block it uses the testnet3 genesis block (the first row of the BIP 158 vectors, filter
 * {@code 019dfca8}). {@code --prev} gives the scripts the block's non-coinbase inputs spend, in input
 * order (repeat it; {@code --prev ""} is an empty script). Prints N, the filter, its hash and header, and
 * for each script whether the filter matches it.
 */
public final class FilterDemo {

    private static final HexFormat HEX = HexFormat.of();

    private FilterDemo() {}

    /**
     * Runs the demo with the command-line arguments described above; exits with status 2 and a usage line on a bad
     * argument.
     */
    public static void main(String[] args) {
        try {
            run(args, System.out);
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println("usage: FilterDemo [--block HEX | --block-file FILE] [--prev SCRIPT_HEX ...]"
                    + " [--prev-header HASH] [SCRIPT_HEX ...]");
            System.exit(2);
        }
    }

    static void run(String[] args, PrintStream out) throws IOException {
        byte[] blockBytes = null;
        List<byte[]> prevScripts = new ArrayList<>();
        Sha256Hash prevHeader = FilterHeaders.GENESIS_PREV;
        List<byte[]> queries = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--block":
                    blockBytes = hex(value(args, ++i, arg), "block");
                    break;
                case "--block-file":
                    blockBytes =
                            hex(Files.readString(Path.of(value(args, ++i, arg))).strip(), "block file");
                    break;
                case "--prev":
                    prevScripts.add(hex(value(args, ++i, arg), "prev script"));
                    break;
                case "--prev-header":
                    prevHeader = Sha256Hash.wrap(hex(value(args, ++i, arg), "prev header"));
                    break;
                default:
                    if (arg.startsWith("--")) {
                        throw new IllegalArgumentException("unknown option " + arg);
                    }
                    queries.add(hex(arg, "script"));
            }
        }

        Block block;
        if (blockBytes == null) {
            block = TestNet3Params.get().getGenesisBlock();
            out.println("no --block given: using the testnet3 genesis block");
        } else {
            try {
                block = Block.read(ByteBuffer.wrap(blockBytes));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("block does not parse: " + e, e);
            }
        }
        BasicFilter filter = BasicFilter.build(block, PrevoutScripts.inInputOrder(block, prevScripts));
        out.println("block        " + filter.blockHash());
        out.println("N            " + filter.size());
        out.println("filter       " + HEX.formatHex(filter.bytes()));
        out.println("filter hash  " + filter.filterHash());
        out.println("header       " + filter.header(prevHeader) + "  (prev header " + prevHeader + ")");
        for (FilterElement e : BasicFilter.elements(block, PrevoutScripts.inInputOrder(block, prevScripts))) {
            out.println("element      " + e);
        }
        for (byte[] q : queries) {
            out.println("match        " + HEX.formatHex(q) + "  " + (filter.match(q) ? "yes" : "no"));
        }
        if (!queries.isEmpty()) {
            out.println("match any    " + (filter.matchAny(queries) ? "yes" : "no"));
        }
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static byte[] hex(String s, String what) {
        try {
            return HEX.parseHex(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " is not hex: " + e.getMessage(), e);
        }
    }
}
