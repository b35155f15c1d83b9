package io.tessera.sqltest;

import io.tessera.data.Progress;
import io.tessera.data.ssb.SsbGenerator;
import io.tessera.data.tpch.TpchGenerator;
import io.tessera.exec.TinyTables;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.Database;
import io.tessera.storage.TableSchema;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The data of {@code load} directives: tiny tables written from the rows in the file, and SSB or TPC-H from the
 * project's generators, generated once per scale factor and run and shared by every file that loads it (such
 * files must not change their database).
 */
final class SqlTestData {

    private final Path root;
    private final Map<String, Path> generated = new HashMap<>();
    private int scratch;

    SqlTestData(Path root) {
        this.root = root;
    }

    /** A new empty database directory for a file's tiny tables and DDL. */
    Path scratch() {
        return root.resolve("db" + scratch++);
    }

    /** The database directory holding {@code benchmark} ("ssb" or "tpch") at scale factor {@code sf}. */
    synchronized Path benchmark(String benchmark, String sf) {
        return generated.computeIfAbsent(benchmark + "-" + sf, key -> {
            Path dir = root.resolve(key);
            double scale = Double.parseDouble(sf);
            try (Database db = Database.openOrCreate(dir)) {
                if (benchmark.equals("ssb")) {
                    new SsbGenerator(scale, SsbGenerator.DEFAULT_SEED).generate(db, Progress.silent());
                } else {
                    new TpchGenerator(scale).generate(db, Progress.silent());
                }
            }
            return dir;
        });
    }

    /** Writes table {@code name} with {@code columns} (DDL syntax) and the rows as written in the file. */
    static void writeTiny(Path dir, String name, String columns, List<String> rows) {
        TableSchema schema = TableSchema.parse(name, columns);
        List<Object[]> values = new ArrayList<>();
        for (String row : rows) {
            List<String> tokens = tokens(row);
            if (tokens.size() != schema.columns().size()) {
                throw new IllegalArgumentException("row '" + row + "' has " + tokens.size() + " values, the table "
                        + schema.columns().size() + " columns");
            }
            Object[] r = new Object[tokens.size()];
            for (int c = 0; c < r.length; c++) {
                r[c] = value(schema.columns().get(c), tokens.get(c));
            }
            values.add(r);
        }
        try {
            Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        TinyTables.write(dir, name, columns, values.toArray(Object[][]::new));
    }

    /** The Java value of one token: NULL, or the token (single quotes removed) read as the column's type. */
    private static Object value(ColumnSchema column, String token) {
        if (token.equals("NULL")) {
            return null;
        }
        String t = token.startsWith("'") ? token.substring(1, token.length() - 1).replace("''", "'") : token;
        return switch (column.type().kind()) {
            case INTEGER -> Integer.parseInt(t);
            case BIGINT -> Long.parseLong(t);
            case DOUBLE -> Double.parseDouble(t);
            case DECIMAL -> new BigDecimal(t);
            case DATE -> LocalDate.parse(t);
            case TIMESTAMP -> io.tessera.storage.Values.timestampOf(io.tessera.storage.Timestamps.parse(t));
            case TIMESTAMP_TZ -> io.tessera.storage.ZonedTimestamps.valueOf(io.tessera.storage.ZonedTimestamps.parse(t,
                    java.time.ZoneOffset.UTC), java.time.ZoneOffset.UTC);
            case TIME -> io.tessera.storage.Values.timeOf(io.tessera.storage.Timestamps.parseTime(t));
            case BOOLEAN -> Boolean.parseBoolean(t);
            // a BLOB written as DuckDB writes it (\xAB), a UUID in any of DuckDB's forms
            case VARCHAR -> column.type().isBlob() ? io.tessera.storage.ByteStrings.parse(t)
                    : column.type().isUuid() ? io.tessera.storage.Uuids.parse(t)
                    : column.type().isInterval() ? io.tessera.storage.IntervalText.parse(t).encode() : t;
        };
    }

    /** Splits a row on spaces; a value in single quotes may hold spaces ({@code ''} is a quote). */
    static List<String> tokens(String row) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = row.length();
        while (i < n) {
            char ch = row.charAt(i);
            if (Character.isWhitespace(ch)) {
                i++;
                continue;
            }
            int start = i;
            if (ch == '\'') {
                i++;
                while (i < n) {
                    if (row.charAt(i) == '\'') {
                        if (i + 1 < n && row.charAt(i + 1) == '\'') {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i++;
                }
                if (i >= n) {
                    throw new IllegalArgumentException("unclosed quote in row '" + row + "'");
                }
                i++;
            } else {
                while (i < n && !Character.isWhitespace(row.charAt(i))) {
                    i++;
                }
            }
            out.add(row.substring(start, i));
        }
        return out;
    }
}
