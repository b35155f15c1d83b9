package io.tessera.sql;

import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * DuckDB's {@code l ASOF [LEFT] JOIN r ON equalities AND l.x >= r.y} (or {@code >}, {@code <=}, {@code <}; the
 * sides either way round; {@code USING (k, ..., x)}: equal keys, the last column {@code l.x >= r.x}): each left row
 * joined with the one right row that meets the condition and whose {@code r.y} is nearest ({@code >=} and {@code >}:
 * the greatest, {@code <=} and {@code <}: the least); LEFT keeps a left row nothing meets, with NULLs. Which of
 * several right rows of the same {@code r.y} is unspecified, as in DuckDB. Rewritten as the LATERAL top-1
 * {@code l [LEFT] JOIN LATERAL (SELECT * FROM r WHERE condition ORDER BY r.y DESC LIMIT 1) AS r ON TRUE}, which keeps
 * the right side's name; the decorrelated plan joins the right rows of a key with each distinct left key and keeps
 * the best per left key, so its work grows with the product of the two sides' rows of one key.
 */
final class AsofJoins {

    private AsofJoins() {
    }

    static SqlNode rewrite(SqlNode statement) {
        List<SqlJoin> joins = new ArrayList<>();
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlJoin join && DuckDbJoin.kindOf(join) != null
                        && DuckDbJoin.kindOf(join) != DuckDbJoin.Kind.POSITIONAL) {
                    joins.add(join);
                }
                return super.visit(call);
            }
        });
        for (SqlJoin join : joins) {
            rewrite(join);
        }
        return statement;
    }

    private static void rewrite(SqlJoin join) {
        DuckDbJoin.Kind kind = DuckDbJoin.kindOf(join);
        SqlParserPos pos = join.getJoinTypeNode().getParserPosition();
        if (kind == DuckDbJoin.Kind.ASOF_RIGHT || kind == DuckDbJoin.Kind.ASOF_FULL) {
            throw new SqlError("unsupported: " + kind.words + SupportCheck.at(pos) + " (ASOF JOIN and ASOF LEFT JOIN "
                    + "are supported)");
        }
        if (join.isNatural()) {
            throw new SqlError("unsupported: NATURAL " + kind.words + SupportCheck.at(pos)
                    + " (name the columns with USING or ON)");
        }
        SqlNode right = join.getRight();
        String rightName = name(right);
        if (rightName == null) {
            throw new SqlError("unsupported: " + kind.words + " to a table without a name" + SupportCheck.at(pos)
                    + " (give the right side an alias)");
        }
        List<SqlNode> conditions = new ArrayList<>();
        List<SqlIdentifier> usingColumns = List.of();
        switch (join.getConditionType()) {
            case ON -> conjuncts(join.getCondition(), conditions);
            case USING -> {
                String leftName = name(join.getLeft());
                if (leftName == null) {
                    throw new SqlError("unsupported: " + kind.words + " USING after a join or a table without a name"
                            + SupportCheck.at(pos) + " (write the condition with ON)");
                }
                usingColumns = new ArrayList<>();
                List<SqlNode> columns = ((SqlNodeList) join.getCondition()).getList();
                for (int i = 0; i < columns.size(); i++) {
                    SqlIdentifier column = (SqlIdentifier) columns.get(i);
                    usingColumns.add(column);
                    SqlParserPos at = column.getParserPosition();
                    SqlNode l = new SqlIdentifier(List.of(leftName, column.getSimple()), at);
                    SqlNode r = new SqlIdentifier(List.of(rightName, column.getSimple()), at);
                    conditions.add(i < columns.size() - 1 ? SqlStdOperatorTable.EQUALS.createCall(at, l, r)
                            : SqlStdOperatorTable.GREATER_THAN_OR_EQUAL.createCall(at, l, r));
                }
            }
            default -> throw new SqlError(kind.words + " requires a condition (ON or USING)" + SupportCheck.at(pos));
        }
        SqlNode order = null;
        SqlCall inequality = null;
        for (SqlNode c : conditions) {
            if (!isInequality(c)) {
                continue;
            }
            SqlCall call = (SqlCall) c;
            if (inequality != null) {
                throw new SqlError("Multiple ASOF JOIN inequalities" + SupportCheck.at(c.getParserPosition())
                        + " (the condition may compare the tables with one of >=, >, <=, < once)");
            }
            inequality = call;
            order = nearestFirst(call, rightName);
        }
        if (inequality == null) {
            throw new SqlError("Missing ASOF JOIN inequality" + SupportCheck.at(pos)
                    + " (the condition compares the tables with one of >=, >, <=, <)");
        }
        SqlParserPos at = right.getParserPosition();
        SqlNode star = SqlIdentifier.star(at);
        if (!usingColumns.isEmpty()) {
            star = new AllColumns.ModifiedStar((SqlIdentifier) star, usingColumns, at); // USING's columns: the left's
        }
        SqlNode where = conditions.size() == 1 ? conditions.getFirst()
                : SqlStdOperatorTable.AND.createCall(at, conditions);
        SqlSelect nearest = new SqlSelect(at, null, SqlNodeList.of(star), right, where, null, null, null, null,
                SqlNodeList.of(order), null, SqlLiteral.createExactNumeric("1", at), null);
        SqlNode lateral = SqlStdOperatorTable.LATERAL.createCall(at, nearest);
        join.setRight(SqlStdOperatorTable.AS.createCall(at, lateral, new SqlIdentifier(rightName, at)));
        join.setOperand(2, (kind == DuckDbJoin.Kind.ASOF_LEFT ? JoinType.LEFT : JoinType.INNER).symbol(pos));
        join.setOperand(4, JoinConditionType.ON.symbol(pos));
        join.setOperand(5, SqlLiteral.createBoolean(true, pos));
    }

    /** The name a FROM item gives its rows (a table's, an alias), or null (a join, a subquery without alias). */
    static String name(SqlNode item) {
        if (item.getKind() == SqlKind.AS) {
            return ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple();
        }
        if (item instanceof SqlIdentifier id && !id.isStar()) {
            return id.names.getLast();
        }
        return null;
    }

    private static void conjuncts(SqlNode condition, List<SqlNode> into) {
        if (condition.getKind() == SqlKind.AND) {
            for (SqlNode operand : ((SqlCall) condition).getOperandList()) {
                conjuncts(operand, into);
            }
        } else {
            into.add(condition);
        }
    }

    private static boolean isInequality(SqlNode c) {
        return c instanceof SqlBasicCall && switch (c.getKind()) {
            case GREATER_THAN, GREATER_THAN_OR_EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL -> true;
            default -> false;
        };
    }

    /**
     * The ORDER BY item that puts the right row nearest the left one first: the right side's operand of the
     * inequality, descending where the left side's value is the greater one ({@code l.x >= r.y}).
     */
    private static SqlNode nearestFirst(SqlCall inequality, String rightName) {
        SqlNode a = inequality.operand(0);
        SqlNode b = inequality.operand(1);
        boolean aRight = names(a, rightName);
        boolean bRight = names(b, rightName);
        if (aRight == bRight) {
            boolean aOther = namesOther(a, rightName);
            boolean bOther = namesOther(b, rightName);
            if (aOther != bOther) {
                aRight = !aOther;
                bRight = !bOther;
            }
        }
        if (aRight == bRight) {
            throw new SqlError("unsupported: an ASOF JOIN inequality whose sides are not told apart by their tables' "
                    + "names" + SupportCheck.at(inequality.getParserPosition())
                    + " (qualify the right table's column with its name, " + rightName + ")");
        }
        SqlNode key = aRight ? a : b;
        boolean leftGreater = switch (inequality.getKind()) {
            case GREATER_THAN, GREATER_THAN_OR_EQUAL -> bRight;
            default -> aRight;
        };
        return leftGreater ? SqlStdOperatorTable.DESC.createCall(key.getParserPosition(), key) : key;
    }

    /** Whether {@code e} names a column through the table name {@code table}. */
    private static boolean names(SqlNode e, String table) {
        return qualifiers(e).stream().anyMatch(q -> q.equals(table.toLowerCase(Locale.ROOT)));
    }

    /** Whether {@code e} names a column through a table name other than {@code table}. */
    private static boolean namesOther(SqlNode e, String table) {
        return qualifiers(e).stream().anyMatch(q -> !q.equals(table.toLowerCase(Locale.ROOT)));
    }

    /** The table names before the column names of {@code e}'s qualified column references, in lower case. */
    private static List<String> qualifiers(SqlNode e) {
        List<String> found = new ArrayList<>();
        e.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                if (id.names.size() >= 2) {
                    found.add(id.names.get(id.names.size() - 2).toLowerCase(Locale.ROOT));
                }
                return null;
            }

            @Override
            public Void visit(SqlCall call) {
                return SqlKind.QUERY.contains(call.getKind()) ? null : super.visit(call);
            }
        });
        return found;
    }
}
