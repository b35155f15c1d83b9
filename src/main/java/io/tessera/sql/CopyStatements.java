package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImplConstants;

import java.util.List;
import java.util.Locale;

/**
 * Reads {@code COPY table FROM 'file' [[WITH] (FORMAT csv|tbl|parquet, HEADER [true|false], DELIMITER 'c')]}, the SQL form
 * of {@code tessera import}, and {@code COPY (query) TO 'file' [(FORMAT csv|parquet, HEADER false, DELIMITER 'c')]},
 * and DuckDB's {@code EXPORT DATABASE 'dir' [(options)]} and {@code IMPORT DATABASE 'dir'} (COPY FROM also reads
 * the options DuckDB's exports write: QUOTE '"', ALLOW_QUOTED_NULLS false, FORCE_NOT_NULL),
 * with Calcite's tokenizer (COPY is not in Calcite's grammar). Anything else after COPY is an error naming its
 * position: column lists are refused as unsupported. {@code COPY table TO 'file'} is {@code COPY (SELECT * FROM
 * table) TO 'file'}.
 */
final class CopyStatements {

    private static final String FORM = "COPY table FROM 'file' [(FORMAT csv|tbl|parquet, HEADER, DELIMITER 'c')]";

    private final String sql;
    private final List<LeadingTokens.Token> tokens;
    private int next = 1; // after COPY
    private LeadingTokens.Token formatValue; // the FORMAT option's value, where one is given

    private CopyStatements(String sql) {
        this.sql = sql;
        this.tokens = LeadingTokens.read(sql, Integer.MAX_VALUE);
    }

    static Statement parse(String sql) {
        return new CopyStatements(sql).copy();
    }

    private Statement copy() {
        if (peek().is(TesseraParserImplConstants.LPAREN)) {
            return copyQueryTo();
        }
        String table = name(peek());
        next++;
        LeadingTokens.Token t = take();
        if (t.is(TesseraParserImplConstants.TO)) {
            next--;
            // the table's rows, its name quoted as a name (never read as SQL)
            return copyTo("SELECT * FROM \"" + table.replace("\"", "\"\"") + "\"");
        }
        if (t.is(TesseraParserImplConstants.LPAREN)) {
            throw SupportCheck.unsupported("a column list in COPY", pos(t));
        }
        if (!t.is(TesseraParserImplConstants.FROM)) {
            throw expected("FROM", t);
        }
        t = take();
        if (!t.is(TesseraParserImplConstants.QUOTED_STRING)) {
            throw expected("the file's name in single quotes", t);
        }
        String file = unquote(t.image(), '\'');
        Options o = options(false);
        return new Statement.Copy(table, file, o.format, o.header, o.delimiter, o.forceNotNull);
    }

    /** {@code EXPORT DATABASE 'directory' [(FORMAT csv|parquet, DELIMITER 'c')]} or {@code IMPORT DATABASE 'dir'}. */
    static Statement parseDatabase(String sql) {
        return new CopyStatements(sql).database();
    }

    private Statement database() {
        boolean export = tokens.getFirst().named("EXPORT");
        LeadingTokens.Token t = take();
        if (!t.named("DATABASE")) {
            throw expected("DATABASE", t);
        }
        t = take();
        if (!t.is(TesseraParserImplConstants.QUOTED_STRING)) {
            throw expected("the directory's name in single quotes", t);
        }
        String directory = unquote(t.image(), '\'');
        if (!export) {
            if (!peek().isEnd()) {
                throw expected("the end of the statement", peek());
            }
            return new Statement.ImportDatabase(directory);
        }
        Options o = options(true);
        if ("tbl".equals(o.format)) {
            throw SupportCheck.unsupported("EXPORT DATABASE in FORMAT tbl (csv or parquet)", pos(formatValue));
        }
        if (!o.header || !o.forceNotNull.isEmpty()) {
            throw SupportCheck.unsupported("EXPORT DATABASE's options other than FORMAT and DELIMITER",
                    pos(tokens.getFirst()));
        }
        return new Statement.ExportDatabase(directory, o.format, o.delimiter);
    }

    /**
     * {@code COPY (query) TO 'file' [[WITH] (FORMAT csv|parquet, HEADER [true|false], DELIMITER 'c')]}: the query is
     * the text between the parentheses, parsed when it is planned.
     */
    private Statement.CopyTo copyQueryTo() {
        LeadingTokens.Token open = take();
        int depth = 1;
        LeadingTokens.Token t = open;
        while (depth > 0) {
            t = take();
            if (t.isEnd()) {
                throw expected("')' after the query", t);
            }
            depth += t.is(TesseraParserImplConstants.LPAREN) ? 1 : t.is(TesseraParserImplConstants.RPAREN) ? -1 : 0;
        }
        String query = sql.substring(open.offset() + 1, t.offset()).strip();
        if (query.isEmpty()) {
            throw expected("a query in the parentheses", t);
        }
        return copyTo(query);
    }

    /** The rest of a COPY ... TO after its query or table: TO 'file' and the options. */
    private Statement.CopyTo copyTo(String query) {
        LeadingTokens.Token t = take();
        if (!t.is(TesseraParserImplConstants.TO)) {
            throw SupportCheck.unsupported("COPY (query) " + (t.isEnd() ? "without TO" : t.image())
                    + " (the form is COPY (query) TO 'file')", pos(t));
        }
        t = take();
        if (!t.is(TesseraParserImplConstants.QUOTED_STRING)) {
            throw expected("the file's name in single quotes", t);
        }
        String file = unquote(t.image(), '\'');
        Options o = options(true);
        if ("tbl".equals(o.format)) {
            throw SupportCheck.unsupported("COPY (query) TO in FORMAT tbl (csv or parquet)", pos(formatValue));
        }
        return new Statement.CopyTo(query, file, o.format, o.header, o.delimiter);
    }

    /** COPY's options; {@code headerDefault}: HEADER when no option says otherwise. */
    private record Options(String format, boolean header, String delimiter, List<String> forceNotNull) {
    }

    private Options options(boolean headerDefault) {
        String format = null;
        boolean header = headerDefault;
        String delimiter = null;
        List<String> forceNotNull = new java.util.ArrayList<>();
        if (peek().is(TesseraParserImplConstants.WITH)) {
            next++;
        }
        if (peek().is(TesseraParserImplConstants.LPAREN)) {
            next++;
            while (true) {
                LeadingTokens.Token option = take();
                String name = option.image().toUpperCase(Locale.ROOT);
                switch (name) {
                    case "FORMAT" -> {
                        LeadingTokens.Token v = take();
                        formatValue = v;
                        format = v.is(TesseraParserImplConstants.QUOTED_STRING) ? unquote(v.image(), '\'') : v.image();
                        format = format.toLowerCase(Locale.ROOT);
                        if (!format.equals("csv") && !format.equals("tbl") && !format.equals("parquet")) {
                            throw SupportCheck.unsupported("COPY format " + v.image() + " (csv, tbl or parquet)", pos(v));
                        }
                    }
                    case "HEADER" -> {
                        header = true;
                        LeadingTokens.Token v = peek();
                        if (v.is(TesseraParserImplConstants.TRUE) || v.is(TesseraParserImplConstants.FALSE)) {
                            header = v.is(TesseraParserImplConstants.TRUE);
                            next++;
                        } else if (v.image().equals("0") || v.image().equals("1")) {
                            header = v.image().equals("1"); // as DuckDB's EXPORT DATABASE writes it
                            next++;
                        }
                    }
                    case "QUOTE" -> {
                        // the double quote, CSV's and Tessera's only quote (DuckDB's EXPORT DATABASE names it)
                        LeadingTokens.Token v = take();
                        if (!v.is(TesseraParserImplConstants.QUOTED_STRING) || !unquote(v.image(), '\'').equals("\"")) {
                            throw SupportCheck.unsupported("COPY option QUOTE other than '\"'", pos(v));
                        }
                    }
                    case "ALLOW_QUOTED_NULLS" -> {
                        // a quoted empty field ("") is an empty string, never NULL: Tessera's reading
                        LeadingTokens.Token v = take();
                        if (!v.is(TesseraParserImplConstants.FALSE) && !v.image().equals("0")) {
                            throw SupportCheck.unsupported("COPY option ALLOW_QUOTED_NULLS true (\"\" is read as"
                                    + " an empty string)", pos(v));
                        }
                    }
                    case "FORCE_NOT_NULL" -> forceNotNull.addAll(columnNames());
                    case "DELIMITER", "DELIM", "SEP" -> {
                        LeadingTokens.Token v = take();
                        if (!v.is(TesseraParserImplConstants.QUOTED_STRING)) {
                            throw expected("the delimiter in single quotes", v);
                        }
                        delimiter = unquote(v.image(), '\'');
                    }
                    default -> throw SupportCheck.unsupported("COPY option " + option.image()
                            + " (FORMAT, HEADER, DELIMITER, QUOTE, ALLOW_QUOTED_NULLS, FORCE_NOT_NULL)", pos(option));
                }
                LeadingTokens.Token sep = take();
                if (sep.is(TesseraParserImplConstants.RPAREN)) {
                    break;
                }
                if (!sep.is(TesseraParserImplConstants.COMMA)) {
                    throw expected("',' or ')'", sep);
                }
            }
        }
        if (!peek().isEnd()) {
            throw expected("the end of the statement", peek());
        }
        return new Options(format, header, delimiter, forceNotNull);
    }

    /** FORCE_NOT_NULL's columns: {@code 'a'}, {@code ('a', 'b')} or {@code (a, b)}, as written. */
    private List<String> columnNames() {
        LeadingTokens.Token v = take();
        if (v.is(TesseraParserImplConstants.QUOTED_STRING)) {
            return List.of(unquote(v.image(), '\''));
        }
        if (!v.is(TesseraParserImplConstants.LPAREN)) {
            throw expected("a column's name in quotes or a list of them in parentheses", v);
        }
        List<String> names = new java.util.ArrayList<>();
        while (true) {
            LeadingTokens.Token n = take();
            names.add(n.is(TesseraParserImplConstants.QUOTED_STRING) ? unquote(n.image(), '\'') : name(n));
            LeadingTokens.Token sep = take();
            if (sep.is(TesseraParserImplConstants.RPAREN)) {
                return names;
            }
            if (!sep.is(TesseraParserImplConstants.COMMA)) {
                throw expected("',' or ')'", sep);
            }
        }
    }

    /** A table name: a word or a quoted name, as written (a table is found ignoring case). */
    private String name(LeadingTokens.Token t) {
        if (t.is(TesseraParserImplConstants.QUOTED_IDENTIFIER)) {
            return unquote(t.image(), '"');
        }
        String word = t.image();
        boolean isWord = !word.isEmpty() && Character.isLetter(word.charAt(0))
                && word.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_' || c == '$');
        if (isWord && ReservedWords.isReserved(word)) {
            throw ParseErrors.reservedWord(word, pos(t), null);
        }
        if (!isWord || t.isEnd()) {
            throw expected("a table name (" + FORM + ")", t);
        }
        return word;
    }

    private LeadingTokens.Token peek() {
        if (next >= tokens.size()) {
            // the tokenizer stopped: what follows is not SQL text
            int at = tokens.isEmpty() ? 0 : tokens.getLast().offset() + tokens.getLast().image().length();
            throw new SqlError("syntax error in COPY near '" + sql.substring(Math.min(at, sql.length()),
                    Math.min(sql.length(), at + 20)) + "' (" + FORM + ")");
        }
        return tokens.get(next);
    }

    private LeadingTokens.Token take() {
        LeadingTokens.Token t = peek();
        if (!t.isEnd()) {
            next++;
        }
        return t;
    }

    private static SqlError expected(String what, LeadingTokens.Token t) {
        return new SqlError("syntax error" + t.at() + ": expected " + what + ", found "
                + (t.isEnd() ? "the end" : "'" + t.image() + "'") + " (" + FORM + ")");
    }

    private static org.apache.calcite.sql.parser.SqlParserPos pos(LeadingTokens.Token t) {
        return new org.apache.calcite.sql.parser.SqlParserPos(t.line(), t.column());
    }

    /** The text between the quotes of a quoted token, a doubled quote read as one. */
    /** A quoted token's text without its quotes, each doubled quote inside made one. */
    static String unquote(String image, char quote) {
        String q = String.valueOf(quote);
        return image.substring(1, image.length() - 1).replace(q + q, q);
    }
}
