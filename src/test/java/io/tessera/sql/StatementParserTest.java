package io.tessera.sql;

import io.tessera.storage.DataType;
import io.tessera.storage.Macro;
import io.tessera.storage.TableSchema;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Statements as {@link StatementParser} reads them: kinds, names, types, and errors that name their position. */
class StatementParserTest {

    private static Statement.CreateTable create(String sql) {
        return (Statement.CreateTable) StatementParser.parse(sql);
    }

    private static String error(String sql) {
        return assertThrows(SqlError.class, () -> StatementParser.parse(sql)).getMessage();
    }

    private static void assertStarts(String prefix, String actual) {
        assertTrue(actual.startsWith(prefix), actual);
    }

    @Test
    void generatedColumnsKeepTheirExpressionAsWritten() {
        Statement.CreateTable c = create("create table t (a int, b as (a  + 1), c bigint generated always as (b * 2)"
                + " virtual, d varchar)");
        assertEquals(List.of(new Statement.Column("a", DataType.INTEGER, true),
                new Statement.Column("b", null, true, null, "a  + 1"),
                new Statement.Column("c", DataType.BIGINT, true, null, "b * 2"),
                new Statement.Column("d", DataType.VARCHAR, true)), c.columns());
    }

    @Test
    void queriesPassThroughAsWrittenWithoutTrailingSemicolons() {
        assertEquals(new Statement.Query("select 1"), StatementParser.parse("  select 1 ;; "));
        assertEquals(new Statement.Query("-- a comment\nselect 1"), StatementParser.parse("-- a comment\nselect 1;"));
        assertEquals(new Statement.Query("with x as (select 1) select * from x"),
                StatementParser.parse("with x as (select 1) select * from x"));
        assertEquals(new Statement.Insert("t", "insert into t values (1)"),
                StatementParser.parse("insert into t values (1);"));
        // a text the tokenizer stops on is left to the query parser, which names the error
        assertEquals(new Statement.Query("select 'open"), StatementParser.parse("select 'open"));
        assertEquals(new Statement.Query(""), StatementParser.parse(" ; "));
        assertEquals(new Statement.Query("-- nothing but a comment"),
                StatementParser.parse("-- nothing but a comment"));
    }

    @Test
    void explainFormsAndTheQueryAfterThem() {
        assertEquals(new Statement.Explain(Statement.Explain.Kind.PLAN, "select a from t"),
                StatementParser.parse("EXPLAIN select a from t;"));
        assertEquals(new Statement.Explain(Statement.Explain.Kind.CODE, "select a from t"),
                StatementParser.parse("explain code select a from t"));
        assertEquals(new Statement.Explain(Statement.Explain.Kind.CODE, "select a\nfrom t"),
                StatementParser.parse("  Explain\tCode\r\n  select a\nfrom t ;"));
        assertEquals(new Statement.Explain(Statement.Explain.Kind.PLAN, "select 1"),
                StatementParser.parse("explain plan for select 1"));
        // comments before and between the keywords
        assertEquals(new Statement.Explain(Statement.Explain.Kind.CODE, "select 1"),
                StatementParser.parse("/* why */ explain -- this\n code /* and */ select 1"));
        // a word that only starts like CODE is the query's
        assertEquals(new Statement.Explain(Statement.Explain.Kind.PLAN, "codex from t"),
                StatementParser.parse("explain codex from t"));
        // non-ASCII text before the query keeps the offsets right
        assertEquals(new Statement.Explain(Statement.Explain.Kind.PLAN, "select '中文😀'"),
                StatementParser.parse("/* 中文😀 */ explain\r\n\r\n\tselect '中文😀'"));
    }

    @Test
    void explainAnalyzeAndItsOptions() {
        assertEquals(new Statement.Explain(Statement.Explain.Kind.PLAN, "select a from t", true, false),
                StatementParser.parse("EXPLAIN ANALYZE select a from t;"));
        assertEquals(new Statement.Explain(Statement.Explain.Kind.CODE, "select 1", true, false),
                StatementParser.parse("explain analyze code select 1"));
        assertEquals(new Statement.Explain(Statement.Explain.Kind.PLAN, "select 1", true, true),
                StatementParser.parse("explain (analyze, format json) select 1"));
        assertEquals(new Statement.Explain(Statement.Explain.Kind.PLAN, "select 1", true, true),
                StatementParser.parse("explain (FORMAT JSON, ANALYZE) select 1"));
        assertEquals(new Statement.Explain(Statement.Explain.Kind.PLAN, "select 1", false, true),
                StatementParser.parse("explain (format json) select 1"));
        assertEquals(new Statement.Explain(Statement.Explain.Kind.PLAN, "select 1", true, false),
                StatementParser.parse("explain (analyze, format text) select 1"));
        // a query in parentheses is no option list; a quoted "analyze" is a name
        assertEquals(new Statement.Explain(Statement.Explain.Kind.PLAN, "(select 1)"),
                StatementParser.parse("explain (select 1)"));
        assertEquals(new Statement.Explain(Statement.Explain.Kind.PLAN, "\"analyze\" from t"),
                StatementParser.parse("explain \"analyze\" from t"));
    }

    @Test
    void explainErrorsNameThePosition() {
        // at the end, as Calcite names the position of <EOF>: its last character
        assertEquals("syntax error at line 1, column 7: EXPLAIN needs a query (EXPLAIN query, EXPLAIN PLAN FOR query,"
                + " EXPLAIN CODE query, EXPLAIN ANALYZE query, EXPLAIN (ANALYZE, FORMAT JSON) query)", error("explain;"));
        assertStarts("unsupported: EXPLAIN option at line 1, column 19; the options are ANALYZE and FORMAT",
                error("explain (analyze, costs) select 1"));
        assertStarts("syntax error at line 1, column 18: EXPLAIN's options are separated by commas",
                error("explain (analyze select 1"));
        assertStarts("unsupported: EXPLAIN CODE in FORMAT JSON", error("explain (format json) code select 1"));
        assertStarts("syntax error at line 2, column 4: EXPLAIN needs a query", error("explain\ncode"));
        assertStarts("unsupported: EXPLAIN PLAN options at line 1, column 14; the forms are",
                error("explain plan with type for select 1"));
        assertStarts("syntax error at line 1, column 14", error("explain plan select 1"));
        // where the tokenizer stops before the query, the query parser names the error
        assertStarts("syntax error at line 2, column 2: Lexical error", error("explain code\n #x"));
        // an error inside the query is the query parser's, when the query is planned
        assertEquals(new Statement.Explain(Statement.Explain.Kind.CODE, "'open"),
                StatementParser.parse("explain code 'open"));
    }

    @Test
    void createTableWithKeys() {
        Statement.CreateTable c = create("create table t (id int primary key, code varchar unique not null, a int,"
                + " b int null unique, unique (A, b))");
        assertEquals(List.of(new io.tessera.storage.TableKey(List.of("id"), true),
                new io.tessera.storage.TableKey(List.of("code"), false),
                new io.tessera.storage.TableKey(List.of("b"), false),
                new io.tessera.storage.TableKey(List.of("a", "b"), false)), c.keys());
        // a primary key's column is NOT NULL; the others as declared
        assertEquals(List.of(false, false, true, true),
                c.schema().columns().stream().map(io.tessera.storage.ColumnSchema::nullable).toList());
        assertEquals("CREATE TABLE t: column A appears twice in a key at line 1, column 35",
                error("create table t (a int, unique (a, A))"));
    }

    @Test
    void createTableWithForeignKeys() {
        Statement.CreateTable c = create("create table c (id int references p, Pa int, pb varchar references q (k)"
                + " on delete restrict on update no action, constraint f foreign key (pa, PB) references r (x, y))");
        // columns as the table stores them, the parent's as written (resolved against it when the table is made)
        assertEquals(List.of(List.of("id"), List.of("pb"), List.of("Pa", "pb")),
                c.foreignKeys().stream().map(ForeignKeys.Declared::columns).toList());
        assertEquals(List.of("p", "q", "r"), c.foreignKeys().stream().map(ForeignKeys.Declared::parent).toList());
        assertEquals(java.util.Arrays.asList(null, List.of("k"), List.of("x", "y")),
                c.foreignKeys().stream().map(ForeignKeys.Declared::referenced).toList());
        assertEquals(1, c.foreignKeys().get(2).at().getLineNum());
        assertEquals("CREATE TABLE c: FOREIGN KEY constraints cannot use CASCADE, SET NULL or SET DEFAULT at line 1,"
                + " column 72", error("create table c (id int references p (id) on update no action on delete cascade)"));
        assertEquals("CREATE TABLE c: FOREIGN KEY constraints cannot use CASCADE, SET NULL or SET DEFAULT at line 1,"
                + " column 65", error("create table c (id int, foreign key (id) references p on delete set null)"));
        assertEquals("CREATE TABLE c: column \"nope\" named in key does not exist at line 1, column 38",
                error("create table c (id int, foreign key (nope) references p)"));
        assertEquals("unsupported: a qualified table name s.p at line 1, column 35",
                error("create table c (id int references s.p)"));
    }

    @Test
    void createTableWithEveryType() {
        Statement.CreateTable c = create("""
                CREATE TABLE lineitem (
                  l_orderkey BIGINT NOT NULL,
                  l_quantity INTEGER not null,
                  l_discount DECIMAL(15,2),
                  l_tax decimal(5),
                  l_price NUMERIC,
                  l_small SMALLINT NOT NULL,
                  l_tiny TINYINT,
                  l_comment VARCHAR(44) NOT NULL,
                  l_flag CHAR(1),
                  l_shipdate DATE,
                  l_ok BOOLEAN NULL,
                  l_d DOUBLE, l_dp DOUBLE PRECISION, l_r REAL, l_f FLOAT,
                  l_text text, l_i4 INT4, l_b bool, l_long long
                );""");
        assertEquals("lineitem", c.name());
        assertEquals(false, c.ifNotExists());
        assertEquals(List.of(
                new Statement.Column("l_orderkey", DataType.BIGINT, false),
                new Statement.Column("l_quantity", DataType.INTEGER, false),
                new Statement.Column("l_discount", DataType.decimal(15, 2), true),
                new Statement.Column("l_tax", DataType.decimal(5, 0), true),
                new Statement.Column("l_price", DataType.decimal(18, 3), true), // DuckDB's NUMERIC
                new Statement.Column("l_small", DataType.SMALLINT, false),
                new Statement.Column("l_tiny", DataType.TINYINT, true),
                new Statement.Column("l_comment", DataType.VARCHAR, false),
                new Statement.Column("l_flag", DataType.VARCHAR, true),
                new Statement.Column("l_shipdate", DataType.DATE, true),
                new Statement.Column("l_ok", DataType.BOOLEAN, true),
                new Statement.Column("l_d", DataType.DOUBLE, true),
                new Statement.Column("l_dp", DataType.DOUBLE, true),
                new Statement.Column("l_r", DataType.REAL, true),
                new Statement.Column("l_f", DataType.REAL, true),
                new Statement.Column("l_text", DataType.VARCHAR, true),
                new Statement.Column("l_i4", DataType.INTEGER, true),
                new Statement.Column("l_b", DataType.BOOLEAN, true),
                new Statement.Column("l_long", DataType.BIGINT, true)), c.columns());
        TableSchema schema = c.schema();
        assertEquals("lineitem", schema.name());
        assertEquals("l_discount DECIMAL(15,2)", schema.column("l_discount").toString());
        assertEquals("l_small SMALLINT NOT NULL", schema.column("L_SMALL").toString());
    }

    @Test
    void ifNotExistsAndNamesAsSqlMeansThem() {
        Statement.CreateTable c = create("create table if not exists MixedCase (Amount int, \"Odd\" int)");
        assertTrue(c.ifNotExists());
        // names stay as written, quoted or not, as DuckDB keeps them; storage keeps them so too
        assertEquals("MixedCase", c.name());
        assertEquals(List.of("Amount", "Odd"), c.columns().stream().map(Statement.Column::name).toList());
        assertEquals("MixedCase(Amount INTEGER, Odd INTEGER)", c.schema().toString());
    }

    @Test
    void quotedIdentifiersWithOddCharacters() {
        Statement.CreateTable c =
                create("create table \"Line Items; \"\"x\"\"\" (\"a-b\" int, \"größe 😀\" varchar)");
        assertEquals("Line Items; \"x\"", c.name());
        assertEquals(List.of("a-b", "größe 😀"), c.columns().stream().map(Statement.Column::name).toList());
        // the parser reads them; storage's names are letters, digits and underscores
        SqlError e = assertThrows(SqlError.class, c::schema);
        assertEquals("CREATE TABLE Line Items; \"x\": invalid column name 'a-b': use letters, digits and underscores,"
                + " not starting with a digit", e.getMessage());
        assertEquals(new Statement.DropTable("Line Items; \"x\"", false),
                StatementParser.parse("drop table \"Line Items; \"\"x\"\"\""));
        // a semicolon inside a quoted name is the name's
        assertEquals(new Statement.DropTable("t;", true), StatementParser.parse("drop table if exists \"t;\";"));
    }

    @Test
    void dropTable() {
        assertEquals(new Statement.DropTable("Orders", false), StatementParser.parse("DROP TABLE Orders;"));
        assertEquals(new Statement.DropTable("orders", true), StatementParser.parse("drop table if exists orders"));
        assertEquals(new Statement.DropTable("orders", true),
                StatementParser.parse("-- clean up\ndrop /* really */ table if exists orders"));
    }

    @Test
    void tableDefinitionErrorsNameThePosition() {
        assertStarts("syntax error at line 1, column 23: Encountered \")\"", error("create table t (a int,)"));
        assertStarts("syntax error at line 2, column 18: Encountered \"null\"",
                error("create table t (\n  a int not null null)"));
        assertStarts("syntax error at line 1, column 15: Encountered \"x\"", error("drop table if x"));
        assertEquals("CREATE TABLE t: unsupported column type hugeint at line 1, column 26 (Tessera stores INTEGER,"
                + " SMALLINT, TINYINT, BIGINT, DOUBLE, REAL, DECIMAL(p,s), DATE, TIMESTAMP,"
                + " TIMESTAMP WITH TIME ZONE, TIME, BOOLEAN, INTERVAL, VARCHAR, BLOB and UUID, lists of them: INTEGER[],"
                + " structs of them: STRUCT(a INTEGER, b VARCHAR), and maps of them: MAP(VARCHAR, INTEGER))",
                error("create table t (a int, b hugeint)"));
        assertStarts("Type with name money does not exist at line 1, column 19",
                error("create table t (a money)"));
        assertEquals("CREATE TABLE t: DECIMAL precision must be 1..18 (stored as a scaled 64-bit integer), got 20"
                + " at line 1, column 19", error("create table t (a decimal(20,2))"));
        assertEquals("CREATE TABLE t: DECIMAL scale must be 0..4, got 5 at line 1, column 19",
                error("create table t (a decimal(4,5))"));
        assertEquals("CREATE TABLE t needs its columns: CREATE TABLE name (column type [NOT NULL], ...) at line 1,"
                + " column 14", error("create table t"));
        assertEquals("CREATE TABLE t: column b needs a type at line 1, column 17", error("create table t (b)"));
        assertEquals("Can not create a STORED generated column! at line 1, column 44",
                error("create table t (a int generated always as (1) stored)"));
        assertEquals("Qualified (tbl.name) column references are not allowed inside of generated column expressions"
                + " at line 1, column 30", error("create table t (a int, b as (t.a))"));
        assertEquals("syntax error: Not allowed to set default on a generated column at line 1, column 33",
                error("create table t (a int, b as (a) default 1)"));
        assertStarts("syntax error: Adding generated columns after table creation is not supported yet",
                error("alter table t add column b int as (1)"));
        assertEquals("DEFAULT value cannot contain column names at line 1, column 31",
                error("create table t (a int default b)"));
        assertEquals("DEFAULT value cannot contain subqueries at line 1, column 31",
                error("create table t (a int default (select 1))"));
        assertEquals("nextval('s') + 1", create("create table t (a int default  nextval('s') + 1 , b int)")
                .columns().get(0).defaultValue());
        // a column's CHECK, after a DEFAULT too, and the table's: each kept as written, the table's name taken off
        assertEquals("t(a INTEGER DEFAULT 1, b INTEGER, CHECK (a  >  0), CONSTRAINT ab CHECK (a < b),"
                + " CHECK (b is not null))", create("create table t (a int default 1 check (a  >  0), b int"
                + " constraint ab check (t.a < b), check (b is not null))").schema().toString());
        assertEquals(List.of("a", "b"), create("create table t (a int, b int, check (b > a))").schema().checks()
                .get(0).columns());
        assertEquals("CREATE TABLE t: subqueries are not allowed in CHECK constraints at line 1, column 36",
                error("create table t (a int check (a in (select 1)))"));
        assertEquals("unsupported: a constraint's name (CONSTRAINT k) at line 1, column 35",
                error("create table t (a int, constraint k primary key (a))"));
        assertEquals("unsupported: a qualified table name s.t at line 1, column 14", error("create table s.t (a int)"));
        assertEquals("unsupported: a column list in CREATE TABLE ... AS query (name the query's columns instead) at"
                + " line 1, column 16", error("create table t (a int) as select 1"));
        assertEquals("Cannot specify both OR REPLACE and IF NOT EXISTS within single create statement at line 1,"
                + " column 1", error("create or replace table if not exists t (a int)"));
        assertEquals("unsupported: DROP SCHEMA at line 1, column 1", error("drop schema s"));
        assertEquals("CREATE TABLE t: column A appears twice in table t",
                assertThrows(SqlError.class, () -> create("create table t (a int, A bigint)").schema()).getMessage());
    }

    @Test
    void macros() {
        SqlParserPos at = new SqlParserPos(1, 25);
        assertEquals(new Statement.CreateMacro(new Macro("f", List.of(new Macro.Parameter("a", null),
                        new Macro.Parameter("B", "(1 + 2)")), "a + B * 2", false), true, false, at),
                StatementParser.parse("create or replace macro f(a, B := (1 + 2)) as a + B * 2;"));
        assertEquals(new Statement.CreateMacro(new Macro("Tm", List.of(), "select 1 as x", true), false, true,
                        new SqlParserPos(1, 22)),
                StatementParser.parse("CREATE TEMP FUNCTION \"Tm\"() AS TABLE select 1 as x"));
        assertEquals(new Statement.DropMacro("f", true, true, new SqlParserPos(1, 28)),
                StatementParser.parse("drop macro table if exists f"));
        assertEquals(new Statement.DropMacro("g", false, false, new SqlParserPos(1, 15)),
                StatementParser.parse("DROP FUNCTION g"));
        assertEquals("syntax error at line 1, column 20: CREATE MACRO f needs a body after AS (an expression, or "
                + "TABLE and a query)", error("create macro f(x) as"));
        assertEquals("syntax error at line 1, column 18: expected , or ) after a parameter, found y",
                error("create macro f(x y) as x"));
        assertTrue(error("create macro f(x) as x +").startsWith("syntax error"), error("create macro f(x) as x +"));
        assertEquals("syntax error at line 1, column 14: DROP MACRO takes one name; found g", error("drop macro f g"));
    }

    @Test
    void dataChangesViewsAndCopy() {
        assertEquals(new Statement.Update("T", "UPDATE T set a = 1 where b"), StatementParser.parse("UPDATE T set a = 1 where b;"));
        assertEquals(new Statement.Delete("t x", "delete from \"t x\" where 1 = 1"),
                StatementParser.parse("delete from \"t x\" where 1 = 1"));
        assertEquals(new Statement.CreateTableAs("t2", "select a as x from t -- why", false, false),
                StatementParser.parse("create table t2 as select a as x from t -- why\n"));
        assertEquals(new Statement.CreateView("v", List.of("p", "q"), "(select a, (b) from t)", true),
                StatementParser.parse("create or replace view v (p, q) as (select a, (b) from t);"));
        assertEquals(new Statement.DropView("V", true), StatementParser.parse("drop view if exists V"));
        assertEquals(new Statement.Copy("T", "data/it's.csv", "csv", true, ";"),
                StatementParser.parse("copy T from 'data/it''s.csv' (format csv, header, delimiter ';');"));
        assertEquals(new Statement.Copy("My T", "a.tbl", null, false, null),
                StatementParser.parse("COPY \"My T\" FROM 'a.tbl' WITH (HEADER false)"));
        assertEquals(new Statement.CopyTo("SELECT * FROM \"My \"\"T\"", "x.csv", null, true, null),
                StatementParser.parse("copy \"My \"\"T\" to 'x.csv'"));
        assertEquals(new Statement.CopyTo("select (a), b from t where (a) > 1", "out.pq", "parquet", false, "|"),
                StatementParser.parse("COPY ( select (a), b from t where (a) > 1 ) TO 'out.pq' (FORMAT parquet, "
                        + "HEADER false, DELIMITER '|');"));
        assertEquals("unsupported: COPY (query) TO in FORMAT tbl (csv or parquet) at line 1, column 36",
                error("copy (select 1) to 'x.tbl' (format tbl)"));
        assertTrue(error("copy (select 1 to 'x'").contains("expected ')' after the query"),
                error("copy (select 1 to 'x'"));
        assertEquals(new Statement.Query("SELECT table_name AS name FROM information_schema.tables ORDER BY "
                + "table_name"), StatementParser.parse("show tables;"));
        assertEquals("unsupported: COPY option escape (FORMAT, HEADER, DELIMITER, QUOTE, ALLOW_QUOTED_NULLS,"
                + " FORCE_NOT_NULL) at line 1, column 22", error("copy t from 'x.csv' (escape '\"')"));
        assertEquals("unsupported: COPY option QUOTE other than '\"' at line 1, column 28",
                error("copy t from 'x.csv' (quote '|')"));
        // the options DuckDB's EXPORT DATABASE writes into load.sql
        assertEquals(new Statement.Copy("t", "d/t.csv", "csv", true, ",", List.of("b", "a")),
                StatementParser.parse("COPY t FROM 'd/t.csv' (FORMAT 'csv', allow_quoted_nulls false, force_not_null"
                        + " ('b', 'a'), quote '\"', delimiter ',', header 1);"));
        assertEquals(new Statement.ExportDatabase("d", "parquet", null),
                StatementParser.parse("export database 'd' (format parquet)"));
        assertEquals(new Statement.ImportDatabase("d"), StatementParser.parse("IMPORT DATABASE 'd';"));
        assertTrue(error("export database d").contains("expected the directory's name in single quotes"),
                error("export database d"));
        assertEquals("unsupported: COPY format json (csv, tbl or parquet) at line 1, column 29",
                error("copy t from 'x.csv' (format json)"));
        assertEquals(new Statement.Copy("t", "x.dat", "parquet", false, null),
                StatementParser.parse("copy t from 'x.dat' (format 'Parquet')"));
        assertTrue(error("copy t from x.csv").startsWith("syntax error at line 1, column 13: expected the file's"
                + " name in single quotes, found 'x'"), error("copy t from x.csv"));
        assertEquals("syntax error at line 1, column 6: \"order\" is a reserved word; quote it as \"order\"",
                error("copy order from 'x.csv'"));
        assertEquals(new Statement.Copy("value", "x.csv", null, false, null), StatementParser.parse("copy value from 'x.csv'"));
    }

    @Test
    void wordsThatDuckDbAndPostgresTakeAsNamesAreNames() {
        // TPC-H Q11's alias, and keywords of Calcite's that DuckDB and PostgreSQL do not reserve
        assertEquals("SELECT `k`, SUM(`v` * `q`) AS `value`\nFROM `t`\nGROUP BY `k`\nORDER BY `value` DESC",
                SqlFrontEnd.parse("select k, sum(v * q) as value from t group by k order by value desc").toString());
        assertEquals("SELECT `date`.`year`, COUNT(`count`) AS `count`\nFROM `value` AS `date`",
                SqlFrontEnd.parse("select date.year, count(count) count from value date").toString());
        assertEquals(List.of("value", "year", "date"), create("create table t (value int, year int, date date)")
                .columns().stream().map(Statement.Column::name).toList());
        assertEquals(new Statement.DropTable("value", false), StatementParser.parse("drop table value"));
        // IF is a word of its own, and a name where IF [NOT] EXISTS cannot stand
        assertEquals(new Statement.DropTable("if", false), StatementParser.parse("drop table if"));
        assertEquals("if", create("create table if not exists if (a int)").name());
    }

    @Test
    void aReservedWordAsANameSaysSoAndHowToQuoteIt() {
        assertEquals("syntax error at line 1, column 25: \"order\" is a reserved word; quote it as \"order\"",
                messageOf(() -> SqlFrontEnd.parse("select k, sum(v * q) as order from t group by k")));
        assertEquals("syntax error at line 1, column 13: \"SELECT\" is a reserved word; quote it as \"select\"",
                messageOf(() -> SqlFrontEnd.parse("select 1 as SELECT")));
        assertEquals("syntax error at line 1, column 24: \"where\" is a reserved word; quote it as \"where\"",
                messageOf(() -> StatementParser.parse("create table t (a int, where int)")));
        // a word only Calcite's grammar keeps as a keyword says so
        assertEquals("syntax error at line 1, column 13: \"update\" is a keyword that Tessera's SQL grammar cannot"
                + " take as a name there (DuckDB and PostgreSQL can); quote it as \"update\"",
                messageOf(() -> SqlFrontEnd.parse("select 1 as update")));
        // a keyword where no name can stand keeps the parser's own message
        assertTrue(messageOf(() -> SqlFrontEnd.parse("select a from t where")).startsWith("syntax error at line 1, column"
                + " 21: Encountered \"<EOF>\""), messageOf(() -> SqlFrontEnd.parse("select a from t where")));
        assertEquals(new Statement.Query("select 1 as \"order\""), StatementParser.parse("select 1 as \"order\""));
    }

    private static String messageOf(Runnable r) {
        return assertThrows(SqlError.class, r::run).getMessage();
    }
}
