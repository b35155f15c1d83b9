package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImplConstants;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.ddl.SqlCreateView;
import org.apache.calcite.sql.ddl.SqlDropTable;
import org.apache.calcite.sql.ddl.SqlDropView;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

import java.util.List;
import java.util.Locale;

import static io.tessera.sql.parser.TesseraParserImplConstants.COMMA;
import static io.tessera.sql.parser.TesseraParserImplConstants.CREATE;
import static io.tessera.sql.parser.TesseraParserImplConstants.DELETE;
import static io.tessera.sql.parser.TesseraParserImplConstants.DROP;
import static io.tessera.sql.parser.TesseraParserImplConstants.EXPLAIN;
import static io.tessera.sql.parser.TesseraParserImplConstants.FOR;
import static io.tessera.sql.parser.TesseraParserImplConstants.INSERT;
import static io.tessera.sql.parser.TesseraParserImplConstants.LPAREN;
import static io.tessera.sql.parser.TesseraParserImplConstants.OR;
import static io.tessera.sql.parser.TesseraParserImplConstants.PLAN;
import static io.tessera.sql.parser.TesseraParserImplConstants.REPLACE;
import static io.tessera.sql.parser.TesseraParserImplConstants.RPAREN;
import static io.tessera.sql.parser.TesseraParserImplConstants.TABLE;
import static io.tessera.sql.parser.TesseraParserImplConstants.UPDATE;
import static io.tessera.sql.parser.TesseraParserImplConstants.VIEW;

/**
 * Reads one statement. Its first tokens ({@link LeadingTokens}) say what it is: CREATE and DROP (tables, views,
 * CREATE TABLE AS), ALTER TABLE, INSERT, UPDATE and DELETE are parsed whole by Tessera's parser (Calcite's grammar with Tessera's
 * reserved words and table definitions, {@code src/main/codegen}); EXPLAIN, EXPLAIN PLAN FOR and Tessera's EXPLAIN
 * CODE are followed by a query; COPY is Tessera's ({@link CopyStatements}); CREATE and DROP of macros, sequences and
 * indexes are read from their tokens ({@link MacroStatements}, {@link SequenceStatements},
 * {@link IndexStatements}); SHOW TABLES is a query of {@link InformationSchema}; anything else is a query, parsed
 * once, when it is planned. Errors name their position as the rest of the front end does.
 */
public final class StatementParser {

    /** The forms of EXPLAIN, for an error about another. */
    private static final String EXPLAIN_FORMS = "EXPLAIN query, EXPLAIN PLAN FOR query, EXPLAIN CODE query, "
            + "EXPLAIN ANALYZE query, EXPLAIN (ANALYZE, FORMAT JSON) query";

    /** SHOW TABLES: the tables and views by name, as DuckDB lists them. */
    private static final String SHOW_TABLES =
            "SELECT table_name AS name FROM information_schema.tables ORDER BY table_name";
    /** SHOW ALL TABLES: each table and view with its columns' names and types, as DuckDB lists them. */
    private static final String SHOW_ALL_TABLES = "SELECT table_catalog AS \"database\", table_schema AS \"schema\","
            + " table_name AS name, list(column_name ORDER BY ordinal_position) AS column_names,"
            + " list(data_type ORDER BY ordinal_position) AS column_types, false AS \"temporary\""
            + " FROM information_schema.columns GROUP BY ALL ORDER BY name";
    /** The PRAGMAs Tessera has, for an error about another. */
    private static final String PRAGMAS = "PRAGMA table_info('table'), PRAGMA show_tables, PRAGMA show_tables_expanded,"
            + " PRAGMA version, PRAGMA database_size";

    private StatementParser() {
    }

    /** The statement in {@code sql}; trailing semicolons are allowed. */
    public static Statement parse(String sql) {
        String s = stripTrailingSemicolons(sql);
        List<LeadingTokens.Token> head = LeadingTokens.read(s, 10);
        if (head.isEmpty()) {
            return new Statement.Query(s);
        }
        LeadingTokens.Token first = head.getFirst();
        if ((first.is(CREATE) || first.is(DROP)) && MacroStatements.is(head)) {
            return MacroStatements.parse(s);
        }
        if ((first.is(CREATE) || first.is(DROP)) && SequenceStatements.isSequence(head)) {
            return SequenceStatements.parse(s);
        }
        if ((first.is(CREATE) || first.is(DROP)) && IndexStatements.isIndex(head)) {
            return IndexStatements.parse(s);
        }
        if (first.is(CREATE) || first.is(DROP)) {
            rejectOtherObjects(head);
            return tableDefinition(s);
        }
        if (first.is(INSERT) || first.is(UPDATE) || first.is(DELETE)
                || first.is(TesseraParserImplConstants.ALTER) && head.size() > 1 && head.get(1).is(TABLE)) {
            return tableDefinition(s);
        }
        if (first.isWord("COPY")) {
            return CopyStatements.parse(s);
        }
        if ((first.named("EXPORT") || first.named("IMPORT")) && head.size() > 1 && head.get(1).named("DATABASE")) {
            return CopyStatements.parseDatabase(s);
        }
        if (first.is(EXPLAIN)) {
            return explain(s, head);
        }
        if ((first.is(TesseraParserImplConstants.SET) || first.is(TesseraParserImplConstants.RESET))
                && head.size() > 1 && head.get(1).named("VARIABLE")) {
            return SessionVariables.parse(s, head);
        }
        if (first.is(TesseraParserImplConstants.SET) || first.is(TesseraParserImplConstants.RESET)) {
            return SessionSettings.parse(s);
        }
        if (first.is(TesseraParserImplConstants.SELECT) && head.size() > 1 && head.get(1).isWord("SETSEED")) {
            return SessionSettings.setseed(s);
        }
        if (first.is(TesseraParserImplConstants.SHOW) && head.size() > 1 && !head.get(1).isEnd()) {
            return show(s, head);
        }
        if (first.isWord("PRAGMA")) {
            return pragma(head);
        }
        if (first.is(TesseraParserImplConstants.DESCRIBE) && head.size() > 1 && !head.get(1).isEnd()) {
            return describe(s, describedAt(head));
        }
        if (first.isWord("SUMMARIZE") && head.size() > 1 && !head.get(1).isEnd()) {
            return new Statement.Summarize(((Statement.Describe) describe(s, describedAt(head))).query());
        }
        return new Statement.Query(s);
    }

    private static Statement explain(String s, List<LeadingTokens.Token> head) {
        Statement.Explain.Kind kind = Statement.Explain.Kind.PLAN;
        int query = 1;
        boolean analyze = false;
        boolean json = false;
        if (head.size() > 2 && head.get(1).is(LPAREN) && isExplainOption(head.get(2))) {
            // PostgreSQL's option list: EXPLAIN (ANALYZE, FORMAT JSON) query
            int i = 2;
            while (true) {
                LeadingTokens.Token option = head.get(i);
                if (option.named("ANALYZE")) {
                    analyze = true;
                    i++;
                } else if (option.named("FORMAT") && i + 1 < head.size()
                        && (head.get(i + 1).named("JSON") || head.get(i + 1).named("TEXT"))) {
                    json = head.get(i + 1).named("JSON");
                    i += 2;
                } else {
                    throw new SqlError("unsupported: EXPLAIN option" + option.at() + "; the options are ANALYZE and "
                            + "FORMAT TEXT or JSON");
                }
                if (i >= head.size() || head.get(i).is(RPAREN)) {
                    break;
                }
                if (!head.get(i).is(COMMA) || i + 1 >= head.size()) {
                    throw new SqlError("syntax error" + head.get(i).at() + ": EXPLAIN's options are separated by commas"
                            + " and closed by )");
                }
                i++;
            }
            query = i + 1;
        } else if (head.size() > 1 && head.get(1).named("ANALYZE")) {
            analyze = true;
            query = 2;
        }
        if (head.size() > query && head.get(query).isWord("CODE")) {
            if (json) {
                throw new SqlError("unsupported: EXPLAIN CODE in FORMAT JSON" + head.get(query).at()
                        + "; JSON is for plans");
            }
            kind = Statement.Explain.Kind.CODE;
            query++;
        } else if (!analyze && !json && head.size() > 1 && head.get(1).is(PLAN)) {
            if (head.size() < 3 || !head.get(2).is(FOR)) {
                // Calcite's options (WITH TYPE, AS JSON, ...) describe its own plans, not Tessera's pipelines
                SqlFrontEnd.parse(s);
                throw new SqlError("unsupported: EXPLAIN PLAN options" + head.get(Math.min(2, head.size() - 1)).at()
                        + "; the forms are "
                        + EXPLAIN_FORMS);
            }
            query = 3;
        }
        if (head.size() <= query) {
            // the tokenizer stopped before the query: the query parser names the error, at its place in s
            LeadingTokens.Token last = head.getLast();
            SqlFrontEnd.parse(blankBefore(s, last.offset() + last.image().length()));
        }
        LeadingTokens.Token start = head.get(Math.min(query, head.size() - 1));
        if (head.size() <= query || start.isEnd()) {
            throw new SqlError("syntax error" + start.at() + ": EXPLAIN needs a query (" + EXPLAIN_FORMS + ")");
        }
        return new Statement.Explain(kind, s.substring(start.offset()), analyze, json);
    }

    /** A word that opens EXPLAIN's option list, where {@code (} could also open a query in parentheses. */
    private static boolean isExplainOption(LeadingTokens.Token t) {
        return t.named("ANALYZE") || t.named("FORMAT");
    }

    /** SHOW TABLES, SHOW ALL TABLES, or as DuckDB has it, SHOW of a table or query: its DESCRIBE. */
    private static Statement show(String s, List<LeadingTokens.Token> head) {
        if (head.size() == 3 && head.get(1).named("TABLES") && head.get(2).isEnd()) {
            return new Statement.Query(SHOW_TABLES);
        }
        if (head.size() == 4 && head.get(1).named("ALL") && head.get(2).named("TABLES") && head.get(3).isEnd()) {
            return new Statement.Query(SHOW_ALL_TABLES);
        }
        if (head.get(1).named("DATABASES") && head.size() > 2 && head.get(2).isEnd()) {
            throw SupportCheck.unsupported("SHOW DATABASES",
                    new org.apache.calcite.sql.parser.SqlParserPos(head.getFirst().line(), head.getFirst().column()));
        }
        return describe(s, head.get(1));
    }

    /**
     * DuckDB's PRAGMAs that list the catalog: {@code table_info('t')} (or of a name), {@code show_tables} and
     * {@code show_tables_expanded}; another is an error naming it.
     */
    private static Statement pragma(List<LeadingTokens.Token> head) {
        LeadingTokens.Token name = head.size() > 1 ? head.get(1) : head.getFirst();
        boolean ends = head.size() > 2 && head.get(2).isEnd();
        if (name.named("SHOW_TABLES") && ends) {
            return new Statement.Query(SHOW_TABLES);
        }
        if (name.named("SHOW_TABLES_EXPANDED") && ends) {
            return new Statement.Query(SHOW_ALL_TABLES);
        }
        if (name.named("VERSION") && ends) {
            return new Statement.Query("SELECT * FROM pragma_version()");
        }
        if (name.named("DATABASE_SIZE") && ends) {
            return new Statement.Query("SELECT * FROM pragma_database_size()");
        }
        if (name.named("TABLE_INFO")) {
            if (head.size() > 5 && head.get(2).is(LPAREN) && head.get(4).is(RPAREN) && head.get(5).isEnd()) {
                LeadingTokens.Token table = head.get(3);
                // a string names the table as its text (not as a file, as a string in FROM would)
                String identifier = table.is(TesseraParserImplConstants.QUOTED_STRING)
                        ? "\"" + CopyStatements.unquote(table.image(), '\'').replace("\"", "\"\"") + "\""
                        : table.is(TesseraParserImplConstants.IDENTIFIER)
                                || table.is(TesseraParserImplConstants.QUOTED_IDENTIFIER) ? table.image() : null;
                if (identifier != null) {
                    return new Statement.Describe("SELECT * FROM " + identifier, Statement.Describe.Form.TABLE_INFO);
                }
            }
            throw new SqlError("syntax error" + name.at() + ": PRAGMA table_info names one table: "
                    + "PRAGMA table_info('table')");
        }
        if (name == head.getFirst() || name.isEnd()) {
            throw new SqlError("syntax error" + head.getFirst().at() + ": PRAGMA needs a name (" + PRAGMAS + ")");
        }
        throw new SqlError("unsupported: PRAGMA " + name.image() + name.at() + "; Tessera has " + PRAGMAS);
    }

    /** The token after DESCRIBE or SUMMARIZE that starts what it describes: after TABLE in DESCRIBE TABLE t. */
    private static LeadingTokens.Token describedAt(List<LeadingTokens.Token> head) {
        return head.get(1).is(TABLE) && head.size() > 2 && !head.get(2).isEnd() ? head.get(2) : head.get(1);
    }

    /** DESCRIBE of a query (a FROM-first one too), or of a file or table (a query of all its columns). */
    private static Statement describe(String s, LeadingTokens.Token next) {
        String rest = s.substring(next.offset());
        boolean query = next.is(TesseraParserImplConstants.SELECT) || next.is(TesseraParserImplConstants.WITH)
                || next.is(TesseraParserImplConstants.VALUES) || next.is(TesseraParserImplConstants.LPAREN)
                || next.is(TesseraParserImplConstants.FROM);
        return new Statement.Describe(query ? rest : "SELECT * FROM " + rest);
    }

    private static Statement tableDefinition(String s) {
        SqlNode node;
        try {
            node = SqlParser.create(s, SqlFrontEnd.PARSER).parseStmt();
        } catch (SqlParseException e) {
            throw ParseErrors.of(e, s);
        }
        return switch (node) {
            case SqlCreateTable create when create.query != null -> TableDefinitions.createAs(create, queryText(s));
            case SqlCreateTable create -> TableDefinitions.create(create, s);
            case SqlDropTable drop -> TableDefinitions.drop(drop);
            case SqlCreateView view -> TableDefinitions.createView(view, queryText(s));
            case SqlDropView drop -> TableDefinitions.dropView(drop);
            case AlterTableNode alter -> new Statement.AlterTable(TableDefinitions.tableName(alter.table), s);
            case SqlInsert insert -> new Statement.Insert(TableDefinitions.target(
                    insert.getTargetTable()), s);
            case SqlUpdate update -> new Statement.Update(TableDefinitions.target(
                    update.getTargetTable()), s);
            case SqlDelete delete -> new Statement.Delete(TableDefinitions.target(
                    delete.getTargetTable()), s);
            default -> throw SupportCheck.unsupported(node.getKind().name().replace('_', ' ')
                    .toUpperCase(Locale.ROOT), node.getParserPosition());
        };
    }

    /**
     * CREATE or DROP of something other than a table or a view (a schema, an index, a function, ...): unsupported,
     * named by its word. Where no word follows, the parser names the error.
     */
    private static void rejectOtherObjects(List<LeadingTokens.Token> head) {
        int object = 1;
        if (head.getFirst().is(CREATE) && head.size() > 2 && head.get(1).is(OR) && head.get(2).is(REPLACE)) {
            object = 3;
        }
        if (head.size() <= object) {
            return;
        }
        LeadingTokens.Token t = head.get(object);
        boolean word = !t.isEnd() && t.image().chars().allMatch(c -> Character.isLetter(c) || c == '_');
        if (word && !t.is(TABLE) && !t.is(VIEW)) {
            throw SupportCheck.unsupported(head.getFirst().image().toUpperCase(Locale.ROOT) + " "
                    + t.image().toUpperCase(Locale.ROOT),
                    new org.apache.calcite.sql.parser.SqlParserPos(head.getFirst().line(), head.getFirst().column()));
        }
    }

    /**
     * The query of {@code CREATE ... AS query} as written: the text after the first AS outside parentheses (the
     * statement parsed, so there is one).
     */
    private static String queryText(String s) {
        int depth = 0;
        List<LeadingTokens.Token> tokens = LeadingTokens.read(s, Integer.MAX_VALUE);
        for (int i = 0; i + 1 < tokens.size(); i++) {
            LeadingTokens.Token t = tokens.get(i);
            if (t.is(TesseraParserImplConstants.LPAREN)) {
                depth++;
            } else if (t.is(TesseraParserImplConstants.RPAREN)) {
                depth--;
            } else if (depth == 0 && t.is(TesseraParserImplConstants.AS)) {
                return s.substring(tokens.get(i + 1).offset());
            }
        }
        throw new SqlError("syntax error: no AS before the query");
    }

    /** {@code s} with its text before {@code end} turned into spaces, line breaks kept: positions stay as in s. */
    private static String blankBefore(String s, int end) {
        StringBuilder b = new StringBuilder(s);
        for (int i = 0; i < end; i++) {
            if (b.charAt(i) != '\n' && b.charAt(i) != '\r') {
                b.setCharAt(i, ' ');
            }
        }
        return b.toString();
    }

    private static String stripTrailingSemicolons(String sql) {
        String s = sql.strip();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).strip();
        }
        return s;
    }
}
