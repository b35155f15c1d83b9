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
 * and what the probing pipeline has at hand afterwards (its own fields and the build side's payload).
 */
final class JoinPlanner {

    private final PhysicalPlanner planner;

    JoinPlanner(PhysicalPlanner planner) {
        this.planner = planner;
    }

    private record KeyPair(RexNode left, RexNode right) {
    }

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
        if (keys.isEmpty()) {
            throw new SqlError("unsupported: a join without an equality condition between its two sides (cross join)");
        }
        JoinRelType type = j.getJoinType();
        JoinKind kind = switch (type) {
            case INNER -> JoinKind.INNER;
            case LEFT -> JoinKind.LEFT;
            case SEMI -> JoinKind.SEMI;
            case ANTI -> JoinKind.ANTI;
            default -> throw new SqlError("unsupported: " + type + " join");
        };
        if (!residual.isEmpty() && kind != JoinKind.INNER) {
            throw new SqlError("unsupported: a " + type + " join with a non-equality condition");
        }
        double leftRows = planner.mq.getRowCount(j.getLeft());
        double rightRows = planner.mq.getRowCount(j.getRight());
        boolean buildLeft = kind == JoinKind.INNER && leftRows < rightRows;
        RelNode buildRel = buildLeft ? j.getLeft() : j.getRight();
        RelNode probeRel = buildLeft ? j.getRight() : j.getLeft();
        int offset = buildLeft ? 0 : nLeft;

        // probe side first (its own builds run before this join's), then the build side as its own pipeline
        PhysicalPlanner.Open p = planner.visit(probeRel);
        List<Expr> probeKeys = new ArrayList<>();
        for (KeyPair k : keys) {
            RexNode pk = buildLeft ? RexUtil.shift(k.right(), -nLeft) : k.left();
            probeKeys.add(planner.rex.translate(pk, p.fields));
        }
        PhysicalPlanner.Open b = planner.visit(buildRel);
        List<Expr> buildKeys = new ArrayList<>();
        List<Integer> buildKeyFields = new ArrayList<>();
        for (KeyPair k : keys) {
            RexNode bk = buildLeft ? k.left() : RexUtil.shift(k.right(), -nLeft);
            buildKeys.add(planner.rex.translate(bk, b.fields));
            if (bk instanceof RexInputRef r) {
                buildKeyFields.add(r.getIndex());
            }
        }
        List<DataType> common = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            common.add(commonKeyType(probeKeys.get(i).type(), buildKeys.get(i).type()));
        }
        boolean withPayload = kind == JoinKind.INNER || kind == JoinKind.LEFT;
        List<Expr> payload = withPayload ? b.fields : List.of();
        List<String> payloadNames = withPayload ? b.names : List.of();
        boolean unique = buildKeyFields.size() == keys.size()
                && Boolean.TRUE.equals(planner.mq.areColumnsUnique(buildRel, ImmutableBitSet.of(buildKeyFields)));
        KeyRange range = buildKeys.size() == 1 && common.get(0) == null ? KeyRange.of(buildKeys.get(0)) : null;
        if (range != null && range.size() > PhysicalPlanner.MAX_PERFECT_RANGE) {
            range = null;
        }
        int joinId = planner.nextJoin++;
        Sink.Build build = new Sink.Build(joinId, buildKeys, payload, payloadNames, unique, range,
                planner.mq.getRowCount(buildRel), common);
        planner.close(b, build);
        p.ops.add(new Operation.Probe(joinId, probeKeys, kind, build));
        if (!withPayload) {
            return p;
        }
        List<Expr> payloadRefs = new ArrayList<>();
        for (int i = 0; i < payload.size(); i++) {
            Expr e = payload.get(i);
            Column origin = e instanceof Expr.Ref r ? r.slot().origin() : null;
            String dict = DictionaryKeys.of(e, DictionaryKeys.payload(joinId, i));
            payloadRefs.add(new Expr.Ref(new Slot(joinId, i, payloadNames.get(i), e.type(),
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
        p.fields = fields;
        p.names = j.getRowType().getFieldNames();
        for (RexNode r : residual) {
            planner.addFilter(p, r);
        }
        return p;
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
        KeyPair k = null;
        if (ra.nth(ra.cardinality() - 1) < nLeft && rb.nth(0) >= nLeft) {
            k = new KeyPair(a, b);
        } else if (rb.nth(rb.cardinality() - 1) < nLeft && ra.nth(0) >= nLeft) {
            k = new KeyPair(b, a);
        }
        if (k != null && nullSafe && (k.left().getType().isNullable() || k.right().getType().isNullable())) {
            throw new SqlError("unsupported: a join on IS NOT DISTINCT FROM over nullable keys");
        }
        return k;
    }
}
