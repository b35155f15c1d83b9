package io.tessera.sql;

import io.tessera.storage.CheckConstraint;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.TableSchema;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.ddl.SqlCheckConstraint;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CHECK constraints ({@link CheckConstraint}) as SQL: read from CREATE TABLE ({@link #of}: the condition kept as
 * written, naming only the table's columns, no subquery or lambda), checked when the table is created
 * ({@link #validate}: planned over the table's columns, it must be BOOLEAN and hold no aggregate, window or
 * non-deterministic function), and the query a write runs over the rows it is about to write ({@link #violations}):
 * the conditions are parsed again from their text and planned as any filter is, never made into code.
 */
public final class CheckConstraints {

    private static final SqlParserPos POS = SqlParserPos.ZERO;
    private static final Pattern AT = Pattern.compile("line (\\d+), column (\\d+)");

    private CheckConstraints() {
    }

    /** A CHECK of CREATE TABLE, and where its condition is in the statement (for errors found when it is planned). */
    public record Declared(CheckConstraint constraint, SqlParserPos at) {
    }

    /**
     * A CHECK of CREATE TABLE {@code table} whose columns are {@code columns} (stored names); {@code sql} is the
     * statement's text. A subquery or a lambda is an error naming it; a name that is none of the table's columns is
     * left to {@link #validate}. A column named with the table's name ({@code t.a}) is kept without it, so that the
     * condition holds when the table is renamed.
     */
    static Declared of(SqlCheckConstraint check, String table, List<String> columns, String sql) {
        SqlIdentifier name = (SqlIdentifier) check.getOperandList().get(0);
        SqlNode condition = check.getOperandList().get(1);
        TreeMap<Integer, String> named = new TreeMap<>(); // by the column's place in the table
        condition.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                int c = indexOf(columns, id.names.get(columnPart(id, table)));
                if (c >= 0) {
                    named.put(c, columns.get(c));
                }
                return null;
            }

            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect || SqlKind.QUERY.contains(call.getKind())
                        || call.getKind() == SqlKind.EXISTS) {
                    throw new SqlError("CREATE TABLE " + table + ": subqueries are not allowed in CHECK constraints"
                            + SupportCheck.at(call.getParserPosition()));
                }
                if (call.getKind() == SqlKind.LAMBDA) {
                    throw new SqlError("CREATE TABLE " + table + ": lambda functions are not allowed in CHECK"
                            + " constraints" + SupportCheck.at(call.getParserPosition()));
                }
                return super.visit(call);
            }
        });
        try {
            String text = ExpressionText.of(condition, sql);
            String unqualified = edited(text, (id, edits) -> {
                if (columnPart(id, table) == 1 && indexOf(columns, id.names.get(1)) >= 0) {
                    edits.put(offset(text, id.getComponentParserPosition(0)),
                            new Edit(offset(text, id.getComponentParserPosition(1)), ""));
                }
            });
            return new Declared(new CheckConstraint(name == null ? null : name.getSimple(), unqualified,
                    new ArrayList<>(named.values())), condition.getParserPosition());
        } catch (IllegalArgumentException e) {
            throw new SqlError("CREATE TABLE " + table + ": " + e.getMessage() + SupportCheck.at(
                    check.getParserPosition()), e);
        }
    }

    /** Which part of {@code id} names a column: the second after the table's name ({@code t.a}), else the first. */
    private static int columnPart(SqlIdentifier id, String table) {
        return id.names.size() > 1 && id.names.get(0).equalsIgnoreCase(table) ? 1 : 0;
    }

    private static int indexOf(List<String> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Plans each CHECK of a new table over its columns (NULLs of their types, under the table's name): an error
     * that names the constraint and the condition's place where the condition is not BOOLEAN, holds an aggregate, a
     * window or a non-deterministic function, or fails to plan.
     */
    public static void validate(SqlFrontEnd frontEnd, TableSchema schema, List<Declared> checks) {
        SqlNodeList nulls = new SqlNodeList(POS);
        for (ColumnSchema c : schema.columns()) {
            SqlNode value = SqlStdOperatorTable.CAST.createCall(POS, SqlLiteral.createNull(POS),
                    DataChangeQueries.typeSpec(c.type()));
            nulls.add(SqlStdOperatorTable.AS.createCall(POS, value, new SqlIdentifier(c.name(), POS)));
        }
        for (Declared d : checks) {
            String prefix = "CREATE TABLE " + schema.name() + ": CHECK constraint " + d.constraint().name(schema.name())
                    + ": ";
            SqlNode row = new SqlSelect(POS, null, nulls.clone(POS), null, null, null, null, null, null, null, null,
                    null, null);
            SqlNode from = SqlStdOperatorTable.AS.createCall(POS, row, new SqlIdentifier(schema.name(), POS));
            SqlSelect query = new SqlSelect(POS, null, SqlNodeList.of(ExpressionText.parse(d.constraint()
                    .expression())), from, null, null, null, null, null, null, null, null, null);
            SqlFrontEnd.LogicalPlan plan;
            try {
                plan = frontEnd.plan(query);
            } catch (SqlError e) {
                throw new SqlError(prefix + shifted(e.getMessage(), d.at()), e);
            }
            String refused = refused(plan.rel());
            if (refused != null) {
                throw new SqlError(prefix + refused + " are not allowed in CHECK constraints"
                        + SupportCheck.at(d.at()));
            }
            SqlTypeName type = plan.rel().getRowType().getFieldList().get(0).getType().getSqlTypeName();
            if (type != SqlTypeName.BOOLEAN && type != SqlTypeName.NULL) {
                throw new SqlError(prefix + "the condition must be BOOLEAN, not " + type + SupportCheck.at(d.at()));
            }
        }
    }

    /** The positions in a message about a condition parsed from its text, moved to where it is in the statement. */
    private static String shifted(String message, SqlParserPos at) {
        Matcher m = AT.matcher(message);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            int line = Integer.parseInt(m.group(1));
            int column = Integer.parseInt(m.group(2));
            int l = at.getLineNum() + line - 1;
            int c = line == 1 ? at.getColumnNum() + column - 1 : column;
            m.appendReplacement(out, "line " + l + ", column " + c);
        }
        m.appendTail(out);
        return out.toString();
    }

    /** What of a planned condition a CHECK may not hold (aggregate, window or non-deterministic functions), or null. */
    static String refused(RelNode rel) {
        if (rel instanceof Aggregate) {
            return "aggregate functions";
        }
        if (rel instanceof Window) {
            return "window functions";
        }
        String[] found = {null};
        rel.accept(new RexShuttle() {
            @Override
            public RexNode visitOver(RexOver over) {
                found[0] = found[0] == null ? "window functions" : found[0];
                return over;
            }

            @Override
            public RexNode visitCall(RexCall call) {
                // Tessera's casts that constant reduction must leave alone are not deterministic to Calcite only
                boolean cast = call.getOperator() == CheckedCasts.CHECKED_CAST
                        || call.getOperator() == CheckedCasts.TRY_CAST;
                if (found[0] == null && !cast && (!call.getOperator().isDeterministic()
                        || call.getOperator().isDynamicFunction())) {
                    found[0] = "non-deterministic functions";
                }
                return super.visitCall(call);
            }
        });
        for (RelNode input : rel.getInputs()) {
            found[0] = found[0] != null ? found[0] : refused(input);
        }
        return found[0];
    }

    /**
     * {@code SELECT c1 IS FALSE, ... FROM table WHERE c1 IS FALSE OR ... FETCH FIRST 1 ROW ONLY}: a row of the
     * table that makes a CHECK FALSE (NULL passes), its items saying which; no row where every row passes.
     */
    public static SqlSelect violations(TableSchema schema) {
        SqlNodeList items = new SqlNodeList(POS);
        SqlNode where = null;
        for (CheckConstraint c : schema.checks()) {
            items.add(SqlStdOperatorTable.IS_FALSE.createCall(POS, ExpressionText.parse(c.expression())));
            SqlNode failed = SqlStdOperatorTable.IS_FALSE.createCall(POS, ExpressionText.parse(c.expression()));
            where = where == null ? failed : SqlStdOperatorTable.OR.createCall(POS, where, failed);
        }
        return new SqlSelect(POS, null, items, new SqlIdentifier(schema.name(), POS), where, null, null, null, null,
                null, null, SqlLiteral.createExactNumeric("1", POS), null);
    }

    /** The error of a write whose row makes {@code check} FALSE, as DuckDB words it (and the name given it, if any). */
    public static SqlError failure(TableSchema schema, CheckConstraint check) {
        return new SqlError("CHECK constraint failed on table " + schema.name() + " with expression " + check.clause()
                + (check.name() == null ? "" : " (constraint " + check.name() + ")"));
    }

    /**
     * {@code check} after RENAME COLUMN {@code old} TO {@code name}: each place its condition names the column
     * written with the new name, the rest of the text as it was (as DuckDB renames the column in its CHECKs).
     */
    public static CheckConstraint renamed(CheckConstraint check, String table, String old, String name) {
        if (!check.has(old)) {
            return check;
        }
        String text = check.expression();
        String renamed = edited(text, (id, edits) -> {
            int part = columnPart(id, table);
            if (id.names.get(part).equalsIgnoreCase(old)) {
                SqlParserPos p = id.getComponentParserPosition(part);
                int from = offset(text, p);
                edits.put(from, new Edit(LeadingTokens.offset(text, p.getEndLineNum(), p.getEndColumnNum()) + 1,
                        text.charAt(from) == '"' ? "\"" + name + "\"" : name));
            }
        });
        List<String> columns = check.columns().stream().map(c -> c.equalsIgnoreCase(old) ? name : c).toList();
        return new CheckConstraint(check.name(), renamed, columns);
    }

    /** A part of a condition's text replaced: up to offset {@code to} (from the offset it is kept under) by {@code text}. */
    private record Edit(int to, String text) {
    }

    /** What to replace of an identifier of a condition, put into edits by the offset the part starts at. */
    private interface Edits {
        void of(SqlIdentifier id, TreeMap<Integer, Edit> edits);
    }

    /** A condition's text with the parts {@code edits} picks from its identifiers replaced, the rest as it was. */
    private static String edited(String text, Edits edits) {
        TreeMap<Integer, Edit> found = new TreeMap<>();
        ExpressionText.parse(text).accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                edits.of(id, found);
                return null;
            }
        });
        StringBuilder out = new StringBuilder(text);
        for (var e : found.descendingMap().entrySet()) {
            out.replace(e.getKey(), e.getValue().to(), e.getValue().text());
        }
        return out.toString();
    }

    /** The offset in {@code text} where {@code pos} starts. */
    private static int offset(String text, SqlParserPos pos) {
        return LeadingTokens.offset(text, pos.getLineNum(), pos.getColumnNum());
    }

    /** The CHECKs of {@code schema} whose conditions name {@code column}. */
    public static List<CheckConstraint> naming(TableSchema schema, String column) {
        return schema.checks().stream().filter(c -> c.has(column)).toList();
    }
}
