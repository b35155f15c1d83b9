package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;

/**
 * Rows of the catalog (information_schema's views, DuckDB's duckdb_tables() and the like) as the relation a statement
 * reads in their place: {@code (VALUES ...) AS alias (columns)}, each value a constant of its column's type
 * (VARCHAR, INTEGER, BIGINT or BOOLEAN; a NULL typed as its column).
 */
record CatalogRelation(List<String> columns, List<SqlTypeName> types, List<List<Object>> rows) {

    /** The relation under {@code alias}; without rows, one row of NULLs filtered out. */
    SqlNode as(SqlIdentifier alias, SqlParserPos pos) {
        List<SqlNode> operands = new ArrayList<>();
        operands.add(rows.isEmpty() ? noRows(pos) : values(rows, pos));
        operands.add(alias);
        for (String c : columns) {
            operands.add(new SqlIdentifier(c, pos));
        }
        return SqlStdOperatorTable.AS.createCall(pos, operands);
    }

    private SqlNode values(List<List<Object>> of, SqlParserPos pos) {
        List<SqlNode> out = new ArrayList<>();
        for (List<Object> row : of) {
            List<SqlNode> values = new ArrayList<>();
            for (int i = 0; i < row.size(); i++) {
                values.add(value(row.get(i), types.get(i), pos));
            }
            out.add(SqlStdOperatorTable.ROW.createCall(pos, values));
        }
        return SqlStdOperatorTable.VALUES.createCall(pos, out);
    }

    private static SqlNode value(Object v, SqlTypeName type, SqlParserPos pos) {
        SqlNode literal = switch (v) {
            case null -> SqlLiteral.createNull(pos);
            case Boolean b -> SqlLiteral.createBoolean(b, pos);
            case Number n -> SqlLiteral.createExactNumeric(Long.toString(n.longValue()), pos);
            default -> SqlLiteral.createCharString(v.toString(), "UTF8", pos);
        };
        return SqlStdOperatorTable.CAST.createCall(pos, literal,
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(type, pos), pos));
    }

    private SqlNode noRows(SqlParserPos pos) {
        List<Object> nulls = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            nulls.add(null);
        }
        List<SqlNode> as = new ArrayList<>();
        as.add(values(List.of(nulls), pos));
        as.add(new SqlIdentifier("none", pos));
        for (String c : columns) {
            as.add(new SqlIdentifier(c, pos));
        }
        return new SqlSelect(pos, null, SqlNodeList.of(SqlIdentifier.star(pos)),
                SqlStdOperatorTable.AS.createCall(pos, as), SqlLiteral.createBoolean(false, pos), null, null, null,
                null, null, null, null, null);
    }
}
