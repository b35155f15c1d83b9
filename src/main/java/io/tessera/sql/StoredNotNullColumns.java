package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SelectScope;
import org.apache.calcite.sql.validate.SqlQualified;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorTable;

import java.util.List;

/**
 * Which result columns of a query DESCRIBE calls NOT NULL, as DuckDB decides it, read from the validated query (the
 * plan has lost what decides it): a column of the SELECT list that is a column reference (under an alias or not) of
 * a SELECT without GROUP BY, aggregates or window functions (DISTINCT, WHERE, ORDER BY and LIMIT keep it), to a
 * stored table's column declared NOT NULL, or to such a column of a subquery or a view in FROM (of any join's side, as
 * DuckDB follows them). Everything else may be NULL, as DuckDB says, even where Calcite's type says none is: a
 * constant, any other expression, an aggregate's value, a group key, a column of a set operation, of VALUES or of a
 * WITH query, and every column of a table made by CREATE TABLE AS.
 */
public final class StoredNotNullColumns {

    private StoredNotNullColumns() {
    }

    /** Per result column of the validated query {@code validated}, whether it is such a column. */
    public static boolean[] of(SqlValidator validator, SqlNode validated) {
        boolean[] out = new boolean[validator.getValidatedNodeType(validated).getFieldCount()];
        try {
            for (int i = 0; i < out.length; i++) {
                out[i] = column(validator, validated, i);
            }
        } catch (RuntimeException e) {
            java.util.Arrays.fill(out, false); // a shape the validator resolves otherwise: may be NULL
        }
        return out;
    }

    private static boolean column(SqlValidator validator, SqlNode query, int column) {
        return switch (query) {
            case SqlOrderBy o -> column(validator, o.query, column);
            case SqlWith w -> column(validator, w.body, column);
            case SqlSelect s -> selected(validator, s, column);
            default -> false; // a set operation, VALUES, ...
        };
    }

    private static boolean selected(SqlValidator validator, SqlSelect select, int column) {
        if (validator.isAggregate(select) || select.getGroup() != null && !select.getGroup().isEmpty()
                || select.getQualify() != null || holdsWindow(select.getSelectList())) {
            return false; // DuckDB's aggregate and window operators give new columns, which it calls nullable
        }
        SelectScope scope = validator.getRawSelectScope(select);
        List<SqlNode> items = scope != null && scope.getExpandedSelectList() != null ? scope.getExpandedSelectList()
                : select.getSelectList();
        SqlNode item = items.get(column);
        if (item.getKind() == SqlKind.AS) {
            item = ((SqlCall) item).operand(0);
        }
        if (item.getKind() == SqlKind.COALESCE) {
            item = usingColumn(select, (SqlCall) item);
        }
        if (!(item instanceof SqlIdentifier id)) {
            return false;
        }
        SqlQualified q = validator.getSelectScope(select).fullyQualify(id);
        return q.namespace != null && q.suffix().size() == 1 && fromItem(validator, q.namespace, q.suffix().get(0));
    }

    /** Whether the column {@code name} of a FROM item is such a column. */
    private static boolean fromItem(SqlValidator validator, SqlValidatorNamespace namespace, String name) {
        RelDataType row = namespace.getRowType();
        int index = row.getFieldNames().indexOf(name);
        if (index < 0) {
            return false;
        }
        SqlValidatorNamespace resolved = namespace.resolve();
        SqlNode node = resolved.getNode();
        if (node != null && node.getKind() == SqlKind.WITH_ITEM) {
            return false; // DuckDB's WITH query gives new columns
        }
        SqlValidatorTable table = resolved.getTable();
        if (table != null) {
            StoredView view = table.unwrap(StoredView.class);
            if (view != null) {
                return view.notNull(index);
            }
            return table.unwrap(CatalogTable.class) != null
                    && !resolved.getRowType().getFieldList().get(index).getType().isNullable();
        }
        if (node != null && node.getKind() == SqlKind.AS) {
            node = ((SqlCall) node).operand(0);
        }
        return node != null && (node instanceof SqlSelect || node instanceof SqlOrderBy || node instanceof SqlWith)
                && column(validator, node, index);
    }

    /**
     * The column a join's USING or NATURAL column is as DuckDB binds it, where the validator wrote it as the
     * COALESCE of both sides' columns: the left side's (the right side's for a RIGHT JOIN); null for a FULL JOIN's,
     * which DuckDB calls nullable, and for a COALESCE the query wrote.
     */
    private static SqlNode usingColumn(SqlSelect select, SqlCall coalesce) {
        List<JoinType> types = new java.util.ArrayList<>();
        collectUsingJoins(select.getFrom(), types);
        if (types.isEmpty() || types.contains(JoinType.FULL)
                || !coalesce.getOperandList().stream().allMatch(o -> o instanceof SqlIdentifier)) {
            return null;
        }
        return coalesce.operand(types.contains(JoinType.RIGHT) ? coalesce.operandCount() - 1 : 0);
    }

    private static void collectUsingJoins(SqlNode from, List<JoinType> types) {
        if (from instanceof SqlJoin j) {
            if (j.isNatural() || j.getConditionType() == JoinConditionType.USING) {
                types.add(j.getJoinType());
            }
            collectUsingJoins(j.getLeft(), types);
            collectUsingJoins(j.getRight(), types);
        }
    }

    private static boolean holdsWindow(SqlNodeList list) {
        boolean[] found = {false};
        list.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call.getKind() == SqlKind.OVER) {
                    found[0] = true;
                    return null;
                }
                return super.visit(call);
            }
        });
        return found[0];
    }
}
