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
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * DuckDB's {@code SELECT unnest(s) FROM t} of a STRUCT: the struct's fields as columns of their own, before
 * {@link Unnests} makes the unnests of lists joins. Of a struct column or a field of one ({@code s}, {@code t.s},
 * {@code s.sub}) of a table the SELECT's FROM names (a stored table or a file in FROM): {@code s.a AS a, s.b AS b};
 * of a struct the query builds ({@code {'a': x, 'b': y}}, {@code struct_pack(a := x, b := y)}, {@code row(x, y)}):
 * its values, {@code x AS a, y AS b}. An alias of the unnest names nothing, as in DuckDB. Only these are known to be
 * structs here, before validation; an unnest of another struct expression is left to the validator, which refuses
 * it.
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
            SqlNode unaliased = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
            if (unaliased instanceof SqlBasicCall c && c.getOperator().getName().equalsIgnoreCase("UNNEST")
                    && c.getKind() != SqlKind.UNNEST && c.operandCount() == 1) {
                List<SqlNode> fields = fields(c.operand(0), select.getFrom(), tables);
                if (fields != null) {
                    items.addAll(fields);
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

    /** The select items an unnest of {@code struct} stands for, each field named; null where not a known struct. */
    private static List<SqlNode> fields(SqlNode struct, SqlNode from, Map<String, Table> tables) {
        SqlParserPos pos = struct.getParserPosition();
        List<SqlNode> items = new ArrayList<>();
        if (struct instanceof SqlIdentifier id && !id.isStar()) {
            DataType type = columnType(from, id, tables);
            if (type == null || !type.isStruct() || type.isUnnamedStruct()) {
                return null;
            }
            for (StructField f : type.fields()) {
                List<String> names = new ArrayList<>(id.names);
                names.add(f.name());
                items.add(as(new SqlIdentifier(names, pos), f.name(), pos));
            }
            return items;
        }
        if (!(struct instanceof SqlCall call)) {
            return null;
        }
        String name = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
        if (call.getOperator() == StructOperators.STRUCT_PACK) { // {'a': x}: names and values alternating
            for (int k = 0; k + 1 < call.operandCount(); k += 2) {
                if (!(call.operand(k) instanceof SqlLiteral n)) {
                    return null;
                }
                items.add(as(call.operand(k + 1), n.getValueAs(String.class), pos));
            }
            return items;
        }
        if (name.equals("STRUCT_PACK")) { // struct_pack(a := x): StructPacks refuses any other form
            for (SqlNode o : call.getOperandList()) {
                if (o.getKind() != SqlKind.ARGUMENT_ASSIGNMENT
                        || !(((SqlCall) o).operand(1) instanceof SqlIdentifier n)) {
                    return null;
                }
                items.add(as(((SqlCall) o).operand(0), n.getSimple(), pos));
            }
            return items;
        }
        if (name.equals("ROW") && call.operandCount() > 0) { // row(x, y), (x, y): fields without names
            return new ArrayList<>(call.getOperandList());
        }
        return null;
    }

    private static SqlNode as(SqlNode value, String name, SqlParserPos pos) {
        return SqlStdOperatorTable.AS.createCall(pos, value, new SqlIdentifier(name, pos));
    }

    /**
     * The type of what {@code id} names among the tables of {@code from}: a column ({@code s} or {@code t.s}) or a
     * field of a struct column ({@code s.a.b}, {@code t.s.a}); null where unknown.
     */
    private static DataType columnType(SqlNode from, SqlIdentifier id, Map<String, Table> tables) {
        if (from == null) {
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
        // the first name a column, else the table's name and the second a column (as the validator prefers)
        DataType type = path(t, id.names, 0);
        if (type == null && id.names.size() > 1
                && id.names.get(0).equalsIgnoreCase(alias != null ? alias : name.getSimple())) {
            type = path(t, id.names, 1);
        }
        return type;
    }

    /** The type of the column {@code names[first]} of {@code t}, then of each field the names after it name. */
    private static DataType path(Table t, List<String> names, int first) {
        DataType type = null;
        for (ColumnSchema c : t.schema().columns()) {
            if (c.name().equalsIgnoreCase(names.get(first))) {
                type = c.type();
            }
        }
        for (int k = first + 1; k < names.size() && type != null; k++) {
            int position = type.isStruct() ? io.tessera.storage.StructCodec.position(type, names.get(k)) : 0;
            type = position > 0 ? type.fields().get(position - 1).type() : null;
        }
        return type;
    }
}
