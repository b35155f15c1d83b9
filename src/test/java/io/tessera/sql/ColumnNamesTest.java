package io.tessera.sql;

import io.tessera.Tessera;
import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.bench.DuckDbPeer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Result columns are named from their expressions as DuckDB 2.0 names them: each query runs on Tessera and on DuckDB
 * over the same table and the names of its columns are compared. The few spellings where the two differ are
 * asserted on their own, with the reason.
 */
class ColumnNamesTest {

    @TempDir
    static Path dir;
    private static Tessera tessera;
    private static DuckDbPeer duck;

    @BeforeAll
    static void open() {
        DuckDbCheck.write(dir, "t", "a INTEGER, b DOUBLE, c VARCHAR, d DATE, x DECIMAL(10,2), f BOOLEAN",
                new Object[]{1, 2.5, "xy", java.time.LocalDate.of(2020, 1, 2), new java.math.BigDecimal("1.50"), true},
                new Object[]{2, null, "z", java.time.LocalDate.of(2021, 3, 4), new java.math.BigDecimal("3.00"), false});
        tessera = Tessera.open(dir);
        duck = DuckDbPeer.inMemory(tessera.database());
    }

    @AfterAll
    static void close() {
        duck.close();
        tessera.close();
    }

    private static List<String> names(QueryResult r) {
        List<String> out = new ArrayList<>();
        for (ResultColumn c : r.columns()) {
            out.add(c.name());
        }
        return out;
    }

    /** Asserts that the query's columns carry DuckDB's names, and returns them. */
    private static List<String> sameAsDuckDb(String sql) {
        List<String> expected = names(duck.query(sql));
        assertEquals(expected, names(tessera.query(sql)), sql);
        return expected;
    }

    @Test
    void aggregates() {
        assertEquals(List.of("sum(a)", "count_star()", "count(a)", "avg(b)", "min(c)", "max(d)", "count(DISTINCT a)",
                "sum(t.a)"), sameAsDuckDb("select sum(a), count(*), count(a), avg(b), min(c), max(d), count(distinct a),"
                + " sum(t.a) from t"));
        sameAsDuckDb("select stddev_pop(b), var_samp(b), bool_and(f), bool_or(f), sum(a) filter (where a > 1),"
                + " count(*) filter (where a > 1), avg(distinct a) from t");
        sameAsDuckDb("select c, sum(a * 2), sum(a) + 1, count(*) * 2, sum(a) / count(*) from t group by c");
        sameAsDuckDb("select sum(x * (1 - x)) from t");
    }

    @Test
    void listAndStructConstructors() {
        assertEquals(List.of("list_value(1, 2)", "struct_pack(a := 1, \"x y\" := 2, B := 3)"),
                sameAsDuckDb("select [1, 2], {'a': 1, 'x y': 2, 'B': 3}"));
        sameAsDuckDb("select struct_pack(a := 1), {'select': 1, 'a\"b': 'x'}, [{'a': 1}], {'a': [c]}, [] from t");
    }

    @Test
    void holisticAggregates() {
        assertEquals(List.of("median(a)", "quantile_cont(b, 0.25)", "quantile_disc(d, 0.5)", "\"mode\"(c)",
                "string_agg(c, ',')", "string_agg(c)", "string_agg(DISTINCT c, '-')"),
                sameAsDuckDb("select median(a), quantile_cont(b, 0.25), quantile_disc(d, 0.5), mode(c),"
                        + " string_agg(c, ','), string_agg(c), string_agg(distinct c, '-') from t"));
        assertEquals(List.of("string_agg(c, ',' ORDER BY a DESC)", "string_agg(a ORDER BY c, d DESC NULLS FIRST)"),
                sameAsDuckDb("select string_agg(c, ',' order by a desc), string_agg(a order by c, d desc nulls first)"
                        + " from t"));
        assertEquals(List.of("list(c ORDER BY a DESC)", "array_agg(a ORDER BY c)", "\"mode\"(c ORDER BY a, d)",
                        "\"first\"(c ORDER BY a)", "\"last\"(c)", "arg_min(c, a)"),
                sameAsDuckDb("select list(c order by a desc), array_agg(a order by c), mode(c order by a, d),"
                        + " first(c order by a), last(c), arg_min(c, a) from t"));
    }

    @Test
    void arithmeticComparisonsAndLogic() {
        assertEquals(List.of("(a + 1)", "(a * 2)", "(a - b)", "(a / 2)", "(a % 2)", "(-(a))", "a", "a", "(1 + (2 * 3))",
                "((1 + 2) * 3)"), sameAsDuckDb("select a + 1, a*2, a - b, a / 2, a % 2, -a, a, t.a, 1 + 2 * 3,"
                + " (1 + 2) * 3 from t"));
        sameAsDuckDb("select a > 1, a = 1 and b < 2, not (a > 1), a is null, a is not null, a between 1 and 2,"
                + " a not between 1 and 2, a in (1, 2), a not in (1, 2), a <> 1, a != 1, a >= 1 or a <= 2 or a < 0"
                + " from t");
        sameAsDuckDb("select c like 'x%', c not like 'x', c ilike 'X%', c not ilike 'y', c similar to 'x.',"
                + " c not similar to 'x', c || 'y', c || 'y' || c, f is true, f is not true, f is false,"
                + " f is not false from t");
    }

    @Test
    void literals() {
        assertEquals(List.of("1", "'abc'", "2.5", "true", "NULL", "CAST('2020-01-01' AS date)", "(1 + 2)", "'it''s'",
                "-1", "1.50", "false"), sameAsDuckDb("select 1, 'abc', 2.5, true, null, date '2020-01-01', 1 + 2,"
                + " 'it''s', -1, 1.50, false from t"));
    }

    @Test
    void caseAndCasts() {
        assertEquals(List.of("CASE  WHEN ((a > 1)) THEN ('x') ELSE 'y' END", "CASE  WHEN ((a = 1)) THEN (2) ELSE NULL END"),
                sameAsDuckDb("select case when a > 1 then 'x' else 'y' end, case a when 1 then 2 end from t"));
        sameAsDuckDb("select case when a = 1 then 'one' when a = 2 then 'two' end,"
                + " sum(case when a > 0 then a else 0 end) from t group by a");
        assertEquals(List.of("CAST(a AS BIGINT)", "CAST(b AS INTEGER)", "CAST(a AS VARCHAR)", "CAST(x AS DECIMAL(12, 3))",
                "CAST(a AS double)", "CAST(a AS SMALLINT)", "CAST('2020-01-01' AS date)", "CAST(a AS BOOLEAN)"),
                sameAsDuckDb("select cast(a as bigint), cast(b as integer), cast(a as varchar),"
                        + " cast(x as decimal(12,3)), cast(a as double), cast(a as smallint), cast('2020-01-01' as date),"
                        + " cast(a as boolean) from t"));
        assertEquals(List.of("TRY_CAST(b AS INTEGER)", "TRY_CAST('1.5' AS INTEGER)"),
                sameAsDuckDb("select try_cast(b as integer), try_cast('1.5' as integer) from t"));
    }

    @Test
    void valuesNamesItsColumnsCol0Col1() {
        assertEquals(List.of("col0", "col1"), sameAsDuckDb("VALUES (1, 'a'), (2, 'b')"));
        assertEquals(List.of("col0"), sameAsDuckDb("select * from (values (1), (2))"));
        assertEquals(List.of("col0", "col1"), sameAsDuckDb("select * from (values (1, 2)) v"));
        assertEquals(List.of("x", "y"), sameAsDuckDb("select * from (values (1, 2)) v(x, y)"));
        assertEquals(List.of("x", "col1"), sameAsDuckDb("select * from (values (1, 2)) v(x)"));
        assertEquals(List.of("col0", "col1"), sameAsDuckDb("with q as (values (1, 2)) select * from q"));
        assertEquals(List.of("col0"), sameAsDuckDb("values (1) union all select 5 as x"));
        assertEquals(List.of("5"), sameAsDuckDb("select 5 union all values (1)"));
        assertEquals(List.of("(v.col0 + 1)", "col1"), sameAsDuckDb("select v.col0 + 1, col1 from (values (1, 'x')) v"));
        assertEquals(List.of("(1 + 2)"), sameAsDuckDb("select 1 + 2"));
    }

    @Test
    void rowsMapsAndFunctionsDuckDbQuotes() {
        assertEquals(List.of("\"row\"(2)", "\"row\"(1, 'a')", "\"row\"(1, 2)"),
                sameAsDuckDb("select row(2), ROW(1, 'a'), (1, 2)"));
        assertEquals(List.of("\"map\"(list_value(1), list_value(2))", "\"map\"(list_value(1, 3), list_value(2, 4))",
                "\"map\"()"), sameAsDuckDb("select map([1], [2]), MAP {1: 2, 3: 4}, map()"));
        assertEquals(List.of("COALESCE(a, 2)", "\"if\"((a > 1), 1, 2)", "\"year\"(d)", "\"month\"(d)",
                        "\"quarter\"(d)"),
                sameAsDuckDb("select ifnull(a, 2), if(a > 1, 1, 2), year(d), MONTH(d), Quarter(d) from t"));
        assertEquals(List.of("(ARRAY[1, 2])", "list_value(3)", "list_value((ARRAY[2]))"),
                sameAsDuckDb("select array[1, 2], [3], [ARRAY[2]]"));
        assertEquals(List.of("list_value(1, 2)[1]", "(struct_pack(a := 1)).a", "struct_pack(a := 1)['a']"),
                sameAsDuckDb("select [1, 2][1], {'a': 1}.a, {'a': 1}['a']"));
        sameAsDuckDb("select COALESCE(a, 1), coalesce(a, 1), Upper(c), UPPER(c), Sum(a), COUNT(*), a in (1, 2),"
                + " a between 1 and 2, case a when 1 then 2 else 3 end from t group by a, c");
        sameAsDuckDb("select map_from_entries([(1, 2)]), COALESCE(CAST(NULL AS STRUCT(a INT)), {'b': 3}),"
                + " COALESCE(CAST(NULL AS MAP(INT, INT)), MAP {1: 2})");
    }

    @Test
    void typesKeepTheSpellingDuckDbKeeps() {
        // DuckDB's own type keywords in its capitals, other type names as written
        assertEquals(List.of("CAST('2024-01-01' AS DATE)", "CAST('2024-01-01' AS date)", "CAST('2024-01-01' AS Date)",
                        "CAST('2024-01-01' AS DATE)", "CAST('2024-01-01' AS date)"),
                sameAsDuckDb("select cast('2024-01-01' as DATE), cast('2024-01-01' as date), cast('2024-01-01' as Date),"
                        + " '2024-01-01'::DATE, '2024-01-01'::date"));
        assertEquals(List.of("CAST('2020-01-01' AS date)", "CAST('2020-01-01' AS DATE)",
                        "CAST('2020-01-01 00:00:00' AS TIMESTAMP)", "CAST('10:00:00' AS TIME)"),
                sameAsDuckDb("select date '2020-01-01', DATE '2020-01-01', timestamp '2020-01-01 00:00:00',"
                        + " time '10:00:00'"));
        sameAsDuckDb("select cast(a as int), cast(a as integer), cast(a as double), cast(a as DOUBLE), cast(a as Double),"
                + " cast(a as double precision), cast(a as real), cast(a as BigInt), cast(a as tinyint),"
                + " cast(a as TinyInt), cast(d as timestamp), cast(x as numeric(5,2)), cast(a as varchar(10)),"
                + " cast(a as float), cast(a as float4), a::FLOAT4, a::float8 from t");
        sameAsDuckDb("select cast(c as blob), cast(d as timestamp with time zone), cast(d as timestamptz),"
                + " cast(d as TIMESTAMPTZ), cast(c as interval), cast(c as uuid), cast(c as UUID), cast(c as time) from t"
                + " where a < 0"); // no rows: the text of c reads as none of these
        assertEquals(List.of("CAST(NULL AS STRUCT(\"A b\" INTEGER, c VARCHAR[]))", "CAST(NULL AS MAP(VARCHAR, double))",
                        "CAST(NULL AS INTEGER[][])", "CAST(NULL AS STRUCT(a STRUCT(b Date)))",
                        "CAST(NULL AS STRUCT(\"select\" INTEGER))", "CAST(NULL AS DECIMAL(10, 2)[])"),
                sameAsDuckDb("select cast(null as struct(\"A b\" int, c varchar[])), cast(null as map(varchar, double)),"
                        + " cast(null as int[][]), cast(null as STRUCT(a STRUCT(b Date))),"
                        + " cast(null as struct(\"select\" int)), cast(null as decimal(10,2)[])"));
        // the words are found on any line of the statement
        assertEquals(List.of("CAST('2024-01-01' AS Date)", "TRY_CAST(c AS DATE)"),
                sameAsDuckDb("select\n  cast('2024-01-01'\n  as\n\tDate), try_cast(c as\n DATE) from t"));
    }

    @Test
    void functionsAndWindows() {
        sameAsDuckDb("select upper(c), lower(c), substring(c, 1, 2), substring(c from 1 for 1), abs(a), round(b, 1),"
                + " extract(year from d), extract(dow from d), coalesce(a, 0), length(c), position('x' in c), trim(c), trim(both 'x' from c),"
                + " trim(leading 'x' from c), trim(trailing 'x' from c), replace(c, 'x', 'y'), left(c, 1), right(c, 1),"
                + " nullif(a, 1), mod(a, 2), strpos(c, 'y'), lpad(c, 4, '-'), concat(c, 'w'), date_trunc('month', d),"
                + " regexp_matches(c, 'x'), floor(b), ceil(b), sqrt(b), power(b, 2), ln(b), exp(b), sign(b) from t");
        sameAsDuckDb("select row_number() over (order by a), sum(a) over (partition by c), rank() over (order by a desc),"
                + " lag(a) over (order by a), lead(a, 1, 0) over (partition by c order by a desc),"
                + " sum(a) over (order by a rows between 1 preceding and current row), sum(a) over (),"
                + " dense_rank() over (order by a desc nulls first) from t");
    }

    @Test
    void aliasesAndSubqueriesKeepDuckDbsNames() {
        assertEquals(List.of("total", "A", "a"), sameAsDuckDb("select sum(a) as total, a as \"A\", a from t group by a"));
        // a subquery's columns carry their names to the query around it
        assertEquals(List.of("sum(a)"), sameAsDuckDb("select * from (select sum(a) from t)"));
        assertEquals(List.of("sum(a)", "(a + 1)"), sameAsDuckDb("select * from (select sum(a), a + 1 from t group by a)"));
        // in a subquery a repeated name gets DuckDB's suffix, so that the query around it can tell the columns apart
        assertEquals(List.of("sum(a)", "sum(a)_1", "count_star()"),
                sameAsDuckDb("select * from (select sum(a), sum(a), count(*) from t)"));
        assertEquals(List.of("sum(a)", "sum(a)"), sameAsDuckDb("select sum(a), sum(a) from t"));
        assertEquals(List.of("(a + 1)", "count_star()"), sameAsDuckDb(
                "with q as (select a + 1, count(*) from t group by a) select * from q where \"(a + 1)\" > 2"));
        // and ORDER BY, GROUP BY and set operations are not changed by the names
        sameAsDuckDb("select a + 1, count(*) from t group by a + 1 order by a + 1");
        sameAsDuckDb("select a + 1 from t union all select a * 2 from t");
        assertEquals(List.of("(a + 1)", "count_star()"),
                names(tessera.query("select a + 1, count(*) from t group by a + 1 order by \"(a + 1)\" desc")));
    }

    @Test
    void whereTheNamesDifferFromDuckDbs() {
        // DuckDB names an interval by the calls it becomes (to_days(CAST(trunc(CAST('1' AS DOUBLE)) AS INTEGER)));
        // Tessera keeps the interval's SQL
        assertEquals(List.of("(d + INTERVAL '1' DAY)"), names(tessera.query("select d + interval '1' day from t")));
        // DuckDB's interval spellings as DuckDB names them
        assertEquals(List.of("CAST('1 day' AS INTERVAL)", "CAST('2 days' AS INTERVAL)", "CAST('3 days' AS INTERVAL)"),
                names(tessera.query("select interval '1 day', '2 days'::interval, cast('3 days' as interval)")));
        // DuckDB prints a subquery's SQL in its own spelling; Tessera names it (SELECT ...)
        assertEquals(List.of("(SELECT ...)", "EXISTS(SELECT ...)"),
                names(tessera.query("select (select max(a) from t), exists (select 1 from t) from t")));
        // a VALUES as a subquery likewise (DuckDB: (SELECT * FROM (VALUES (3)) AS valueslist))
        assertEquals(List.of("(SELECT ...)"), names(tessera.query("select (values (3))")));
        // * over a join whose sides share a column name: DuckDB repeats the name, Calcite's expansion of * adds a
        // digit (as it does for table columns: a, a0)
        assertEquals(List.of("sum(a)", "sum(a)0"),
                names(tessera.query("select * from (select sum(a) from t) s, (select sum(a) from t) u")));
        assertEquals(List.of("a", "a0"), names(tessera.query("select * from (select a from t) s, (select a from t) u")));
        assertEquals(List.of("col0", "col00"),
                names(tessera.query("select * from (values (1)) a join (values (1)) b on a.col0 = b.col0")));
        // DuckDB prints an explicit ASC of a window's order; Calcite's parser does not keep it
        assertEquals(List.of("row_number() OVER (ORDER BY a)"),
                names(tessera.query("select row_number() over (order by a asc) from t")));
    }

    @Test
    void viewsNameTheirColumnsAsTheirQueriesDo() {
        tessera.query("create view v as select c, sum(a), count(*), sum(a) from t group by c");
        duck.execute("create view v as select c, sum(a), count(*), sum(a) from t group by c");
        try {
            assertEquals(List.of("c", "sum(a)", "count_star()", "sum(a)_1"), sameAsDuckDb("select * from v"));
            sameAsDuckDb("select \"sum(a)\" * 2, \"sum(a)_1\" from v");
        } finally {
            tessera.query("drop view v");
            duck.execute("drop view v");
        }
    }

    @Test
    void createTableAsNeedsAUsableName() {
        SqlError e = assertThrows(SqlError.class, () -> tessera.query("create table s as select sum(a) from t"));
        assertTrue(e.getMessage().contains("column 1 of the query, sum(a), has no name that a table column can have;"
                + " name it with AS"), e.getMessage());
        tessera.query("create table s as select sum(a) as total, c from t group by c");
        assertEquals(List.of("total", "c"), names(tessera.query("select * from s")));
    }
}
