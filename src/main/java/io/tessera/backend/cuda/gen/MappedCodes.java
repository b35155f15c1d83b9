package io.tessera.backend.cuda.gen;

import io.tessera.backend.lower.StringFunctions;
import io.tessera.backend.lower.Substrings;
import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.plan.Slot;
import io.tessera.plan.TextFunction;
import io.tessera.storage.Dictionary;
import io.tessera.storage.TypeKind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * A string function of one dictionary-coded column (SUBSTRING, LEFT, RIGHT, UPPER, LOWER, TRIM and CONCAT or ||
 * with constants, nested as the query nests them) computed on the host, once per query, for every code of the
 * column's dictionary: the distinct results make a dictionary of their own, sorted as every dictionary is (so its
 * codes compare as the strings do), and an array from the column's codes to the results' codes is a kernel
 * parameter ({@link KernelParam.Kind#CODE_MAP}). The kernel maps its row's code through the array and groups,
 * sorts, keeps or outputs the result's code; what it leaves is read back through the results' dictionary, which
 * the executor registers for the run under {@link #dictionaryKey}. The constants stay on the host, never in the
 * source. COALESCE and CASE whose conditions test the column for NULL ({@code COALESCE(s, 'none')}, which SQL
 * writes as {@code CASE WHEN s IS NOT NULL THEN s ELSE 'none' END}) are computed the same way: the map has one entry
 * more, past the dictionary's codes, for a NULL column value ({@link #nullSlot}); where e is NULL for a NULL column
 * (the strict functions) that entry is unused and the result's NULL is the column's. No part of e is NULL for a
 * string, and CONCAT (the function, which skips a NULL) needs a column that is never NULL.
 */
public final class MappedCodes {

    /** The codes a map gives and the dictionary of its results. */
    record Mapping(int[] codes, Dictionary results) {
    }

    /** Maps computed so far, per dictionary (a table version's) and expression: a plan emits its kernels often. */
    private static final Map<Dictionary, Map<Expr, Mapping>> CACHE = Collections.synchronizedMap(new WeakHashMap<>());
    private static final int CACHED_PER_DICTIONARY = 64;

    private MappedCodes() {
    }

    /**
     * The column that string expression e reads when e is computed as a map of codes: e is a call giving text, reads
     * one text column (a NULL of it stays NULL unless e holds a CONCAT, which needs a column never NULL), and holds
     * only operations {@link #value} has, with constants that are not NULL. Else null. Whether the column has a
     * dictionary is the caller's to check.
     */
    static Expr.Ref column(Expr e) {
        if (!(e instanceof Expr.Call) || !text(e.type()) || !computable(e)) {
            return null;
        }
        List<Slot> slots = new ArrayList<>();
        Expr.slots(e, slots);
        if (slots.size() != 1 || !text(slots.get(0).type()) || slots.get(0).nullable() && hasConcat(e)) {
            return null;
        }
        return new Expr.Ref(slots.get(0));
    }

    /**
     * The key of the dictionary of e's results for the run ({@link io.tessera.backend.QueryState#register}), or
     * null when e is no map of codes: a computed key ('#'), named by the column's dictionary and e itself.
     */
    public static String dictionaryKey(Expr e) {
        Expr.Ref column = column(e);
        return column == null || column.slot().dictionaryKey() == null ? null
                : "#map(" + column.slot().dictionaryKey() + ") " + e;
    }

    /**
     * The code of e's result for each code of d, then at {@link #nullSlot} d.size() the code of its result for a NULL
     * column value (-1 where that is NULL), and the dictionary of the results.
     */
    static Mapping mapping(Expr e, Dictionary d) {
        Map<Expr, Mapping> known = CACHE.computeIfAbsent(d, x -> Collections.synchronizedMap(new HashMap<>()));
        Mapping cached = known.get(e);
        if (cached != null) {
            return cached;
        }
        String[] values = new String[d.size()];
        for (int k = 0; k < values.length; k++) {
            values[k] = value(e, d.value(k));
        }
        String forNull = value(e, null);
        List<String> distinct = new ArrayList<>(Arrays.asList(values));
        if (forNull != null) {
            distinct.add(forNull);
        }
        Dictionary results = Dictionary.of(distinct);
        int[] codes = new int[values.length + 1];
        for (int k = 0; k < values.length; k++) {
            codes[k] = results.code(values[k]);
        }
        codes[values.length] = forNull == null ? -1 : results.code(forNull);
        Mapping m = new Mapping(codes, results);
        if (known.size() < CACHED_PER_DICTIONARY) {
            known.put(e, m);
        }
        return m;
    }

    /** The map's entry for a NULL column value: the one past the codes of dictionary d. */
    static int nullSlot(Dictionary d) {
        return d.size();
    }

    /**
     * Whether e (a map of codes) is NULL where its column is, as a strict function is; else it has a value there,
     * which the map's {@link #nullSlot} holds (a COALESCE, a CASE that tests the column for NULL).
     */
    static boolean nullWhereColumnIs(Expr e) {
        return value(e, null) == null;
    }

    /** The name of e's outermost operation for the comment beside the map in the kernel (no user text). */
    static String operation(Expr e) {
        Expr.Call c = (Expr.Call) e;
        return (c.op() == Op.FUNCTION ? String.valueOf(c.detail()) : c.op().name()).toLowerCase(java.util.Locale.ROOT);
    }

    /** Whether {@link #value} has every operation of string expression e (see the class comment). */
    static boolean computable(Expr e) {
        return switch (e) {
            case Expr.Ref r -> text(r.type());
            case Expr.Literal l -> l.value() instanceof String;
            case Expr.Call c -> text(c.type()) && switch (c.op()) {
                case UPPER, LOWER -> computable(c.args().get(0));
                case CONCAT -> computable(c.args().get(0)) && computable(c.args().get(1));
                case COALESCE -> c.args().stream().allMatch(MappedCodes::computable);
                case CASE -> computableCase(c);
                case FUNCTION -> switch ((TextFunction) c.detail()) {
                    case SUBSTRING -> computable(c.args().get(0)) && c.args().size() >= 2
                            && c.args().subList(1, c.args().size()).stream().allMatch(a -> number(a) && Substrings.inRange(longValue(a)));
                    case LEFT, RIGHT -> computable(c.args().get(0)) && number(c.args().get(1));
                    case TRIM, LTRIM, RTRIM -> computable(c.args().get(0)) && c.args().get(1) instanceof Expr.Literal l
                            && l.value() instanceof String;
                    case CONCAT -> c.args().stream().allMatch(MappedCodes::computable);
                    default -> false;
                };
                default -> false;
            };
        };
    }

    /**
     * A CASE whose conditions test a text column for NULL ({@code IS [NOT] NULL}) and whose values are
     * {@link #computable}: the branch it takes depends on the column alone.
     */
    private static boolean computableCase(Expr.Call c) {
        List<Expr> a = c.args();
        for (int i = 0; i + 1 < a.size(); i += 2) {
            if (!(a.get(i) instanceof Expr.Call test && (test.op() == Op.IS_NULL || test.op() == Op.IS_NOT_NULL)
                    && test.args().get(0) instanceof Expr.Ref r && text(r.type()))) {
                return false;
            }
        }
        for (int i = 1; i < a.size(); i += 2) {
            if (!computable(a.get(i))) {
                return false;
            }
        }
        return computable(a.get(a.size() - 1));
    }

    /**
     * The value of string expression e (a {@link #computable} one) where its column holds s; s null: where the
     * column is NULL (null where e is NULL then).
     */
    static String value(Expr e, String s) {
        return switch (e) {
            case Expr.Ref r -> s;
            case Expr.Literal l -> (String) l.value();
            case Expr.Call c -> {
                List<Expr> a = c.args();
                yield switch (c.op()) {
                    case COALESCE -> {
                        String first = null;
                        for (int i = 0; first == null && i < a.size(); i++) {
                            first = value(a.get(i), s);
                        }
                        yield first;
                    }
                    case CASE -> {
                        int i = 0;
                        while (i + 1 < a.size() && (((Expr.Call) a.get(i)).op() == Op.IS_NULL) != (s == null)) {
                            i += 2; // a test of the column for NULL that is not TRUE
                        }
                        yield value(a.get(i + 1 < a.size() ? i + 1 : i), s);
                    }
                    case UPPER -> strict(a, s) ? StringFunctions.upper(value(a.get(0), s)) : null;
                    case LOWER -> strict(a, s) ? StringFunctions.lower(value(a.get(0), s)) : null;
                    case CONCAT -> strict(a, s) ? value(a.get(0), s) + value(a.get(1), s) : null;
                    // a function's first operand is its text, the rest constants
                    case FUNCTION -> c.detail() == TextFunction.CONCAT || strict(a.subList(0, 1), s) ? function(c, s) : null;
                    default -> throw new IllegalStateException("no host code for " + c.op());
                };
            }
        };
    }

    /** Whether every operand of a strict operation has a value where the column holds s (null: is NULL). */
    private static boolean strict(List<Expr> operands, String s) {
        for (Expr o : operands) {
            if (value(o, s) == null) {
                return false;
            }
        }
        return true;
    }

    private static String function(Expr.Call c, String s) {
        List<Expr> a = c.args();
        TextFunction f = (TextFunction) c.detail();
        return switch (f) {
            case SUBSTRING -> Substrings.of(value(a.get(0), s), longValue(a.get(1)),
                    a.size() > 2 ? longValue(a.get(2)) : Substrings.MAX_POSITION);
            case LEFT -> StringFunctions.left(value(a.get(0), s), longValue(a.get(1)));
            case RIGHT -> StringFunctions.right(value(a.get(0), s), longValue(a.get(1)));
            case TRIM, LTRIM, RTRIM -> StringFunctions.trim(value(a.get(0), s), (String) ((Expr.Literal) a.get(1)).value(),
                    f == TextFunction.LTRIM ? 1 : f == TextFunction.RTRIM ? 2 : 3);
            case CONCAT -> {
                String[] parts = new String[a.size()];
                for (int i = 0; i < parts.length; i++) {
                    parts[i] = value(a.get(i), s);
                }
                yield StringFunctions.concatWs("", parts);
            }
            default -> throw new IllegalStateException("no host code for " + f);
        };
    }

    private static boolean text(io.tessera.storage.DataType t) {
        return t.kind() == TypeKind.VARCHAR && t.isText() && !t.isInterval();
    }

    private static boolean number(Expr e) {
        return e instanceof Expr.Literal l && (l.value() instanceof Long || l.value() instanceof Integer);
    }

    private static long longValue(Expr e) {
        return ((Number) ((Expr.Literal) e).value()).longValue();
    }

    /** Whether e holds CONCAT (the function), which skips a NULL argument instead of giving NULL. */
    private static boolean hasConcat(Expr e) {
        return e instanceof Expr.Call c && (c.op() == Op.FUNCTION && c.detail() == TextFunction.CONCAT
                || c.args().stream().anyMatch(MappedCodes::hasConcat));
    }
}
