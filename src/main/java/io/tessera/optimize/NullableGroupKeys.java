package io.tessera.optimize;

import io.tessera.sql.CatalogTableAccess;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;

/**
 * For the GPU, whose group tables hold no NULL key: a number, date, time or string group key that may be NULL is grouped as
 * two keys that never are, its value with NULL as zero ({@code COALESCE(k, 0)}) and whether it is NULL ({@code k IS
 * NULL}), and shown again as {@code CASE WHEN k IS NULL THEN NULL ELSE COALESCE(k, 0) END} above the aggregation. The
 * groups are the same (NULL its own group, apart from zero), so the JVM answers the rewritten plan alike. A key read
 * straight from a table column that holds no NULL in the snapshot is left as it is: the GPU reads it as never NULL.
 * A string key is grouped the same way, as {@code COALESCE(k, '')} and {@code k IS NULL}, in an aggregation whose
 * groups go to the result (not into a join or another aggregation): for a dictionary column the GPU computes the
 * COALESCE as a map of its codes, and the CASE above it passes a code through.
 */
final class NullableGroupKeys {

    private NullableGroupKeys() {
    }

    static RelNode apply(RelNode rel, RelBuilder b) {
        return apply(rel, b, true);
    }

    /**
     * {@code strings}: whether a string key may be rewritten here, only in an aggregation whose groups reach the
     * result through projections, filters and sorts: its shown key is a computed string (the CASE), which no join
     * takes as a key, and which a later aggregation would group as text instead of codes.
     */
    private static RelNode apply(RelNode rel, RelBuilder b, boolean strings) {
        boolean below = strings && (rel instanceof Project || rel instanceof Filter || rel instanceof Sort);
        rel = Inputs.visited(rel, in -> apply(in, b, below));
        if (!(rel instanceof Aggregate a) || a.getGroupType() != Aggregate.Group.SIMPLE) {
            return rel;
        }
        RelMetadataQuery mq = a.getCluster().getMetadataQuery();
        List<Integer> keys = a.getGroupSet().asList();
        List<Integer> nullable = new ArrayList<>();
        for (int k : keys) {
            RelDataType t = a.getInput().getRowType().getFieldList().get(k).getType();
            if (t.isNullable() && (numberOrTime(t) || strings && text(t)) && mayHoldNull(a.getInput(), k, mq)) {
                nullable.add(k);
            }
        }
        if (nullable.isEmpty()) {
            return rel;
        }
        RexBuilder rex = a.getCluster().getRexBuilder();
        b.push(a.getInput());
        int width = a.getInput().getRowType().getFieldCount();
        List<RexNode> fields = new ArrayList<>(b.fields());
        for (int k : nullable) {
            RelDataType t = b.field(k).getType();
            RelDataType notNull = b.getTypeFactory().createTypeWithNullability(t, false);
            RexNode zero = text(t) ? rex.makeLiteral("", notNull, false) : rex.makeZeroLiteral(notNull);
            fields.add(rex.makeCast(notNull, b.call(SqlStdOperatorTable.COALESCE, b.field(k), zero), true, false));
        }
        for (int k : nullable) {
            fields.add(b.isNull(b.field(k)));
        }
        b.project(fields);
        ImmutableBitSet.Builder groups = ImmutableBitSet.builder();
        for (int k : keys) {
            int i = nullable.indexOf(k);
            if (i < 0) {
                groups.set(k);
            } else {
                groups.set(width + i).set(width + nullable.size() + i);
            }
        }
        ImmutableBitSet groupSet = groups.build();
        List<RelBuilder.AggCall> calls = new ArrayList<>();
        for (AggregateCall c : a.getAggCallList()) {
            calls.add(b.aggregateCall(c)); // its arguments are among the first width columns, unmoved
        }
        b.aggregate(b.groupKey(groupSet), calls);
        // back to the aggregation's columns: its keys in their order (a nullable one from its two), then its calls
        List<Integer> out = groupSet.asList();
        List<RexNode> back = new ArrayList<>();
        for (int k : keys) {
            int i = nullable.indexOf(k);
            if (i < 0) {
                back.add(b.field(out.indexOf(k)));
                continue;
            }
            RelDataType t = a.getRowType().getFieldList().get(keys.indexOf(k)).getType();
            RexNode value = b.field(out.indexOf(width + i));
            RexNode isNull = b.field(out.indexOf(width + nullable.size() + i));
            back.add(rex.makeCall(t, SqlStdOperatorTable.CASE,
                    List.of(isNull, rex.makeNullLiteral(t), rex.makeCast(t, value, true, false))));
        }
        for (int c = 0; c < a.getAggCallList().size(); c++) {
            back.add(b.field(out.size() + c));
        }
        b.project(back, a.getRowType().getFieldNames(), true);
        return b.build();
    }

    /** Whether a key of type t has a zero the device groups by: a number, a date, a time, a timestamp. */
    private static boolean numberOrTime(RelDataType t) {
        SqlTypeFamily f = t.getSqlTypeName().getFamily();
        return f == SqlTypeFamily.NUMERIC || f == SqlTypeFamily.DATE || f == SqlTypeFamily.TIMESTAMP
                || f == SqlTypeFamily.TIME;
    }

    /**
     * Whether a key of type t is text: the GPU groups a string column's codes, and COALESCE(k, '') as a map of them
     * whose one more entry is the code of '' for a NULL (backend.cuda.gen.MappedCodes).
     */
    private static boolean text(RelDataType t) {
        return t.getSqlTypeName() == SqlTypeName.VARCHAR || t.getSqlTypeName() == SqlTypeName.CHAR;
    }

    /**
     * Whether column k of rel may be NULL in the data: false only for a table's column, read as it is, whose
     * snapshot holds no NULL.
     */
    private static boolean mayHoldNull(RelNode rel, int k, RelMetadataQuery mq) {
        RelColumnOrigin origin = mq.getColumnOrigin(rel, k);
        if (origin == null || origin.isDerived()) {
            return true;
        }
        CatalogTableAccess access = origin.getOriginTable().unwrap(CatalogTableAccess.class);
        if (access == null) {
            return true;
        }
        io.tessera.storage.Table t = access.table();
        int c = origin.getOriginColumnOrdinal();
        return c >= t.columns().size() || t.column(c).hasNulls();
    }
}
