package io.tessera.data.parquet;

import io.tessera.data.io.InvalidUtf8;
import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.ListCodec;
import io.tessera.storage.MapEntries;
import org.apache.parquet.VersionParser;
import org.apache.parquet.column.impl.ColumnReaderImpl;

import java.util.List;

/**
 * The chunks of a nested Parquet column ({@link SourceColumn#nested}: a STRUCT or a LIST of STRUCTs, holding STRUCTs
 * and LISTs to any depth), one per primitive leaf, read into the column's values row by row. Every leaf
 * under a node carries the node's levels: a definition level below a node's own is a NULL struct, a NULL list or a
 * NULL element, and takes exactly one entry of each leaf under the node; at a list's own it is an empty list; a
 * repetition level at or above a list's continues the list. Each value is stored as its encoding
 * ({@link io.tessera.storage.StructCodec}, {@link ListCodec}), a nested value's encoding being its parent's text.
 */
final class NestedChunks {
    private final Leaf[] leaves;
    /** The leaves under each node of the column, counted once rather than per value. */
    private final java.util.Map<SourceColumn, Integer> counts = new java.util.IdentityHashMap<>();
    private int next; // the leaf a node's subtree starts at, as the tree is walked

    private NestedChunks(Leaf[] leaves, SourceColumn column) {
        this.leaves = leaves;
        count(column);
    }

    private int count(SourceColumn node) {
        int n = node.nested() ? node.fields().stream().mapToInt(this::count).sum() : 1;
        counts.put(node, n);
        return n;
    }

    /** One leaf's reader, the text of its current value, and how many of its entries are left. */
    private static final class Leaf {
        final ColumnReaderImpl reader;
        final ListChunks.Element value;
        long left;

        Leaf(ColumnReaderImpl reader, ListChunks.Element value, long left) {
            this.reader = reader;
            this.value = value;
            this.left = left;
        }

        int definition() {
            if (left <= 0) {
                throw new IllegalArgumentException("the chunk of " + String.join(".",
                        reader.getDescriptor().getPath()) + " ends before its row group does");
            }
            return reader.getCurrentDefinitionLevel();
        }

        void consume() {
            reader.consume();
            left--;
        }
    }

    /** Appends {@code rows} values of {@code src} to {@code out}; an IllegalArgumentException names what is wrong. */
    static void read(SourceColumn src, ColumnSchema target, List<ChunkPages> pages, ColumnBuilder out,
                     VersionParser.ParsedVersion writer, int rows, InvalidUtf8 invalidUtf8) {
        List<SourceColumn> sources = src.leaves();
        Leaf[] leaves = new Leaf[sources.size()];
        for (int k = 0; k < leaves.length; k++) {
            ListChunks.Element value = new ListChunks.Element(sources.get(k), invalidUtf8);
            leaves[k] = new Leaf(new ColumnReaderImpl(sources.get(k).descriptor(), pages.get(k), value, writer),
                    value, pages.get(k).getTotalValueCount());
        }
        NestedChunks chunks = new NestedChunks(leaves, src);
        for (int r = 0; r < rows; r++) {
            chunks.next = 0;
            String v = chunks.value(src, 0, 0);
            if (v == null) {
                if (!target.nullable()) {
                    throw new IllegalArgumentException("NULL in a NOT NULL column");
                }
                out.appendNull();
            } else {
                out.appendString(v);
            }
        }
        for (Leaf leaf : leaves) {
            if (leaf.left != 0) {
                throw new IllegalArgumentException("the chunk of " + String.join(".",
                        leaf.reader.getDescriptor().getPath()) + " holds " + leaf.left + " values past its row group");
            }
        }
    }

    /**
     * The text of the next value of {@code node} (null for NULL), its parent present at definition level
     * {@code def} and its lists repeated from level {@code rep}; consumes the node's entries of its leaves.
     */
    private String value(SourceColumn node, int def, int rep) {
        int first = next;
        int count = counts.get(node);
        next += count;
        Leaf lead = leaves[first];
        int own = def + (node.optional() ? 1 : 0);
        if (!node.nested() && !node.list()) {
            String text = null;
            if (lead.definition() >= own) {
                lead.reader.writeCurrentValueToConverter();
                text = lead.value.text;
            }
            lead.consume();
            return text;
        }
        if (lead.definition() < own) { // a NULL struct or list
            skip(first, count);
            return null;
        }
        if (!node.list()) {
            StringBuilder struct = new StringBuilder();
            next = first;
            for (SourceColumn f : node.fields()) {
                ListCodec.append(struct, value(f, own, rep));
            }
            return struct.toString();
        }
        StringBuilder list = new StringBuilder();
        if (lead.definition() == own) { // the list is there, with no element
            skip(first, count);
            return list.toString();
        }
        int maxDefinition = node.descriptor() == null ? 0 : node.descriptor().getMaxDefinitionLevel();
        do {
            next = first;
            if (node.nested()) {
                ListCodec.append(list, value(node.fields().get(0), own + 1, rep + 1));
            } else {
                String text = null;
                if (lead.definition() >= maxDefinition) {
                    lead.reader.writeCurrentValueToConverter();
                    text = lead.value.text;
                }
                lead.consume();
                ListCodec.append(list, text);
            }
        } while (lead.left > 0 && lead.reader.getCurrentRepetitionLevel() > rep);
        next = first + count;
        if (node.natural() != null && node.natural().isMap()) {
            MapEntries.check(list.toString(), node.natural()); // a file's map holds each key once, none NULL
        }
        return list.toString();
    }

    /** Takes one entry of each of the {@code count} leaves from {@code first}: a NULL or empty node's. */
    private void skip(int first, int count) {
        for (int k = first; k < first + count; k++) {
            leaves[k].definition();
            leaves[k].consume();
        }
    }
}
