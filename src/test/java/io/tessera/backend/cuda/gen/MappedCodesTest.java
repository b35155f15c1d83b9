package io.tessera.backend.cuda.gen;

import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.data.ssb.SmallSsb;
import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Slot;
import io.tessera.plan.TextFunction;
import io.tessera.storage.CodePointOrder;
import io.tessera.storage.DataType;
import io.tessera.storage.Dictionary;
import io.tessera.variant.CudaVariantSpace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which string expressions of one dictionary column become maps of codes, that each code maps to the code of the
 * expression's value for the code's string in a sorted dictionary of the results (checked string by string against
 * Java's own evaluation), and that such a function is a group key, an aggregate's argument and an output on the GPU
 * with its constants kept out of the source.
 */
class MappedCodesTest extends SmallSsb {

    private static final Dictionary WORDS = Dictionary.of(List.of("13-345-100", "31-999-111", "", "sm box", "SM BOX",
            "  padded  ", "Zürich 😀 %_", "1", "straße", "13-000-000"));
    private static final Expr COL = new Expr.Ref(Slot.source(0, "c", DataType.VARCHAR, false, "t.c", null));
    private static final Expr OTHER = new Expr.Ref(Slot.source(1, "d", DataType.VARCHAR, false, "t.d", null));
    private static final Expr NULLABLE = new Expr.Ref(Slot.source(2, "e", DataType.VARCHAR, true, "t.e", null));

    private static Expr function(TextFunction f, Expr... args) {
        boolean nullable = List.of(args).stream().anyMatch(Expr::nullable);
        return new Expr.Call(Op.FUNCTION, List.of(args), DataType.VARCHAR, nullable, f);
    }

    private static Expr op(Op op, Expr... args) {
        return new Expr.Call(op, List.of(args), DataType.VARCHAR, List.of(args).stream().anyMatch(Expr::nullable));
    }

    private static Expr number(long n) {
        return new Expr.Literal(n, DataType.INTEGER);
    }

    private static Expr text(String s) {
        return new Expr.Literal(s, DataType.VARCHAR);
    }

    /** Every code of WORDS maps to the code of {@code expected} of its string, in a sorted dictionary of results. */
    private static void assertMap(Expr e, UnaryOperator<String> expected) {
        assertNotNull(MappedCodes.column(e), e + " should be a map of codes");
        MappedCodes.Mapping m = MappedCodes.mapping(e, WORDS);
        assertEquals(WORDS.size() + 1, m.codes().length, "a code for each string, then one for NULL");
        for (int k = 0; k < WORDS.size(); k++) {
            assertEquals(expected.apply(WORDS.value(k)), m.results().value(m.codes()[k]), e + " of '" + WORDS.value(k) + "'");
        }
        int forNull = m.codes()[MappedCodes.nullSlot(WORDS)];
        String expectedForNull = expected.apply(null);
        assertEquals(expectedForNull == null, MappedCodes.nullWhereColumnIs(e), e + " of NULL");
        assertEquals(expectedForNull, forNull < 0 ? null : m.results().value(forNull), e + " of NULL");
        for (int r = 1; r < m.results().size(); r++) {
            assertTrue(CodePointOrder.compare(m.results().value(r - 1), m.results().value(r)) < 0,
                    "the results' codes compare as their strings do");
        }
    }

    /** A strict function's expected value: NULL for NULL. */
    private static UnaryOperator<String> strict(UnaryOperator<String> f) {
        return s -> s == null ? null : f.apply(s);
    }

    private static Expr isNull(Op op, Expr e) {
        return new Expr.Call(op, List.of(e), DataType.BOOLEAN, false);
    }

    @Test
    void coalesceAndCaseOverTheColumnsNullMapNullToTheirValue() {
        // COALESCE(e, 'none') as SQL writes it: CASE WHEN e IS NOT NULL THEN e ELSE 'none' END
        Expr coalesce = new Expr.Call(Op.CASE, List.of(isNull(Op.IS_NOT_NULL, NULLABLE), NULLABLE, text("none")),
                DataType.VARCHAR, false);
        assertMap(coalesce, s -> s == null ? "none" : s);
        assertMap(new Expr.Call(Op.COALESCE, List.of(op(Op.UPPER, NULLABLE), text("")), DataType.VARCHAR, false),
                s -> s == null ? "" : s.replace("ß", "ẞ").toUpperCase(Locale.ROOT));
        assertMap(new Expr.Call(Op.CASE, List.of(isNull(Op.IS_NULL, NULLABLE), text("?"), isNull(Op.IS_NOT_NULL, NULLABLE),
                function(TextFunction.LEFT, NULLABLE, number(1)), text("never")), DataType.VARCHAR, false),
                s -> s == null ? "?" : s.codePoints().limit(1).collect(StringBuilder::new, StringBuilder::appendCodePoint,
                        StringBuilder::append).toString());
        // NULL where the column is: the map's last entry unused (-1)
        assertMap(new Expr.Call(Op.CASE, List.of(isNull(Op.IS_NULL, NULLABLE), NULLABLE, text("x")), DataType.VARCHAR, true),
                s -> s == null ? null : "x");
        // the codes a CASE passes through index the dictionary of its branches' codes
        Expr back = new Expr.Call(Op.CASE, List.of(isNull(Op.IS_NULL, NULLABLE), new Expr.Literal(null, DataType.VARCHAR),
                coalesce), DataType.VARCHAR, true);
        assertEquals(MappedCodes.dictionaryKey(coalesce), CodeDictionaries.of(back));
        assertNull(CodeDictionaries.of(new Expr.Call(Op.CASE, List.of(isNull(Op.IS_NULL, OTHER), text("x"), COL),
                DataType.VARCHAR, false)), "a constant has no code (and two columns no map)");
        assertEquals("t.c", CodeDictionaries.of(new Expr.Call(Op.CASE, List.of(isNull(Op.IS_NULL, OTHER),
                new Expr.Literal(null, DataType.VARCHAR), COL), DataType.VARCHAR, true)));
        // a condition on anything but the column's NULL is no map
        assertNull(MappedCodes.column(new Expr.Call(Op.CASE, List.of(new Expr.Call(Op.EQ, List.of(NULLABLE, text("1")),
                DataType.BOOLEAN, true), NULLABLE, text("x")), DataType.VARCHAR, true)));
    }

    @Test
    void stringFunctionsMapEveryCodeToItsResultsCode() {
        assertMap(function(TextFunction.SUBSTRING, COL, number(1), number(2)),
                strict(s -> s.codePoints().limit(2).collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString()));
        assertMap(function(TextFunction.LEFT, COL, number(3)),
                strict(s -> s.codePoints().limit(3).collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString()));
        // a code point above U+FFFF counts once
        assertMap(function(TextFunction.RIGHT, COL, number(2)), strict(s -> s.equals("Zürich 😀 %_") ? "%_"
                : s.length() <= 2 ? s : s.substring(s.length() - 2)));
        // upper per code point: 'ß' becomes 'ẞ', never "SS"
        assertMap(op(Op.UPPER, COL), strict(s -> s.replace("ß", "ẞ").toUpperCase(Locale.ROOT)));
        assertMap(op(Op.LOWER, function(TextFunction.TRIM, COL, text(" "))), strict(s -> s.strip().toLowerCase(Locale.ROOT)));
        assertMap(function(TextFunction.CONCAT, text("+"), function(TextFunction.LTRIM, COL, text("13-")), text("!")),
                s -> "+" + (s == null ? "" : s.replaceFirst("^[13-]*", "")) + "!"); // CONCAT skips a NULL
        assertMap(op(Op.CONCAT, COL, text("#")), strict(s -> s + "#"));
    }

    @Test
    void whatIsNoMapOfOneColumnsCodes() {
        assertNull(MappedCodes.column(COL), "a column as it is");
        assertNull(MappedCodes.column(op(Op.CONCAT, COL, OTHER)), "two columns");
        assertNull(MappedCodes.column(function(TextFunction.REPLACE, COL, text("1"), text("2"))), "no host code");
        assertNull(MappedCodes.column(new Expr.Call(Op.FUNCTION, List.of(COL), DataType.BIGINT, false,
                TextFunction.LENGTH)), "not a string");
        assertNull(MappedCodes.column(function(TextFunction.LEFT, COL, new Expr.Literal(null, DataType.INTEGER))),
                "a NULL constant");
        // CONCAT skips a NULL argument: the column must never be NULL; the strict functions keep NULL as NULL
        assertNull(MappedCodes.column(function(TextFunction.CONCAT, NULLABLE, text("x"))));
        assertNotNull(MappedCodes.column(function(TextFunction.SUBSTRING, NULLABLE, number(2))));
    }

    @Test
    void theResultsDictionaryIsNamedByTheColumnsDictionaryAndTheExpression() {
        Expr a = function(TextFunction.SUBSTRING, COL, number(1), number(2));
        String key = MappedCodes.dictionaryKey(a);
        assertTrue(key.startsWith("#"), key);
        assertEquals(key, MappedCodes.dictionaryKey(function(TextFunction.SUBSTRING, COL, number(1), number(2))));
        assertNotEquals(key, MappedCodes.dictionaryKey(function(TextFunction.SUBSTRING, OTHER, number(1), number(2))));
        assertNotEquals(key, MappedCodes.dictionaryKey(function(TextFunction.SUBSTRING, COL, number(1), number(3))));
        assertNull(MappedCodes.dictionaryKey(COL));
        // the parameter prints its codes, never the key with the query's constants in it
        MappedCodes.Mapping m = MappedCodes.mapping(op(Op.CONCAT, COL, text("zq!secret")), WORDS);
        KernelParam.Codes codes = new KernelParam.Codes(new KernelParam.Words(m.codes()),
                MappedCodes.dictionaryKey(op(Op.CONCAT, COL, text("zq!secret"))), m.results());
        assertFalse(codes.toString().contains("secret"), codes.toString());
    }

    private static GpuPlacement place(QueryPlan plan) {
        return GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.defaults(plan), key -> GpuPlan.dictionary(db, key));
    }

    private static Pipeline aggregation(QueryPlan plan) {
        return plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.GroupAggregate).findFirst().orElseThrow();
    }

    @Test
    void groupKeysAndAggregatesOfStringFunctionsRunOnTheGpu() {
        QueryPlan plan = CudaCapabilitiesTest.plan("select concat(left(c_city, 5), 'zq!') as k, count(*), "
                + "min(upper(c_nation)) from customer group by k order by k");
        GpuPlacement placed = place(plan);
        Pipeline agg = aggregation(plan);
        assertTrue(placed.onGpu(agg.id()), placed.jvmReasons().toString());
        CudaKernelSource k = placed.kernels().get(agg.id());
        // the constant is a value of the map, never code (the plan in the comments goes through their sanitizer)
        String withoutComments = k.source().replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
        assertFalse(withoutComments.contains("zq!"), withoutComments);
        List<KernelParam> maps = k.params().stream().filter(p -> p.kind() == KernelParam.Kind.CODE_MAP).toList();
        assertEquals(2, maps.stream().map(p -> ((KernelParam.Codes) p.value()).dictionaryKey()).distinct().count(),
                k.params().toString());
        // the key's map and the aggregate's are each read at a row's code
        for (String key : maps.stream().map(p -> ((KernelParam.Codes) p.value()).dictionaryKey()).distinct().toList()) {
            assertTrue(key.startsWith("#"), key);
            assertTrue(maps.stream().anyMatch(p -> ((KernelParam.Codes) p.value()).dictionaryKey().equals(key)
                    && k.source().contains(p.name() + "[")), k.source());
        }
        Dictionary cities = db.table("customer").column("c_city").dictionary();
        KernelParam.Codes keyCodes = maps.stream().map(p -> (KernelParam.Codes) p.value())
                .filter(c -> c.results().size() > 0 && c.results().value(0).endsWith("zq!")).findFirst().orElseThrow();
        for (int code = 0; code < cities.size(); code++) {
            String city = cities.value(code);
            assertEquals(city.substring(0, Math.min(5, city.length())) + "zq!",
                    keyCodes.results().value(keyCodes.codes().words()[code]));
        }
    }

    @Test
    void aMappedStringComparedWithAnotherDictionaryStaysOnTheJvm() {
        QueryPlan plan = CudaCapabilitiesTest.plan("select count(*) from customer where lower(c_city) = c_nation");
        GpuPlacement placed = place(plan);
        Pipeline scan = plan.pipelines().get(0);
        assertFalse(placed.onGpu(scan.id()));
        assertTrue(placed.jvmReasons().get(scan.id()).contains("dictionar"), placed.jvmReasons().get(scan.id()));
    }
}
