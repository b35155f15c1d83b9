package io.tessera.sql;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * An INSERT as Tessera's grammar reads it: Calcite's {@link SqlInsert} (table, column list, source), which the
 * validator plans as any INSERT, with DuckDB's clauses beside it: {@code OR REPLACE} / {@code OR IGNORE}, {@code BY
 * NAME} (the source's columns matched to the table's by name), {@code ON CONFLICT} and {@code RETURNING}. exec.DataChanges carries
 * them out.
 */
public final class InsertClauses extends SqlInsert {

    /** {@code INSERT OR REPLACE} / {@code INSERT OR IGNORE}, or neither. */
    public enum Or { NONE, REPLACE, IGNORE }

    /**
     * {@code ON CONFLICT [(target)] DO NOTHING} ({@code columns} null) or {@code DO UPDATE SET columns = values
     * [WHERE condition]}; {@code target} null: any key of the table.
     */
    public record Conflict(SqlParserPos pos, SqlNodeList target, SqlNodeList columns, SqlNodeList values,
            SqlNode condition) {

        public boolean doNothing() {
            return columns == null;
        }
    }

    private final Or or;
    private final boolean byName;
    private final Conflict conflict;
    private final SqlNodeList returning;
    private boolean defaultValues; // DEFAULT VALUES, until completeDefaultValues has given its row a column

    public InsertClauses(SqlParserPos pos, SqlNode table, SqlNode source, SqlNodeList columns, Or or, boolean byName,
            Conflict conflict, SqlNodeList returning, boolean defaultValues) {
        super(pos, SqlNodeList.EMPTY, table, source, columns);
        this.or = or;
        this.byName = byName;
        this.conflict = conflict;
        this.returning = returning;
        this.defaultValues = defaultValues;
    }

    /**
     * {@code INSERT INTO t DEFAULT VALUES}: one row of every column's DEFAULT (NULL where it has none), as DuckDB and
     * PostgreSQL write it. The grammar's VALUES row {@code (DEFAULT)} is given the table's first column that is not
     * generated, the others being omitted, so that the defaults are put in as for any INSERT ({@link ColumnDefaults}).
     */
    public void completeDefaultValues(io.tessera.storage.TableSchema schema) {
        if (!defaultValues) {
            return;
        }
        if (getTargetColumnList() != null || byName) {
            throw new SqlError("syntax error" + at(getParserPosition()) + ": INSERT ... DEFAULT VALUES takes no column"
                    + " list and no BY NAME");
        }
        io.tessera.storage.ColumnSchema first = schema.columns().stream().filter(c -> !c.isGenerated()).findFirst()
                .orElseThrow(() -> new SqlError("INSERT INTO " + schema.name()
                        + " DEFAULT VALUES: no column to insert"));
        SqlParserPos pos = getSource().getParserPosition();
        setOperand(3, new SqlNodeList(java.util.List.of(new org.apache.calcite.sql.SqlIdentifier(first.name(), pos)),
                pos));
        if (first.defaultValue() == null) {
            // no DEFAULT to put in: the column's NULL, written as a value
            setOperand(2, org.apache.calcite.sql.fun.SqlStdOperatorTable.VALUES.createCall(pos,
                    org.apache.calcite.sql.fun.SqlStdOperatorTable.ROW.createCall(pos,
                            org.apache.calcite.sql.SqlLiteral.createNull(pos))));
        }
        defaultValues = false;
    }

    /** The RETURNING items, or null. */
    public SqlNodeList returning() {
        return returning;
    }

    public Or or() {
        return or;
    }

    public boolean byName() {
        return byName;
    }

    /** " at line l, column c" of {@code pos}, for an error about one of the clauses. */
    public static String at(SqlParserPos pos) {
        return SupportCheck.at(pos);
    }

    /** The ON CONFLICT clause, or null. */
    public Conflict conflict() {
        return conflict;
    }
}
