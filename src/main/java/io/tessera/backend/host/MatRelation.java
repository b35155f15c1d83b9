package io.tessera.backend.host;

import io.tessera.backend.ValueKind;
import io.tessera.plan.ColumnInfo;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * A materialized relation: rows in a {@link RowBuffer} whose VARCHAR columns are codes (never Strings) into the
 * dictionaries registered under the columns' keys. Later pipelines read it through {@link #columnData}, the
 * host's readers value by value ({@link #value}).
 */
public final class MatRelation implements ResultRelation {

    public final RowBuffer rows;
    public final List<ColumnInfo> columns;
    private List<ColumnData> data;
    /** Per column, the dictionary of a VARCHAR column (null otherwise). */
    public io.tessera.storage.Dictionary[] dictionaries;

    public MatRelation(RowBuffer rows, List<ColumnInfo> columns) {
        this.rows = rows;
        this.columns = columns;
    }

    @Override
    public int rowCount() {
        return rows.size;
    }

    @Override
    public List<ColumnInfo> columns() {
        return columns;
    }

    @Override
    public Object value(int c, int r, java.time.ZoneId zone) {
        RowBuffer b = rows;
        if (b.isNull(c, r)) {
            return null;
        }
        ColumnInfo ci = columns.get(c);
        return switch (ci.type().kind()) {
            case INTEGER -> b.kinds[c] == ValueKind.LONG ? (int) b.longs[c][r] : b.ints[c][r];
            case BIGINT -> b.kinds[c] == ValueKind.INT ? (long) b.ints[c][r] : b.longs[c][r];
            case DOUBLE -> ci.type().isReal() ? (Object) (float) b.doubles[c][r] : (Object) b.doubles[c][r];
            case DECIMAL -> java.math.BigDecimal.valueOf(b.longs[c][r], ci.type().scale());
            case DATE -> java.time.LocalDate.ofEpochDay(b.ints[c][r]);
            case TIMESTAMP -> io.tessera.storage.Values.timestampOf(b.longs[c][r]);
            case TIMESTAMP_TZ -> io.tessera.storage.ZonedTimestamps.valueOf(b.longs[c][r], zone);
            case TIME -> io.tessera.storage.Values.timeOf(b.longs[c][r]);
            case BOOLEAN -> b.bytes[c][r] != 0;
            // an INTERVAL as DuckDB's driver gives it: its text; a LIST as a ListValue, a STRUCT as a StructValue
            case VARCHAR -> ci.type().isInterval()
                    ? io.tessera.storage.Interval.decode(dictionaries[c].value(b.ints[c][r])).toString()
                    : ci.type().isList()
                    ? io.tessera.storage.ListCodec.nested(dictionaries[c].value(b.ints[c][r]), ci.type(), zone)
                    : ci.type().isStruct()
                    ? io.tessera.storage.StructCodec.value(dictionaries[c].value(b.ints[c][r]), ci.type(), zone)
                    : io.tessera.storage.Values.stringObject(dictionaries[c].value(b.ints[c][r]), ci.type());
        };
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
