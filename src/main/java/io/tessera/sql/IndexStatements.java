package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImplConstants;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB's index statements, read from their tokens: {@code CREATE [OR REPLACE] [UNIQUE] INDEX [IF NOT EXISTS] name
 * ON [main.]table [USING ART] (column [ASC | DESC], ...)} and {@code DROP INDEX [IF EXISTS] [main.]name}. An element that is not a plain
 * column (an expression), a partial index (WHERE) and options (WITH) are refused naming the construct; ASC and DESC
 * are read and dropped, as DuckDB drops them; OR REPLACE is read as DuckDB reads it, as a plain CREATE (a name taken
 * is an error there too). exec.TableIndexes runs them.
 */
final class IndexStatements {

    private IndexStatements() {
    }

    /** Whether the statement's leading tokens open a CREATE [UNIQUE] INDEX or a DROP INDEX. */
    static boolean isIndex(List<LeadingTokens.Token> head) {
        if (head.size() < 2) {
            return false;
        }
        if (head.getFirst().is(TesseraParserImplConstants.DROP)) {
            return head.get(1).named("INDEX");
        }
        int i = LeadingTokens.objectAt(head);
        if (i < head.size() && head.get(i).named("UNIQUE")) {
            i++;
        }
        return i < head.size() && head.get(i).named("INDEX");
    }

    static Statement parse(String sql) {
        List<LeadingTokens.Token> t = LeadingTokens.read(sql, Integer.MAX_VALUE);
        TokenReader r = new TokenReader(t);
        if (t.getFirst().is(TesseraParserImplConstants.DROP)) {
            r.next(); // DROP
            r.next(); // INDEX
            boolean ifExists = r.accept("IF");
            if (ifExists) {
                r.expect("EXISTS");
            }
            skipSchema(r);
            String name = r.name("index");
            r.end();
            return new Statement.DropIndex(name, ifExists);
        }
        LeadingTokens.Token create = r.next();
        boolean replace = r.accept("OR");
        if (replace) {
            r.expect("REPLACE");
        }
        if (r.peek().named("TEMP") || r.peek().named("TEMPORARY")) {
            throw SupportCheck.unsupported("CREATE TEMP INDEX", position(r.peek()));
        }
        boolean unique = r.accept("UNIQUE");
        r.next(); // INDEX
        boolean ifNotExists = r.peek().named("IF");
        if (ifNotExists) {
            r.next();
            r.expect("NOT");
            r.expect("EXISTS");
        }
        if (replace && ifNotExists) {
            throw new SqlError("Cannot specify both OR REPLACE and IF NOT EXISTS within single create statement"
                    + create.at());
        }
        if (r.peek().named("ON")) {
            throw new SqlError("Please provide an index name, e.g., CREATE INDEX my_name ..." + r.peek().at());
        }
        String name = r.name("index");
        r.expect("ON");
        skipSchema(r);
        LeadingTokens.Token tableAt = r.peek();
        String table = r.name("table");
        String method = null;
        if (r.accept("USING")) {
            LeadingTokens.Token m = r.next();
            if (!m.named("ART")) {
                throw new SqlError("Binder Error: Unknown index type: " + m.image() + m.at());
            }
            method = m.image();
        }
        if (!r.peek().is(TesseraParserImplConstants.LPAREN)) {
            throw new SqlError("syntax error" + r.peek().at() + ": ( and the index's columns expected, found "
                    + (r.peek().isEnd() ? "the end" : r.peek().image()));
        }
        r.next();
        List<String> columns = new ArrayList<>();
        columns.add(column(r));
        while (r.peek().is(TesseraParserImplConstants.COMMA)) {
            r.next();
            columns.add(column(r));
        }
        if (!r.peek().is(TesseraParserImplConstants.RPAREN)) {
            throw expression(r.peek());
        }
        r.next();
        if (r.peek().named("WHERE")) {
            throw SupportCheck.unsupported("a partial index (CREATE INDEX ... WHERE)", position(r.peek()));
        }
        if (r.peek().named("WITH")) {
            throw SupportCheck.unsupported("index options (CREATE INDEX ... WITH)", position(r.peek()));
        }
        r.end();
        return new Statement.CreateIndex(name, table, columns, unique, method, ifNotExists, position(tableAt));
    }

    /** Reads past {@code main.}, the one schema's name, before a name. */
    private static void skipSchema(TokenReader r) {
        if (r.peek().named("main") && r.peek(1).is(TesseraParserImplConstants.DOT)) {
            r.next();
            r.next();
        }
    }

    /** One element of the column list: a column's name, an optional ASC or DESC after it; else an expression. */
    private static String column(TokenReader r) {
        LeadingTokens.Token first = r.peek();
        LeadingTokens.Token after = r.peek(1);
        boolean plain = first.is(TesseraParserImplConstants.QUOTED_IDENTIFIER)
                || first.is(TesseraParserImplConstants.IDENTIFIER) || !first.isEnd() && !first.image().isEmpty()
                && Character.isLetter(first.image().charAt(0)) && !ReservedWords.isReserved(first.image());
        boolean ends = after.is(TesseraParserImplConstants.COMMA) || after.is(TesseraParserImplConstants.RPAREN)
                || after.named("ASC") || after.named("DESC");
        if (!plain || !ends) {
            throw expression(first);
        }
        String name = r.name("column");
        if (!r.accept("ASC")) {
            r.accept("DESC");
        }
        return name;
    }

    private static SqlError expression(LeadingTokens.Token at) {
        return SupportCheck.unsupported("an index on an expression (CREATE INDEX takes column names)", position(at));
    }

    private static SqlParserPos position(LeadingTokens.Token t) {
        return new SqlParserPos(t.line(), t.column());
    }
}
