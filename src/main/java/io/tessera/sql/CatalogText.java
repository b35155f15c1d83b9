package io.tessera.sql;

import io.tessera.storage.Macro;
import io.tessera.storage.Sequence;
import io.tessera.storage.Table;
import io.tessera.storage.View;

import java.util.ArrayList;
import java.util.List;

/**
 * The statements that make each object of the catalog again, as DuckDB writes them in {@code duckdb_tables()} and the
 * other catalog functions' {@code sql} column and in EXPORT DATABASE's schema.sql: names quoted where DuckDB would
 * quote them, each statement ending in a semicolon. Read back by {@link StatementParser}.
 */
public final class CatalogText {

    private CatalogText() {
    }

    /** {@code CREATE TABLE t(a INTEGER NOT NULL, b VARCHAR, ...);} with its keys, CHECKs and DEFAULTs. */
    public static String createTable(Table t) {
        return CatalogFunctions.createTable(t);
    }

    /** {@code CREATE VIEW v AS query;}, the query's text as written. */
    public static String createView(View v) {
        return "CREATE VIEW " + DuckDbKeywords.quoted(v.name()) + " AS " + v.query() + ";";
    }

    /** {@code CREATE SEQUENCE s INCREMENT BY ... START n ...;}, starting where the sequence stands now. */
    public static String createSequence(Sequence q) {
        return "CREATE SEQUENCE " + DuckDbKeywords.quoted(q.name()) + " INCREMENT BY " + q.increment()
                + " MINVALUE " + q.minValue() + " MAXVALUE " + q.maxValue() + " START " + q.counter()
                + (q.cycle() ? " CYCLE;" : " NO CYCLE;");
    }

    /** {@code CREATE MACRO m(a, b := default) AS body;} ({@code AS TABLE query} for a table macro). */
    public static String createMacro(Macro m) {
        List<String> parameters = new ArrayList<>();
        for (Macro.Parameter p : m.parameters()) {
            parameters.add(DuckDbKeywords.quoted(p.name())
                    + (p.defaultValue() == null ? "" : " := " + p.defaultValue()));
        }
        return "CREATE MACRO " + DuckDbKeywords.quoted(m.name()) + "(" + String.join(", ", parameters) + ") AS "
                + (m.table() ? "TABLE " : "") + m.body() + ";";
    }
}
