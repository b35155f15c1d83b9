package io.tessera.data.io;

import io.tessera.storage.DataType;
import io.tessera.storage.Timestamps;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Guesses a CSV file's dialect and schema from its first records, as DuckDB's {@code read_csv} does for the common
 * cases: the delimiter (comma, semicolon, tab or bar: the one that splits the sample into the same number of fields,
 * more than one, on every record), the types (BOOLEAN, BIGINT, DOUBLE, DATE, TIMESTAMP, TIME, else VARCHAR: the
 * first that every non-empty value of the column parses as, by the importer's own field decoder), and whether the
 * first record is a header (some value of it does not parse as its column's type; in a file of text columns, when
 * its values are all present and distinct). A header gives the names; without one they are {@code column0}, {@code column1}, ...
 * A value further on that does not fit the guessed type fails the import naming file, line and column.
 */
public final class CsvSniffer {

    /** Bytes read to guess: about DuckDB's sample of 20,480 rows for narrow files. */
    static final int SAMPLE_BYTES = 1 << 20;
    private static final int SAMPLE_RECORDS = 20_480;
    private static final byte[] DELIMITERS = {',', '|', ';', '\t'};

    /** What was guessed (or given): the delimiter, whether a header comes first, the columns' names and types. */
    public record Dialect(byte delimiter, boolean header, List<String> names, List<DataType> types) {
    }

    private CsvSniffer() {
    }

    /**
     * Guesses what {@code delimiter} (null: guess) and {@code header} (null: guess) leave open, reading the first
     * {@link #SAMPLE_BYTES} of the file by position (the channel stays open and its position unchanged).
     */
    public static Dialect sniff(SourceFile file, FileChannel ch, Byte delimiter, Boolean header) {
        byte[] sample;
        boolean whole;
        try {
            long size = ch.size();
            int n = (int) Math.min(size, SAMPLE_BYTES);
            ByteBuffer b = ByteBuffer.allocate(n);
            while (b.hasRemaining() && ch.read(b, b.position()) >= 0) {
                // read on
            }
            sample = b.array();
            whole = n == size;
        } catch (IOException e) {
            throw new ImportException(file.name(), file.name() + ": cannot read: " + e.getMessage(), e);
        }
        String text = new String(sample, StandardCharsets.UTF_8);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        byte delim = delimiter != null ? delimiter : guessDelimiter(text, whole);
        List<List<String>> records = records(text, (char) delim, whole);
        if (records.isEmpty()) {
            throw new ImportException(file.name(), 0, 0, file.name() + ": the file is empty: no columns to read");
        }
        int width = records.getFirst().size();
        List<DataType> types = new ArrayList<>();
        for (int c = 0; c < width; c++) {
            types.add(columnType(records, c, 1));
        }
        boolean hasHeader = header != null ? header : records.size() > 1 && looksLikeHeader(records, types);
        if (!hasHeader) {
            for (int c = 0; c < width; c++) {
                types.set(c, columnType(records, c, 0));
            }
        }
        List<String> names = new ArrayList<>();
        for (int c = 0; c < width; c++) {
            names.add(hasHeader ? records.getFirst().get(c) : "column" + c);
        }
        return new Dialect(delim, hasHeader, names, types);
    }

    private static boolean looksLikeHeader(List<List<String>> records, List<DataType> types) {
        List<String> first = records.getFirst();
        boolean allText = true;
        for (int c = 0; c < first.size(); c++) {
            if (types.get(c) != DataType.VARCHAR) {
                allText = false;
                String v = first.get(c);
                if (!v.isEmpty() && !parses(v, types.get(c))) {
                    return true;
                }
            }
        }
        return allText && first.stream().noneMatch(String::isEmpty) && first.stream().distinct().count() == first.size();
    }

    /**
     * The first type of BOOLEAN, BIGINT, DOUBLE, DATE, TIMESTAMP WITH TIME ZONE, TIMESTAMP, TIME that every
     * non-empty value from record {@code from} takes (a date alone is a DATE before it is a TIMESTAMP; a date and time
     * with an offset a TIMESTAMP WITH TIME ZONE, as DuckDB sniffs it; a date and time a TIMESTAMP before the TIME
     * parser, which passes over a date, sees it).
     */
    private static DataType columnType(List<List<String>> records, int c, int from) {
        List<DataType> candidates = new ArrayList<>(List.of(DataType.BOOLEAN, DataType.BIGINT, DataType.DOUBLE,
                DataType.DATE, DataType.TIMESTAMP_TZ, DataType.TIMESTAMP, DataType.TIME));
        boolean any = false;
        for (int r = from; r < records.size() && !candidates.isEmpty(); r++) {
            List<String> rec = records.get(r);
            String v = c < rec.size() ? rec.get(c) : "";
            if (v.isEmpty()) {
                continue;
            }
            any = true;
            candidates.removeIf(t -> !parses(v, t));
        }
        return any && !candidates.isEmpty() ? candidates.getFirst() : DataType.VARCHAR;
    }

    private static boolean parses(String v, DataType t) {
        byte[] b = v.getBytes(StandardCharsets.UTF_8);
        FieldDecoder d = new FieldDecoder();
        try {
            switch (t.kind()) {
                case BOOLEAN -> {
                    // a word (true, f, yes, no) as DuckDB's sniffer takes it; 0 and 1 are numbers there, though a
                    // BOOLEAN column loads them
                    if (!Character.isLetter(v.charAt(0))) {
                        return false;
                    }
                    d.parseBoolean(b, 0, b.length);
                }
                case BIGINT -> d.parseLong(b, 0, b.length);
                case DOUBLE -> d.parseDouble(b, 0, b.length);
                case DATE -> d.parseDate(b, 0, b.length);
                case TIMESTAMP -> d.parseTimestamp(b, 0, b.length);
                case TIMESTAMP_TZ -> {
                    return Timestamps.parseWithOffset(v).offsetSeconds() != Timestamps.NO_OFFSET;
                }
                case TIME -> d.parseTime(b, 0, b.length);
                default -> {
                    return true;
                }
            }
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The delimiter that splits every sampled record into the same number of fields, most fields first. */
    private static byte guessDelimiter(String text, boolean whole) {
        byte best = ',';
        int bestWidth = 1;
        for (byte d : DELIMITERS) {
            List<List<String>> records = records(text, (char) d, whole);
            if (records.isEmpty()) {
                continue;
            }
            int width = records.getFirst().size();
            boolean even = records.stream().allMatch(r -> r.size() == width);
            if (even && width > bestWidth) {
                best = d;
                bestWidth = width;
            }
        }
        return best;
    }

    /**
     * The sample's records split into fields (quotes removed, doubled quotes read as one); blank lines skipped; a
     * last record cut off by the end of the sample dropped.
     */
    private static List<List<String>> records(String text, char delim, boolean whole) {
        List<List<String>> records = new ArrayList<>();
        List<String> fields = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        int i = 0;
        while (i < text.length() && records.size() < SAMPLE_RECORDS) {
            char c = text.charAt(i++);
            if (quoted) {
                if (c == '"') {
                    if (i < text.length() && text.charAt(i) == '"') {
                        f.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    f.append(c);
                }
            } else if (c == '"') {
                quoted = true;
                any = true;
            } else if (c == delim) {
                fields.add(f.toString());
                f.setLength(0);
                any = true;
            } else if (c == '\n' || c == '\r') {
                if (c == '\r' && i < text.length() && text.charAt(i) == '\n') {
                    i++;
                }
                if (any || f.length() > 0) {
                    fields.add(f.toString());
                    records.add(fields);
                }
                fields = new ArrayList<>();
                f.setLength(0);
                any = false;
            } else {
                f.append(c);
                any = true;
            }
        }
        if (whole && !quoted && (any || f.length() > 0) && records.size() < SAMPLE_RECORDS) {
            fields.add(f.toString());
            records.add(fields);
        }
        return records;
    }
}
