package io.tessera.storage;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One stored column: values in a memory-mapped, little-endian file, a validity bitmap only where the column
 * has nulls (bit set = valid), and for VARCHAR the order-preserving dictionary. Files are mapped, and their
 * checksums verified, the first time they are used.
 */
public final class Column {

    public static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    public static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    public static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private final ColumnSchema schema;
    private final long rowCount;
    private final ColumnStats stats;
    private final FileEntry dataFile;
    private final FileEntry validityFile;
    private final FileEntry dictionaryFile;
    private final SegmentSource source;
    private final Column sliceOf; // the whole column a slice shares its files and dictionary with, else null
    private volatile MemorySegment data;
    private volatile MemorySegment validity;
    private volatile Dictionary dictionary;

    /** Maps a file of the database, verifying its checksum once. */
    interface SegmentSource {
        MemorySegment map(FileEntry file);
    }

    Column(ColumnSchema schema, long rowCount, ColumnStats stats, FileEntry dataFile, FileEntry validityFile,
           FileEntry dictionaryFile, SegmentSource source) {
        this.schema = schema;
        this.rowCount = rowCount;
        this.stats = stats;
        this.dataFile = dataFile;
        this.validityFile = validityFile;
        this.dictionaryFile = dictionaryFile;
        this.source = source;
        this.sliceOf = null;
    }

    private Column(Column whole, long fromRow, long toRow) {
        this.schema = whole.schema;
        this.rowCount = toRow - fromRow;
        this.stats = whole.stats;
        this.dataFile = whole.dataFile;
        this.validityFile = whole.validityFile;
        this.dictionaryFile = whole.dictionaryFile;
        this.sliceOf = whole;
        int width = whole.type().kind().byteWidth();
        this.source = f -> {
            if (f == whole.dataFile) {
                return whole.data().asSlice(fromRow * width, rowCount * width);
            }
            MemorySegment v = whole.validity();
            long offset = (fromRow >>> 6) << 3;
            return v.asSlice(offset, Math.min(v.byteSize() - offset, ((rowCount + 63) >>> 6) << 3));
        };
    }

    /**
     * Rows {@code [fromRow, toRow)} of this column as a column of their own, sharing its mapped files and dictionary.
     * {@code fromRow} is a multiple of 64 (a word of the validity bitmap). Its statistics are this column's: bounds
     * that hold for the slice too (min, max, unique), estimates that may be larger than the slice's.
     */
    Column slice(long fromRow, long toRow) {
        return new Column(this, fromRow, toRow);
    }
    public String name() {
        return schema.name();
    }

    public DataType type() {
        return schema.type();
    }

    public ColumnSchema schema() {
        return schema;
    }

    public long rowCount() {
        return rowCount;
    }

    public ColumnStats stats() {
        return stats;
    }

    public boolean hasNulls() {
        return validityFile != null;
    }

    FileEntry dataFile() {
        return dataFile;
    }

    FileEntry validityFile() {
        return validityFile;
    }

    FileEntry dictionaryFile() {
        return dictionaryFile;
    }

    /** The values, {@code rowCount * type().kind().byteWidth()} bytes. */
    public MemorySegment data() {
        MemorySegment d = data;
        if (d == null) {
            synchronized (this) {
                if (data == null) {
                    data = source.map(dataFile);
                }
                d = data;
            }
        }
        return d;
    }

    /** The validity bitmap (bit set = valid, 64-bit little-endian words), or null when there are no nulls. */
    public MemorySegment validity() {
        if (validityFile == null) {
            return null;
        }
        MemorySegment v = validity;
        if (v == null) {
            synchronized (this) {
                if (validity == null) {
                    validity = source.map(validityFile);
                }
                v = validity;
            }
        }
        return v;
    }

    /** The dictionary of a VARCHAR column. */
    public Dictionary dictionary() {
        if (dictionaryFile == null) {
            throw new IllegalStateException("column " + name() + " is " + type() + ", it has no dictionary");
        }
        if (sliceOf != null) {
            return sliceOf.dictionary();
        }
        Dictionary d = dictionary;
        if (d == null) {
            synchronized (this) {
                if (dictionary == null) {
                    dictionary = Dictionary.open(source.map(dictionaryFile), dictionaryFile.path());
                }
                d = dictionary;
            }
        }
        return d;
    }

    public boolean isNull(long row) {
        MemorySegment v = validity();
        return v != null && (v.get(LONG, (row >>> 6) << 3) & (1L << (row & 63))) == 0;
    }

    /** INTEGER, DATE (days), VARCHAR (code). */
    public int getInt(long row) {
        return data().get(INT, row << 2);
    }

    /** BIGINT, DECIMAL (unscaled). */
    public long getLong(long row) {
        return data().get(LONG, row << 3);
    }

    public double getDouble(long row) {
        return data().get(DOUBLE, row << 3);
    }

    public boolean getBoolean(long row) {
        return data().get(ValueLayout.JAVA_BYTE, row) != 0;
    }

    public String getString(long row) {
        return isNull(row) ? null : dictionary().value(getInt(row));
    }

    /**
     * The value as a Java object: Integer, Long, Double, Float (REAL), BigDecimal, LocalDate, LocalDateTime, OffsetDateTime (in UTC), LocalTime, Boolean,
     * String, byte[] (BLOB), UUID, ListValue, StructValue or MapValue; null for NULL.
     */
    public Object getObject(long row) {
        if (isNull(row)) {
            return null;
        }
        return switch (type().kind()) {
            case INTEGER -> getInt(row);
            case DATE -> Values.dateOf(getInt(row));
            case VARCHAR -> type().isList()
                    ? ListCodec.nested(dictionary().value(getInt(row)), type(), java.time.ZoneOffset.UTC)
                    : type().isStruct()
                    ? StructCodec.value(dictionary().value(getInt(row)), type(), java.time.ZoneOffset.UTC)
                    : Values.stringObject(dictionary().value(getInt(row)), type());
            case BIGINT -> getLong(row);
            case TIMESTAMP -> Values.timestampOf(getLong(row));
            case TIMESTAMP_TZ -> ZonedTimestamps.valueOf(getLong(row), java.time.ZoneOffset.UTC);
            case TIME -> Values.timeOf(getLong(row));
            case DECIMAL -> Values.decimalOf(getLong(row), type().scale());
            case DOUBLE -> type().isReal() ? (Object) (float) getDouble(row) : (Object) getDouble(row);
            case BOOLEAN -> getBoolean(row);
        };
    }

    @Override
    public String toString() {
        return schema + " [" + rowCount + " rows]";
    }
}
