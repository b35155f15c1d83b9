package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlAvgAggFunction;
import org.apache.calcite.sql.fun.SqlMinMaxAggFunction;
import org.apache.calcite.sql.fun.SqlSumAggFunction;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import java.util.Locale;
import java.util.Map;

/**
 * SUM, AVG, MIN, MAX, BOOL_AND, BOOL_OR and EVERY typed nullable in a SELECT grouped by ROLLUP, CUBE or GROUPING
 * SETS. Calcite counts such a GROUP BY as grouping, and so types SUM of a NOT NULL column NOT NULL; but a ROLLUP's
 * total row over no input rows is NULL, and a NOT NULL type would let Calcite fold {@code sum(x) IS NULL} to false.
 * Runs on the parsed statement, before validation: the calls get operators of the same kinds whose type is nullable.
 */
final class NullableSetAggregates {

    private NullableSetAggregates() {
    }

    private static final Map<String, org.apache.calcite.sql.SqlAggFunction> OPERATORS = Map.of(
            "SUM", new Sum(), "AVG", new Avg(), "MIN", new MinMax("MIN", SqlKind.MIN, OperandTypes.COMPARABLE_ORDERED),
            "MAX", new MinMax("MAX", SqlKind.MAX, OperandTypes.COMPARABLE_ORDERED),
            "BOOL_AND", new MinMax("BOOL_AND", SqlKind.MIN, OperandTypes.BOOLEAN),
            "BOOL_OR", new MinMax("BOOL_OR", SqlKind.MAX, OperandTypes.BOOLEAN),
            "EVERY", new MinMax("EVERY", SqlKind.MIN, OperandTypes.BOOLEAN));

    static SqlNode rewrite(SqlNode parsed) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (visited instanceof SqlSelect s && hasSets(s)) {
                    s.setSelectList(replace(s.getSelectList()));
                    s.setHaving(replace(s.getHaving()));
                    s.setOrderBy(replace(s.getOrderList()));
                } else if (visited instanceof SqlOrderBy o && o.query instanceof SqlSelect s && hasSets(s)) {
                    return new SqlOrderBy(o.getParserPosition(), o.query, replace(o.orderList), o.offset, o.fetch);
                }
                return visited;
            }
        });
        return r == null ? parsed : r;
    }

    private static boolean hasSets(SqlSelect s) {
        if (s.getGroup() == null) {
            return false;
        }
        for (SqlNode g : s.getGroup()) {
            SqlKind k = g.getKind();
            if (k == SqlKind.ROLLUP || k == SqlKind.CUBE || k == SqlKind.GROUPING_SETS) {
                return true;
            }
        }
        return false;
    }

    /** The node with this SELECT's aggregate calls replaced (not those of subqueries, which have their own GROUP BY). */
    @SuppressWarnings("unchecked")
    private static <T extends SqlNode> T replace(T node) {
        if (node == null) {
            return null;
        }
        SqlNode r = node.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call instanceof SqlSelect || call instanceof SqlOrderBy) {
                    return call;
                }
                SqlNode visited = super.visit(call);
                if (visited instanceof SqlCall c && !(c.getOperator() instanceof Nullable)) {
                    var op = OPERATORS.get(c.getOperator().getName().toUpperCase(Locale.ROOT));
                    if (op != null) {
                        return op.createCall(c.getFunctionQuantifier(), c.getParserPosition(), c.getOperandList());
                    }
                }
                return visited;
            }
        });
        return r == null ? node : (T) (node instanceof SqlNodeList && !(r instanceof SqlNodeList) ? node : r);
    }

    /** Marks the replacing operators. */
    private interface Nullable {
    }

    private static RelDataType nullable(SqlOperatorBinding b, RelDataType t) {
        return b.getTypeFactory().createTypeWithNullability(t, true);
    }

    private static RelDataType derived(SqlValidator v, SqlCall call, RelDataType t, org.apache.calcite.sql.SqlOperator self) {
        // the validator looks the name up again and puts the standard operator in; this one stays
        if (call instanceof SqlBasicCall b) {
            b.setOperator(self);
        }
        return v.getTypeFactory().createTypeWithNullability(t, true);
    }

    private static final class Sum extends SqlSumAggFunction implements Nullable {
        Sum() {
            super(null);
        }

        @Override
        public RelDataType inferReturnType(SqlOperatorBinding b) {
            return nullable(b, super.inferReturnType(b));
        }

        @Override
        public RelDataType deriveType(SqlValidator v, SqlValidatorScope scope, SqlCall call) {
            return derived(v, call, super.deriveType(v, scope, call), this);
        }
    }

    private static final class Avg extends SqlAvgAggFunction implements Nullable {
        Avg() {
            super(SqlKind.AVG);
        }

        @Override
        public RelDataType inferReturnType(SqlOperatorBinding b) {
            return nullable(b, super.inferReturnType(b));
        }

        @Override
        public RelDataType deriveType(SqlValidator v, SqlValidatorScope scope, SqlCall call) {
            return derived(v, call, super.deriveType(v, scope, call), this);
        }
    }

    private static final class MinMax extends SqlMinMaxAggFunction implements Nullable {
        MinMax(String name, SqlKind kind, org.apache.calcite.sql.type.SqlOperandTypeChecker checker) {
            super(name, kind, checker);
        }

        @Override
        public RelDataType inferReturnType(SqlOperatorBinding b) {
            return nullable(b, super.inferReturnType(b));
        }

        @Override
        public RelDataType deriveType(SqlValidator v, SqlValidatorScope scope, SqlCall call) {
            return derived(v, call, super.deriveType(v, scope, call), this);
        }
    }
}
