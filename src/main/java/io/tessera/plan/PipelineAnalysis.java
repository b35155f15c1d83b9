package io.tessera.plan;

import io.tessera.storage.ColumnStats;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import io.tessera.storage.Values;

import java.util.ArrayList;
import java.util.List;

/**
 * Facts about a pipeline that decide which code variants apply to it: the runs of filter conjuncts (what
 * predication combines), which conjuncts are comparisons of a column with a constant (what a vectorized filter
 * evaluates), and which probes may change places (probe order). Variant spaces declare dimensions from these
 * facts and emitters generate code from the same facts, so both agree on what a choice means.
 */
public final class PipelineAnalysis {

    private PipelineAnalysis() {
    }

    // ---- filters ----

    /** The conjuncts of a condition: the arguments of nested ANDs (a row passes when every one is TRUE). */
    public static List<Expr> conjuncts(Expr e) {
        List<Expr> out = new ArrayList<>();
        addConjuncts(e, out);
        return out;
    }

    private static void addConjuncts(Expr e, List<Expr> out) {
        if (e instanceof Expr.Call c && c.op() == Op.AND) {
            for (Expr a : c.args()) {
                addConjuncts(a, out);
            }
        } else {
            out.add(e);
        }
    }

    /** A maximal run of consecutive FILTER operations {@code [firstOp, endOp)} and its conjuncts in order. */
    public record FilterRun(int firstOp, int endOp, List<Expr> conjuncts) {
        public FilterRun {
            conjuncts = List.copyOf(conjuncts);
        }
    }

    /** The runs of consecutive filters of a pipeline, in order. */
    public static List<FilterRun> filterRuns(List<Operation> ops) {
        List<FilterRun> runs = new ArrayList<>();
        int i = 0;
        while (i < ops.size()) {
            if (!(ops.get(i) instanceof Operation.Filter)) {
                i++;
                continue;
            }
            int start = i;
            List<Expr> cs = new ArrayList<>();
            while (i < ops.size() && ops.get(i) instanceof Operation.Filter f) {
                cs.addAll(conjuncts(f.condition()));
                i++;
            }
            runs.add(new FilterRun(start, i, cs));
        }
        return runs;
    }

    /**
     * Whether a run may be evaluated without branches between its conjuncts: it has at least two, and none can
     * raise an error (evaluating all of them for every row must not fail where evaluating them in turn would not).
     */
    public static boolean predicable(List<Expr> conjuncts) {
        return conjuncts.size() >= 2 && conjuncts.stream().allMatch(PipelineAnalysis::cannotFail);
    }

    /** Whether some run of the pipeline's filters is {@link #predicable}. */
    public static boolean hasPredicableRun(Pipeline p) {
        return filterRuns(p.operations()).stream().anyMatch(r -> predicable(r.conjuncts()));
    }

    /**
     * Whether evaluating the expression can never raise an error (overflow, division by zero, a failed cast), so
     * that evaluating it for a row an earlier conjunct rejected is harmless. Conservative: false when unsure.
     */
    public static boolean cannotFail(Expr e) {
        return switch (e) {
            case Expr.Ref r -> true;
            case Expr.Literal l -> true;
            case Expr.Call c -> callCannotFail(c) && c.args().stream().allMatch(PipelineAnalysis::cannotFail);
        };
    }

    private static boolean callCannotFail(Expr.Call c) {
        return switch (c.op()) {
            case EQ, NE, LT, LE, GT, GE, IS_DISTINCT, IS_NOT_DISTINCT -> !rescalesDecimal(c.args().get(0).type(),
                    c.args().get(1).type());
            case AND, OR, NOT, IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE, LIKE, LOWER, UPPER,
                 CONCAT, EXTRACT -> true;
            case ADD, SUB, MUL, NEG, ABS -> c.type().kind() == TypeKind.DOUBLE;
            case CAST -> wideningCast(c.args().get(0).type(), c.type());
            default -> false;
        };
    }

    /** A comparison of two DECIMALs (or a DECIMAL and an integer) at different scales rescales one side, which may overflow. */
    private static boolean rescalesDecimal(DataType a, DataType b) {
        boolean da = a.kind() == TypeKind.DECIMAL;
        boolean db = b.kind() == TypeKind.DECIMAL;
        if (!da && !db || a.kind() == TypeKind.DOUBLE || b.kind() == TypeKind.DOUBLE) {
            return false;
        }
        return (da ? a.scale() : 0) != (db ? b.scale() : 0);
    }

    private static boolean wideningCast(DataType from, DataType to) {
        TypeKind f = from.kind();
        return switch (to.kind()) {
            case BIGINT -> f == TypeKind.INTEGER || f == TypeKind.BIGINT;
            case DOUBLE -> f == TypeKind.INTEGER || f == TypeKind.BIGINT || f == TypeKind.DOUBLE;
            case VARCHAR -> to.isText() && f != TypeKind.DOUBLE; // text read as bytes or a UUID can fail
            default -> from.equals(to);
        };
    }

    // ---- comparisons with a constant (vectorized filters) ----

    /**
     * {@code column op constant}: a comparison of a non-nullable column of the pipeline's source with a non-NULL
     * constant, the constant already in the column's representation ({@code value}: a long for INTEGER, DATE,
     * BIGINT and DECIMAL at the column's scale, a double for DOUBLE; {@code string} for VARCHAR, compared through
     * the column's order-preserving dictionary).
     */
    public record ColumnComparison(Slot column, Op op, long value, double doubleValue, String string) {
    }

    /** The comparison {@code e} as a {@link ColumnComparison}, or null when it is not of that form. */
    public static ColumnComparison columnComparison(Expr e) {
        if (!(e instanceof Expr.Call c) || c.args().size() != 2) {
            return null;
        }
        Op op = switch (c.op()) {
            case EQ, NE, LT, LE, GT, GE -> c.op();
            default -> null;
        };
        if (op == null) {
            return null;
        }
        Expr a = c.args().get(0);
        Expr b = c.args().get(1);
        if (a instanceof Expr.Literal && b instanceof Expr.Ref) {
            Expr t = a;
            a = b;
            b = t;
            op = op.mirrored();
        }
        if (!(a instanceof Expr.Ref r) || !(b instanceof Expr.Literal lit) || lit.value() == null) {
            return null;
        }
        Slot s = r.slot();
        if (!s.isSource() || s.nullable()) {
            return null;
        }
        TypeKind ck = s.type().kind();
        TypeKind lk = lit.type().kind();
        boolean integerLiteral = lk == TypeKind.INTEGER || lk == TypeKind.BIGINT;
        switch (ck) {
            case INTEGER, DATE -> {
                if (!(integerLiteral || lk == TypeKind.DATE) || ck == TypeKind.DATE != (lk == TypeKind.DATE)) {
                    return null;
                }
                long v = ((Number) lit.value()).longValue();
                return v == (int) v ? new ColumnComparison(s, op, v, 0, null) : null;
            }
            case BIGINT -> {
                return integerLiteral ? new ColumnComparison(s, op, ((Number) lit.value()).longValue(), 0, null) : null;
            }
            case DECIMAL -> {
                int ls = lk == TypeKind.DECIMAL ? lit.type().scale() : integerLiteral ? 0 : -1;
                if (ls < 0 || ls > s.type().scale()) {
                    return null;
                }
                try {
                    long v = Math.multiplyExact(((Number) lit.value()).longValue(), Values.pow10(s.type().scale() - ls));
                    return new ColumnComparison(s, op, v, 0, null);
                } catch (ArithmeticException overflow) {
                    return null;
                }
            }
            case DOUBLE -> {
                // a NaN constant (a bound parameter) is left to the scalar filter's order of NaN
                double d = ((Number) lit.value()).doubleValue();
                return lk == TypeKind.DOUBLE && !Double.isNaN(d) ? new ColumnComparison(s, op, 0, d, null) : null;
            }
            case VARCHAR -> {
                return lk == TypeKind.VARCHAR && s.dictionaryKey() != null
                        ? new ColumnComparison(s, op, 0, 0, lit.value().toString()) : null;
            }
            default -> {
                return null;
            }
        }
    }


    /** The number of leading operations that are filters (they run before any probe, on source columns only). */
    public static int leadingFilters(List<Operation> ops) {
        int n = 0;
        while (n < ops.size() && ops.get(n) instanceof Operation.Filter) {
            n++;
        }
        return n;
    }

    /** The conjuncts of the leading filters that are {@link ColumnComparison}s, in order. */
    public static List<ColumnComparison> leadingColumnComparisons(List<Operation> ops) {
        List<ColumnComparison> out = new ArrayList<>();
        int n = leadingFilters(ops);
        for (int i = 0; i < n; i++) {
            for (Expr c : conjuncts(((Operation.Filter) ops.get(i)).condition())) {
                ColumnComparison cc = columnComparison(c);
                if (cc != null) {
                    out.add(cc);
                }
            }
        }
        return out;
    }

    /**
     * The operations that remain for scalar code when the leading filters' column comparisons are evaluated by
     * a vectorized filter first: the other leading conjuncts (as one filter each, in order), then the rest.
     */
    public static List<Operation> withoutLeadingColumnComparisons(List<Operation> ops) {
        List<Operation> out = new ArrayList<>();
        int n = leadingFilters(ops);
        for (int i = 0; i < n; i++) {
            for (Expr c : conjuncts(((Operation.Filter) ops.get(i)).condition())) {
                if (columnComparison(c) == null) {
                    out.add(new Operation.Filter(c));
                }
            }
        }
        out.addAll(ops.subList(n, ops.size()));
        return out;
    }

    // ---- probe order ----

    /**
     * Whether a probe may change places with its neighbours: an inner or semi probe (each keeps or multiplies
     * rows independently of the others, so their order changes neither the rows nor their multiplicity) whose
     * keys cannot fail. Anti, left and marking probes (a mark is set only for rows that passed every operation
     * before it), and everything else, stay where they are.
     */
    static boolean movable(Operation op) {
        return op instanceof Operation.Probe pr && (pr.kind() == JoinKind.INNER || pr.kind() == JoinKind.SEMI)
                && !pr.setsMarks() && pr.residual() == null && pr.keys().stream().allMatch(PipelineAnalysis::cannotFail)
                && pr.build().commonKeyTypes().stream().allMatch(t -> t == null || t.kind() == TypeKind.DOUBLE);
    }

    /** Whether probe {@code b}'s keys read a payload column of probe {@code a}. */
    static boolean dependsOn(Operation.Probe b, Operation.Probe a) {
        for (Expr k : b.keys()) {
            if (readsJoin(k, a.joinId())) {
                return true;
            }
        }
        return false;
    }

    private static boolean readsJoin(Expr e, int joinId) {
        return switch (e) {
            case Expr.Ref r -> r.slot().joinId() == joinId;
            case Expr.Literal l -> false;
            case Expr.Call c -> c.args().stream().anyMatch(a -> readsJoin(a, joinId));
        };
    }

    /** Whether the probes of the pipeline can be put in more than one order (two neighbours may swap). */
    public static boolean probesReorderable(List<Operation> ops) {
        for (int i = 0; i + 1 < ops.size(); i++) {
            if (movable(ops.get(i)) && movable(ops.get(i + 1))
                    && !dependsOn((Operation.Probe) ops.get(i + 1), (Operation.Probe) ops.get(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The operations with every run of movable probes ordered by estimated matches per probing row, fewest first
     * (the probe that drops most rows runs first), never before a probe whose payload its keys read; ties keep the
     * written order.
     */
    public static List<Operation> probesBySelectivity(List<Operation> ops) {
        List<Operation> out = new ArrayList<>();
        int i = 0;
        while (i < ops.size()) {
            if (!movable(ops.get(i))) {
                out.add(ops.get(i++));
                continue;
            }
            List<Operation.Probe> run = new ArrayList<>();
            while (i < ops.size() && movable(ops.get(i))) {
                run.add((Operation.Probe) ops.get(i++));
            }
            while (!run.isEmpty()) {
                int best = -1;
                for (int k = 0; k < run.size(); k++) {
                    Operation.Probe cand = run.get(k);
                    boolean ready = true;
                    for (int m = 0; m < k && ready; m++) {
                        ready = !dependsOn(cand, run.get(m));
                    }
                    if (ready && (best < 0 || matchesPerRow(cand) < matchesPerRow(run.get(best)))) {
                        best = k;
                    }
                }
                out.add(run.remove(best));
            }
        }
        return out;
    }

    /**
     * Estimated build rows a probing row matches: the build side's estimated rows over the number of distinct
     * probe keys (from the probe key column's statistics, else the build key's range), at most 1 for a semi probe.
     */
    public static double matchesPerRow(Operation.Probe p) {
        double distinct = -1;
        if (p.keys().size() == 1 && p.keys().get(0) instanceof Expr.Ref r && r.slot().origin() != null) {
            ColumnStats st = r.slot().origin().stats();
            if (st != null && st.distinctEstimate() > 0) {
                distinct = st.distinctEstimate();
            }
        }
        if (distinct <= 0 && p.build().range() != null) {
            distinct = p.build().range().size();
        }
        if (distinct <= 0) {
            return 1.0;
        }
        double m = Math.max(0, p.build().estimatedRows()) / distinct;
        return p.kind() == JoinKind.SEMI ? Math.min(1.0, m) : m;
    }

    /**
     * Whether anything after operation {@code op} of {@code p} (a filter, a probe's keys or condition, the sink) reads
     * a payload column of join {@code joinId}: a unique probe whose payload nothing reads needs only to know that its
     * key is there.
     */
    public static boolean readsPayloadAfter(Pipeline p, int op, int joinId) {
        List<Expr> exprs = new ArrayList<>();
        for (int k = op + 1; k < p.operations().size(); k++) {
            switch (p.operations().get(k)) {
                case Operation.Filter f -> exprs.add(f.condition());
                case Operation.Probe pr -> {
                    exprs.addAll(pr.keys());
                    if (pr.residual() != null) {
                        exprs.add(pr.residual());
                    }
                }
            }
        }
        exprs.addAll(Sink.exprs(p.sink()));
        List<Slot> slots = new ArrayList<>();
        for (Expr e : exprs) {
            Expr.slots(e, slots);
        }
        return slots.stream().anyMatch(s -> !s.isSource() && s.joinId() == joinId);
    }
}
