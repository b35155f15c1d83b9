package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImpl;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The words of Tessera's parser: every keyword that DuckDB and PostgreSQL do not both reserve is a name in every
 * position a name can stand, but for the few that Calcite's grammar cannot take (listed in
 * {@code src/main/codegen/config.fmpp}); the reserved ones are exactly those, and DuckDB reserves each word of
 * {@link ReservedWords#SHARED}.
 */
class ParserWordsTest {

    private static final SqlAbstractParserImpl.Metadata METADATA =
            TesseraParserImpl.FACTORY.getParser(new StringReader("")).getMetadata();

    /** The words Calcite's grammar keeps as keywords although DuckDB and PostgreSQL take them as names. */
    private static final Set<String> GRAMMAR_ONLY = Set.of(
            "INSERT", "UPDATE", "DELETE", "MERGE", "EXPLAIN", "DESCRIBE", "CALL", "SET", "PARTITION", "ROWS", "RANGE",
            "EXTEND", "MATCH_RECOGNIZE", "MEASURE", "CUBE", "ROLLUP", "STREAM", "RECURSIVE", "EXISTS", "NEW", "NEXT",
            "MULTISET", "PERIOD", "PERMUTE", "UNKNOWN", "VALUES", "INTERVAL", "USER", "CURRENT_USER", "SESSION_USER",
            "SYSTEM_USER", "CURRENT_ROLE", "CURRENT_PATH", "CURRENT_CATALOG", "CURRENT_SCHEMA", "CURRENT_DATE",
            "CURRENT_TIME", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP", "QUALIFY");

    /** The words of the shared list that Calcite's grammar has as non-reserved keywords and leaves so. */
    private static final Set<String> SHARED_NOT_RESERVED = Set.of(
            "ASC", "DESC", "COLLATION", "DEFERRABLE", "ILIKE", "INITIALLY", "PLACING", "RETURNING");

    /**
     * Keywords that are names everywhere but as an alias without AS: RETURNING there ends an INSERT's query or an
     * UPDATE's FROM list ({@code INSERT INTO t SELECT * FROM s RETURNING *}), as DuckDB and PostgreSQL read it.
     */
    private static final Set<String> NO_BARE_ALIAS = Set.of("returning");
    private static final Set<String> BARE_ALIAS_POSITIONS = Set.of("select a W from t", "select a from t W where a = 1");

    /** Statements with a name in each position: W is replaced by the word. */
    private static final List<String> POSITIONS = List.of(
            "select W from t", "select W, a from t", "select t.W from t", "select a as W from t", "select a W from t",
            "select a from W", "select a from t as W", "select a from t W where a = 1", "select sum(W) from t",
            "select a from t where W = 1", "select a from t group by W order by W", "select W + 1, (W) from t",
            "select count(*) over (partition by W order by W) from t", "select a from t join u on t.W = u.W",
            "select a from t where a in (W, 1) and (W) = 1", "with W as (select 1 as W) select W from W",
            "create table W (W int, b int)", "update t set W = 1 where W = 2", "insert into t (W) values (1)",
            "delete from W where W = 1", "create view W (W) as select W from t", "drop table W");

    @Test
    void theReservedWordsAreTheSharedOnesAndTheGrammarsOwn() {
        Set<String> reserved = new TreeSet<>();
        for (String token : METADATA.getTokens()) {
            String word = token.replace("\"", "");
            if (word.chars().allMatch(c -> Character.isLetter(c) || c == '_') && METADATA.isReservedWord(word)) {
                reserved.add(word);
            }
        }
        Set<String> expected = new TreeSet<>(ReservedWords.SHARED);
        expected.removeAll(SHARED_NOT_RESERVED);
        expected.addAll(GRAMMAR_ONLY);
        assertEquals(expected, reserved);
    }

    @Test
    void everyOtherKeywordIsANameInEveryPosition() {
        List<String> failures = new ArrayList<>();
        int words = 0;
        for (String token : METADATA.getTokens()) {
            String keyword = token.replace("\"", "");
            if (!METADATA.isKeyword(keyword) || METADATA.isReservedWord(keyword)
                    || !keyword.chars().allMatch(c -> Character.isLetter(c) || c == '_')) {
                continue;
            }
            String word = keyword.toLowerCase(Locale.ROOT);
            words++;
            for (String position : POSITIONS) {
                if (NO_BARE_ALIAS.contains(word) && BARE_ALIAS_POSITIONS.contains(position)) {
                    continue;
                }
                String sql = position.replace("W", word);
                try {
                    Object statement = StatementParser.parse(sql);
                    if (statement instanceof io.tessera.sql.Statement.Query
                            && !SqlFrontEnd.parse(sql).toString().contains("`" + word + "`")) {
                        failures.add(sql + ": not read as a name");
                    }
                } catch (SqlError e) {
                    failures.add(sql + ": " + e.getMessage());
                }
            }
        }
        assertTrue(words > 500, "non-reserved keywords: " + words);
        assertEquals(List.of(), failures);
    }

    @Test
    void duckDbReservesEverySharedWord() throws Exception {
        Set<String> duckReserved = new TreeSet<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select upper(keyword_name) from duckdb_keywords()"
                     + " where keyword_category in ('reserved', 'type_function')")) {
            while (r.next()) {
                duckReserved.add(r.getString(1));
            }
        }
        Set<String> notReservedByDuckDb = new TreeSet<>(ReservedWords.SHARED);
        notReservedByDuckDb.removeAll(duckReserved);
        assertEquals(Set.of(), notReservedByDuckDb);
    }
}
