package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnpivot;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * UNPIVOTs that a rewrite of the parsed tree copied, made UNPIVOTs again: Calcite's tree copy (a SqlShuttle that
 * changes something inside, {@code x::INT} in the query an UNPIVOT reads) makes a plain call of the UNPIVOT operator,
 * which the validator cannot read, and that drops INCLUDE NULLS. Each copy becomes a SqlUnpivot of its operands with
 * the INCLUDE NULLS of the one it was copied from, known by its list of measure names (which no rewrite changes: a
 * copy keeps the operands it did not change).
 */
final class UnpivotCopies {
    private UnpivotCopies() {
    }

    /** Whether each UNPIVOT of the parsed statement includes NULLs, by its list of measures. */
    static Map<SqlNode, Boolean> includeNulls(SqlNode parsed) {
        Map<SqlNode, Boolean> byMeasures = new IdentityHashMap<>();
        parsed.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlUnpivot u) {
                    byMeasures.put(u.measureList, u.includeNulls);
                }
                return super.visit(call);
            }
        });
        return byMeasures;
    }

    static SqlNode restore(SqlNode node, Map<SqlNode, Boolean> includeNulls) {
        if (includeNulls.isEmpty()) {
            return node;
        }
        SqlNode r = node.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (visited instanceof SqlCall c && c.getKind() == SqlKind.UNPIVOT && !(c instanceof SqlUnpivot)) {
                    Boolean nulls = includeNulls.get(c.operand(1));
                    if (nulls == null) {
                        throw new IllegalStateException("an UNPIVOT copied from no parsed one");
                    }
                    return new SqlUnpivot(c.getParserPosition(), c.operand(0), nulls, c.operand(1), c.operand(2),
                            c.operand(3));
                }
                return visited;
            }
        });
        return r == null ? node : r;
    }
}
