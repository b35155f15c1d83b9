package io.tessera.backend.jvm.relation;

import io.tessera.plan.ColumnInfo;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * A materialized relation: rows in a {@link RowBuffer} whose VARCHAR columns are codes (never Strings) into the
 * dictionaries registered under the columns' keys. Later pipelines read it through {@link #columnData}.
 */
public final class MatRelation {

    public final RowBuffer rows;
    public final List<ColumnInfo> columns;
    private List<ColumnData> data;
    /** Per column, the dictionary of a VARCHAR column (null otherwise). */
    public io.tessera.storage.Dictionary[] dictionaries;

    public MatRelation(RowBuffer rows, List<ColumnInfo> columns) {
        this.rows = rows;
        this.columns = columns;
    }

    public int rowCount() {
        return rows.size;
    }

    public List<ColumnInfo> columns() {
        return columns;
    }

    public synchronized List<ColumnData> columnData(java.util.function.Function<String, io.tessera.storage.Dictionary> dicts) {
        if (data == null) {
            data = new ArrayList<>();
            for (int c = 0; c < columns.size(); c++) {
                MemorySegment seg = switch (rows.kinds[c]) {
                    case INT, CODE -> MemorySegment.ofArray(rows.ints[c]);
                    case LONG -> MemorySegment.ofArray(rows.longs[c]);
                    case DOUBLE -> MemorySegment.ofArray(rows.doubles[c]);
                    case BOOL -> MemorySegment.ofArray(rows.bytes[c]);
                    case STRING -> throw new IllegalStateException("relation column " + c + " holds strings");
                };
                MemorySegment valid = null;
                if (rows.nulls[c] != null) {
                    long[] v = new long[(rows.size + 64) >>> 6];
                    for (int w = 0; w < v.length; w++) {
                        v[w] = w < rows.nulls[c].length ? ~rows.nulls[c][w] : -1L;
                    }
                    valid = MemorySegment.ofArray(v);
                }
                ColumnInfo ci = columns.get(c);
                data.add(new ColumnData(ci.type(), seg, valid, ci.dictionaryKey() == null ? null : dicts.apply(ci.dictionaryKey())));
            }
        }
        return data;
    }
}
