package io.tessera.cli;

import java.util.List;

/** The SQL words the shell completes: keywords and the functions Tessera runs (README's SQL section). */
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

    static final List<String> FUNCTIONS = java.util.stream.Stream.of(List.of(
            "abs", "avg", "bool_and", "bool_or", "ceil", "ceiling", "char_length", "coalesce", "concat", "concat_ws",
            "count", "cume_dist", "current_date", "date_part", "date_trunc", "dense_rank", "every", "exp", "extract",
            "first_value", "floor", "grouping", "instr", "lag", "last_value", "lead", "left", "length", "ln", "lower",
            "lpad", "ltrim", "max", "min", "mod", "ntile", "nullif", "percent_rank", "position", "power", "rank",
            "read_csv", "read_csv_auto", "read_parquet", "regexp_full_match", "regexp_matches", "regexp_replace",
            "repeat", "replace", "right", "round", "row_number", "rpad", "rtrim", "sign", "sqrt", "stddev",
            "stddev_pop", "stddev_samp", "strlen", "strpos", "substr", "substring", "sum", "trim", "upper",
            "var_pop", "var_samp", "variance",
            // splitting, prefixes, characters, digests; lists reordered
            "array_distinct", "array_reverse", "array_reverse_sort", "array_sort", "ascii", "chr", "contains",
            "ends_with", "list_distinct", "list_reverse", "list_reverse_sort", "list_sort", "md5", "regexp_extract",
            "reverse", "split_part", "starts_with", "str_split", "string_split", "string_to_array"),
            // conditional and numeric functions
            List.of("bit_count", "even", "factorial", "gcd", "greatest", "if", "ifnull", "isfinite", "isinf", "isnan",
                    "lcm", "least", "log", "log10", "log2", "pow", "random", "setseed", "trunc"))
            .flatMap(List::stream).sorted().toList();
}
