package io.tessera.sql;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * VALUES rows' numbers in a DOUBLE column held as DOUBLE constants: Calcite keeps a DECIMAL constant as it was
 * written ({@code 2.5} beside {@code 1e10} in {@code VALUES (1, 1e10), (2, 2.5)}), a BigDecimal beside a Double, and
 * then compares the two while ordering the rows (a ClassCastException instead of the rows).
 */
final class ValuesLiterals {
    private ValuesLiterals() {
    }

    static RelNode asColumnTypes(RelNode rel) {
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                return visited instanceof LogicalValues values ? doubles(values) : visited;
            }
        });
    }

    private static RelNode doubles(LogicalValues values) {
        RexBuilder rex = values.getCluster().getRexBuilder();
        List<RelDataType> columns = values.getRowType().getFieldList().stream().map(f -> f.getType()).toList();
        boolean changed = false;
        List<List<RexLiteral>> tuples = new ArrayList<>();
        for (List<RexLiteral> tuple : values.getTuples()) {
            List<RexLiteral> row = new ArrayList<>(tuple);
            for (int i = 0; i < row.size(); i++) {
                RelDataType column = columns.get(i);
                if (column.getSqlTypeName() == SqlTypeName.DOUBLE && row.get(i).getValue() instanceof BigDecimal d
                        && row.get(i).getTypeName() != SqlTypeName.DOUBLE) {
                    row.set(i, rex.makeApproxLiteral(Double.valueOf(d.doubleValue()),
                            rex.getTypeFactory().createTypeWithNullability(column, false)));
                    changed = true;
                }
            }
            tuples.add(row);
        }
        if (!changed) {
            return values;
        }
        com.google.common.collect.ImmutableList.Builder<com.google.common.collect.ImmutableList<RexLiteral>> b =
                com.google.common.collect.ImmutableList.builder();
        for (List<RexLiteral> t : tuples) {
            b.add(com.google.common.collect.ImmutableList.copyOf(t));
        }
        return LogicalValues.create(values.getCluster(), values.getRowType(), b.build());
    }
}
