package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * A CASE of STRUCTs, LISTs or MAPs converted with the type the validator gave it. {@code COALESCE(CAST(NULL AS
 * STRUCT(a INT)), {'b': 3})} is a CASE whose first THEN is guarded by {@code IS NOT NULL}: the validator counts it
 * NOT NULL, and so the CASE, where Calcite's conversion derives the type again from the converted branches and finds
 * it nullable, a difference its check of the converted types refuses. The CASE keeps the validated type, whose
 * values it holds (one of the arguments that is not NULL).
 */
final class NestedCaseTypes {

    private NestedCaseTypes() {
    }

    static boolean applies(SqlCall call) {
        return call.getKind() == SqlKind.CASE;
    }

    static final SqlRexConvertlet CONVERTLET = (cx, c) -> {
        RexNode converted = StandardConvertletTable.INSTANCE.get(c).convertCall(cx, c);
        RelDataType validated = cx.getValidator().getValidatedNodeType(c);
        if (!validated.isNullable() && converted.getType().isNullable() && StructCommonType.structInside(validated)
                && converted instanceof RexCall call && call.getKind() == SqlKind.CASE
                && cx.getTypeFactory().createTypeWithNullability(converted.getType(), false).equals(validated)) {
            return cx.getRexBuilder().makeCall(validated, SqlStdOperatorTable.CASE, call.getOperands());
        }
        return converted;
    };
}
