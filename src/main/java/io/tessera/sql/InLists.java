package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code x [NOT] IN (v1, ..., vn)} lists that Calcite's IN cannot type, written as the equalities they stand for:
 * where {@code x} or a value is not a constant (a STRUCT or LIST constructor, a column), as {@code x = v1 OR ...},
 * since Calcite reads an IN whose operand is a ROW (a STRUCT) as a comparison of rows field by field; and a NULL in
 * the list as a NULL term ({@code x IN (1, NULL)} is {@code x IN (1) OR NULL}, true where {@code x} is 1, else
 * NULL, as DuckDB and the standard answer). A list of constants without NULL stays an IN.
 */
final class InLists {
    private InLists() {
    }

    static SqlNode rewrite(SqlNode node) {
        SqlNode r = node.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlKind k = call.getKind();
                if ((k == SqlKind.IN || k == SqlKind.NOT_IN) && call.operand(1) instanceof SqlNodeList values) {
                    SqlNode x = call.operand(0).accept(this);
                    List<SqlNode> rest = new ArrayList<>();
                    for (SqlNode v : values) {
                        rest.add(v.accept(this));
                    }
                    return equalities(call, x, rest, k == SqlKind.NOT_IN);
                }
                return super.visit(call);
            }
        });
        return r == null ? node : r;
    }

    private static SqlNode equalities(SqlCall in, SqlNode x, List<SqlNode> values, boolean not) {
        SqlParserPos pos = in.getParserPosition();
        List<SqlNode> present = values.stream().filter(v -> !isNull(v)).toList();
        boolean hasNull = present.size() < values.size();
        if (isNull(x)) {
            return nullBoolean(pos); // NULL IN (...) is NULL whatever the list holds
        }
        boolean constants = !constructor(x) && present.stream().allMatch(InLists::constant);
        if (constants && !hasNull) {
            return in.getOperator().createCall(pos, x, new SqlNodeList(values, in.operand(1).getParserPosition()));
        }
        List<SqlNode> terms = new ArrayList<>();
        if (constants && !present.isEmpty()) {
            terms.add(SqlStdOperatorTable.IN.createCall(pos, x, new SqlNodeList(present, pos)));
        } else if (!constants) {
            for (SqlNode v : present) {
                terms.add(SqlStdOperatorTable.EQUALS.createCall(pos, x, v));
            }
        }
        if (terms.isEmpty()) {
            // only NULLs: NULL for every x (x still named, so that it is checked)
            return new SqlCase(pos, null, SqlNodeList.of(SqlStdOperatorTable.IS_NULL.createCall(pos, x)),
                    SqlNodeList.of(nullBoolean(pos)), nullBoolean(pos));
        }
        if (hasNull) {
            terms.add(nullBoolean(pos));
        }
        SqlNode or = terms.get(0);
        for (int i = 1; i < terms.size(); i++) {
            or = SqlStdOperatorTable.OR.createCall(pos, or, terms.get(i));
        }
        return not ? SqlStdOperatorTable.NOT.createCall(pos, or) : or;
    }

    private static SqlNode nullBoolean(SqlParserPos pos) {
        return SqlStdOperatorTable.CAST.createCall(pos, SqlLiteral.createNull(pos),
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.BOOLEAN, pos), pos));
    }

    private static boolean isNull(SqlNode v) {
        return v instanceof SqlLiteral l && l.getTypeName() == SqlTypeName.NULL;
    }

    /** A constant an IN list of Calcite's holds: a literal, a parameter, a sign or a CAST of one. */
    private static boolean constant(SqlNode v) {
        if (v instanceof SqlLiteral || v instanceof SqlDynamicParam) {
            return true;
        }
        return v instanceof SqlCall c && (c.getKind() == SqlKind.MINUS_PREFIX || c.getKind() == SqlKind.PLUS_PREFIX
                || c.getKind() == SqlKind.CAST) && constant(c.operand(0));
    }

    /** Whether {@code v} makes a STRUCT or a LIST ({@code {'a': 1}}, {@code row(1, 2)}, {@code [1, 2]}). */
    private static boolean constructor(SqlNode v) {
        if (!(v instanceof SqlCall c)) {
            return false;
        }
        return c.getKind() == SqlKind.ROW || c.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR
                || c.getOperator() == StructOperators.STRUCT_PACK
                || c.getOperator().getName().equalsIgnoreCase("LIST_VALUE");
    }
}
