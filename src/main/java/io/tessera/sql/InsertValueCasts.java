package io.tessera.sql;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;

/**
 * An INSERT's VALUES rows read as the types of the columns they go to, as DuckDB casts each value to its column's
 * type: Calcite would first need one type for each column of the rows, which values of different types (text and a
 * TIMESTAMP, a BOOLEAN and an INTEGER, a DATE and text) do not have, so the values are given the column's type in the
 * rows themselves, before validation. Text and NULL in a column of INTERVAL, UUID or BLOB are read as that type in
 * every statement ({@code INSERT INTO t VALUES (1, '1 day'), (2, NULL)}); in a statement of several rows every value
 * of a column of a scalar type is cast to it ({@code INSERT INTO t VALUES (1, '2024-01-01 10:00'), (2, now())}), as a
 * CAST reads it (1.5 into an INTEGER is 2, 'x' into one an error naming the text). Rows of different lengths are
 * refused with their position, as DuckDB refuses them.
 */
final class InsertValueCasts {
    private InsertValueCasts() {
    }

    static SqlNode rewrite(SqlNode node, Database db) {
        if (!(node instanceof SqlInsert insert) || db == null || insert.getSource().getKind() != SqlKind.VALUES
                || !(insert.getTargetTable() instanceof SqlIdentifier name)) {
            return node;
        }
        Table table = find(db, name.names.get(name.names.size() - 1));
        if (table == null) {
            return node; // the validator names it
        }
        List<DataType> types = targetTypes(table, insert.getTargetColumnList());
        if (types == null) {
            return node;
        }
        List<SqlNode> rows = ((SqlCall) insert.getSource()).getOperandList();
        checkLengths(rows);
        boolean several = rows.size() > 1;
        for (SqlNode row : rows) {
            if (!(row instanceof SqlBasicCall r) || r.getKind() != SqlKind.ROW) {
                continue;
            }
            for (int i = 0; i < r.operandCount() && i < types.size(); i++) {
                SqlNode read = readAs(r.operand(i), types.get(i));
                if (read == null && several) {
                    read = castToScalar(r.operand(i), types.get(i));
                }
                if (read != null) {
                    r.setOperand(i, read);
                }
            }
        }
        return node;
    }

    /** DuckDB's refusal of VALUES rows of different lengths, at the first row that differs from the first. */
    private static void checkLengths(List<SqlNode> rows) {
        int expected = -1;
        for (SqlNode row : rows) {
            if (!(row instanceof SqlBasicCall r) || r.getKind() != SqlKind.ROW) {
                return;
            }
            if (expected < 0) {
                expected = r.operandCount();
            } else if (r.operandCount() != expected) {
                throw new SqlError("VALUES lists must all be the same length, expected " + expected
                        + " entries but found a list with " + r.operandCount() + " entries"
                        + SupportCheck.at(r.getParserPosition()));
            }
        }
    }

    /**
     * The value cast to a column of a scalar type (numbers, text, dates, times, BOOLEAN); null for DEFAULT and for
     * the nested types and the string forms {@link #readAs} reads, whose values Calcite types without a cast.
     */
    private static SqlNode castToScalar(SqlNode value, DataType type) {
        if (value.getKind() == SqlKind.DEFAULT || type.isList() || type.isStruct() || type.isInterval()
                || type.isUuid() || type.isBlob()) {
            return null;
        }
        SqlDataTypeSpec spec = ColumnTypes.spec(type);
        return spec == null ? null : SqlStdOperatorTable.CAST.createCall(value.getParserPosition(), value, spec);
    }

    /** The types of the columns the rows' values go to, in order; null where a name is not the table's. */
    private static List<DataType> targetTypes(Table table, SqlNodeList columns) {
        List<DataType> types = new ArrayList<>();
        if (columns == null) {
            for (ColumnSchema c : table.schema().columns()) {
                types.add(c.type());
            }
            return types;
        }
        for (SqlNode n : columns) {
            ColumnSchema c = n instanceof SqlIdentifier id && id.isSimple() ? column(table, id.getSimple()) : null;
            if (c == null) {
                return null;
            }
            types.add(c.type());
        }
        return types;
    }

    /**
     * Text or NULL read as an INTERVAL, UUID or BLOB, and the empty list {@code []} as an empty list of the column's
     * type (alone it is an INTEGER[], which would make the rows' common type one that a NULL or another {@code []}
     * beside it cannot leave); null where the value or the type is no such case.
     */
    private static SqlNode readAs(SqlNode value, DataType type) {
        if (type.isList() && value instanceof SqlCall c && c.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR
                && c.operandCount() == 0) {
            SqlDataTypeSpec spec = ColumnTypes.spec(type);
            return spec == null ? null : SqlStdOperatorTable.CAST.createCall(value.getParserPosition(), value, spec);
        }
        boolean text = value instanceof SqlCharStringLiteral;
        boolean isNull = value instanceof SqlLiteral l && l.getTypeName() == SqlTypeName.NULL;
        if (!text && !isNull || !type.isInterval() && !type.isUuid() && !type.isBlob()) {
            return null;
        }
        SqlParserPos pos = value.getParserPosition();
        if (type.isInterval()) { // as 'text'::INTERVAL reads it; a NULL as text first
            return TimestampFunctions.INTERVAL_LITERAL.createCall(pos, isNull ? cast(value, SqlTypeName.VARCHAR, pos)
                    : value);
        }
        return cast(value, type.isUuid() ? SqlTypeName.UUID : SqlTypeName.VARBINARY, pos);
    }

    private static SqlNode cast(SqlNode value, SqlTypeName to, SqlParserPos pos) {
        return SqlStdOperatorTable.CAST.createCall(pos, value,
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(to, pos), pos));
    }

    private static Table find(Database db, String name) {
        for (Table t : db.tables()) {
            if (t.name().equalsIgnoreCase(name)) {
                return t;
            }
        }
        return null;
    }

    private static ColumnSchema column(Table table, String name) {
        for (ColumnSchema c : table.schema().columns()) {
            if (c.name().equalsIgnoreCase(name)) {
                return c;
            }
        }
        return null;
    }
}
