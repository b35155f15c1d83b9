package io.tessera.sql;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The types the validator gave a statement's {@code ?} marks ({@code a = ?} takes the type of {@code a}), read from
 * its plan before any value is bound: what a prepared statement reports about its parameters before it runs.
 */
public final class ParameterTypes {

    private ParameterTypes() {
    }

    /** The type of each of the {@code count} marks, in order; null for one the plan no longer holds. */
    public static List<RelDataType> of(RelNode plan, int count) {
        RelDataType[] types = new RelDataType[count];
        collect(plan, types);
        return new ArrayList<>(Arrays.asList(types));
    }

    private static void collect(RelNode node, RelDataType[] types) {
        node.accept(new RexShuttle() {
            @Override
            public RexNode visitDynamicParam(RexDynamicParam p) {
                if (p.getIndex() >= 0 && p.getIndex() < types.length) {
                    types[p.getIndex()] = p.getType();
                }
                return p;
            }
        });
        for (RelNode input : node.getInputs()) {
            collect(input, types);
        }
    }
}
