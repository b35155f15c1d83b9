package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.Column;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;

/**
 * Plans a join: which side builds the hash table and which probes it, the keys both sides are compared by,
 * and what the probing pipeline has at hand afterwards (its own fields and the build side's payload). Where the
 * side that builds is the one an outer, semi or anti join keeps, the other side's probe marks the build rows it
 * matches and {@link PreservedSideJoins} plans the scan of the marked or unmarked rows.
 */
final class JoinPlanner {

    private final PhysicalPlanner planner;
    private final PreservedSideJoins preserved;

    JoinPlanner(PhysicalPlanner planner) {
        this.planner = planner;
        this.preserved = new PreservedSideJoins(planner);
    }

    /** An equality of the two sides; {@code nullSafe}: IS NOT DISTINCT FROM over a nullable side (NULL equals NULL). */
    private record KeyPair(RexNode left, RexNode right, boolean nullSafe, RexNode condition) {
    }

    /** A planned probe: the probing pipeline (still open, its fields those after the probe) and the table it probes. */
    private record Probed(PhysicalPlanner.Open open, Sink.Build build) {
    }

    /**
     * Plans a join of any type. The side estimated smaller builds the hash table. Where that is the side an outer,
     * semi or anti join must keep (the preserved side; a semi or anti join's outer side), the other side's rows
     * mark the build rows they match and a scan of the table's marked or unmarked rows gives what it keeps;
     * otherwise the preserved side probes: a RIGHT join probes with its right input and builds its left one, and a
     * FULL join is a LEFT join that marks its build rows, whose unmarked rows a scan adds, writing one relation.
     */
    PhysicalPlanner.Open join(Join j) {
        int nLeft = j.getLeft().getRowType().getFieldCount();
        List<KeyPair> keys = new ArrayList<>();
        List<RexNode> residual = new ArrayList<>();
        for (RexNode c : org.apache.calcite.plan.RelOptUtil.conjunctions(j.getCondition())) {
            KeyPair k = equiKey(c, nLeft, j);
            if (k != null) {
                keys.add(k);
            } else if (!c.isAlwaysTrue()) {
                residual.add(c);
            }
        }
        RelNode left = j.getLeft();
        RelNode right = j.getRight();
        JoinRelType type = j.getJoinType();
        return switch (type) {
            // the optimizer's join order (optimize.JoinOrder) puts the side to build on the right: the one that costs
            // less to build and probe, or one with a unique key where the device needs it or the other saves little
            case INNER -> probeJoin(j, JoinKind.INNER, false, uniqueKey(j, keys, residual), residual);
            case LEFT -> preserved.builds(left, right) ? withUnmatchedRows(j, JoinKind.INNER, true, keys, residual)
                    : probeJoin(j, JoinKind.LEFT, false, keys, residual);
            case RIGHT -> preserved.builds(right, left) ? withUnmatchedRows(j, JoinKind.INNER, false, keys, residual)
                    : probeJoin(j, JoinKind.LEFT, true, keys, residual);
            case SEMI -> preserved.builds(left, right) ? markedRows(j, true, keys, residual)
                    : probeJoin(j, JoinKind.SEMI, false, keys, residual);
            case ANTI -> preserved.builds(left, right) ? markedRows(j, false, keys, residual)
                    : probeJoin(j, JoinKind.ANTI, false, keys, residual);
            case FULL -> withUnmatchedRows(j, JoinKind.LEFT, preserved.builds(left, right), keys, residual);
            default -> throw new SqlError("unsupported: a " + type.name() + " join");
        };
    }

    /**
     * The keys an inner join that builds its right input hashes: where one of several equalities has a build column
     * unique by itself (an order key beside the nation keys that Q5's supplier and customer share), that key alone,
     * the other equalities moved to {@code residual}, which filters the probe's one match per row. A single integer
     * key may be a perfect table, its probe reads only probe-side columns (so it may move first and have a runtime
     * filter), and no composite key is hashed for each probing row.
     */
    private List<KeyPair> uniqueKey(Join j, List<KeyPair> keys, List<RexNode> residual) {
        if (keys.size() < 2) {
            return keys;
        }
        int nLeft = j.getLeft().getRowType().getFieldCount();
        for (KeyPair k : keys) {
            if (!k.nullSafe() && RexUtil.shift(k.right(), -nLeft) instanceof RexInputRef r
                    && planner.uniqueColumns.unique(j.getRight(), ImmutableBitSet.of(r.getIndex()))) {
                for (KeyPair other : keys) {
                    if (other != k) {
                        residual.add(other.condition());
                    }
                }
                return List.of(k);
            }
        }
        return keys;
    }

    /**
     * A semi ({@code matched}) or anti join that builds its outer (left) side: the inner side's rows mark the build
     * rows they match. The table of an anti join keeps the outer rows with a NULL key, which nothing matches.
     */
    private PhysicalPlanner.Open markedRows(Join j, boolean matched, List<KeyPair> keys, List<RexNode> residual) {
        Probed marking = probeJoin(j, JoinKind.MARK, true, keys, residual, false, !matched);
        return preserved.markedRows(j, marking.open(), marking.build(), matched);
    }

    /**
     * An outer join whose probe ({@code kind}: INNER for a LEFT or RIGHT join that builds its preserved side, LEFT
     * for a FULL join) marks the build rows it matches; the unmarked ones, with NULLs, join its rows in one relation.
     */
    private PhysicalPlanner.Open withUnmatchedRows(Join j, JoinKind kind, boolean buildLeft, List<KeyPair> keys,
                                                   List<RexNode> residual) {
        int rel = planner.nextRelation++;
        Probed probed = probeJoin(j, kind, buildLeft, keys, residual, true, true);
        return preserved.withUnmatchedRows(j, rel, probed.open(), probed.build(), buildLeft);
    }

    private PhysicalPlanner.Open probeJoin(Join j, JoinKind kind, boolean buildLeft, List<KeyPair> keys,
                                           List<RexNode> residual) {
        return probeJoin(j, kind, buildLeft, keys, residual, false, false).open();
    }

    /**
     * A join that probes a hash table of one input with the rows of the other: {@code buildLeft} says which input
     * builds. Without equality keys every build row has the constant key 0, so each probing row meets all of them
     * (a nested loop over the build side); a build side of at most one row has that key unique. The residual
     * (non-equality) conditions are filters after an inner probe that does not mark, and part of the match of any
     * other probe. {@code marks}: an inner or left probe that marks the build rows it matched (a MARK probe always
     * does); {@code keepNullKeys}: the table keeps its rows with a NULL key (their unmarked rows are scanned later). A
     * semi, anti or mark probe keeps the probing side's fields.
     */
    private Probed probeJoin(Join j, JoinKind kind, boolean buildLeft, List<KeyPair> keys, List<RexNode> residual,
                             boolean marks, boolean keepNullKeys) {
        int nLeft = j.getLeft().getRowType().getFieldCount();
        RelNode buildRel = buildLeft ? j.getLeft() : j.getRight();
        RelNode probeRel = buildLeft ? j.getRight() : j.getLeft();

        // probe side first (its own builds run before this join's), then the build side as its own pipeline
        PhysicalPlanner.Open p = planner.visit(probeRel);
        List<Expr> probeKeys = new ArrayList<>();
        for (KeyPair k : keys) {
            RexNode pk = buildLeft ? RexUtil.shift(k.right(), -nLeft) : k.left();
            addKey(probeKeys, planner.rex.translate(pk, p.fields), k.nullSafe());
        }
        PhysicalPlanner.Open b = planner.visit(buildRel);
        List<Expr> buildKeys = new ArrayList<>();
        List<Integer> buildKeyFields = new ArrayList<>();
        boolean nullSafe = false;
        for (KeyPair k : keys) {
            RexNode bk = buildLeft ? k.left() : RexUtil.shift(k.right(), -nLeft);
            addKey(buildKeys, planner.rex.translate(bk, b.fields), k.nullSafe());
            nullSafe |= k.nullSafe();
            if (bk instanceof RexInputRef r) {
                buildKeyFields.add(r.getIndex());
            }
        }
        List<DataType> common = new ArrayList<>();
        for (int i = 0; i < probeKeys.size(); i++) {
            common.add(commonKeyType(probeKeys.get(i).type(), buildKeys.get(i).type()));
        }
        boolean keyless = keys.isEmpty();
        KeyRange range;
        boolean unique;
        if (keyless) {
            Expr zero = new Expr.Literal(0L, DataType.INTEGER);
            probeKeys.add(zero);
            buildKeys.add(zero);
            common.add(null);
            range = new KeyRange(0, 0);
            // a side of at most one row (a scalar subquery's) holds the constant key at most once
            Double maxRows = planner.mq.getMaxRowCount(buildRel);
            unique = maxRows != null && maxRows <= 1;
        } else {
            // several NULL keys may be equal under IS NOT DISTINCT FROM, where the statistics count them as distinct
            unique = !nullSafe && buildKeyFields.size() == keys.size()
                    && planner.uniqueColumns.unique(buildRel, ImmutableBitSet.of(buildKeyFields));
            range = buildKeys.size() == 1 && common.get(0) == null ? KeyRange.of(buildKeys.get(0)) : null;
            if (range != null && range.size() > PhysicalPlanner.MAX_PERFECT_RANGE) {
                range = null;
            }
        }
        boolean keepsNulls = keepNullKeys && PreservedSideJoins.addNullFlag(buildKeys, probeKeys, common);
        if (keepsNulls) {
            unique = false; // rows with a NULL key may share their key values
            range = null;
        }
        // the build side's fields its payload carries: all of them for inner, left and mark probes (a scan of the
        // marks reads them), else those the residual condition reads
        List<Integer> carried = new ArrayList<>();
        int buildStart = buildLeft ? 0 : nLeft;
        if (kind == JoinKind.INNER || kind == JoinKind.LEFT || kind == JoinKind.MARK) {
            for (int i = 0; i < b.fields.size(); i++) {
                carried.add(i);
            }
        } else {
            for (RexNode r : residual) {
                for (int f : org.apache.calcite.plan.RelOptUtil.InputFinder.bits(r)) {
                    int bi = f - buildStart;
                    if (bi >= 0 && bi < b.fields.size() && !carried.contains(bi)) {
                        carried.add(bi);
                    }
                }
            }
            java.util.Collections.sort(carried);
        }
        List<Expr> payload = new ArrayList<>();
        List<String> payloadNames = new ArrayList<>();
        for (int bi : carried) {
            payload.add(b.fields.get(bi));
            payloadNames.add(b.names.get(bi));
        }
        int joinId = planner.nextJoin++;
        Sink.Build build = new Sink.Build(joinId, buildKeys, payload, payloadNames, unique, range,
                planner.estimates.rows(buildRel), common, keepsNulls);
        planner.close(b, build, planner.estimates.rows(buildRel));
        // per build field, its payload slot (null where the payload does not carry it)
        List<Expr> payloadRefs = new ArrayList<>(java.util.Collections.nCopies(b.fields.size(), (Expr) null));
        for (int i = 0; i < payload.size(); i++) {
            Expr e = payload.get(i);
            Column origin = e instanceof Expr.Ref r ? r.slot().origin() : null;
            String dict = DictionaryKeys.of(e, DictionaryKeys.payload(joinId, i));
            payloadRefs.set(carried.get(i), new Expr.Ref(new Slot(joinId, i, payloadNames.get(i), e.type(),
                    e.nullable() || kind == JoinKind.LEFT, dict, origin)));
        }
        List<Expr> fields = new ArrayList<>();
        if (buildLeft) {
            fields.addAll(payloadRefs);
            fields.addAll(p.fields);
        } else {
            fields.addAll(p.fields);
            fields.addAll(payloadRefs);
        }
        Expr matchCondition = null;
        if ((kind != JoinKind.INNER || marks) && !residual.isEmpty()) {
            // evaluated per build row with the key, where its payload is not NULL-extended: plain slots
            List<Expr> plain = new ArrayList<>(fields);
            for (int i = 0; i < payload.size(); i++) {
                int bi = carried.get(i);
                Slot s = ((Expr.Ref) payloadRefs.get(bi)).slot();
                plain.set(buildLeft ? bi : p.fields.size() + bi, new Expr.Ref(new Slot(s.joinId(), s.index(), s.name(),
                        s.type(), payload.get(i).nullable(), s.dictionaryKey(), s.origin())));
            }
            for (RexNode r : residual) {
                Expr c = planner.rex.translate(r, plain);
                matchCondition = matchCondition == null ? c
                        : new Expr.Call(Op.AND, List.of(matchCondition, c), DataType.BOOLEAN, matchCondition.nullable() || c.nullable());
            }
        }
        // a marking probe's rows go no further (MARK), or are an inner join's, not the outer join's the estimate is of
        p.add(new Operation.Probe(joinId, probeKeys, kind, build, matchCondition, marks),
                kind == JoinKind.MARK || marks || kind == JoinKind.INNER && !residual.isEmpty() ? Double.NaN
                        : planner.estimates.rows(j));
        if (kind == JoinKind.SEMI || kind == JoinKind.ANTI || kind == JoinKind.MARK) {
            return new Probed(p, build);
        }
        p.fields = fields;
        p.names = j.getRowType().getFieldNames();
        if (kind == JoinKind.INNER && !marks) {
            for (RexNode r : residual) {
                planner.addFilter(p, r, r == residual.get(residual.size() - 1) ? planner.estimates.rows(j) : Double.NaN);
            }
        }
        return new Probed(p, build);
    }

    /**
     * Adds a key; a null-safe one as two that cannot be NULL: whether it is NULL, and its value with NULL as the
     * type's zero (which the first tells apart from a real zero), so that a NULL finds exactly the NULLs.
     */
    private static void addKey(List<Expr> keys, Expr e, boolean nullSafe) {
        if (!nullSafe) {
            keys.add(e);
            return;
        }
        keys.add(new Expr.Call(Op.IS_NULL, List.of(e), DataType.BOOLEAN, false));
        Object zero = switch (e.type().kind()) {
            case DOUBLE -> 0.0;
            case BOOLEAN -> false;
            default -> 0L;
        };
        keys.add(new Expr.Call(Op.COALESCE, List.of(e, new Expr.Literal(zero, e.type())), e.type(), false));
    }

    /** The type both sides of a key compare in when their representations differ, else null. */
    static DataType commonKeyType(DataType a, DataType b) {
        boolean da = a.kind() == TypeKind.DOUBLE;
        boolean db = b.kind() == TypeKind.DOUBLE;
        if (da != db) {
            return DataType.DOUBLE;
        }
        boolean xa = a.kind() == TypeKind.DECIMAL;
        boolean xb = b.kind() == TypeKind.DECIMAL;
        if ((xa || xb) && !(xa && xb && a.scale() == b.scale())) {
            return DataType.decimal(18, Math.max(xa ? a.scale() : 0, xb ? b.scale() : 0));
        }
        return null;
    }

    /** An equality whose sides reference only the left and only the right input, or null. */
    private static KeyPair equiKey(RexNode c, int nLeft, Join j) {
        if (!(c instanceof RexCall call)) {
            return null;
        }
        boolean nullSafe = call.getKind() == SqlKind.IS_NOT_DISTINCT_FROM;
        if (call.getKind() != SqlKind.EQUALS && !nullSafe) {
            return null;
        }
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        ImmutableBitSet ra = org.apache.calcite.plan.RelOptUtil.InputFinder.bits(a);
        ImmutableBitSet rb = org.apache.calcite.plan.RelOptUtil.InputFinder.bits(b);
        if (ra.isEmpty() || rb.isEmpty()) {
            return null;
        }
        boolean nullable = nullSafe && (a.getType().isNullable() || b.getType().isNullable());
        if (nullable && (a.getType().getSqlTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER
                || a.getType().isStruct() || a.getType().getComponentType() != null)) {
            // a string (and a list or struct, held as one) has no zero to stand for NULL: a condition on each build
            // row, not a hash key
            return null;
        }
        if (ra.nth(ra.cardinality() - 1) < nLeft && rb.nth(0) >= nLeft) {
            return new KeyPair(a, b, nullable, c);
        } else if (rb.nth(rb.cardinality() - 1) < nLeft && ra.nth(0) >= nLeft) {
            return new KeyPair(b, a, nullable, c);
        }
        return null;
    }
}
