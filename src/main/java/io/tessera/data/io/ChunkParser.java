package io.tessera.data.io;

import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TypeKind;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Parses a run of whole records (a chunk of a file that starts at a record start and ends at a record end or at
 * the end of the file) into a {@link RowBatch}. One instance per task; not thread-safe.
 *
 * <p>Rules (both formats): records end at LF or CRLF; a line with nothing on it is skipped (except in a
 * one-column table, where it is a record with one empty field); fields are not trimmed. An empty field is NULL in a nullable column and an error in a NOT NULL column, except:
 * <ul>
 *   <li>tbl: in a VARCHAR NOT NULL column an empty field is the empty string (tbl cannot tell the two apart);
 *       one trailing delimiter at the end of a line ends the record (dbgen writes one on every line);</li>
 *   <li>csv: a quoted empty field {@code ""} in a VARCHAR column is the empty string, an unquoted empty field is
 *       NULL (in other types both are NULL); a quote inside an unquoted field is an error.</li>
 * </ul>
 */
final class ChunkParser {

    /**
     * What a chunk produced: rows, or the first error with its line relative to the chunk's first line and what the
     * failing line suggests (null: nothing).
     */
    record Result(RowBatch batch, long lines, long errorLine, int errorColumn, String error, Hint hint) {
        boolean failed() {
            return error != null;
        }
    }

    /**
     * What a failing line suggests: the first line of a file that fails while the lines after it parse looks like a
     * header; a line without the delimiter that holds another common one ({@code ;}, {@code |}, tab) says which.
     */
    record Hint(boolean header, byte current, byte suggested) {
        /** The advice, as the options are spelt where the import was asked for. */
        String text(OptionSpelling spelling) {
            if (header) {
                return "the first line looks like a header: use " + spelling.header() + " to skip it";
            }
            return "the line holds no " + shown(current) + " but " + shown(suggested) + ": use "
                    + spelling.delimiter(suggested);
        }

        private static String shown(byte c) {
            return c == '\t' ? "tab" : "'" + (char) c + "'";
        }
    }

    /** Records after a failing first record that must parse for it to look like a header. */
    private static final int HEADER_PROBE_RECORDS = 100;
    /** Delimiters a line without the import's delimiter is searched for. */
    private static final byte[] OTHER_DELIMITERS = {';', '|', '\t', ','};

    /** A bad field; column is 0-based, -1 when the problem is not in one column. */
    private static final class FieldError extends RuntimeException {
        final int column;

        FieldError(int column, String message) {
            super(message, null, false, false);
            this.column = column;
        }
    }

    private final TableSchema schema;
    private final boolean csv;
    private final byte delim;
    private final int ncols;
    private final TypeKind[] kinds;
    private final DataType[] types;
    private final boolean[] nullable;
    private final FieldDecoder dec = new FieldDecoder();
    private final StringCache[] strings;
    private final int[] target; // each field's column in the batch, -1 where it is skipped
    private byte[] scratch = new byte[256];
    private ColumnBuilder[] out;
    private long line; // lines (LFs) passed since the chunk's start

    ChunkParser(TableSchema schema, ImportFormat format, byte delim, InvalidUtf8 invalidUtf8) {
        this(schema, schema, format, delim, invalidUtf8);
    }

    /**
     * A parser of records whose fields are {@code fields}' columns, keeping only those the table {@code schema}
     * has (by name; the others are skipped unparsed, so a query reads only the columns it names).
     */
    ChunkParser(TableSchema schema, TableSchema fields, ImportFormat format, byte delim, InvalidUtf8 invalidUtf8) {
        this.schema = schema;
        this.csv = format == ImportFormat.CSV;
        this.delim = delim;
        this.ncols = fields.columns().size();
        this.kinds = new TypeKind[ncols];
        this.types = new DataType[ncols];
        this.nullable = new boolean[ncols];
        this.strings = new StringCache[ncols];
        this.target = new int[ncols];
        for (int i = 0; i < ncols; i++) {
            ColumnSchema c = fields.columns().get(i);
            target[i] = fields == schema ? i : schema.indexOf(c.name());
            kinds[i] = c.type().kind();
            types[i] = c.type();
            nullable[i] = c.nullable();
            if (kinds[i] == TypeKind.VARCHAR) {
                strings[i] = new StringCache(invalidUtf8 == InvalidUtf8.ERROR, i);
            }
        }
    }

    /** Parses {@code buf[from, to)}; skips the first record when {@code skipHeader}. */
    Result parse(byte[] buf, int from, int to, boolean skipHeader) {
        return parse(buf, from, to, skipHeader, false);
    }

    /**
     * As {@link #parse(byte[], int, int, boolean)}; {@code fileStart}: the chunk is the first of its file, so that a
     * failing first record may be a header that was not skipped ({@link Hint}).
     */
    Result parse(byte[] buf, int from, int to, boolean skipHeader, boolean fileStart) {
        return parse(buf, from, to, skipHeader, fileStart, null);
    }

    /**
     * As {@link #parse(byte[], int, int, boolean, boolean)}, into {@code reuse} (an empty batch of the table's, written
     * already) when not null.
     */
    Result parse(byte[] buf, int from, int to, boolean skipHeader, boolean fileStart, RowBatch reuse) {
        RowBatch batch = reuse != null ? reuse : new RowBatch(schema, Math.max(16, (to - from) / 64));
        bind(batch);
        line = 0;
        int p = from;
        long recordLine = 0;
        int recordStart = from;
        boolean firstRecord = fileStart && !skipHeader;
        try {
            while (p < to) {
                recordLine = line;
                recordStart = p;
                byte c = buf[p];
                if (c == '\n' && ncols > 1) { // blank line (in a one-column table it is a NULL or empty value)
                    p++;
                    line++;
                    continue;
                }
                if (c == '\r' && ncols > 1 && (p + 1 == to || buf[p + 1] == '\n')) {
                    p += 2;
                    line++;
                    continue;
                }
                if (skipHeader) {
                    skipHeader = false;
                    p = csv ? headerRecord(buf, p, to) : tblHeader(buf, p, to);
                    continue;
                }
                p = csv ? csvRecord(buf, p, to) : tblRecord(buf, p, to);
                firstRecord = false;
            }
        } catch (FieldError e) {
            long errorLines = line;
            Hint hint = hint(buf, recordStart, to, firstRecord);
            return new Result(null, errorLines, recordLine, e.column, e.getMessage(), hint);
        }
        return new Result(batch, line, 0, -1, null, null);
    }

    private void bind(RowBatch batch) {
        out = new ColumnBuilder[ncols];
        for (int i = 0; i < ncols; i++) {
            out[i] = target[i] < 0 ? null : batch.column(target[i]);
        }
    }

    /**
     * What the record at {@code buf[start]} that failed suggests: another delimiter when it holds none of this one
     * but another common one; else, when it is a file's first record ({@code first}) and the records after it
     * parse, {@code --header}.
     */
    private Hint hint(byte[] buf, int start, int to, boolean first) {
        if (ncols < 2) {
            return null;
        }
        int end = start;
        while (end < to && buf[end] != '\n') {
            end++;
        }
        int[] counts = new int[OTHER_DELIMITERS.length];
        boolean hasDelim = false;
        for (int i = start; i < end; i++) {
            hasDelim |= buf[i] == delim;
            for (int k = 0; k < counts.length; k++) {
                if (buf[i] == OTHER_DELIMITERS[k]) {
                    counts[k]++;
                }
            }
        }
        if (!hasDelim) {
            int best = -1;
            for (int k = 0; k < counts.length; k++) {
                if (OTHER_DELIMITERS[k] != delim && counts[k] > 0 && (best < 0 || counts[k] > counts[best])) {
                    best = k;
                }
            }
            if (best >= 0) {
                return new Hint(false, delim, OTHER_DELIMITERS[best]);
            }
        }
        if (first && nextRecordsParse(buf, start, to)) {
            return new Hint(true, delim, delim);
        }
        return null;
    }

    /** Whether the records after the one at {@code buf[start]} (up to {@value #HEADER_PROBE_RECORDS}) parse. */
    private boolean nextRecordsParse(byte[] buf, int start, int to) {
        try {
            int p = csv ? headerRecord(buf, start, to) : tblHeader(buf, start, to);
            bind(new RowBatch(schema, HEADER_PROBE_RECORDS));
            int records = 0;
            while (p < to && records < HEADER_PROBE_RECORDS) {
                if (buf[p] == '\n' || buf[p] == '\r') {
                    p++;
                    continue;
                }
                p = csv ? csvRecord(buf, p, to) : tblRecord(buf, p, to);
                records++;
            }
            return records > 0;
        } catch (FieldError e) {
            return false;
        }
    }

    private int tblHeader(byte[] buf, int p, int to) {
        while (p < to && buf[p] != '\n') {
            p++;
        }
        if (p < to) {
            line++;
            p++;
        }
        return p;
    }

    /** A CSV header record: quoting is honoured so that a quoted line break in a name is skipped too. */
    private int headerRecord(byte[] buf, int p, int to) {
        boolean inQuote = false;
        for (; p < to; p++) {
            byte c = buf[p];
            if (c == '"') {
                inQuote = !inQuote;
            } else if (c == '\n') {
                line++;
                if (!inQuote) {
                    return p + 1;
                }
            }
        }
        if (inQuote) {
            throw new FieldError(-1, "unterminated quoted field in the header");
        }
        return p;
    }

    /** One tbl record starting at p; returns the position after its line end. */
    private int tblRecord(byte[] buf, int p, int to) {
        final byte d = delim;
        int col = 0;
        while (true) {
            int e = p;
            while (e < to) {
                byte c = buf[e];
                if (c == d || c == '\n') {
                    break;
                }
                e++;
            }
            boolean eol = e >= to || buf[e] == '\n';
            if (!eol) {
                if (col >= ncols) {
                    throw tooMany(col);
                }
                store(col, buf, p, e, false);
                col++;
                p = e + 1;
                continue;
            }
            int fe = e > p && buf[e - 1] == '\r' ? e - 1 : e;
            if (col == ncols && fe == p) {
                // the trailing delimiter that ends every dbgen line
            } else if (col == ncols - 1) {
                store(col, buf, p, fe, false);
            } else if (col < ncols) {
                throw tooFew(col + 1);
            } else {
                throw tooMany(col);
            }
            if (e < to) {
                line++;
                return e + 1;
            }
            return to;
        }
    }

    /** One CSV record starting at p; returns the position after its line end. */
    private int csvRecord(byte[] buf, int p, int to) {
        final byte d = delim;
        int col = 0;
        while (true) {
            int e;
            boolean eol;
            if (p < to && buf[p] == '"') {
                int q = p + 1;
                boolean doubled = false;
                while (true) {
                    if (q >= to) {
                        throw new FieldError(Math.min(col, ncols - 1), "unterminated quoted field");
                    }
                    byte c = buf[q];
                    if (c == '"') {
                        if (q + 1 < to && buf[q + 1] == '"') {
                            doubled = true;
                            q += 2;
                            continue;
                        }
                        break;
                    }
                    if (c == '\n') {
                        line++;
                    }
                    q++;
                }
                int after = q + 1;
                if (after < to && buf[after] == d) {
                    eol = false;
                    e = after;
                } else if (after >= to || buf[after] == '\n') {
                    eol = true;
                    e = after;
                } else if (buf[after] == '\r' && (after + 1 >= to || buf[after + 1] == '\n')) {
                    eol = true;
                    e = after + 1;
                } else {
                    throw new FieldError(Math.min(col, ncols - 1), "unexpected character after a closing quote");
                }
                if (col >= ncols) {
                    throw tooMany(col);
                }
                if (doubled) {
                    int n = unescape(buf, p + 1, q);
                    store(col, scratch, 0, n, true);
                } else {
                    store(col, buf, p + 1, q, true);
                }
            } else {
                e = p;
                while (e < to) {
                    byte c = buf[e];
                    if (c == d || c == '\n') {
                        break;
                    }
                    if (c == '"') {
                        throw new FieldError(Math.min(col, ncols - 1), "quote inside an unquoted field");
                    }
                    e++;
                }
                eol = e >= to || buf[e] == '\n';
                int fe = eol && e > p && buf[e - 1] == '\r' ? e - 1 : e;
                if (col >= ncols) {
                    throw tooMany(col);
                }
                store(col, buf, p, fe, false);
            }
            col++;
            if (eol) {
                if (col < ncols) {
                    throw tooFew(col + 1);
                }
                if (e < to) {
                    line++;
                    return e + 1;
                }
                return to;
            }
            p = e + 1;
        }
    }

    /** Copies a quoted field's content with doubled quotes made single into scratch; returns its length. */
    private int unescape(byte[] buf, int s, int e) {
        if (scratch.length < e - s) {
            scratch = new byte[Math.max(e - s, scratch.length * 2)];
        }
        int n = 0;
        for (int i = s; i < e; i++) {
            byte c = buf[i];
            scratch[n++] = c;
            if (c == '"') {
                i++; // the second quote of a pair
            }
        }
        return n;
    }

    private FieldError tooFew(int missingColumn1) {
        return new FieldError(missingColumn1 - 1, "missing: the record has " + (missingColumn1 - 1)
                + " fields, the table has " + ncols + " columns");
    }

    private FieldError tooMany(int extraColumn0) {
        return new FieldError(extraColumn0, "too many fields: the table has " + ncols + " columns");
    }

    private void store(int col, byte[] b, int s, int e, boolean quoted) {
        ColumnBuilder cb = out[col];
        if (cb == null) {
            return; // a field the table does not keep
        }
        TypeKind k = kinds[col];
        if (s == e) {
            if (k == TypeKind.VARCHAR && (quoted || (!csv && !nullable[col]))) {
                cb.appendString(emptyString(col));
            } else if (nullable[col]) {
                cb.appendNull();
            } else {
                throw new FieldError(col, "empty value (NULL) in a NOT NULL column");
            }
            return;
        }
        try {
            switch (k) {
                case INTEGER -> cb.appendInt(dec.parseInt(b, s, e));
                case BIGINT -> cb.appendLong(dec.parseLong(b, s, e));
                case DATE -> cb.appendInt(dec.parseDate(b, s, e));
                case TIMESTAMP -> cb.appendLong(dec.parseTimestamp(b, s, e));
                case TIMESTAMP_TZ -> cb.appendLong(dec.parseTimestampTz(b, s, e));
                case TIME -> cb.appendLong(dec.parseTime(b, s, e));
                case DECIMAL -> cb.appendLong(dec.parseDecimal(b, s, e, types[col].precision(), types[col].scale()));
                case DOUBLE -> cb.appendDouble(types[col].isReal() ? dec.parseReal(b, s, e) : dec.parseDouble(b, s, e));
                case BOOLEAN -> cb.appendBoolean(dec.parseBoolean(b, s, e));
                case VARCHAR -> cb.appendString(typedString(col, strings[col].get(b, s, e)));
            }
        } catch (IllegalArgumentException ex) {
            throw valueError(col, ex, b, s, e);
        }
    }

    // the rare paths are methods of their own, so that store stays small enough (under 325 bytes of bytecode)
    // to be inlined into the record loops

    /** The empty text as a value of the column: the empty string; no LIST or STRUCT is empty text. */
    private String emptyString(int col) {
        if (types[col].isNested()) {
            throw new FieldError(col, "empty text (\"\"), which is no " + types[col] + " value");
        }
        return "";
    }

    /**
     * A BLOB's text read as its bytes (\xAB escapes), a UUID's as its canonical text, an INTERVAL's (DuckDB's
     * spellings) as its code, a LIST's or a STRUCT's (DuckDB's text of it) as its encoding; text as it is.
     */
    private String typedString(int col, String text) {
        DataType t = types[col];
        return t.isNested() ? io.tessera.storage.NestedText.parse(text, t)
                : t.isInterval() ? io.tessera.storage.IntervalText.parse(text).encode()
                : t.isText() ? text : t.isBlob() ? io.tessera.storage.ByteStrings.parse(text)
                : io.tessera.storage.Uuids.parse(text);
    }

    private static FieldError utf8Error(int col, byte[] b, int s, int e) {
        return new FieldError(col, "invalid UTF-8 at byte " + (Utf8.firstInvalid(b, s, e) - s + 1)
                + " of the value: " + MessageText.quote(b, s, e)
                + " (use --invalid-utf8 replace to store U+FFFD instead)");
    }

    private static FieldError valueError(int col, IllegalArgumentException ex, byte[] b, int s, int e) {
        return new FieldError(col, MessageText.valueMessage(ex.getMessage(), b, s, e));
    }

    /**
     * Decodes the UTF-8 values of one column and reuses the String of a recently seen byte sequence, so repeated
     * short values cost no allocation. Strict: a value that is not well-formed UTF-8 is a FieldError (a cached
     * value was checked when it was cached); otherwise {@link Utf8#decodeReplacing} puts U+FFFD for what is invalid.
     */
    static final class StringCache {
        private static final int SIZE = 1024;
        private final byte[][] keys = new byte[SIZE][];
        private final String[] values = new String[SIZE];
        private final boolean strict;
        private final int column;

        StringCache(boolean strict, int column) {
            this.strict = strict;
            this.column = column;
        }

        String get(byte[] b, int s, int e) {
            int n = e - s;
            if (n > 64) {
                return decode(b, s, e);
            }
            int h = n;
            for (int i = s; i < e; i++) {
                h = 31 * h + b[i];
            }
            int slot = (h ^ (h >>> 16)) & (SIZE - 1);
            byte[] k = keys[slot];
            if (k != null && Arrays.equals(k, 0, k.length, b, s, e)) {
                return values[slot];
            }
            String v = decode(b, s, e);
            keys[slot] = Arrays.copyOfRange(b, s, e);
            values[slot] = v;
            return v;
        }

        private String decode(byte[] b, int s, int e) {
            if (Utf8.firstInvalid(b, s, e) >= 0) {
                if (strict) {
                    throw utf8Error(column, b, s, e);
                }
                return Utf8.decodeReplacing(b, s, e);
            }
            return new String(b, s, e - s, StandardCharsets.UTF_8);
        }
    }
}
