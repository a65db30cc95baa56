package org.blockfilter.wallet.psbt;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.bitcoinj.base.VarInt;

/**
 * One PSBT key-value map (the global map, an input's or an output's), its records in the order
 * they were read or added; unknown key types are kept like any other. Immutable: {@code with} and
 * {@code without} return copies. Keys are unique (the decoder refuses duplicates; {@link #with}
 * replaces). Never null; values are copied in and out.
 */
public final class PsbtMap {
    /** A record: key type, key data (after the type) and value. */
    public record Entry(long type, byte[] keyData, byte[] value) {
        public Entry {
            keyData = keyData.clone();
            value = value.clone();
        }

        @Override
        public byte[] keyData() {
            return keyData.clone();
        }

        @Override
        public byte[] value() {
            return value.clone();
        }

        boolean sameKey(long t, byte[] data) {
            return type == t && Arrays.equals(keyData, data);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entry e && sameKey(e.type, e.keyData) && Arrays.equals(value, e.value);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(type) * 31 + Arrays.hashCode(keyData);
        }
    }

    /** The map with no records. */
    public static final PsbtMap EMPTY = new PsbtMap(List.of());

    private final List<Entry> entries;

    private PsbtMap(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    static PsbtMap of(List<Entry> entries) {
        return new PsbtMap(entries);
    }

    /** The map's records in their order. */
    public List<Entry> entries() {
        return entries;
    }

    /** The value of the record with this type and no key data. */
    public Optional<byte[]> get(long type) {
        return get(type, new byte[0]);
    }

    /** The value of the record with this type and key data. */
    public Optional<byte[]> get(long type, byte[] keyData) {
        return entries.stream()
                .filter(e -> e.sameKey(type, keyData))
                .findFirst()
                .map(Entry::value);
    }

    /** Every record of a type (partial signatures, derivations: keyed by a public key). */
    public List<Entry> all(long type) {
        return entries.stream().filter(e -> e.type() == type).toList();
    }

    /** Whether the map has a record of this type, whatever its key data. */
    public boolean has(long type) {
        return entries.stream().anyMatch(e -> e.type() == type);
    }

    /** A copy with this record added, or replacing the record of the same key. */
    public PsbtMap with(long type, byte[] keyData, byte[] value) {
        List<Entry> next = new ArrayList<>(entries.size() + 1);
        boolean replaced = false;
        for (Entry e : entries) {
            if (e.sameKey(type, keyData)) {
                next.add(new Entry(type, keyData, value));
                replaced = true;
            } else {
                next.add(e);
            }
        }
        if (!replaced) {
            next.add(new Entry(type, keyData, value));
        }
        return new PsbtMap(next);
    }

    /** A copy with this record (no key data) added, or replacing the record of the same type. */
    public PsbtMap with(long type, byte[] value) {
        return with(type, new byte[0], value);
    }

    /** A copy keeping only the records whose type is not in {@code types}. */
    public PsbtMap without(long... types) {
        return new PsbtMap(entries.stream()
                .filter(e -> Arrays.stream(types).noneMatch(t -> t == e.type()))
                .toList());
    }

    /**
     * The union of two maps of the same transaction: every record of this map, then those of
     * {@code other} whose key this map lacks (BIP 174's Combiner may pick either value of a key).
     */
    PsbtMap merge(PsbtMap other) {
        List<Entry> next = new ArrayList<>(entries);
        for (Entry e : other.entries) {
            if (entries.stream().noneMatch(m -> m.sameKey(e.type(), e.keyData))) {
                next.add(e);
            }
        }
        return new PsbtMap(next);
    }

    void write(ByteArrayOutputStream out) {
        for (Entry e : entries) {
            byte[] type = VarInt.of(e.type()).serialize();
            out.writeBytes(VarInt.of(type.length + (long) e.keyData.length).serialize());
            out.writeBytes(type);
            out.writeBytes(e.keyData);
            out.writeBytes(VarInt.of(e.value.length).serialize());
            out.writeBytes(e.value);
        }
        out.write(0x00);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PsbtMap m && entries.equals(m.entries);
    }

    @Override
    public int hashCode() {
        return entries.hashCode();
    }
}
