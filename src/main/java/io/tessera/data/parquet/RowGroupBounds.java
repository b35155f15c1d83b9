package io.tessera.data.parquet;

import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Statistics;
import org.apache.parquet.format.Type;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Bounds a query puts on a file's integer or DECIMAL columns ({@code id > 2500}), and which row groups their
 * statistics say may hold a row within them: a row group whose minimum and maximum rule a bound out is not read.
 * Only the exact statistics of signed INT32 and INT64 columns are used ({@code min_value}, {@code max_value}); a
 * row group without them is read.
 */
public record RowGroupBounds(List<Bound> bounds) {

    /** The comparison of a bound: the column's value, then the operator, then {@code value}. */
    public enum Op { LT, LE, GT, GE, EQ }

    /** {@code column op value}, where {@code column} is the file's column name. */
    public record Bound(String column, Op op, BigDecimal value) {
    }

    public static final RowGroupBounds NONE = new RowGroupBounds(List.of());

    public RowGroupBounds {
        bounds = List.copyOf(bounds);
    }

    /** Whether row group {@code rg} of {@code file} may hold a row within every bound. */
    boolean mayMatch(ParquetFile file, RowGroup rg) {
        for (Bound b : bounds) {
            for (SourceColumn c : file.columns()) {
                if (!c.name().equals(b.column()) || c.reason() != null || !(c.kind() == SourceColumn.Kind.INTEGER
                        || c.kind() == SourceColumn.Kind.DECIMAL) || c.index() >= rg.getColumnsSize()) {
                    continue;
                }
                ColumnChunk chunk = rg.getColumns().get(c.index());
                BigDecimal[] range = range(chunk, c.scale());
                if (range != null && !within(range[0], range[1], b)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean within(BigDecimal min, BigDecimal max, Bound b) {
        return switch (b.op()) {
            case LT -> min.compareTo(b.value()) < 0;
            case LE -> min.compareTo(b.value()) <= 0;
            case GT -> max.compareTo(b.value()) > 0;
            case GE -> max.compareTo(b.value()) >= 0;
            case EQ -> min.compareTo(b.value()) <= 0 && max.compareTo(b.value()) >= 0;
        };
    }

    /** The chunk's minimum and maximum as numbers, or null where its statistics do not say them exactly. */
    private static BigDecimal[] range(ColumnChunk chunk, int scale) {
        if (chunk.getMeta_data() == null || !chunk.getMeta_data().isSetStatistics()) {
            return null;
        }
        Type type = chunk.getMeta_data().getType();
        Statistics s = chunk.getMeta_data().getStatistics();
        if (type != Type.INT32 && type != Type.INT64 || !s.isSetMin_value() || !s.isSetMax_value()) {
            return null;
        }
        Long min = integer(s.getMin_value(), type);
        Long max = integer(s.getMax_value(), type);
        if (min == null || max == null) {
            return null;
        }
        return new BigDecimal[] {BigDecimal.valueOf(min, scale), BigDecimal.valueOf(max, scale)};
    }

    private static Long integer(byte[] plain, Type type) {
        ByteBuffer b = ByteBuffer.wrap(plain).order(ByteOrder.LITTLE_ENDIAN);
        if (type == Type.INT32 && plain.length == 4) {
            return (long) b.getInt();
        }
        if (type == Type.INT64 && plain.length == 8) {
            return b.getLong();
        }
        return null;
    }
}
