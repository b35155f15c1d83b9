package io.tessera.sql;

import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * {@code IS [NOT] DISTINCT FROM} of two STRUCTs kept as one comparison of the whole values, which plan.StructCalls
 * makes as DuckDB compares structs (a NULL struct distinct from a struct of NULL fields; an INTERVAL field by its
 * length). Calcite's conversion compares field by field instead: it takes a NULL struct for one of NULL fields,
 * joins the fields' IS DISTINCT FROM with AND where any one distinct field makes the structs distinct, and compares a
 * field of the NULL type with an INTERVAL field as values of different kinds.
 */
final class StructDistinctFrom {
    private StructDistinctFrom() {
    }

    static boolean applies(SqlCall call) {
        return call.getKind() == SqlKind.IS_DISTINCT_FROM || call.getKind() == SqlKind.IS_NOT_DISTINCT_FROM;
    }

    static final SqlRexConvertlet CONVERTLET = (cx, c) -> {
        if (!cx.getValidator().getValidatedNodeType(c.operand(0)).isStruct()
                || !cx.getValidator().getValidatedNodeType(c.operand(1)).isStruct()) {
            return StandardConvertletTable.INSTANCE.get(c).convertCall(cx, c);
        }
        RexNode x = cx.convertExpression(c.operand(0));
        RexNode y = cx.convertExpression(c.operand(1));
        return cx.getRexBuilder().makeCall(c.getOperator(), x, y);
    };
}
