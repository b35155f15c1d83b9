package io.tessera.sql;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.TableKey;
import io.tessera.storage.TableSchema;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.List;

/**
 * The values {@code INSERT ... ON CONFLICT (key) DO UPDATE SET column = expression, ... [WHERE condition]} gives the
 * stored rows it updates, as one query: the stored table (named as the table, as DuckDB binds {@code t.v}) joined
 * on the key with the rows the INSERT would insert, named {@code excluded}; per joined row the key's values, each SET
 * value cast to its column's type, and whether the condition holds. A name without a table in the expressions is
 * the stored row's column, as in DuckDB. Built as a tree from the parsed statement, never as text.
 */
public final class ConflictUpdates {

    private static final SqlParserPos POS = SqlParserPos.ZERO;

    /** The query, and the positions in the table of the columns SET assigns, in the query's order after the key. */
    public record Update(SqlNode query, int[] columns) {
    }

    private ConflictUpdates() {
    }

    /**
     * {@code insertColumns}: the table's columns the INSERT's source gives, in its order (the others are NULL);
     * {@code key}: the conflict target.
     */
    public static Update query(String sql, TableSchema schema, List<String> insertColumns, TableKey key) {
        InsertClauses insert = (InsertClauses) SqlFrontEnd.parse(sql);
        InsertClauses.Conflict conflict = insert.conflict();
        String table = schema.name();
        int[] assigned = new int[conflict.columns().size()];
        SqlNodeList select = new SqlNodeList(POS);
        for (String k : key.columns()) {
            select.add(new SqlIdentifier(List.of(table, k), POS));
        }
        for (int i = 0; i < assigned.length; i++) {
            SqlIdentifier column = (SqlIdentifier) conflict.columns().get(i);
            int c = schema.indexOf(column.getSimple());
            if (c < 0) {
                throw new SqlError("ON CONFLICT DO UPDATE: table " + table + " has no column " + column.getSimple()
                        + SupportCheck.at(column.getParserPosition()));
            }
            if (key.has(column.getSimple())) {
                throw new SqlError("ON CONFLICT DO UPDATE cannot change column " + column.getSimple()
                        + " of the conflict's key" + SupportCheck.at(column.getParserPosition()));
            }
            for (int j = 0; j < i; j++) {
                if (assigned[j] == c) {
                    throw new SqlError("ON CONFLICT DO UPDATE: column " + column.getSimple() + " is assigned twice"
                            + SupportCheck.at(column.getParserPosition()));
                }
            }
            assigned[i] = c;
            SqlNode value = conflict.values().get(i).accept(new StoredColumns(schema));
            select.add(SqlStdOperatorTable.CAST.createCall(POS, value,
                    DataChangeQueries.typeSpec(schema.columns().get(c).type())));
        }
        select.add(conflict.condition() == null ? SqlLiteral.createBoolean(true, POS)
                : SqlStdOperatorTable.IS_TRUE.createCall(POS, conflict.condition().accept(new StoredColumns(schema))));
        SqlNode on = null;
        for (String k : key.columns()) {
            SqlNode eq = SqlStdOperatorTable.EQUALS.createCall(POS, new SqlIdentifier(List.of(table, k), POS),
                    new SqlIdentifier(List.of("excluded", k), POS));
            on = on == null ? eq : SqlStdOperatorTable.AND.createCall(POS, on, eq);
        }
        SqlNode join = new org.apache.calcite.sql.SqlJoin(POS, new SqlIdentifier(table, POS),
                SqlLiteral.createBoolean(false, POS), org.apache.calcite.sql.JoinType.INNER.symbol(POS),
                as(excluded(insert.getSource(), schema, insertColumns), "excluded", List.of()),
                org.apache.calcite.sql.JoinConditionType.ON.symbol(POS), on);
        return new Update(new SqlSelect(POS, null, select, join, null, null, null, null, null, null, null, null, null),
                assigned);
    }

    /**
     * The rows the INSERT's source gives as the table's rows: {@code SELECT CAST(x.c AS type) ..., CAST(NULL AS
     * type) ... FROM (source) AS x(columns)}, a column the source does not give NULL.
     */
    private static SqlNode excluded(SqlNode source, TableSchema schema, List<String> insertColumns) {
        SqlNodeList select = new SqlNodeList(POS);
        for (ColumnSchema c : schema.columns()) {
            boolean given = insertColumns.stream().anyMatch(c.name()::equalsIgnoreCase);
            SqlNode value = given ? new SqlIdentifier(List.of("x", c.name()), POS) : SqlLiteral.createNull(POS);
            select.add(as(SqlStdOperatorTable.CAST.createCall(POS, value, DataChangeQueries.typeSpec(c.type())),
                    c.name(), List.of()));
        }
        SqlNode from = as(source, "x", insertColumns);
        return new SqlSelect(POS, null, select, from, null, null, null, null, null, null, null, null, null);
    }

    private static SqlNode as(SqlNode node, String name, List<String> columns) {
        List<SqlNode> operands = new ArrayList<>();
        operands.add(node);
        operands.add(new SqlIdentifier(name, POS));
        columns.forEach(c -> operands.add(new SqlIdentifier(c, POS)));
        return SqlStdOperatorTable.AS.createCall(POS, operands);
    }

    /** A name alone that is one of the table's columns, qualified with the table's name: the stored row's. */
    private static final class StoredColumns extends SqlShuttle {

        private final TableSchema schema;

        StoredColumns(TableSchema schema) {
            this.schema = schema;
        }

        @Override
        public SqlNode visit(SqlIdentifier id) {
            if (id.isSimple() && schema.indexOf(id.getSimple()) >= 0) {
                return new SqlIdentifier(List.of(schema.name(), id.getSimple()), id.getParserPosition());
            }
            return id;
        }
    }
}
