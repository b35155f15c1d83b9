package io.tessera.sql;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.StructField;
import io.tessera.storage.Table;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Util;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * DuckDB's {@code SELECT unnest(s) FROM t} of a STRUCT column {@code s}: the struct's fields as columns of their
 * own, {@code s.a AS a, s.b AS b}, before {@link Unnests} makes the unnests of lists joins. Only a column of a table
 * the SELECT's FROM names (a stored table or a file in FROM) is known to be a struct here, before validation; an
 * unnest of another struct expression is left to the validator, which refuses it.
 */
final class StructUnnests {
    private StructUnnests() {
    }

    /** The statement with each SELECT-list unnest of a struct column expanded; {@code tables} by name. */
    static SqlNode rewrite(SqlNode parsed, Map<String, Table> tables) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (visited instanceof SqlSelect select && select.getSelectList() != null) {
                    expand(select, tables);
                }
                return visited;
            }
        });
        return r == null ? parsed : r;
    }

    private static void expand(SqlSelect select, Map<String, Table> tables) {
        List<SqlNode> items = new ArrayList<>();
        boolean changed = false;
        for (SqlNode item : select.getSelectList()) {
            if (item instanceof SqlBasicCall c && c.getOperator().getName().equalsIgnoreCase("UNNEST")
                    && c.getKind() != SqlKind.UNNEST && c.operandCount() == 1
                    && c.operand(0) instanceof SqlIdentifier id && !id.isStar()) {
                DataType type = columnType(select.getFrom(), id, tables);
                if (type != null && type.isStruct() && !type.isUnnamedStruct()) {
                    for (StructField f : type.fields()) {
                        List<String> names = new ArrayList<>(id.names);
                        names.add(f.name());
                        SqlIdentifier field = new SqlIdentifier(names, c.getParserPosition());
                        items.add(SqlStdOperatorTable.AS.createCall(c.getParserPosition(), field,
                                new SqlIdentifier(f.name(), c.getParserPosition())));
                    }
                    changed = true;
                    continue;
                }
            }
            items.add(item);
        }
        if (changed) {
            select.setSelectList(new SqlNodeList(items, select.getSelectList().getParserPosition()));
        }
    }

    /** The type of the column {@code id} names among the tables of {@code from}; null where unknown. */
    private static DataType columnType(SqlNode from, SqlIdentifier id, Map<String, Table> tables) {
        if (from == null || id.names.size() > 2) {
            return null;
        }
        if (from instanceof SqlJoin join) {
            DataType left = columnType(join.getLeft(), id, tables);
            return left != null ? left : columnType(join.getRight(), id, tables);
        }
        SqlNode table = from;
        String alias = null;
        if (from.getKind() == SqlKind.AS) {
            table = ((SqlCall) from).operand(0);
            alias = ((SqlIdentifier) ((SqlCall) from).operand(1)).getSimple();
        }
        if (!(table instanceof SqlIdentifier name) || !name.isSimple()) {
            return null;
        }
        Table t = tables.get(name.getSimple().toLowerCase(java.util.Locale.ROOT));
        if (t == null) {
            return null;
        }
        if (id.names.size() == 2 && !id.names.get(0).equalsIgnoreCase(alias != null ? alias : name.getSimple())) {
            return null;
        }
        for (ColumnSchema c : t.schema().columns()) {
            if (c.name().equalsIgnoreCase(Util.last(id.names))) {
                return c.type();
            }
        }
        return null;
    }
}
