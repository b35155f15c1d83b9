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
 * the same column; the pattern and the constants stay on the host, never in the source.
 */
final class CodeMasks {

    /** Masks computed so far, per dictionary (a table version's) and condition: a plan emits its kernels often. */
    private static final Map<Dictionary, Map<Expr, int[]>> CACHE = Collections.synchronizedMap(new WeakHashMap<>());
    private static final int CACHED_PER_DICTIONARY = 64;

    private CodeMasks() {
    }

    /**
     * The column that condition e reads when e is computed as a mask of codes: e reads one string column, is NULL
     * exactly where that column is NULL in the kernel ({@link DeviceNulls}, where {@code padded} holds for the
     * kernel's joins and columns whose values may be missing; {@link #nullWithColumn}) or the column is never NULL
     * there, holds something the GPU does not print by itself (see the class comment) and nothing the host cannot
     * compute here. Else null. Whether the column has a dictionary is the caller's to check.
     */
    static Expr.Ref column(Expr e, java.util.function.IntPredicate padded) {
        if (!(e instanceof Expr.Call c) || c.type().kind() != TypeKind.BOOLEAN) {
            return null;
        }
        List<Slot> slots = new ArrayList<>();
        Expr.slots(e, slots);
        if (slots.size() != 1 || slots.get(0).type().kind() != TypeKind.VARCHAR) {
            return null;
        }
        // a column that can be NULL in the kernel: the mask serves where e is NULL exactly when the column is (the
        // generator's strict rule then gives the mask's value the column's NULL condition)
        if (DeviceNulls.mayBeNull(new Expr.Ref(slots.get(0)), padded) && !nullWithColumn(e)) {
            return null;
        }
        return needsHost(e) && computable(e) ? new Expr.Ref(slots.get(0)) : null;
    }

    /** The bits of e for each code of d, 32 codes a word (at least one word). */
    static int[] mask(Expr e, Dictionary d) {
        Map<Expr, int[]> known = CACHE.computeIfAbsent(d, x -> Collections.synchronizedMap(new java.util.HashMap<>()));
        int[] cached = known.get(e);
        if (cached != null) {
            return cached;
        }
        Evaluation ev = new Evaluation();
        int[] words = new int[Math.max(1, (d.size() + 31) / 32)];
        for (int k = 0; k < d.size(); k++) {
            if ((Boolean) ev.value(e, d.value(k))) {
                words[k >>> 5] |= 1 << (k & 31);
            }
        }
        if (known.size() < CACHED_PER_DICTIONARY) {
            known.put(e, words);
        }
        return words;
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

    /**
     * Whether condition e is NULL exactly when its one column is: every operation strict (no IS [NOT] TRUE or FALSE,
     * IS [NOT] DISTINCT FROM, or CONCAT, which skips a NULL), and every operand of AND, OR and NOT reads the column,
     * so that a NULL column makes each NULL and their AND, OR or NOT NULL too.
     */
    static boolean nullWithColumn(Expr e) {
        return switch (e) {
            case Expr.Ref r -> true;
            case Expr.Literal l -> false;
            case Expr.Call c -> switch (c.op()) {
                case AND, OR, NOT -> c.args().stream().allMatch(CodeMasks::nullWithColumn);
                case IS_TRUE, IS_NOT_FALSE, IS_FALSE, IS_NOT_TRUE, IS_DISTINCT, IS_NOT_DISTINCT, CONCAT -> false;
                case FUNCTION -> c.detail() != TextFunction.CONCAT && strictOperands(c);
                default -> strictOperands(c);
            };
        };
    }

    /** Whether a call reads the column through its operands, each a constant or NULL exactly when the column is. */
    private static boolean strictOperands(Expr.Call c) {
        return c.args().stream().anyMatch(a -> !(a instanceof Expr.Literal))
                && c.args().stream().allMatch(a -> a instanceof Expr.Literal || nullWithColumn(a));
    }

    /** Whether {@link Evaluation} has every operation of e. */
    private static boolean computable(Expr e) {
        return switch (e) {
            case Expr.Ref r -> true;
            case Expr.Literal l -> l.value() instanceof String || l.value() instanceof Long || l.value() instanceof Boolean;
            case Expr.Call c -> switch (c.op()) {
                case LIKE, AND, OR, NOT, IS_TRUE, IS_NOT_FALSE, IS_FALSE, IS_NOT_TRUE -> all(c);
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

    /** The value of a condition for one string of the column (never NULL: the column and the literals are not). */
    private static final class Evaluation {
        private final Map<Expr, Pattern> patterns = new IdentityHashMap<>();

        Object value(Expr e, String s) {
            return switch (e) {
                case Expr.Ref r -> s;
                case Expr.Literal l -> l.value();
                case Expr.Call c -> call(c, s);
            };
        }

        private boolean bool(Expr e, String s) {
            return (Boolean) value(e, s);
        }

        private Object call(Expr.Call c, String s) {
            List<Expr> a = c.args();
            return switch (c.op()) {
                case LIKE -> patterns.computeIfAbsent(c, x -> Pattern.compile((String) c.detail(), Pattern.DOTALL))
                        .matcher((String) value(a.get(0), s)).matches();
                case AND -> bool(a.get(0), s) && bool(a.get(1), s);
                case OR -> bool(a.get(0), s) || bool(a.get(1), s);
                case NOT, IS_FALSE, IS_NOT_TRUE -> !bool(a.get(0), s);
                case IS_TRUE, IS_NOT_FALSE -> bool(a.get(0), s);
                case IN_LIST -> ((List<?>) c.detail()).contains(value(a.get(0), s));
                case FUNCTION -> c.detail() == TextFunction.LENGTH ? Substrings.length((String) value(a.get(0), s))
                        : MappedCodes.value(c, s);
                case UPPER, LOWER, CONCAT -> MappedCodes.value(c, s);
                default -> compare(c.op(), value(a.get(0), s), value(a.get(1), s));
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
