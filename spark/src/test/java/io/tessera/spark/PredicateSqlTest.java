package io.tessera.spark;

import io.tessera.Tessera;
import io.tessera.api.QueryCancel;
import io.tessera.api.ResultColumn;
import io.tessera.api.RowSink;
import io.tessera.sql.Parameters;
import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.FieldReference;
import org.apache.spark.sql.connector.expressions.LiteralValue;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pushed predicates become SQL with a bound {@code ?} for each of Spark's typed values, hostile strings included: each
 * comparison, run by Tessera over a table of those values, selects exactly the rows Java's own comparison selects.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PredicateSqlTest {

    private static final String[] STRINGS = {"x' OR '1'='1", "'; DROP TABLE h; --", "back\\slash", "\"dq\" \"\"",
        "line\nbreak\ttab", "ünï 😀 中", "'", "''", "", "%_*?", "a'' OR ''b", "/* c */ --", "\u0000nul", "zz"};
    private static final double[] DOUBLES = {0.1, -0.0, 0.0, 1e300, 4.9e-324, -2.5, 1.0 / 3, 123456789.0};
    private static final long[] LONGS = {Long.MAX_VALUE, -5, Long.MIN_VALUE, 0, 42};
    private static final BigDecimal[] DECIMALS = {new BigDecimal("123456789.123"), new BigDecimal("-0.001"),
        new BigDecimal("0.000"), new BigDecimal("999999999.999")};
    private static final LocalDate[] DATES = {LocalDate.of(1970, 1, 1), LocalDate.of(2026, 11, 27),
        LocalDate.of(1, 1, 1), LocalDate.of(1969, 12, 31)};

    Tessera tessera;
    TableSchema schema;
    int rows;

    @BeforeAll
    void write(@TempDir Path dir) {
        schema = TableSchema.parse("h", "id INTEGER NOT NULL, s VARCHAR, d DOUBLE, b BIGINT, m DECIMAL(12,3), dt DATE");
        rows = STRINGS.length;
        try (Database db = Database.openOrCreate(dir); TableWriter w = db.replace(schema)) {
            RowBatch batch = new RowBatch(schema, rows);
            for (int i = 0; i < rows; i++) {
                batch.column(0).appendInt(i);
                batch.column(1).appendString(STRINGS[i]);
                batch.column(2).appendDouble(DOUBLES[i % DOUBLES.length]);
                batch.column(3).appendLong(LONGS[i % LONGS.length]);
                batch.column(4).appendLong(DECIMALS[i % DECIMALS.length].movePointRight(3).longValueExact());
                ColumnBuilder dates = batch.column(5);
                dates.appendInt((int) DATES[i % DATES.length].toEpochDay());
            }
            w.write(batch);
            w.commit();
        }
        tessera = Tessera.open(dir);
    }

    private List<Integer> ids(Condition condition) {
        List<Integer> out = new ArrayList<>();
        tessera.query("SELECT \"id\" FROM \"h\" WHERE " + condition.sql() + " ORDER BY \"id\"",
                Parameters.of(condition.values()), new QueryCancel(), new RowSink() {
                    @Override
                    public void start(List<ResultColumn> columns) {
                    }

                    @Override
                    public void rows(List<Object[]> batch) {
                        batch.forEach(row -> out.add((Integer) row[0]));
                    }
                });
        return out;
    }

    private Condition pushed(String op, String column, Object value, DataType type) {
        Predicate p = new Predicate(op, new Expression[] {Expressions.column(column), new LiteralValue<>(value, type)});
        Condition sql = new PredicateSql(schema).sql(p);
        assertNotNull(sql, op + " on " + column + " was not pushed");
        // the value is bound to the mark, not written into the text
        assertEquals("(\"" + column + "\" " + op + " ?)", sql.sql());
        assertEquals(List.of(SqlText.value(value, type)), sql.values());
        return sql;
    }

    private interface Matches {
        boolean test(int row);
    }

    private void check(String op, String column, Object value, DataType type, Matches expected) {
        List<Integer> want = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            if (expected.test(i)) {
                want.add(i);
            }
        }
        Condition sql = pushed(op, column, value, type);
        assertEquals(want, ids(sql), sql.toString());
    }

    @Test
    void stringLiteralsHoldTheirValueExactly() {
        for (String s : STRINGS) {
            check("=", "s", UTF8String.fromString(s), DataTypes.StringType, i -> STRINGS[i].equals(s));
            check("<", "s", UTF8String.fromString(s), DataTypes.StringType,
                    i -> UTF8String.fromString(STRINGS[i]).compareTo(UTF8String.fromString(s)) < 0);
        }
    }

    @Test
    void numberAndDateLiteralsHoldTheirValueExactly() {
        for (double d : DOUBLES) {
            check("=", "d", d, DataTypes.DoubleType, i -> DOUBLES[i % DOUBLES.length] == d);
        }
        for (long b : LONGS) {
            check("=", "b", b, DataTypes.LongType, i -> LONGS[i % LONGS.length] == b);
            check(">=", "b", b, DataTypes.LongType, i -> LONGS[i % LONGS.length] >= b);
        }
        for (BigDecimal m : DECIMALS) {
            check("=", "m", Decimal.apply(m, 12, 3), DataTypes.createDecimalType(12, 3),
                    i -> DECIMALS[i % DECIMALS.length].compareTo(m) == 0);
            check("<", "m", Decimal.apply(m, 12, 3), DataTypes.createDecimalType(12, 3),
                    i -> DECIMALS[i % DECIMALS.length].compareTo(m) < 0);
        }
        for (LocalDate dt : DATES) {
            check("<=", "dt", (int) dt.toEpochDay(), DataTypes.DateType,
                    i -> !DATES[i % DATES.length].isAfter(dt));
        }
    }

    @Test
    void whatTesseraWouldEvaluateOtherwiseIsLeftToSpark() {
        PredicateSql sql = new PredicateSql(schema);
        // a column the table does not have (a name made to break out of its quotes)
        assertNull(sql.sql(new Predicate("=", new Expression[] {FieldReference.column("s\" OR 1=1 --"),
            new LiteralValue<>(UTF8String.fromString("a"), DataTypes.StringType)})));
        // a literal of another type than the column's (Spark would compare after a cast)
        assertNull(sql.sql(new Predicate("=", new Expression[] {Expressions.column("b"),
            new LiteralValue<>(5, DataTypes.IntegerType)})));
        // an order comparison of doubles (Spark's NaN is larger than every number) and NaN itself
        assertNull(sql.sql(new Predicate("<", new Expression[] {Expressions.column("d"),
            new LiteralValue<>(1.0, DataTypes.DoubleType)})));
        assertNull(sql.sql(new Predicate("=", new Expression[] {Expressions.column("d"),
            new LiteralValue<>(Double.NaN, DataTypes.DoubleType)})));
        // null-safe equality and string patterns
        assertNull(sql.sql(new Predicate("<=>", new Expression[] {Expressions.column("s"),
            new LiteralValue<>(UTF8String.fromString("a"), DataTypes.StringType)})));
        assertNull(sql.sql(new Predicate("STARTS_WITH", new Expression[] {Expressions.column("s"),
            new LiteralValue<>(UTF8String.fromString("a"), DataTypes.StringType)})));
        // AND with one side Tessera cannot take is left whole
        Predicate pushable = new Predicate("IS_NOT_NULL", new Expression[] {Expressions.column("s")});
        Predicate not = new Predicate("STARTS_WITH", new Expression[] {Expressions.column("s"),
            new LiteralValue<>(UTF8String.fromString("a"), DataTypes.StringType)});
        assertNull(sql.sql(new Predicate("AND", new Expression[] {pushable, not})));
        assertEquals("(\"s\" IS NOT NULL)", sql.sql(pushable).sql());
    }

    @Test
    void inListsAndLogicCombine() {
        Predicate in = new Predicate("IN", new Expression[] {Expressions.column("s"),
            new LiteralValue<>(UTF8String.fromString("'"), DataTypes.StringType),
            new LiteralValue<>(UTF8String.fromString("zz"), DataTypes.StringType)});
        Predicate notEmpty = new Predicate("NOT", new Expression[] {new Predicate("=", new Expression[] {
            Expressions.column("s"), new LiteralValue<>(UTF8String.fromString(""), DataTypes.StringType)})});
        Condition sql = new PredicateSql(schema).sql(new Predicate("OR", new Expression[] {in,
            new Predicate("AND", new Expression[] {notEmpty, new Predicate("=", new Expression[] {
                Expressions.column("b"), new LiteralValue<>(42L, DataTypes.LongType)})})}));
        List<Integer> want = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            if (STRINGS[i].equals("'") || STRINGS[i].equals("zz")
                    || !STRINGS[i].isEmpty() && LONGS[i % LONGS.length] == 42) {
                want.add(i);
            }
        }
        assertTrue(want.size() >= 3, "the data has rows of each branch");
        assertEquals(want, ids(sql), sql.toString());
        assertEquals("((\"s\" IN (?, ?)) OR ((NOT (\"s\" = ?)) AND (\"b\" = ?)))", sql.sql());
        assertEquals(List.of("'", "zz", "", 42L), sql.values());
    }
}
