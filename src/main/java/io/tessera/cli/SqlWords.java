package io.tessera.cli;

import io.tessera.sql.FunctionNames;

import java.util.List;

/** The SQL words the shell completes: keywords and the functions Tessera runs. */
final class SqlWords {

    private SqlWords() {
    }

    static final List<String> KEYWORDS = List.of(
            "ALL", "ALTER", "AND", "ANY", "AS", "ASC", "BETWEEN", "BY", "CASE", "CAST", "COPY", "CREATE", "CROSS",
            "CUBE", "DELETE", "DESC", "DESCRIBE", "DISTINCT", "DROP", "ELSE", "END", "EXCEPT", "EXISTS", "EXPLAIN",
            "ANALYZE", "FILTER", "FOLLOWING", "FROM", "FULL", "GROUP", "GROUPING", "HAVING", "ILIKE", "IN", "INNER",
            "INSERT", "INTERSECT", "INTERVAL", "INTO", "IS", "JOIN", "LEFT", "LIKE", "LIMIT", "NOT", "NULL", "NULLS",
            "OFFSET", "ON", "OR", "ORDER", "OUTER", "OVER", "PARTITION", "PRECEDING", "RANGE", "REPLACE", "RIGHT",
            "ROLLUP", "ROWS", "SELECT", "SET", "SETS", "SIMILAR", "TABLE", "THEN", "UNBOUNDED", "UNION", "UPDATE",
            "USING", "VALUES", "VIEW", "WHEN", "WHERE", "WINDOW", "WITH", "CURRENT", "ROW", "FIRST", "LAST",
            "INTEGER", "BIGINT", "SMALLINT", "TINYINT", "DOUBLE", "DECIMAL", "VARCHAR", "BOOLEAN", "DATE", "TRUE",
            "FALSE", "PRIMARY", "KEY", "IF", "OR REPLACE", "FORMAT", "HEADER", "DELIMITER");

    /**
     * The functions, from the front end's own tables ({@link FunctionNames}), so that a function the engine gains is
     * offered without a list here to keep.
     */
    static final List<String> FUNCTIONS = List.copyOf(FunctionNames.all());
}
