package io.tessera.sql;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Which thing a name in GROUP BY, HAVING and ORDER BY denotes when a SELECT alias and a column of the FROM
 * clause share it, and which of Calcite's dialect extensions are accepted; each answer against DuckDB.
 */
class NameResolutionTest {

    @TempDir
    static Path dir;
    static DuckDbCheck check;

    @BeforeAll
    static void tables() {
        DuckDbCheck.write(dir, "tab0", "col0 INTEGER, col1 INTEGER, col2 INTEGER",
                new Object[]{83, 0, 38}, new Object[]{26, 0, 79}, new Object[]{43, 81, 24});
        check = new DuckDbCheck(dir);
    }

    @AfterAll
    static void close() {
        check.close();
    }

    @Test
    void groupByNameIsTheColumnWhenTheFromClauseHasOne() {
        // col2 is both an alias (of col1) and a column: three groups (by col2, col1), not two (by col1)
        assertEquals(List.of("[0, 1]", "[0, 1]", "[81, 1]"),
                check.same("select col1 as col2, count(*) from tab0 group by col2, col1", false));
        check.same("select t.col1 as col2, count(*) from tab0 t group by col2, col1", false);
        // grouped by the column col2, the expression col1 is not grouped: an error, not a grouping by col1
        check.bothReject("select col1 as col2, count(*) from tab0 group by col2");
        check.same("select col2 as col1, sum(col0) from tab0 group by col1, col2 order by 1, 2", true);
        // and an alias or an ordinal where no column has the name
        check.same("select col1 as x, count(*) from tab0 group by x", false);
        check.same("select col1 as x, count(*) from tab0 group by 1", false);
        check.same("select col0 as col1, count(*) from (select col0, col2 from tab0) group by col1", false);
    }

    @Test
    void havingNameIsTheGroupedColumn() {
        // the column col0 is grouped; the alias col0 (-col0) would keep all three rows
        assertEquals(List.of(), check.same("select -col0 as col0 from tab0 group by col0 having col0 <= -19", false));
        check.same("select -col0 as col0 from tab0 group by col0 having col0 >= 43 order by 1", true);
        check.same("select col1 as col2, count(*) from tab0 group by col1 having sum(col2) > 50", false);
        // an alias where no column has the name
        check.same("select col1 + 1 as x, count(*) from tab0 group by x having x > 1", false);
        check.same("select col2, count(*) from tab0 group by 1 having col2 > 30", false);
        // and where the column col2 is neither grouped nor aggregated, the alias (as DuckDB does)
        check.same("select col1 as col2, count(*) from tab0 group by col1 having col2 > 50", false);
    }

    @Test
    void orderByBareNameIsTheAliasButInsideAnExpressionTheColumn() {
        check.same("select -col0 as col0 from tab0 order by col0", true);
        check.same("select -col0 as col0 from tab0 order by col0 + 0", true);
        check.same("select -col0 as col0 from tab0 order by col0 + 0 desc", true);
        check.same("select -col0 as col0, col1 from tab0 group by col0, col1 order by col0 + 0 nulls first", true);
        check.same("select col1 as col0, sum(col2) from tab0 group by col1 order by col0", true);
        check.same("select -col0 as x from tab0 order by x + 0", true);
    }

    @Test
    void aNameOfSeveralTablesIsAmbiguousRatherThanTheAlias() {
        check.bothReject("select a.col0 as col1, count(*) from tab0 a join tab0 b on a.col0 = b.col0 group by col1");
    }

    @Test
    void onlyTheDialectExtensionsDuckDbHasAreAccepted() {
        check.same("select col0 from tab0 where col0 != 83", false);
        check.same("select col0 % 10 from tab0", false);
        check.same("select col0 from tab0 order by col0 offset 1 limit 1", true);
        check.bothReject("select 1 'x'");
        check.bothReject("select col0 from tab0 limit 1, 2");
        check.bothReject("value (1, 2)");
        check.bothReject("select col0 from tab0 minus select col1 from tab0");
        check.bothReject("select * from tab0 cross apply (select col0 from tab0)");
    }
}
