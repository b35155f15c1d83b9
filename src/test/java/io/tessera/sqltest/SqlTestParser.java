package io.tessera.sqltest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a {@code .test} file (the format is described in {@code src/test/resources/sql/README.md}) into records.
 * A record is a directive line and its body; records are separated by blank lines; {@code #} starts a comment line.
 */
final class SqlTestParser {

    private final String file;
    private final List<String> lines;
    private int at;

    private SqlTestParser(String file, List<String> lines) {
        this.file = file;
        this.lines = lines;
    }

    static List<SqlTestRecord> parse(String file, List<String> lines) {
        return new SqlTestParser(file, lines).records();
    }

    private List<SqlTestRecord> records() {
        List<SqlTestRecord> out = new ArrayList<>();
        while (at < lines.size()) {
            String l = lines.get(at);
            if (l.isBlank() || l.stripLeading().startsWith("#")) {
                at++;
                continue;
            }
            out.add(record(l.strip(), at + 1));
        }
        return out;
    }

    private SqlTestRecord record(String directive, int line) {
        at++;
        String[] w = directive.split("\\s+", 3);
        String head = w[0].toLowerCase(Locale.ROOT);
        switch (head) {
            case "statement" -> {
                if (w.length >= 2 && w[1].equals("ok") && w.length == 2) {
                    return new SqlTestRecord.Statement(line, sqlUntilBlank(line), null);
                }
                if (w.length >= 2 && w[1].equals("error")) {
                    return new SqlTestRecord.Statement(line, sqlUntilBlank(line), w.length == 3 ? w[2] : "");
                }
                throw bad(line, "expected 'statement ok' or 'statement error [<message substring>]'");
            }
            case "query" -> {
                if (w.length < 2 || !w[1].matches("[IRDTB]+")) {
                    throw bad(line, "expected 'query <column type letters I R D T B> [nosort|rowsort|valuesort]'");
                }
                SqlTestRecord.SortMode sort = w.length == 3 ? sortMode(w[2], line) : SqlTestRecord.SortMode.NOSORT;
                String sql = sqlUntilSeparator(line);
                return new SqlTestRecord.Query(line, sql, w[1], sort, linesUntilBlank());
            }
            case "explain", "placement" -> {
                if (w.length != 1) {
                    throw bad(line, "'" + head + "' takes no arguments");
                }
                String sql = sqlUntilSeparator(line);
                int from = at;
                List<String> expected = linesUntilBlank();
                return new SqlTestRecord.Golden(line, head.equals("explain") ? SqlTestRecord.Golden.Kind.EXPLAIN
                        : SqlTestRecord.Golden.Kind.PLACEMENT, sql, expected, from, at);
            }
            case "load" -> {
                return load(directive, line);
            }
            case "genomes" -> {
                if (w.length == 2 && (w[1].equals("covering") || w[1].equals("default"))) {
                    return new SqlTestRecord.Genomes(line, w[1].equals("covering"), java.util.Map.of());
                }
                throw bad(line, "expected 'genomes covering' or 'genomes default'");
            }
            case "genome" -> {
                java.util.Map<String, String> values = new java.util.LinkedHashMap<>();
                for (String kv : directive.substring("genome".length()).strip().split("\\s*,\\s*")) {
                    String[] p = kv.split("=", 2);
                    if (p.length != 2 || p[0].isBlank() || p[1].isBlank()) {
                        throw bad(line, "expected 'genome <dimension>=<value>[,<dimension>=<value>...]'");
                    }
                    values.put(p[0].strip(), p[1].strip());
                }
                return new SqlTestRecord.Genomes(line, false, values);
            }
            case "device" -> {
                if (w.length == 2 && (w[1].equals("gpu") || w[1].equals("cpu"))) {
                    return new SqlTestRecord.Device(line, w[1].equals("gpu"));
                }
                throw bad(line, "expected 'device cpu' or 'device gpu'");
            }
            default -> throw bad(line, "unknown directive '" + w[0] + "'");
        }
    }

    private SqlTestRecord load(String directive, int line) {
        String[] w = directive.split("\\s+", 3);
        if (w.length == 3 && (w[1].equals("ssb") || w[1].equals("tpch"))) {
            try {
                Double.parseDouble(w[2]);
            } catch (NumberFormatException e) {
                throw bad(line, "expected 'load " + w[1] + " <scale factor>'");
            }
            return new SqlTestRecord.Load(line, w[1], null, w[2], List.of());
        }
        if (w.length == 3 && w[1].equals("tiny")) {
            String rest = w[2].strip();
            int paren = rest.indexOf('(');
            if (paren <= 0 || !rest.endsWith(")")) {
                throw bad(line, "expected 'load tiny <table> (<column> <type> [NOT NULL], ...)'");
            }
            return new SqlTestRecord.Load(line, "tiny", rest.substring(0, paren).strip(),
                    rest.substring(paren + 1, rest.length() - 1), linesUntilBlank());
        }
        throw bad(line, "expected 'load tiny <table> (<columns>)', 'load ssb <sf>' or 'load tpch <sf>'");
    }

    private SqlTestRecord.SortMode sortMode(String s, int line) {
        try {
            return SqlTestRecord.SortMode.valueOf(s.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw bad(line, "unknown sort mode '" + s + "' (nosort, rowsort, valuesort)");
        }
    }

    /** SQL lines up to a blank line or the end of the file. */
    private String sqlUntilBlank(int line) {
        List<String> sql = linesUntilBlank();
        if (sql.isEmpty()) {
            throw bad(line, "the directive has no SQL");
        }
        return String.join("\n", sql);
    }

    /** SQL lines up to {@code ----}, which is consumed. */
    private String sqlUntilSeparator(int line) {
        List<String> sql = new ArrayList<>();
        while (at < lines.size() && !lines.get(at).strip().equals("----")) {
            if (lines.get(at).isBlank()) {
                throw bad(line, "a blank line before '----'");
            }
            sql.add(lines.get(at++));
        }
        if (at == lines.size()) {
            throw bad(line, "no '----' after the SQL");
        }
        at++;
        if (sql.isEmpty()) {
            throw bad(line, "the directive has no SQL");
        }
        return String.join("\n", sql);
    }

    private List<String> linesUntilBlank() {
        List<String> out = new ArrayList<>();
        while (at < lines.size() && !lines.get(at).isBlank()) {
            out.add(lines.get(at++));
        }
        return out;
    }

    private IllegalArgumentException bad(int line, String why) {
        return new IllegalArgumentException(file + ":" + line + ": " + why);
    }
}
