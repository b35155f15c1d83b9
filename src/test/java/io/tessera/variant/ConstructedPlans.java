package io.tessera.variant;

import io.tessera.plan.ColumnInfo;
import io.tessera.plan.Expr;
import io.tessera.plan.JoinKind;
import io.tessera.plan.KeyRange;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Slot;
import io.tessera.plan.Source;
import io.tessera.storage.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Plans built by hand, for shapes a test needs exactly (probe runs, dependencies, join kinds). */
final class ConstructedPlans {

    private ConstructedPlans() {
    }

    static Expr.Ref source(int index) {
        return new Expr.Ref(Slot.source(index, "c" + index, DataType.INTEGER, false, null, null));
    }

    static Expr.Ref payload(int joinId, int index) {
        return new Expr.Ref(new Slot(joinId, index, "p" + index, DataType.INTEGER, false, null, null));
    }

    /** A build of join {@code joinId} over {@code rows} estimated rows with keys in [0, 99]. */
    static Sink.Build build(int joinId, double rows) {
        return new Sink.Build(joinId, List.of(source(0)), List.of(source(0), source(1)), List.of("k", "v"), true,
                new KeyRange(0, 99), rows, Arrays.asList((DataType) null));
    }

    static Operation.Probe probe(Sink.Build b, Expr key, JoinKind kind) {
        return new Operation.Probe(b.joinId(), List.of(key), kind, b);
    }

    static Source.RelationScan scan(int columns) {
        List<ColumnInfo> cols = new ArrayList<>();
        for (int i = 0; i < columns; i++) {
            cols.add(new ColumnInfo("c" + i, DataType.INTEGER, false, null));
        }
        return new Source.RelationScan(90, cols, 1000);
    }

    /**
     * Builds of the given estimated rows (join i: pipeline i), then one pipeline probing them in order with the
     * given kinds; {@code keyOf[i]} is the probe key of join i (null: source column i + 2).
     */
    static QueryPlan star(double[] buildRows, JoinKind[] kinds, Expr[] keyOf) {
        List<Pipeline> ps = new ArrayList<>();
        List<Operation> ops = new ArrayList<>();
        for (int i = 0; i < buildRows.length; i++) {
            Sink.Build b = build(i, buildRows[i]);
            ps.add(new Pipeline(i, scan(2), List.of(), b));
            ops.add(probe(b, keyOf != null && keyOf[i] != null ? keyOf[i] : source(i + 2), kinds[i]));
        }
        ps.add(new Pipeline(buildRows.length, scan(buildRows.length + 2), ops,
                new Sink.Materialize(List.of(source(0)), List.of("c0"), 0, -1, 1)));
        return new QueryPlan(ps, 1, List.of(new ColumnInfo("c0", DataType.INTEGER, false, null)), Map.of());
    }

    static JoinKind[] kinds(JoinKind... k) {
        return k;
    }
}
