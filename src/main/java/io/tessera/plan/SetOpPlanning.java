package io.tessera.plan;

import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.type.RelDataTypeField;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * UNION, INTERSECT and EXCEPT (other than UNION ALL, which only concatenates) by counting: every input's rows go into
 * one relation with a tag naming the input, then the rows are grouped by all their columns and a group is kept by
 * the tags it holds. SQL compares rows here as GROUP BY does, a NULL equal to a NULL.
 *
 * <p>The ALL forms first number the copies of each row within its input (ROW_NUMBER over a partition by the row
 * and its tag) and group by the row and that number: the k-th copy of a row survives INTERSECT ALL when every input
 * has a k-th copy (so min(count) copies remain), and EXCEPT ALL when no right input has one (max(0, l - r)). The
 * right inputs of an EXCEPT share one tag: removing them one after another removes their counts summed.
 *
 * <p>A column of INTERVALs, or of LISTs or STRUCTs with one inside, is compared by its key instead, in which each
 * interval is its length (as DuckDB compares them: 1 day equals 24 hours): the key goes into the relation beside the
 * value, rows are numbered and grouped by it, and a group shows the least value of its first input's rows.
 */
final class SetOpPlanning {

    private SetOpPlanning() {
    }

    static PhysicalPlanner.Open plan(PhysicalPlanner planner, SetOp s) {
        boolean intersect = s instanceof Intersect;
        boolean union = s instanceof org.apache.calcite.rel.core.Union;
        boolean numbered = s.all && !union;
        List<String> names = s.getRowType().getFieldNames();
        int n = names.size();

        // every input's rows and its tag, into one relation
        int tagged = planner.newRelation();
        List<ColumnInfo> cols = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RelDataTypeField f = s.getRowType().getFieldList().get(i);
            DataType t = Types.of(f.getType());
            cols.add(new ColumnInfo(names.get(i), t, f.getType().isNullable(),
                    t.kind() == TypeKind.VARCHAR ? DictionaryKeys.relation(tagged, i) : null));
        }
        cols.add(new ColumnInfo("input", DataType.INTEGER, false, null));
        List<Integer> keyed = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (io.tessera.storage.ListOrder.equalByKey(cols.get(i).type())) {
                cols.add(new ColumnInfo("key" + i, DataType.VARCHAR, true, DictionaryKeys.relation(tagged, cols.size())));
                keyed.add(i);
            }
        }
        // the tagged relation's field that column i is compared by: its key where it has one, else itself
        IntUnaryOperator comparedBy = i -> keyed.contains(i) ? n + 1 + keyed.indexOf(i) : i;
        List<String> taggedNames = cols.stream().map(ColumnInfo::name).toList();
        List<RelNode> inputs = s.getInputs();
        for (int in = 0; in < inputs.size(); in++) {
            PhysicalPlanner.Open o = planner.input(inputs.get(in));
            List<Expr> outs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Expr e = o.fields.get(i);
                outs.add(planner.rex.converted(e, inputs.get(in).getRowType().getFieldList().get(i).getType(),
                        cols.get(i).type()));
            }
            long tag = union ? 0 : intersect ? in : Math.min(in, 1);
            outs.add(new Expr.Literal(tag, DataType.INTEGER));
            for (int i : keyed) {
                outs.add(IntervalCalls.equalityKey(outs.get(i)));
            }
            planner.end(o, new Sink.Materialize(outs, taggedNames, 0, -1, tagged));
        }
        double rows = planner.rowCount(s);
        PhysicalPlanner.Open u = planner.readRelation(tagged, cols, rows);

        if (numbered) {
            // the k-th copy of a row within its input
            int rel = planner.newRelation();
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i <= n; i++) {
                all.add(comparedBy.applyAsInt(i));
            }
            WindowFunction.Frame whole = new WindowFunction.Frame(true,
                    new WindowFunction.Bound(WindowFunction.BoundKind.UNBOUNDED_PRECEDING, null),
                    new WindowFunction.Bound(WindowFunction.BoundKind.UNBOUNDED_FOLLOWING, null));
            WindowFunction copy = new WindowFunction(WindowFunction.Kind.ROW_NUMBER, -1, 1, -1, null, all, List.of(),
                    whole, DataType.BIGINT, false, "copy");
            planner.end(u, new Sink.Window(u.fields, taggedNames, List.of(copy), rel));
            List<ColumnInfo> numberedCols = new ArrayList<>(PhysicalPlanner.relationColumns(rel, u.fields, taggedNames));
            numberedCols.add(new ColumnInfo("copy", DataType.BIGINT, false, null));
            u = planner.readRelation(rel, numberedCols, rows);
        }

        // group by the row (and its copy number); keep a group by the inputs it came from
        List<Expr> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add(u.fields.get(comparedBy.applyAsInt(i)));
        }
        List<String> keyNames = new ArrayList<>(names);
        if (numbered) {
            keys.add(u.fields.get(n + 1 + keyed.size()));
            keyNames.add("copy");
        }
        List<KeyRange> ranges = new ArrayList<>();
        for (Expr k : keys) {
            ranges.add(KeyRange.of(k));
        }
        Expr tag = u.fields.get(n);
        List<AggCall> aggs = new ArrayList<>(union ? List.of()
                : intersect ? List.of(new AggCall(AggFunction.COUNT_DISTINCT, tag, null, DataType.BIGINT, false, "inputs"))
                : List.of(new AggCall(AggFunction.MAX, tag, null, DataType.INTEGER, false, "last_input")));
        int counts = aggs.size();
        // a keyed column's value: the least of the first input's (every input's for a UNION)
        Expr first = union ? null
                : new Expr.Call(Op.EQ, List.of(tag, new Expr.Literal(0L, DataType.INTEGER)), DataType.BOOLEAN, false);
        for (int i : keyed) {
            aggs.add(new AggCall(AggFunction.MIN, u.fields.get(i), first, cols.get(i).type(), true, names.get(i)));
        }
        int grouped = planner.newRelation();
        planner.end(u, new Sink.GroupAggregate(keys, keyNames, aggs, ranges, grouped, rows));
        List<ColumnInfo> groupCols = new ArrayList<>(PhysicalPlanner.relationColumns(grouped, keys, keyNames));
        for (int a = 0; a < aggs.size(); a++) {
            AggCall call = aggs.get(a);
            String dict = a < counts || call.type().kind() != TypeKind.VARCHAR ? null
                    : DictionaryKeys.of(call.arg(), DictionaryKeys.relation(grouped, keys.size() + a));
            groupCols.add(new ColumnInfo(call.name(), call.type(), a >= counts, dict));
        }
        PhysicalPlanner.Open g = planner.readRelation(grouped, groupCols, rows);
        if (!union) {
            Expr count = g.fields.get(keys.size());
            Expr wanted = intersect ? new Expr.Literal((long) inputs.size(), DataType.BIGINT) : new Expr.Literal(0L, DataType.INTEGER);
            g.add(new Operation.Filter(new Expr.Call(Op.EQ, List.of(count, wanted), DataType.BOOLEAN, false)), Double.NaN);
        }
        List<Expr> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(g.fields.get(keyed.contains(i) ? keys.size() + counts + keyed.indexOf(i) : i));
        }
        g.fields = out;
        g.names = names;
        return g;
    }
}
