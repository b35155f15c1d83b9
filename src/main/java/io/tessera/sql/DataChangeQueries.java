package io.tessera.sql;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.TableSchema;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * INSERT, UPDATE and DELETE as queries whose rows the engine writes: the rows to append (INSERT), or the table's
 * whole new content (UPDATE: the changed rows and the others; DELETE: the rows kept), which replaces it as a new
 * generation. Built as Calcite's own trees from the
 * parsed statement, never as text, so nothing the user wrote is read twice in another way.
 */
public final class DataChangeQueries {

    private static final SqlParserPos POS = SqlParserPos.ZERO;

    private DataChangeQueries() {
    }

    /**
     * The rows an INSERT appends, from Calcite's conversion of it (which checks the column list, puts NULL in the
     * columns it leaves out and refuses a type that cannot be assigned): its source, each column cast to the exact
     * type of the table's column, so every value is range-checked as a CAST is. Any other plan is returned as it is.
     */
    static RelNode rowsToInsert(RelNode rel) {
        if (!(rel instanceof TableModify modify) || !modify.isInsert()) {
            return rel;
        }
        RelNode source = modify.getInput();
        RexBuilder rex = source.getCluster().getRexBuilder();
        List<RelDataTypeField> target = modify.getTable().getRowType().getFieldList();
        List<RexNode> exprs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < target.size(); i++) {
            RexNode in = rex.makeInputRef(source, i);
            RelDataType type = rex.getTypeFactory().createTypeWithNullability(target.get(i).getType(),
                    in.getType().isNullable());
            // an INTERVAL of any unit is Tessera's one INTERVAL: a cast to the column's unit (DAY TO SECOND) would
            // fold INTERVAL 36 HOUR into 1 day 12 hours, which DuckDB keeps as 36:00:00
            boolean sameInterval = IntervalSyntax.isInterval(in.getType()) && IntervalSyntax.isInterval(type);
            exprs.add(in.getType().equals(type) || sameInterval ? in : rex.makeCast(type, in));
            names.add(target.get(i).getName());
        }
        return VolatileProjects.BUILDERS.create(source.getCluster(), null).push(source)
                .project(exprs, names, true).build();
    }

    /**
     * The two queries of an UPDATE, whose rows together are the table's new content: {@code changed}, the rows it
     * changes with their new values ({@code SELECT CASE ... CAST(expression AS type) ..., column, ... FROM table AS
     * alias WHERE condition}), and {@code kept}, the others ({@code WHERE (condition) IS NOT TRUE}; null without a
     * condition). Kept apart, a condition with a subquery filters as a WHERE does (a semi join), instead of being a
     * value computed for every row.
     */
    public record Update(SqlNode changed, SqlNode kept) {
    }

    public static Update update(String sql, TableSchema schema) {
        SqlUpdate update = (SqlUpdate) parse(sql);
        String alias = alias(update.getTargetTable(), update.getAlias());
        SqlNode[] values = new SqlNode[schema.columns().size()];
        Set<String> assigned = new HashSet<>();
        for (int i = 0; i < update.getTargetColumnList().size(); i++) {
            SqlIdentifier column = (SqlIdentifier) update.getTargetColumnList().get(i);
            String name = column.names.getLast();
            int c = schema.indexOf(name);
            if (c < 0) {
                throw new SqlError("UPDATE " + schema.name() + ": no column " + name + SupportCheck.at(
                        column.getParserPosition()));
            }
            if (!assigned.add(schema.columns().get(c).name())) {
                throw new SqlError("UPDATE " + schema.name() + ": column " + name + " is assigned twice"
                        + SupportCheck.at(column.getParserPosition()));
            }
            values[c] = update.getSourceExpressionList().get(i);
        }
        if (update instanceof UpdateClauses withFrom && withFrom.from() != null) {
            return updateFrom(withFrom, (UpdateClauses) parse(sql), alias, schema, values);
        }
        SqlNodeList columns = new SqlNodeList(POS);
        for (int c = 0; c < values.length; c++) {
            ColumnSchema col = schema.columns().get(c);
            SqlNode value = values[c] == null ? new SqlIdentifier(List.of(alias, col.name()), POS)
                    : SqlStdOperatorTable.CAST.createCall(POS, values[c], typeSpec(col.type()));
            columns.add(as(value, col.name()));
        }
        SqlNode changed = select(columns, as(update.getTargetTable(), alias), update.getCondition());
        if (update.getCondition() == null) {
            return new Update(changed, null);
        }
        SqlUpdate again = (SqlUpdate) parse(sql); // nodes of its own for the second query
        return new Update(changed, kept(again.getTargetTable(), alias, again.getCondition()));
    }

    /** The lateral subquery of an UPDATE ... FROM's new values, named so that no table of the FROM list is hidden. */
    private static final String NEW_VALUES = "tessera$new";

    /**
     * An UPDATE ... FROM: {@code changed} the table's rows the condition matches with a row of the FROM list, each with
     * the new values computed from the first such row ({@code SELECT ..., m.column, ... FROM table AS alias, LATERAL
     * (SELECT CAST(expression AS type) AS column, ... FROM from-list WHERE condition LIMIT 1) AS m}: PostgreSQL and
     * DuckDB take one matched row, which one unspecified), {@code kept} the others ({@code WHERE NOT EXISTS (SELECT 1
     * FROM from-list WHERE condition)}). {@code again}: the statement parsed a second time, nodes of its own.
     */
    private static Update updateFrom(UpdateClauses update, UpdateClauses again, String alias, TableSchema schema,
            SqlNode[] values) {
        SqlNodeList newValues = new SqlNodeList(POS);
        SqlNodeList columns = new SqlNodeList(POS);
        for (int c = 0; c < values.length; c++) {
            ColumnSchema col = schema.columns().get(c);
            if (values[c] == null) {
                columns.add(as(new SqlIdentifier(List.of(alias, col.name()), POS), col.name()));
            } else {
                newValues.add(as(SqlStdOperatorTable.CAST.createCall(POS, values[c], typeSpec(col.type())), col.name()));
                columns.add(as(new SqlIdentifier(List.of(NEW_VALUES, col.name()), POS), col.name()));
            }
        }
        SqlSelect matched = select(newValues, update.from(), update.getCondition());
        matched.setFetch(SqlLiteral.createExactNumeric("1", POS));
        SqlNode lateral = as(SqlStdOperatorTable.LATERAL.createCall(POS, matched), NEW_VALUES);
        SqlNode from = new SqlJoin(POS, as(update.getTargetTable(), alias), SqlLiteral.createBoolean(false, POS),
                JoinType.COMMA.symbol(POS), lateral, JoinConditionType.NONE.symbol(POS), null);
        return new Update(select(columns, from, null),
                unmatched(again.getTargetTable(), alias, again.from(), again.getCondition()));
    }

    /** {@code SELECT alias.* FROM table AS alias WHERE NOT EXISTS (SELECT 1 FROM from-list WHERE condition)}. */
    private static SqlNode unmatched(SqlNode table, String alias, SqlNode fromList, SqlNode condition) {
        SqlNodeList one = SqlNodeList.of(SqlLiteral.createExactNumeric("1", POS));
        SqlNode exists = SqlStdOperatorTable.EXISTS.createCall(POS, select(one, fromList, condition));
        SqlNodeList all = SqlNodeList.of(SqlIdentifier.star(List.of(alias, ""), POS, List.of(POS, POS)));
        return select(all, as(table, alias), SqlStdOperatorTable.NOT.createCall(POS, exists));
    }

    /**
     * The rows a DELETE keeps ({@code SELECT alias.* FROM table AS alias WHERE (condition) IS NOT TRUE}), or null
     * when it has no condition and keeps none; with a USING list the rows the condition matches with none of its
     * rows.
     */
    public static SqlNode delete(String sql) {
        SqlDelete delete = (SqlDelete) parse(sql);
        if (delete instanceof DeleteClauses clauses && clauses.using() != null) {
            return unmatched(delete.getTargetTable(), alias(delete.getTargetTable(), delete.getAlias()), clauses.using(),
                    delete.getCondition());
        }
        if (delete.getCondition() == null) {
            return null;
        }
        return kept(delete.getTargetTable(), alias(delete.getTargetTable(), delete.getAlias()), delete.getCondition());
    }

    /**
     * The rows a DELETE removes, for its RETURNING: {@code SELECT alias.* FROM table AS alias WHERE condition} (with a
     * USING list {@code WHERE EXISTS (SELECT 1 FROM list WHERE condition)}; without a condition every row).
     */
    public static SqlNode deleted(String sql) {
        SqlDelete delete = (SqlDelete) parse(sql);
        return rowsOf(delete.getTargetTable(), delete.getAlias(), delete.getCondition(),
                delete instanceof DeleteClauses clauses ? clauses.using() : null);
    }

    /**
     * The rows an UPDATE changes, as stored before it: {@code SELECT alias.* FROM table AS alias WHERE condition} (with
     * a FROM list {@code WHERE EXISTS (SELECT 1 FROM list WHERE condition)}; without a condition every row).
     */
    public static SqlNode updated(String sql) {
        SqlUpdate update = (SqlUpdate) parse(sql);
        return rowsOf(update.getTargetTable(), update.getAlias(), update.getCondition(),
                update instanceof UpdateClauses clauses ? clauses.from() : null);
    }

    /**
     * {@code SELECT alias.* FROM table AS alias WHERE condition}, or with {@code list} (a DELETE's USING, an UPDATE's
     * FROM) {@code WHERE EXISTS (SELECT 1 FROM list WHERE condition)}: the stored rows a data change touches.
     */
    private static SqlNode rowsOf(SqlNode table, SqlIdentifier givenAlias, SqlNode condition, SqlNode list) {
        String alias = alias(table, givenAlias);
        SqlNode where = condition;
        if (list != null) {
            SqlNodeList one = SqlNodeList.of(SqlLiteral.createExactNumeric("1", POS));
            where = SqlStdOperatorTable.EXISTS.createCall(POS, select(one, list, where));
        }
        SqlNodeList all = SqlNodeList.of(SqlIdentifier.star(List.of(alias, ""), POS, List.of(POS, POS)));
        return select(all, as(table, alias), where);
    }

    /** Whether a statement is an INSERT, UPDATE or DELETE with RETURNING, whose result is rows, not a count. */
    public static boolean returnsRows(Statement statement) {
        String sql = switch (statement) {
            case Statement.Insert i -> i.sql();
            case Statement.Update u -> u.sql();
            case Statement.Delete d -> d.sql();
            default -> null;
        };
        if (sql == null) {
            return false;
        }
        return switch (parse(sql)) {
            case InsertClauses i -> i.returning() != null;
            case UpdateClauses u -> u.returning() != null;
            case DeleteClauses d -> d.returning() != null;
            default -> false;
        };
    }

    /** The alias an UPDATE or DELETE gives its table: the alias written, else the table's name. */
    public static String targetAlias(String sql) {
        SqlNode statement = parse(sql);
        return switch (statement) {
            case SqlUpdate u -> alias(u.getTargetTable(), u.getAlias());
            case SqlDelete d -> alias(d.getTargetTable(), d.getAlias());
            default -> ((SqlIdentifier) ((org.apache.calcite.sql.SqlInsert) statement).getTargetTable()).names.getLast();
        };
    }

    /** {@code SELECT alias.* FROM table AS alias WHERE (condition) IS NOT TRUE}. */
    private static SqlNode kept(SqlNode table, String alias, SqlNode condition) {
        SqlNodeList all = SqlNodeList.of(SqlIdentifier.star(List.of(alias, ""), POS, List.of(POS, POS)));
        return select(all, as(table, alias), SqlStdOperatorTable.IS_NOT_TRUE.createCall(POS, condition));
    }

    /** The statement parsed again: each query built from it gets nodes of its own. */
    private static SqlNode parse(String sql) {
        try {
            return SqlParser.create(sql, SqlFrontEnd.PARSER).parseStmt();
        } catch (SqlParseException e) {
            throw ParseErrors.of(e, sql);
        }
    }

    private static String alias(SqlNode table, SqlIdentifier alias) {
        return alias != null ? alias.getSimple() : ((SqlIdentifier) table).getSimple();
    }

    private static SqlNode as(SqlNode node, String name) {
        return SqlStdOperatorTable.AS.createCall(POS, node, new SqlIdentifier(name, POS));
    }

    private static SqlSelect select(SqlNodeList columns, SqlNode from, SqlNode where) {
        return new SqlSelect(POS, null, columns, from, where, null, null, null, null, null, null, null, null);
    }

    /** The SQL type of a stored column type, for a CAST to it. */
    static SqlDataTypeSpec typeSpec(DataType t) {
        // a LIST or STRUCT as its own type: as VARCHAR a new value would be its printed text, not its encoding
        SqlDataTypeSpec nested = t.isNested() ? ColumnTypes.spec(t) : null;
        if (nested != null) {
            return nested;
        }
        SqlBasicTypeNameSpec name = switch (t.kind()) {
            case INTEGER -> new SqlBasicTypeNameSpec(t.equals(DataType.SMALLINT) ? SqlTypeName.SMALLINT
                    : t.equals(DataType.TINYINT) ? SqlTypeName.TINYINT : SqlTypeName.INTEGER, POS);
            case BIGINT -> new SqlBasicTypeNameSpec(SqlTypeName.BIGINT, POS);
            case DOUBLE -> new SqlBasicTypeNameSpec(t.isReal() ? SqlTypeName.REAL : SqlTypeName.DOUBLE, POS);
            case DECIMAL -> new SqlBasicTypeNameSpec(SqlTypeName.DECIMAL, t.precision(), t.scale(), POS);
            case DATE -> new SqlBasicTypeNameSpec(SqlTypeName.DATE, POS);
            case TIMESTAMP -> new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, TesseraTypeSystem.TIMESTAMP_PRECISION, POS);
            case TIMESTAMP_TZ -> new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                    TesseraTypeSystem.TIMESTAMP_PRECISION, POS);
            case TIME -> new SqlBasicTypeNameSpec(SqlTypeName.TIME, TesseraTypeSystem.TIMESTAMP_PRECISION, POS);
            case BOOLEAN -> new SqlBasicTypeNameSpec(SqlTypeName.BOOLEAN, POS);
            case VARCHAR -> new SqlBasicTypeNameSpec(t.isBlob() ? SqlTypeName.VARBINARY : t.isUuid() ? SqlTypeName.UUID
                    : SqlTypeName.VARCHAR, POS);
        };
        return new SqlDataTypeSpec(name, POS);
    }
}
