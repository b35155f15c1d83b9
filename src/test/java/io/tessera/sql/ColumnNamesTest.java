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
        DuckDbCheck.write(dir, "u", "a INTEGER, e VARCHAR", new Object[]{1, "x"}, new Object[]{3, "it's"});
        DuckDbCheck.write(dir, "Mixed", "Abc INTEGER, def VARCHAR, UserId BIGINT", new Object[]{1, "x", 7L},
                new Object[]{2, "y", 8L});
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
    void namesKeepTheCaseTheyWereWrittenIn() {
        // a column by its table's name, an alias as written, an expression's names as the query writes them
        assertEquals(List.of("Abc", "Abc", "def", "def", "(Abc + 1)", "Total", "count_star()", "sum(ABC)", "(abc + 1)"),
                sameAsDuckDb("select abc, ABC, Def, mixed.DEF, Abc+1, SUM(abc) AS Total, count(*), sum(ABC), \"abc\"+1"
                        + " from MIXED group by all"));
        assertEquals(List.of("Abc", "def", "UserId"), sameAsDuckDb("select * from mixed"));
        sameAsDuckDb("select m.userid, M.abc, Upper(m.Def), x.ABC + 1 from mixed m, Mixed X where m.abc = x.ABC");
        sameAsDuckDb("select DEF, userid from (select Abc as deF, USERID from mixed) order by DeF");
        sameAsDuckDb("select abc as Xy, count(*) as N from mixed group by XY order by xy");
        sameAsDuckDb("with Cte(Kk) as (select abc from mixed) select kk, KK + 1 from cte");
        sameAsDuckDb("select sum(abc) over (partition by DEF), abc IS NULL, ABC in (1, 2) from mixed");
        sameAsDuckDb("select COUNT(Def), Max(USERID) from mixed");
        sameAsDuckDb("select Mixed.* from mixed");
        sameAsDuckDb("select a, A + 1 from t");
        // a STRUCT's field is named as written, its column as the query names it
        assertEquals(List.of("AB", "ab", "AB", "S"), sameAsDuckDb("select s.AB, S.ab, x.s.AB, X.s from (select {'aB': 1}"
                + " as S) x"));
        // keywords and functions in any case
        sameAsDuckDb("select CAST(a AS Integer), Coalesce(NULL, A), IfNull(null, a), Extract(Year from D), NOT f,"
                + " A BETWEEN 0 AND 2, C LIKE 'b', c || 'b', Current_Date is not null, Upper(C), Date_Part('year', d)"
                + " from t");
        sameAsDuckDb("select Case When A > 1 Then 'x' Else C End, A::BigInt, Count(Distinct A), Sum(A) Filter (Where"
                + " a > 1), Row_Number() Over (Order By A Desc) from T group by a, c");
    }

    @Test
    void listAndStructConstructors() {
        assertEquals(List.of("list_value(1, 2)", "struct_pack(a := 1, \"x y\" := 2, B := 3)"),
                sameAsDuckDb("select [1, 2], {'a': 1, 'x y': 2, 'B': 3}"));
        sameAsDuckDb("select struct_pack(a := 1), {'select': 1, 'a\"b': 'x'}, [{'a': 1}], {'a': [c]}, [] from t");
    }

    @Test
    void lambdasAndListComprehensionsAreNamedAsDuckDbWritesThem() {
        sameAsDuckDb("select list_transform([a], lambda x: x + 1), list_filter([c], lambda x, i: i = 1),"
                + " list_reduce([a, 2], lambda p, q: p + q, 10), apply([a], lambda x: x) from t");
        sameAsDuckDb("select [x * 2 for x in [a] if x > 1], [x for x in [c]], [x + i for x, i in [a]] from t");
        // the arrow, which DuckDB 2.0 takes only after SET lambda_syntax = 'ENABLE_SINGLE_ARROW', as it names it then
        assertEquals(List.of("list_transform(list_value(1, 2), (x -> (x + 1)))",
                "list_reduce(list_value(1, 2), (\"row\"(p, q) -> (p + q)))", "\"filter\"(list_value(1), (x -> (x > 0)))"),
                names(tessera.query("select list_transform([1, 2], x -> x + 1), list_reduce([1, 2], (p, q) -> p + q),"
                        + " filter([1], x -> x > 0)")));
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
    void columnsExpressionsAreNamedByTheirColumns() {
        assertEquals(List.of("a", "b", "c", "d", "x", "f"), sameAsDuckDb("select min(columns(*)) from t"));
        assertEquals(List.of("a", "b", "c"), sameAsDuckDb("select columns('^[abc]$') from t"));
        sameAsDuckDb("select columns('a|b') + 1, count(*), columns(['c']) as z, columns(t.*)::varchar from t group by all");
    }

    @Test
    void powerIsNamedByTheOperatorWritten() {
        assertEquals(List.of("(a ** 2)", "(b ^ a)", "((-(a)) ** 2)", "(2 * (a ** 2))", "((a ** 2) ** 3)", "pow(a, 2)"),
                sameAsDuckDb("select a ** 2, b ^ a, -a ** 2, 2 * a ** 2, a ** 2 ** 3, pow(a, 2) from t"));
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
        assertEquals(List.of("'abc'[2]", "'abc'[2:3]", "'abc'[:2]", "list_value(1, 2, 3)[2:]",
                "list_value(1, 2, 3)[1:3:2]", "array_slice('abc', 1, 2)"),
                sameAsDuckDb("select 'abc'[2], 'abc'[2:3], 'abc'[:2], [1, 2, 3][2:], [1, 2, 3][1:3:2],"
                        + " array_slice('abc', 1, 2)"));
        // a left-out end before a step is DuckDB's -, a left-out begin nothing
        assertEquals(List.of("list_value(1, 2, 3)[:3:2]", "list_value(1, 2, 3)[2:-:2]", "list_value(1, 2, 3)[:-:-1]",
                        "list_value(1, 2, 3)[2:-:-1]"),
                sameAsDuckDb("select [1, 2, 3][:3:2], [1, 2, 3][2: :2], [1, 2, 3][: :-1], [1, 2, 3][2:-:-1]"));
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
        // FLOAT(p) keeps its bits in the name, whether it is a FLOAT or a DOUBLE
        assertEquals(List.of("CAST(a AS FLOAT(10))", "CAST(a AS FLOAT(25))", "CAST(a AS FLOAT(53))"),
                sameAsDuckDb("select cast(a as float(10)), a::float( 25 ), a::FLOAT(53) from t"));
        sameAsDuckDb("select cast(c as blob), cast(d as timestamp with time zone), cast(d as timestamptz),"
                + " cast(d as TIMESTAMPTZ), cast(c as interval), cast(c as uuid), cast(c as UUID), cast(c as time) from t"
                + " where a < 0"); // no rows: the text of c reads as none of these
        assertEquals(List.of("CAST(NULL AS STRUCT(\"A b\" INTEGER, c VARCHAR[]))", "CAST(NULL AS MAP(VARCHAR, double))",
                        "CAST(NULL AS INTEGER[][])", "CAST(NULL AS STRUCT(a STRUCT(b Date)))",
                        "CAST(NULL AS STRUCT(\"select\" INTEGER))", "CAST(NULL AS DECIMAL(10, 2)[])"),
                sameAsDuckDb("select cast(null as struct(\"A b\" int, c varchar[])), cast(null as map(varchar, double)),"
                        + " cast(null as int[][]), cast(null as STRUCT(a STRUCT(b Date))),"
                        + " cast(null as struct(\"select\" int)), cast(null as decimal(10,2)[])"));
        // DuckDB's aliases of types (duckdb_types()) as written, its grammar's keywords (CHAR, REAL) as its types
        sameAsDuckDb("select a::int8, CAST(a AS Int8), try_cast(c as int4), a::signed, a::integral, a::int64, a::oid,"
                + " a::long, a::short, a::int16, a::int32, a::INT1, a::int2, f::bool, f::logical, c::string, c::text,"
                + " c::bpchar, c::char, c::nvarchar, b::real, b::float8, c::bytea, c::varbinary, c::binary,"
                + " d::datetime, d::timestamp_us, [a]::int8[], {'k': a}::struct(k int8) from t where a < 0");
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
    void functionsThatCalciteRenamesKeepDuckDbsNames() {
        // IFNULL is DuckDB's COALESCE, in its capitals; NULLIF and IF are quoted keywords; CEILING stays CEILING
        assertEquals(List.of("COALESCE(a, 0)", "COALESCE(c, 'x', 'y')", "COALESCE(a, 1)", "\"nullif\"(a, 1)",
                        "greatest(a, 2)", "least(b, 1.5)", "\"if\"((a > 1), a, 0)", "ceiling(b)", "ceil(b)",
                        "COALESCE(\"nullif\"(a, 0), 1)"),
                sameAsDuckDb("select ifnull(a, 0), coalesce(c, 'x', 'y'), IfNull(a, 1), NULLIF(a, 1), Greatest(a, 2),"
                        + " least(b, 1.5), if(a > 1, a, 0), CEILING(b), ceil(b), ifnull(nullif(a, 0), 1) from t"));
        // current_timestamp, a name to the grammar, as written (no rows: the names alone are compared)
        assertEquals(List.of("CURRENT_TIMESTAMP", "current_timestamp", "(Current_Timestamp IS NULL)"),
                sameAsDuckDb("select CURRENT_TIMESTAMP, current_timestamp, Current_Timestamp is null from t"
                        + " where a < 0"));
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
    void subqueriesAreNamedByTheirQueryAsDuckDbWritesIt() {
        assertEquals(List.of("(SELECT max(a) FROM t)", "EXISTS(SELECT 1 FROM t)", "(a = ANY(SELECT a FROM u))",
                        "(NOT (a = ANY(SELECT a FROM u WHERE (a > 1))))"),
                sameAsDuckDb("select (select max(a) from t), exists (select 1 from t), a in (select a from u),"
                        + " a not in (select a from u where a > 1) from t"));
        // correlated, with WHERE, keywords in any case, string literals with quotes
        assertEquals(List.of("(SELECT max(a) FROM t AS t2 WHERE (t2.a > t.a))", "(SELECT max(a) FROM u WHERE (e = 'it''s'))"),
                sameAsDuckDb("select (select max(a) from t t2 where t2.a > t.a), (SELECT MAX(a) FROM u WHERE e = 'it''s')"
                        + " from t"));
        sameAsDuckDb("select (select count(*) from t group by c having count(*) > 0 order by c desc limit 1),"
                + " (select a from t order by a desc nulls first, c limit 1 offset 1), (select a from t order by a asc"
                + " limit 1), (select distinct a from t order by a limit 1), (select a as z from t limit 1)");
        assertEquals(List.of("(NOT EXISTS(SELECT 1 FROM u WHERE ((u.a = t.a) AND (u.e ~~ 'x%'))))"),
                sameAsDuckDb("select not exists (select 1 from u where u.a = t.a and u.e like 'x%') from t"));
        sameAsDuckDb("select (select (select 1)), (select max(a) from (select a from t) s),"
                + " (select max(a) from (select a from t)), (select max(z) from (select a from t) s(z)),"
                + " exists (select t.* from t), exists (select * from t), exists (select u.* from t, u)");
        sameAsDuckDb("select exists (select 1 from t join u on t.a = u.a), exists (select 1 from t left join u using (a)),"
                + " exists (select 1 from t cross join u), exists (select 1 from t, u, t as t3),"
                + " exists (select 1 from t natural join u), exists (select 1 from t right outer join u on true),"
                + " exists (select 1 from t full join (select a from u) s on t.a = s.a and t.a > 1)");
        sameAsDuckDb("select (select 1 union all select 2 limit 1), (select 1 union select 2 union select 3 limit 1),"
                + " (select 1 union all select 2 union select 3 order by 1 limit 1), (select 1 intersect select 1),"
                + " (select 1 except select 2), (select 1 union all (select 2 union all select 3) limit 1),"
                + " (with q as (select 1 as y), r as (select 2) select y from q, r), (with q(y) as (select 1) select y"
                + " from q), (values (3)), (select x from (values (1), (2)) v(x) limit 1)");
        // names DuckDB quotes: its keywords, and what is not a word; upper case is not quoted
        assertEquals(List.of("(SELECT 1 AS \"name\")", "(SELECT 1 AS \"x y\")", "(SELECT (A + 1) FROM (SELECT 1 AS A))"),
                sameAsDuckDb("select (select 1 as \"name\"), (select 1 as \"x y\"),"
                        + " (select \"A\" + 1 from (select 1 as \"A\"))"));
        sameAsDuckDb("select (select sum(a) over (partition by c order by a asc) from t limit 1),"
                + " (select max(a) from t) + 1, a = (select max(a) from t) from t");
        sameAsDuckDb("select (select count(distinct a) filter (where a > 1) from t),"
                + " (select a from t where a between 1 and 2 and c like 'x%' and d > date '2020-01-01' limit 1),"
                + " (select c::varchar from t limit 1), (select min(a) from t group by all limit 1),"
                + " (select a from t qualify row_number() over (order by a) = 1), (select a from t fetch first 1 rows"
                + " only), (select 1 from t order by (a) asc, a + 1 asc limit 1), (select interval '1' day)");
        // ANY, SOME and ALL: DuckDB writes x < ALL (q) as NOT (x >= ANY (q))
        assertEquals(List.of("(1 = ANY(SELECT a FROM t))", "(NOT (1 >= ANY(SELECT a FROM t)))",
                        "(1 != ANY(SELECT a FROM t))", "(NOT (2 < ANY(SELECT a FROM u)))", "(NOT (1 != ANY(SELECT a FROM t)))"),
                sameAsDuckDb("select 1 = any (select a from t), 1 < all (select a from t), 1 <> some (select a from t),"
                        + " 2 >= all (select a from u), 1 = all (select a from t)"));
        // in a subquery of FROM a repeated name gets DuckDB's suffix
        assertEquals(List.of("(SELECT max(a) FROM t)", "(SELECT max(a) FROM t)_1"),
                sameAsDuckDb("select * from (select (select max(a) from t), (select max(a) from t))"));
    }

    @Test
    void starOverAJoinRepeatsANameInTheResultAndSuffixesItInASubquery() {
        assertEquals(List.of("a", "b", "c", "d", "x", "f", "a", "e"),
                sameAsDuckDb("select * from t join u on t.a = u.a"));
        sameAsDuckDb("select t.*, u.* from t join u on t.a = u.a where t.a > 0 order by e limit 5");
        assertEquals(List.of("sum(a)", "sum(a)"),
                sameAsDuckDb("select * from (select sum(a) from t) s, (select sum(a) from t) u"));
        assertEquals(List.of("col0", "col0"),
                sameAsDuckDb("select * from (values (1)) a join (values (1)) b on a.col0 = b.col0"));
        sameAsDuckDb("select * from t join u on t.a = u.a union all select * from t join u on t.a = u.a");
        sameAsDuckDb("select distinct * from t join u on t.a = u.a join t t3 on t3.a = t.a");
        // a subquery's columns stay apart for the query around it, with DuckDB's suffix
        assertEquals(List.of("a", "b", "c", "d", "x", "f", "a_1", "e"),
                sameAsDuckDb("select * from (select * from t join u on t.a = u.a)"));
        assertEquals(List.of("a_1", "count_star()"), sameAsDuckDb(
                "with q as (select * from t join u on t.a = u.a) select a_1, count(*) from q group by a_1"));
        // and a name the two sides share is ambiguous where the query names it, in DuckDB too
        SqlError e = assertThrows(SqlError.class, () -> tessera.query("select * from t join u on t.a = u.a order by a"));
        assertTrue(e.getMessage().contains("ambiguous"), e.getMessage());
    }

    @Test
    void intervalsAreNamedByTheCallsDuckDbMakesOfThem() {
        assertEquals(List.of("to_days(CAST(trunc(CAST('1' AS DOUBLE)) AS INTEGER))",
                        "to_hours(CAST(trunc(CAST('4' AS DOUBLE)) AS BIGINT))", "to_seconds(CAST('6' AS DOUBLE))",
                        "to_days(CAST(trunc(CAST(1 AS DOUBLE)) AS INTEGER))"),
                sameAsDuckDb("select interval '1' day, interval '4' hour, interval '6' second, interval 1 day"));
        sameAsDuckDb("select interval '2' month, interval '3' year, interval '5' minute, interval '1' week,"
                + " interval '1' quarter, interval '-2' day, interval ' 3 ' day, interval '+1' days, INTERVAL '1' YEARS,"
                + " -interval '1' day, interval (a) day, d + interval '1' day from t");
        sameAsDuckDb("select sum(a) over (order by d range between interval '1' day preceding and current row) from t");
        assertEquals(List.of("CAST('1 day' AS INTERVAL)", "CAST('2 days' AS INTERVAL)", "CAST('3 days' AS INTERVAL)"),
                sameAsDuckDb("select interval '1 day', '2 days'::interval, cast('3 days' as interval)"));
        sameAsDuckDb("select time_bucket(interval '1 hour', d), time_bucket(interval '2 months', d, interval '1 day'),"
                + " time_bucket(INTERVAL '7 days', d, timestamp '2024-01-01 06:00') from t");
        sameAsDuckDb("select format('{} is {}', c, a), printf('%d at %.2f', a, b), format(c, a) from t");
    }

    @Test
    void numbersAndAnOrderAscAreNamedAsWritten() {
        assertEquals(List.of(".5", "0.50", "1e2", "1E2", "1.0e1", "001", "0.5e-3", "-1", "-1", "-.5"),
                sameAsDuckDb("select .5, 0.50, 1e2, 1E2, 1.0e1, 001, 0.5e-3, -1, - 1, -.5"));
        sameAsDuckDb("select a + .5, b * 1e0, round(b, 01) from t");
        // a negative zero keeps its sign in the name, though the value (a DECIMAL zero) has none
        assertEquals(List.of("-0.0", "signbit(-0.0)", "-0"), sameAsDuckDb("select -0.0, signbit(-0.0), - 0"));
        assertEquals(List.of("row_number() OVER (ORDER BY a ASC)", "row_number() OVER (ORDER BY a ASC NULLS LAST, c ASC)",
                        "rank() OVER (ORDER BY a DESC, c ASC)"),
                sameAsDuckDb("select row_number() over (order by a asc), row_number() over (order by a asc nulls last,"
                        + " c ASC), rank() over (order by a desc, c\n  asc) from t"));
        assertEquals(List.of("string_agg(c, ',' ORDER BY a ASC)", "string_agg(c, ',' ORDER BY a)"),
                sameAsDuckDb("select string_agg(c, ',' order by a asc), string_agg(c, ',' order by a) from t"));
    }

    @Test
    void whereTheNamesDifferFromDuckDbs() {
        // an interval of two units, which DuckDB does not have, keeps its SQL
        assertEquals(List.of("INTERVAL '1-2' YEAR TO MONTH"), names(tessera.query("select interval '1-2' year to month")));
        // a subquery with a part whose text DuckDB rewrites (ROLLUP as GROUPING SETS, ORDER BY ALL as COLUMNS(*))
        // is named (SELECT ...)
        assertEquals(List.of("(SELECT ...)", "(SELECT ...)"),
                names(tessera.query("select (select 1 from t group by rollup (a) limit 1),"
                        + " (select a from t order by all limit 1)")));
        // a set operation under ORDER BY is read through a SELECT * of Calcite's, where a repeated name would be
        // ambiguous: its columns are named as a subquery's (DuckDB: sum(a), sum(a))
        assertEquals(List.of("sum(a)", "sum(a)_1"),
                names(tessera.query("select sum(a), sum(a) from t union all select 1, 2 order by 1")));
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
        tessera.query("create view w as select * from t join u on t.a = u.a");
        duck.execute("create view w as select * from t join u on t.a = u.a");
        try {
            assertEquals(List.of("a", "b", "c", "d", "x", "f", "a_1", "e"), sameAsDuckDb("select * from w"));
        } finally {
            tessera.query("drop view w");
            duck.execute("drop view w");
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
