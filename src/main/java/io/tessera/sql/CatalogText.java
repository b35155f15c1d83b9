package io.tessera.sql;

import io.tessera.storage.Macro;
import io.tessera.storage.Sequence;
import io.tessera.storage.Table;
import io.tessera.storage.TableIndex;
import io.tessera.storage.View;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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

    /**
     * {@code CREATE [UNIQUE] INDEX i ON t(a, b);}, the columns as the index's statement wrote them; a method named
     * by USING written as DuckDB writes it (left out where it is ART in capitals, its default's spelling).
     */
    public static String createIndex(Table t, TableIndex x) {
        String method = x.method() == null || x.method().equals("ART") ? "" : " USING " + x.method() + " ";
        return "CREATE " + (x.unique() ? "UNIQUE " : "") + "INDEX " + DuckDbKeywords.quoted(x.name()) + " ON "
                + DuckDbKeywords.quoted(t.name()) + method + "(" + String.join(", ", x.columns().stream()
                .map(DuckDbKeywords::quoted).toList()) + ");";
    }

    /**
     * Every table's indexes with their tables, ordered by the indexes' names ignoring case, as DuckDB's EXPORT
     * DATABASE writes them.
     */
    public static List<Map.Entry<Table, TableIndex>> indexes(List<Table> tables) {
        List<Map.Entry<Table, TableIndex>> out = new ArrayList<>();
        for (Table t : tables) {
            t.schema().indexes().forEach(x -> out.add(Map.entry(t, x)));
        }
        out.sort(Comparator.comparing(e -> e.getValue().name().toLowerCase(Locale.ROOT)));
        return out;
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
