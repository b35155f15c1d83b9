package io.tessera.data.io;

import io.tessera.storage.Column;
import io.tessera.storage.DataType;
import io.tessera.storage.Dictionary;
import io.tessera.storage.Table;
import io.tessera.storage.TypeKind;
import io.tessera.storage.Timestamps;
import io.tessera.storage.Values;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Writes a table as text that {@link TableImporter} reads back to the same values.
 * <ul>
 *   <li>csv: a header line of column names; RFC 4180 quoting where a value holds the delimiter, a quote, CR or
 *       LF, or starts with a quote; NULL as an empty field, the empty string as {@code ""}; LF line ends.</li>
 *   <li>tbl: fields followed by the delimiter (so every line ends with it), no header, no quoting; NULL and the
 *       empty string are both an empty field, and a string holding the delimiter or a line break is an error.</li>
 * </ul>
 * DECIMAL is written with its scale in plain notation, DOUBLE in plain notation (never an exponent), DATE as
 * yyyy-mm-dd, BOOLEAN as true/false. The file is written under a temporary name and renamed into place.
 */
public final class TableExporter {

    private TableExporter() {
    }

    /** Writes the table to {@code out}; returns the number of rows. */
    public static long export(Table table, Path out, ImportFormat format, byte delimiter) {
        Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
        boolean csv = format == ImportFormat.CSV;
        long rows = table.rowCount();
        try (OutputStream os = Files.newOutputStream(tmp)) {
            write(table, os, csv, delimiter, csv ? table.columns().stream().map(Column::name).toList() : null);
        } catch (IOException e) {
            deleteQuietly(tmp);
            throw new ImportException(out.toString(), "cannot write " + out + ": "
                    + MessageText.writeFailure(out, e), e);
        } catch (RuntimeException e) {
            deleteQuietly(tmp);
            throw e;
        }
        try {
            try {
                Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            deleteQuietly(tmp);
            throw new ImportException(out.toString(), "cannot write " + out + ": "
                    + MessageText.writeFailure(out, e), e);
        }
        return rows;
    }

    /**
     * Writes the table's rows to {@code os} as CSV ({@code csv}) or tbl, after a header line of {@code header}
     * (null: none; a name is quoted as a value is); the caller closes the stream.
     */
    public static void write(Table table, OutputStream os, boolean csv, byte delimiter, List<String> header)
            throws IOException {
        if (!csv) {
            ListColumns.refuse(table.schema(), "export", table.name());
        }
        List<Column> cols = table.columns();
        int nc = cols.size();
        byte[][][] dicts = new byte[nc][][];
        for (int i = 0; i < nc; i++) {
            Column c = cols.get(i);
            if (c.type().kind() == TypeKind.VARCHAR && c.rowCount() > 0) {
                Dictionary d = c.dictionary();
                dicts[i] = new byte[d.size()][];
                for (int k = 0; k < d.size(); k++) {
                    // a BLOB as DuckDB writes it (\xAB for each byte that is not printable ASCII), an INTERVAL
                    // as DuckDB's text of it, a LIST or a STRUCT too ([1, 2], {'a': x})
                    String v = c.type().isBlob() ? io.tessera.storage.ByteStrings.format(d.value(k))
                            : c.type().isInterval() ? io.tessera.storage.Interval.decode(d.value(k)).toString()
                            : c.type().isNested() ? io.tessera.storage.ListCodec.nested(d.value(k), c.type(),
                                    java.time.ZoneOffset.UTC).toString()
                            : d.value(k);
                    dicts[i][k] = encodeString(v, csv, delimiter, table.name(), c.name());
                }
            }
        }
        long rows = table.rowCount();
        Out w = new Out(os);
        if (header != null) {
            for (int i = 0; i < header.size(); i++) {
                if (i > 0) {
                    w.put(delimiter);
                }
                w.put(encodeString(header.get(i), csv, delimiter, table.name(), header.get(i)));
            }
            w.put((byte) '\n');
        }
        for (long r = 0; r < rows; r++) {
            for (int i = 0; i < nc; i++) {
                if (i > 0 && csv) {
                    w.put(delimiter);
                }
                Column c = cols.get(i);
                if (!c.isNull(r)) {
                    writeValue(w, c, r, dicts[i]);
                }
                if (!csv) {
                    w.put(delimiter);
                }
            }
            w.put((byte) '\n');
        }
        w.flush();
    }

    private static void writeValue(Out w, Column c, long r, byte[][] dict) {
        DataType t = c.type();
        switch (t.kind()) {
            case INTEGER -> w.putLong(c.getInt(r));
            case BIGINT -> w.putLong(c.getLong(r));
            case DECIMAL -> w.put(Values.formatDecimal(c.getLong(r), t.scale()));
            case DOUBLE -> w.put(c.type().isReal() ? io.tessera.storage.Floats.format(c.getDouble(r))
                    : Values.formatDouble(c.getDouble(r)));
            case DATE -> w.put(Timestamps.formatDate(c.getInt(r))); // as DuckDB writes it: 300000-01-01, (BC)
            case TIMESTAMP -> w.put(Timestamps.format(c.getLong(r)));
            case TIMESTAMP_TZ -> w.put(io.tessera.storage.ZonedTimestamps.format(c.getLong(r), java.time.ZoneOffset.UTC));
            case TIME -> w.put(Timestamps.formatTime(c.getLong(r)));
            case BOOLEAN -> w.put(c.getBoolean(r) ? "true" : "false");
            case VARCHAR -> w.put(dict[c.getInt(r)]);
        }
    }

    private static byte[] encodeString(String s, boolean csv, byte delim, String table, String column) {
        boolean special = s.indexOf(delim) >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0;
        if (!csv) {
            if (special) {
                throw new IllegalArgumentException("cannot export table " + table + " as tbl: a value of column "
                        + column + " holds the delimiter or a line break (use csv)");
            }
            return s.getBytes(StandardCharsets.UTF_8);
        }
        if (s.isEmpty() || special || s.indexOf('"') >= 0) {
            return ('"' + s.replace("\"", "\"\"") + '"').getBytes(StandardCharsets.UTF_8);
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // nothing else to do; the temporary name is never read
        }
    }

    /** A byte buffer in front of a stream, with an allocation-free integer writer. */
    private static final class Out {
        private final OutputStream os;
        private final byte[] buf = new byte[1 << 20];
        private final byte[] digits = new byte[20];
        private int n;

        Out(OutputStream os) {
            this.os = os;
        }

        void put(byte b) {
            if (n == buf.length) {
                flushUnchecked();
            }
            buf[n++] = b;
        }

        void put(byte[] b) {
            if (n + b.length > buf.length) {
                flushUnchecked();
                if (b.length > buf.length) {
                    try {
                        os.write(b);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    return;
                }
            }
            System.arraycopy(b, 0, buf, n, b.length);
            n += b.length;
        }

        void put(String ascii) {
            put(ascii.getBytes(StandardCharsets.UTF_8));
        }

        void putLong(long v) {
            if (v == Long.MIN_VALUE) {
                put(Long.toString(v));
                return;
            }
            if (v < 0) {
                put((byte) '-');
                v = -v;
            }
            int k = digits.length;
            do {
                digits[--k] = (byte) ('0' + v % 10);
                v /= 10;
            } while (v != 0);
            if (n + (digits.length - k) > buf.length) {
                flushUnchecked();
            }
            System.arraycopy(digits, k, buf, n, digits.length - k);
            n += digits.length - k;
        }

        private void flushUnchecked() {
            try {
                os.write(buf, 0, n);
                n = 0;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        void flush() throws IOException {
            os.write(buf, 0, n);
            n = 0;
            os.flush();
        }
    }
}
