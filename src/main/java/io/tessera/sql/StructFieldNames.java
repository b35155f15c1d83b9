package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import java.util.List;
import java.util.Map;

/**
 * A dotted name read as DuckDB reads it: first as table.column, then as column.field. Calcite reads {@code r.a} as a
 * field of column {@code r} only where r's STRUCT type lets its fields be peeked at (a stored column's does, a
 * UNION's or a CAST's does not), and else refuses it ("Table 'r' not found"). Before a SELECT is validated, each name
 * of its own clauses whose first part is no table in scope (or a table without a column of the second part's name)
 * but the column of exactly one table (of this SELECT or an enclosing one) gets that table's name in front
 * ({@code r.a} becomes {@code t.r.a}), which Calcite reads as the field. A first part that names a table with such a
 * column keeps its meaning; subqueries are qualified when they are validated.
 */
final class StructFieldNames {
    private StructFieldNames() {
    }

    /** Qualifies the names of {@code select}'s clauses (not of its subqueries) in its {@code scope}. */
    static void qualify(SqlSelect select, SqlValidatorScope scope, SqlNameMatcher matcher) {
        if (scope == null) {
            return;
        }
        Qualifier q = new Qualifier(scope, matcher);
        select.setSelectList((SqlNodeList) visit(select.getSelectList(), q));
        select.setWhere(visit(select.getWhere(), q));
        select.setGroupBy((SqlNodeList) visit(select.getGroup(), q));
        select.setHaving(visit(select.getHaving(), q));
        select.setQualify(visit(select.getQualify(), q));
        select.setOrderBy((SqlNodeList) visit(select.getOrderList(), q));
        joinConditions(select.getFrom(), q);
    }

    private static SqlNode visit(SqlNode node, Qualifier q) {
        return node == null ? null : node.accept(q);
    }

    /** The ON conditions of the joins in a FROM clause. */
    private static void joinConditions(SqlNode from, Qualifier q) {
        if (from instanceof SqlJoin join) {
            joinConditions(join.getLeft(), q);
            joinConditions(join.getRight(), q);
            if (join.getCondition() != null) {
                join.setOperand(5, join.getCondition().accept(q));
            }
        }
    }

    private static final class Qualifier extends SqlShuttle {
        private final SqlValidatorScope scope;
        private final SqlNameMatcher matcher;

        Qualifier(SqlValidatorScope scope, SqlNameMatcher matcher) {
            this.scope = scope;
            this.matcher = matcher;
        }

        @Override
        public SqlNode visit(SqlIdentifier id) {
            if (id.names.size() < 2 || id.isStar()) {
                return id;
            }
            String first = id.names.get(0);
            SqlValidatorScope.ResolvedImpl table = new SqlValidatorScope.ResolvedImpl();
            scope.resolve(List.of(first), matcher, false, table);
            if (table.count() > 0 && (table.count() > 1
                    || matcher.field(table.only().rowType(), id.names.get(1)) != null)) {
                return id; // table.column (or table.column.field), as before
            }
            Map<String, ?> owners = scope.findQualifyingTableNames(first, id, matcher);
            if (owners.size() != 1) {
                return id; // no column of that name (a schema's name, or an error Calcite reports), or ambiguous
            }
            return id.add(0, owners.keySet().iterator().next(), SqlParserPos.ZERO);
        }

        @Override
        public SqlNode visit(SqlCall call) {
            if (SqlKind.QUERY.contains(call.getKind())) {
                return call; // a subquery's names are its own, qualified when it is validated
            }
            return super.visit(call);
        }
    }
}
