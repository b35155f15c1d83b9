package io.tessera.backend.cuda.gen;

import io.tessera.backend.lower.Substrings;
import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.plan.Slot;
import io.tessera.plan.TextFunction;
import io.tessera.storage.CodePointOrder;
import io.tessera.storage.Dictionary;
import io.tessera.storage.TypeKind;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.regex.Pattern;

/**
 * A condition over one dictionary-coded string column computed on the host, once per query, for every code of the
 * column's dictionary: a mask of one bit per code that the kernel receives as a parameter ({@link
 * KernelParam.Kind#CODE_MASK}) and tests with its row's code. A LIKE that is not a prefix, LENGTH and the string
 * functions {@link MappedCodes} computes (SUBSTRING, LEFT, UPPER, ...), and IN lists of strings longer than the GPU
 * compares one by one become masks, together with the comparisons, IN lists, NOT, AND and OR around them that read
 * the same column; the pattern and the constants stay on the host, never in the source. The mask has one bit more,
 * past the codes, for a NULL column value where the condition is TRUE or FALSE there (IS NOT TRUE, IS DISTINCT FROM,
 * an OR with IS NULL); where it is NULL there, the condition's NULL is the column's.
 */
final class CodeMasks {

    /** Masks computed so far, per dictionary (a table version's) and condition: a plan emits its kernels often. */
    private static final Map<Dictionary, Map<Expr, int[]>> CACHE = Collections.synchronizedMap(new WeakHashMap<>());
    private static final int CACHED_PER_DICTIONARY = 64;

    private CodeMasks() {
    }

    /**
     * The column that condition e reads when e is computed as a mask of codes: e reads one string column, holds
     * something the GPU does not print by itself (see the class comment) and nothing the host cannot compute here.
     * Else null. Whether the column has a dictionary is the caller's to check.
     */
    static Expr.Ref column(Expr e) {
        if (!(e instanceof Expr.Call c) || c.type().kind() != TypeKind.BOOLEAN) {
            return null;
        }
        List<Slot> slots = new ArrayList<>();
        Expr.slots(e, slots);
        if (slots.size() != 1 || slots.get(0).type().kind() != TypeKind.VARCHAR) {
            return null;
        }
        // a column that can be NULL in the kernel: where e is NULL exactly when the column is, the generator's strict
        // rule gives the mask's value the column's NULL condition; where e has a value for a NULL column (IS NOT
        // TRUE, IS DISTINCT FROM, an OR with an IS NULL), the mask's bit past the codes holds it
        return needsHost(e) && computable(e) ? new Expr.Ref(slots.get(0)) : null;
    }

    /**
     * The bits of e for each code of d, 32 codes a word, then at {@link #nullBit} d.size() e's value where the column
     * is NULL (0 where that is NULL or FALSE).
     */
    static int[] mask(Expr e, Dictionary d) {
        Map<Expr, int[]> known = CACHE.computeIfAbsent(d, x -> Collections.synchronizedMap(new java.util.HashMap<>()));
        int[] cached = known.get(e);
        if (cached != null) {
            return cached;
        }
        Evaluation ev = new Evaluation();
        int[] words = new int[(d.size() + 1 + 31) / 32];
        for (int k = 0; k < d.size(); k++) {
            if ((Boolean) ev.value(e, d.value(k))) {
                words[k >>> 5] |= 1 << (k & 31);
            }
        }
        if (Boolean.TRUE.equals(ev.value(e, null))) {
            words[d.size() >>> 5] |= 1 << (d.size() & 31);
        }
        if (known.size() < CACHED_PER_DICTIONARY) {
            known.put(e, words);
        }
        return words;
    }

    /** The mask's bit for a NULL column value: the one past the codes of dictionary d. */
    static int nullBit(Dictionary d) {
        return d.size();
    }

    /**
     * Whether condition e (a mask) is NULL where its column is, as a strict comparison is; else it is TRUE or FALSE
     * there, as the mask's {@link #nullBit} says.
     */
    static boolean nullWhereColumnIs(Expr e) {
        return new Evaluation().value(e, null) == null;
    }

    /** The name of e's operation for the comment beside the mask's test in the kernel (no user text). */
    static String operation(Expr e) {
        Expr.Call c = (Expr.Call) e;
        return c.op() == Op.FUNCTION ? String.valueOf(c.detail()) : c.op().name();
    }

    private static boolean needsHost(Expr e) {
        if (!(e instanceof Expr.Call c)) {
            return false;
        }
        boolean here = switch (c.op()) {
            case LIKE -> !CudaExprSupport.prefixOrExact((String) c.detail());
            case FUNCTION, UPPER, LOWER, CONCAT -> true;
            case IN_LIST -> ((List<?>) c.detail()).size() > CudaExprGen.MAX_IN_LIST;
            default -> false;
        };
        return here || c.args().stream().anyMatch(CodeMasks::needsHost);
    }

    /** Whether {@link Evaluation} has every operation of e. */
    private static boolean computable(Expr e) {
        return switch (e) {
            case Expr.Ref r -> true;
            case Expr.Literal l -> l.value() instanceof String || l.value() instanceof Long || l.value() instanceof Boolean;
            case Expr.Call c -> switch (c.op()) {
                case LIKE, AND, OR, NOT, IS_TRUE, IS_NOT_FALSE, IS_FALSE, IS_NOT_TRUE, IS_NULL, IS_NOT_NULL -> all(c);
                case EQ, NE, LT, LE, GT, GE, IS_DISTINCT, IS_NOT_DISTINCT -> all(c)
                        && c.args().get(0).type().kind() == c.args().get(1).type().kind()
                        && (c.args().get(0).type().kind() == TypeKind.VARCHAR || c.args().get(0).type().kind() == TypeKind.BIGINT);
                case IN_LIST -> all(c) && c.args().get(0).type().kind() == TypeKind.VARCHAR
                        && ((List<?>) c.detail()).stream().allMatch(v -> v instanceof String);
                case FUNCTION -> c.detail() == TextFunction.LENGTH ? all(c) : MappedCodes.computable(c);
                case UPPER, LOWER, CONCAT -> MappedCodes.computable(c);
                default -> false;
            };
        };
    }

    private static boolean all(Expr.Call c) {
        return c.args().stream().allMatch(CodeMasks::computable);
    }

    /**
     * The value of a condition for one string of the column, s null for a NULL column value, by SQL's rules for NULL
     * (the literals are not NULL, so only a NULL column makes a value NULL).
     */
    private static final class Evaluation {
        private final Map<Expr, Pattern> patterns = new IdentityHashMap<>();

        Object value(Expr e, String s) {
            return switch (e) {
                case Expr.Ref r -> s;
                case Expr.Literal l -> l.value();
                case Expr.Call c -> call(c, s);
            };
        }

        private Boolean bool(Expr e, String s) {
            return (Boolean) value(e, s);
        }

        private Object call(Expr.Call c, String s) {
            List<Expr> a = c.args();
            switch (c.op()) {
                case AND, OR -> {
                    Boolean x = bool(a.get(0), s);
                    Boolean y = bool(a.get(1), s);
                    boolean decisive = c.op() == Op.OR; // TRUE decides an OR, FALSE an AND
                    if (Boolean.valueOf(decisive).equals(x) || Boolean.valueOf(decisive).equals(y)) {
                        return decisive;
                    }
                    return x == null || y == null ? null : !decisive;
                }
                case IS_TRUE -> {
                    return Boolean.TRUE.equals(bool(a.get(0), s));
                }
                case IS_NOT_TRUE -> {
                    return !Boolean.TRUE.equals(bool(a.get(0), s));
                }
                case IS_FALSE -> {
                    return Boolean.FALSE.equals(bool(a.get(0), s));
                }
                case IS_NOT_FALSE -> {
                    return !Boolean.FALSE.equals(bool(a.get(0), s));
                }
                case IS_NULL -> {
                    return value(a.get(0), s) == null;
                }
                case IS_NOT_NULL -> {
                    return value(a.get(0), s) != null;
                }
                case IS_DISTINCT, IS_NOT_DISTINCT -> {
                    Object x = value(a.get(0), s);
                    Object y = value(a.get(1), s);
                    boolean same = x == null || y == null ? x == y : compare(Op.EQ, x, y);
                    return c.op() == Op.IS_DISTINCT ? !same : same;
                }
                case UPPER, LOWER, CONCAT -> {
                    return MappedCodes.value(c, s); // which knows NULL: CONCAT (the function) skips it
                }
                case FUNCTION -> {
                    if (c.detail() != TextFunction.LENGTH) {
                        return MappedCodes.value(c, s);
                    }
                }
                default -> {
                }
            }
            // the strict operations: NULL where an operand is
            List<Object> operands = new ArrayList<>();
            for (Expr x : a) {
                Object v = value(x, s);
                if (v == null) {
                    return null;
                }
                operands.add(v);
            }
            return switch (c.op()) {
                case LIKE -> patterns.computeIfAbsent(c, x -> Pattern.compile((String) c.detail(), Pattern.DOTALL))
                        .matcher((String) operands.get(0)).matches();
                case NOT -> !(Boolean) operands.get(0);
                case IN_LIST -> ((List<?>) c.detail()).contains(operands.get(0));
                case FUNCTION -> Substrings.length((String) operands.get(0)); // LENGTH
                default -> compare(c.op(), operands.get(0), operands.get(1));
            };
        }

        private static boolean compare(Op op, Object x, Object y) {
            int cmp = x instanceof String xs ? CodePointOrder.compare(xs, (String) y) : Long.compare((Long) x, (Long) y);
            return switch (op) {
                case EQ, IS_NOT_DISTINCT -> cmp == 0;
                case NE, IS_DISTINCT -> cmp != 0;
                case LT -> cmp < 0;
                case LE -> cmp <= 0;
                case GT -> cmp > 0;
                default -> cmp >= 0; // GE
            };
        }
    }
}
