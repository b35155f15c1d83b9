package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImpl;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;

import java.io.StringReader;
import java.util.Locale;
import java.util.Set;

/**
 * The words that cannot be names unless quoted. Tessera reserves the words that both DuckDB and PostgreSQL reserve
 * ({@link #SHARED}), and a few more that Calcite's grammar reads as keywords where a name could stand (the list and
 * the reason for each are in {@code src/main/codegen/config.fmpp}). Every other word, {@code value}, {@code year},
 * {@code date}, {@code count}, ..., is a name wherever a name can stand.
 */
final class ReservedWords {

    /**
     * PostgreSQL's "reserved" keywords that DuckDB's {@code duckdb_keywords()} also calls "reserved", and
     * PostgreSQL's "reserved (can be function or type)" ones that DuckDB calls "type_function".
     */
    static final Set<String> SHARED = Set.of(
            "ALL", "ANALYSE", "ANALYZE", "AND", "ANY", "ARRAY", "AS", "ASC", "ASYMMETRIC", "BOTH", "CASE", "CAST",
            "CHECK", "COLLATE", "COLUMN", "CONSTRAINT", "CREATE", "DEFAULT", "DEFERRABLE", "DESC", "DISTINCT", "DO",
            "ELSE", "END", "EXCEPT", "FALSE", "FETCH", "FOR", "FOREIGN", "FROM", "GROUP", "HAVING", "IN", "INITIALLY",
            "INTERSECT", "INTO", "LATERAL", "LEADING", "LIMIT", "NOT", "NULL", "OFFSET", "ON", "ONLY", "OR", "ORDER",
            "PLACING", "PRIMARY", "REFERENCES", "RETURNING", "SELECT", "SOME", "SYMMETRIC", "TABLE", "THEN", "TO",
            "TRAILING", "TRUE", "UNION", "UNIQUE", "USING", "VARIADIC", "WHEN", "WHERE", "WINDOW", "WITH",
            // reserved (can be function or type)
            "AUTHORIZATION", "BINARY", "COLLATION", "CONCURRENTLY", "CROSS", "FREEZE", "FULL", "ILIKE", "INNER",
            "IS", "ISNULL", "JOIN", "LEFT", "LIKE", "NATURAL", "NOTNULL", "OUTER", "OVERLAPS", "RIGHT", "SIMILAR",
            "TABLESAMPLE", "VERBOSE");

    private static final SqlAbstractParserImpl.Metadata KEYWORDS =
            TesseraParserImpl.FACTORY.getParser(new StringReader("")).getMetadata();

    private ReservedWords() {
    }

    /** Whether Tessera's parser reads {@code word} (in any case) as a keyword that cannot be a name. */
    static boolean isReserved(String word) {
        return word.chars().allMatch(c -> Character.isLetter(c) || c == '_')
                && KEYWORDS.isReservedWord(word.toUpperCase(Locale.ROOT));
    }

    /** Whether {@code word} is one of the words that DuckDB and PostgreSQL both reserve. */
    static boolean isShared(String word) {
        return SHARED.contains(word.toUpperCase(Locale.ROOT));
    }
}
