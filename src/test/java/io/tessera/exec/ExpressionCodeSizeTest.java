package io.tessera.exec;

import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.Tessera;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.JavaCompiler;
import org.codehaus.commons.compiler.CompileException;
import org.codehaus.janino.SimpleCompiler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Generated code grows linearly with the expression: three-valued logic through locals rather than copies of each
 * operand's text, IN lists as one set lookup. Before, each OR over a nullable column doubled the Java (756,528 bytes
 * for 10 terms, past Janino's 64 KB from 9), and an IN list of 16 values on a nullable column ran out of memory.
 * The code is measured in lines of generated Java and in bytes of the classes they compile to, never in time.
 */
class ExpressionCodeSizeTest {

    @TempDir
    static Path dir;

    private static Tessera db;

    /** a: 0..299 with every 7th NULL; b: a + 5 with every 11th NULL; s: 'v' + a, every 13th NULL. */
    @BeforeAll
    static void table() {
        Object[][] rows = new Object[300][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = new Object[] {i % 7 == 3 ? null : i, i % 11 == 4 ? null : i + 5, i % 13 == 5 ? null : "v" + i};
        }
        TinyTables.write(dir, "t", "a INTEGER, b INTEGER, s VARCHAR", rows);
        db = Tessera.open(dir);
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static Integer a(int i) {
        return i % 7 == 3 ? null : i;
    }

    private static Integer b(int i) {
        return i % 11 == 4 ? null : i + 5;
    }

    private static String s(int i) {
        return i % 13 == 5 ? null : "v" + i;
    }

    /** The generated code of a query's pipelines: lines of Java, and bytes of the class files they compile to. */
    private record Code(long lines, long classBytes) {
    }

    /** Plans, emits and compiles the query (code past the JVM's limits fails here), then measures its code. */
    private static Code code(String sql) {
        QueryEngine.Prepared p = db.engine().prepare(sql);
        long lines = 0;
        long classBytes = 0;
        for (EmittedPipeline e : JvmExecutor.compiled(p.jvm()).pipelines()) {
            lines += e.source().lines().count();
            classBytes += classBytes(e.source());
        }
        return new Code(lines, classBytes);
    }

    /** Lines of generated Java of the query's pipelines. */
    private static long lines(String sql) {
        return JvmExecutor.compiled(db.engine().prepare(sql).jvm()).pipelines().stream()
                .mapToLong(e -> e.source().lines().count()).sum();
    }

    /** The class files of a pipeline's source, compiled again here: the engine keeps only the loaded class. */
    private static long classBytes(String source) {
        SimpleCompiler c = new SimpleCompiler();
        c.setParentClassLoader(JavaCompiler.class.getClassLoader());
        try {
            c.cook(source);
        } catch (CompileException e) {
            throw new AssertionError("a source the engine compiled does not compile again", e);
        }
        return c.getBytecodes().values().stream().mapToLong(b -> b.length).sum();
    }

    /**
     * Asserts that the code of {@code sqlOfSize.apply(n)} grows linearly in n, in lines and in class bytes: each unit
     * of n from {@code middle} to {@code large} adds at most 1.5 times what each unit added from {@code small} to
     * {@code middle}. Code that doubles per unit, or grows as n squared, adds 2.25 to many times more per unit at
     * the large end for the sizes used here.
     */
    private static void assertLinear(String what, IntFunction<String> sqlOfSize, int small, int middle, int large) {
        Code s = code(sqlOfSize.apply(small));
        Code m = code(sqlOfSize.apply(middle));
        Code l = code(sqlOfSize.apply(large));
        String sizes = what + " " + small + ", " + middle + ", " + large + ": " + s + ", " + m + ", " + l;
        assertTrue(m.lines() > s.lines() && perUnit(l.lines() - m.lines(), large - middle)
                <= 1.5 * perUnit(m.lines() - s.lines(), middle - small), "lines of Java for " + sizes);
        assertTrue(m.classBytes() > s.classBytes() && perUnit(l.classBytes() - m.classBytes(), large - middle)
                <= 1.5 * perUnit(m.classBytes() - s.classBytes(), middle - small), "class bytes for " + sizes);
    }

    private static double perUnit(long grown, int units) {
        return (double) grown / units;
    }

    private static long count(String where) {
        return (Long) db.query("select count(*) from t where " + where).rows().getFirst()[0];
    }

    @Test
    void twoHundredOrTermsOverNullableColumnsCompileLinearly() {
        // a + k = b and b - a < k - 190 compare two columns, so Calcite keeps every term (it folds constants into a
        // search); b - a is 5 where neither is NULL, so only the last two terms (k = 197, 199) hold there
        List<String> terms = new ArrayList<>();
        for (int k = 0; k < 200; k++) {
            terms.add(k % 2 == 0 ? "a + " + k + " = b" : "b - a < " + (k - 190));
        }
        String where = "(" + String.join(" or ", terms) + ")";
        String firstTen = "(" + String.join(" or ", terms.subList(0, 10)) + ")";
        assertLinear("OR terms", n -> "select count(*) from t where (" + String.join(" or ", terms.subList(0, n)) + ")",
                10, 50, 200);
        long expected = 0;
        for (int i = 0; i < 300; i++) {
            if (a(i) != null && b(i) != null) {
                expected++;
            }
        }
        assertEquals(expected, count(where));
        assertEquals(0L, count(firstTen));
        assertEquals(expected, count("not " + firstTen + " and b is not null"), "NOT over the terms' three-valued OR");
    }

    @Test
    void inListsOfTenThousandValuesOnNullableColumnsAreSetLookups() {
        StringJoiner ints = new StringJoiner(", ");
        StringJoiner strings = new StringJoiner(", ");
        StringJoiner hundredInts = new StringJoiner(", ");
        StringJoiner hundredStrings = new StringJoiner(", ");
        for (int v = 0; v < 10_000; v++) {
            ints.add(Integer.toString(3 * v));
            strings.add("'v" + (3 * v) + "'");
            if (v < 100) {
                hundredInts.add(Integer.toString(3 * v));
                hundredStrings.add("'v" + (3 * v) + "'");
            }
        }
        // the values are data the lookup reads: a hundred times more of them leave the code as it was
        assertEquals(code("select count(*) from t where a in (" + hundredInts + ")"),
                code("select count(*) from t where a in (" + ints + ")"), "100 and 10,000 INTEGER values");
        assertEquals(code("select count(*) from t where s in (" + hundredStrings + ")"),
                code("select count(*) from t where s in (" + strings + ")"), "100 and 10,000 VARCHAR values");
        long inInts = 0;
        long notInInts = 0;
        long inStrings = 0;
        for (int i = 0; i < 300; i++) {
            if (a(i) != null) {
                if (a(i) % 3 == 0) {
                    inInts++;
                } else {
                    notInInts++;
                }
            }
            if (s(i) != null && i % 3 == 0) {
                inStrings++;
            }
        }
        assertEquals(inInts, count("a in (" + ints + ")"));
        assertEquals(notInInts, count("a not in (" + ints + ")"));
        assertEquals(inStrings, count("s in (" + strings + ")"));
        // a short list with its values in and out of the table, through the same lookup
        assertEquals(List.of(List.of(0), List.of(6), List.of(12)),
                TinyTables.rows(db.query("select a from t where a in (0, 6, 12, 1000, -4) order by a")));
        assertEquals(List.of(List.of("v1"), List.of("v2")),
                TinyTables.rows(db.query("select s from t where s in ('v1', 'v2', 'x', 'y', 'v') order by s")));
    }

    @Test
    void nestedCaseAndCoalesceStayLinearAndLazy() {
        // CASE inside the THEN of the next: up to 30 deep
        assertLinear("CASE levels in THEN", depth -> {
            String inThen = "a";
            for (int d = 0; d < depth; d++) {
                inThen = "case when a > " + d + " then " + inThen + " else b + " + d + " end";
            }
            return "select sum(" + inThen + ") from t";
        }, 5, 15, 30);
        // CASE inside the WHEN of the next: Calcite's simplifier itself doubles this plan a level (it distributes the
        // comparison over the inner CASE), so the code is held to the size of the plan, not of the SQL
        long[] javaLines = new long[2];
        long[] planBytes = new long[2];
        for (int k = 0; k < 2; k++) {
            String inWhen = "a";
            for (int d = 0; d < 7 + k; d++) {
                inWhen = "case when " + inWhen + " > " + d + " then a + " + d + " else b end";
            }
            String sql = "select sum(" + inWhen + ") from t";
            javaLines[k] = lines(sql);
            planBytes[k] = db.engine().explain(sql).length();
        }
        double codeGrowth = (double) javaLines[1] / javaLines[0];
        double planGrowth = (double) planBytes[1] / planBytes[0];
        assertTrue(codeGrowth < 1.25 * planGrowth, "a level more: the plan grew " + planGrowth + "x, the code " + codeGrowth + "x");
        // COALESCE of nullable arguments, each tried only where the ones before it are NULL
        assertLinear("COALESCE arguments", n -> {
            List<String> args = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                args.add(k % 2 == 0 ? "a + " + k : "b - " + k);
            }
            return "select sum(coalesce(" + String.join(", ", args) + ")) from t";
        }, 4, 16, 64);
        long coalesced = 0;
        for (int i = 0; i < 300; i++) {
            coalesced += a(i) != null ? a(i) : b(i) != null ? b(i) - 1 : 7;
        }
        assertEquals(List.of(List.of(coalesced)), TinyTables.rows(db.query("select sum(coalesce(a, b - 1, 7)) from t")));
        // a THEN is evaluated only where its WHEN holds: no integer division by zero for a = 0
        List<List<Object>> r = TinyTables.rows(db.query(
                "select sum(case when a = 0 then 0 when a is null then -1 else 600 // a end) from t"));
        long expected = 0;
        for (int i = 0; i < 300; i++) {
            Integer x = a(i);
            expected += x == null ? -1 : x == 0 ? 0 : 600 / x;
        }
        assertEquals(List.of(List.of(expected)), r);
        // AND's right side only where the left one is not FALSE, OR's where it is not TRUE
        long and = 0;
        long or = 0;
        for (int i = 0; i < 300; i++) {
            Integer x = a(i);
            Integer y = b(i);
            boolean left = x != null && x != 0;
            if (left && (y == null ? false : 600 / x < y)) {
                and++;
            }
            if (!(x == null || x != 0) || (x != null && x != 0 && y != null && 600 / x > y)) {
                or++;
            }
        }
        assertEquals(and, count("case when a <> 0 and 600 // a < b then true else false end"));
        assertEquals(or, count("case when a = 0 or 600 // a > b then true else false end"));
    }
}
