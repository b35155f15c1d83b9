package io.tessera.backend.cuda.gen;

import io.tessera.plan.Expr;

import java.util.List;
import java.util.function.IntPredicate;

/**
 * Which values can be NULL in a kernel, and the C text of SQL's rules for them. Device join tables and group tables
 * hold no NULL, so NULL enters a kernel only as a column of a scanned table that holds NULLs in the query's snapshot
 * (its NULL flags loaded beside it, {@link #sourceColumn}; a column declared nullable that holds none is read as
 * never NULL), as
 * the payload of a left join's row without a match (the probe's {@code j<id>_hit[i]} false, the payload register
 * zero), as the payload of the one row of a join without keys (a scalar subquery's value, with its NULL flag:
 * {@link JoinLayout#nullFlags}), as a column of a scanned relation that can be NULL (its NULL flags loaded beside it, {@link
 * #SOURCE_COLUMNS}) and as a NULL literal. Most operators give NULL when an operand is NULL (strict: {@link #strict}); COALESCE,
 * CASE, AND, OR and the IS tests decide for themselves, and a CASE branch taken when {@code x IS NOT NULL} holds
 * (or when an earlier {@code x IS NULL} did not) sees x as a value ({@link #notNullWhen}, {@link #notNullUnless}). A NULL value's register holds its type's zero, so that
 * checked arithmetic over it raises nothing and a NULL condition reads as not true, which is what a FILTER, a CASE
 * branch and an aggregate's FILTER clause need.
 */
final class DeviceNulls {

    private DeviceNulls() {
    }

    /**
     * What the predicate of padded joins holds, besides join ids, when the kernel's source columns that the plan
     * says can be NULL may be NULL: a scan of a relation an earlier kernel made, whose columns carry NULL flags (a
     * table scan refuses such columns; the groups a kernel scans are never NULL).
     */
    static final int SOURCE_COLUMNS = -1;

    /**
     * What the predicate of padded joins holds for source column {@code index} of a scanned table when that column
     * holds NULLs in the query's snapshot ({@link #tableColumns}).
     */
    static int sourceColumn(int index) {
        return -2 - index;
    }

    /**
     * Adds to {@code padded} the columns of a scanned table that can be NULL in the kernel: declared nullable and
     * holding a NULL in the snapshot the plan read (a stored column without one has no validity bitmap). The kernel
     * is made for that snapshot: a later write makes a new plan.
     */
    static void tableColumns(io.tessera.plan.Source.TableScan scan, java.util.Set<Integer> padded) {
        for (int i = 0; i < scan.columns().size(); i++) {
            if (scan.columns().get(i).nullable() && scan.table().column(i).hasNulls()) {
                padded.add(sourceColumn(i));
            }
        }
    }

    /**
     * Whether e can be NULL in a kernel where {@code padded} holds for the joins whose payload may be missing (the
     * left joins probed before), and for {@link #SOURCE_COLUMNS} where the source's columns may be NULL. The same rule as the C text {@link CudaExprGen} prints: {@code gen(e).isNull()} is
     * non-null exactly when this is true.
     */
    static boolean mayBeNull(Expr e, IntPredicate padded) {
        return mayBeNull(e, padded, java.util.Set.of());
    }

    /** As {@link #mayBeNull(Expr, IntPredicate)}, where the values of {@code known} are not NULL. */
    private static boolean mayBeNull(Expr e, IntPredicate padded, java.util.Set<Expr> known) {
        if (known.contains(e)) {
            return false;
        }
        return switch (e) {
            case Expr.Ref r -> r.slot().isSource() ? r.slot().nullable()
                    && (padded.test(SOURCE_COLUMNS) || padded.test(sourceColumn(r.slot().index())))
                    : padded.test(r.slot().joinId());
            case Expr.Literal l -> l.value() == null;
            case Expr.Call c -> switch (c.op()) {
                case IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE, IS_DISTINCT, IS_NOT_DISTINCT -> false;
                case COALESCE, GREATEST, LEAST -> c.args().stream().allMatch(a -> mayBeNull(a, padded, known));
                case CASE -> {
                    List<Expr> args = c.args();
                    int pairs = (args.size() - 1) / 2;
                    boolean any = false;
                    java.util.Set<Expr> passed = known; // what the WHENs before, none TRUE, prove
                    for (int i = 0; i < pairs && !any; i++) {
                        any = mayBeNull(args.get(2 * i + 1), padded, union(passed, notNullWhen(args.get(2 * i))));
                        passed = union(passed, notNullUnless(args.get(2 * i)));
                    }
                    yield any || mayBeNull(args.get(args.size() - 1), padded, passed);
                }
                default -> c.args().stream().anyMatch(a -> mayBeNull(a, padded, known));
            };
        };
    }

    /**
     * The values a condition being TRUE proves not NULL: x of {@code x IS NOT NULL}, among the terms of an AND
     * (COALESCE comes as {@code CASE WHEN x IS NOT NULL THEN x ELSE ... END}).
     */
    static java.util.Set<Expr> notNullWhen(Expr condition) {
        java.util.Set<Expr> out = new java.util.HashSet<>();
        if (condition instanceof Expr.Call c) {
            switch (c.op()) {
                case IS_NOT_NULL -> out.add(c.args().get(0));
                case AND -> c.args().forEach(a -> out.addAll(notNullWhen(a)));
                default -> {
                }
            }
        }
        return out;
    }

    /**
     * The values a condition being not TRUE (FALSE or NULL) proves not NULL: x of {@code x IS NULL}, among the terms
     * of an OR (a CASE's later branches and its ELSE see them as values).
     */
    static java.util.Set<Expr> notNullUnless(Expr condition) {
        java.util.Set<Expr> out = new java.util.HashSet<>();
        if (condition instanceof Expr.Call c) {
            switch (c.op()) {
                case IS_NULL -> out.add(c.args().get(0));
                case OR -> c.args().forEach(a -> out.addAll(notNullUnless(a)));
                default -> {
                }
            }
        }
        return out;
    }

    static java.util.Set<Expr> union(java.util.Set<Expr> a, java.util.Set<Expr> b) {
        if (b.isEmpty()) {
            return a;
        }
        java.util.Set<Expr> out = new java.util.HashSet<>(a);
        out.addAll(b);
        return out;
    }

    /** Whether a call is NULL when any operand is, and else computed from the operands' values alone. */
    static boolean strict(Expr.Call c) {
        return switch (c.op()) {
            case IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE, IS_DISTINCT, IS_NOT_DISTINCT,
                 COALESCE, GREATEST, LEAST, CASE, AND, OR -> false;
            default -> true;
        };
    }

    /** The zero a NULL value of C type t holds in its register. */
    static String zero(CType t) {
        return switch (t) {
            case INT -> "0";
            case LONG -> "0LL";
            case DOUBLE -> "0.0";
            case BOOL -> "false";
        };
    }

    /** Either condition, where null stands for false. */
    static String or(String a, String b) {
        if (a == null || a.equals(b)) {
            return b;
        }
        return b == null ? a : "(" + a + " || " + b + ")";
    }

    /** Both conditions, where null stands for false. */
    static String and(String a, String b) {
        return a == null || b == null ? null : "(" + a + " && " + b + ")";
    }

    /** A strict operator's value over operands whose NULL condition is {@code isNull}: zero where it is NULL. */
    static CValue guarded(CValue x, String isNull) {
        if (isNull == null) {
            return x;
        }
        return new CValue("(" + isNull + " ? " + zero(x.type()) + " : " + x.v() + ")", x.type(), x.dict(), isNull);
    }

    /** The condition that x is FALSE (not NULL and not true). */
    static String isFalse(CValue x) {
        return x.isNull() == null ? "(!" + x.v() + ")" : "(!" + x.v() + " && !" + x.isNull() + ")";
    }
}
