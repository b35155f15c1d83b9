package io.tessera.plan;

import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.sql.SqlKind;
import io.tessera.storage.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * Lists ordered by their order keys ({@link ListFunction#ORDER_KEY}): an ORDER BY of lists sorts by an order key
 * column added after the row's fields for the sort, which the pipelines after the sort do not see; MIN and MAX of
 * lists keep the least or greatest order key, read back as its list after the aggregation.
 */
final class ListSortKeys {
    private ListSortKeys() {
    }

    /** The collation to sort by, after adding to {@code o} an order key column for every list key of {@code coll}. */
    static RelCollation add(PhysicalPlanner.Open o, RelCollation coll) {
        if (coll.getFieldCollations().stream().noneMatch(fc -> o.fields.get(fc.getFieldIndex()).type().isNested())) {
            return coll;
        }
        List<io.tessera.plan.Expr> fields = new ArrayList<>(o.fields);
        List<String> names = new ArrayList<>(o.names);
        List<RelFieldCollation> keys = new ArrayList<>();
        for (RelFieldCollation fc : coll.getFieldCollations()) {
            Expr field = fields.get(fc.getFieldIndex());
            if (!field.type().isNested()) {
                keys.add(fc);
                continue;
            }
            fields.add(ListCalls.orderKey(field, "ORDER BY " + o.names.get(fc.getFieldIndex())));
            names.add(o.names.get(fc.getFieldIndex()) + "$order");
            keys.add(fc.withFieldIndex(fields.size() - 1));
        }
        o.fields = fields;
        o.names = names;
        return RelCollations.of(keys);
    }

    /** Reads the MIN and MAX of lists of {@code a}, which hold order keys, in {@code next} as their lists. */
    static void listsOfKeys(Aggregate a, PhysicalPlanner.Open next) {
        List<Expr> fields = new ArrayList<>(next.fields);
        int first = a.getGroupCount();
        for (int i = 0; i < a.getAggCallList().size(); i++) {
            AggregateCall call = a.getAggCallList().get(i);
            SqlKind kind = call.getAggregation().getKind();
            DataType type = Types.of(call.getType());
            if ((kind == SqlKind.MIN || kind == SqlKind.MAX) && type.isNested()) {
                fields.set(first + i, ListCalls.fromOrderKey(fields.get(first + i), type));
            }
        }
        next.fields = fields;
    }
}
