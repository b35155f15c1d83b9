package io.tessera.sql;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.TableKey;
import io.tessera.storage.TableSchema;

import java.util.ArrayList;
import java.util.List;

/**
 * One statement as {@link StatementParser} reads it: a query, an EXPLAIN of one, a table or view definition, or a
 * data change (INSERT, UPDATE, DELETE, CREATE TABLE AS, COPY, ALTER TABLE). Names are as written, quoted or not (DuckDB keeps a name's
 * case and matches names ignoring it). A new kind of statement is one more record here and one more branch in
 * the parser.
 */
public sealed interface Statement permits Statement.Query, Statement.Explain, Statement.CreateTable,
        Statement.DropTable, Statement.Insert, Statement.Update, Statement.Delete, Statement.CreateTableAs,
        Statement.CreateView, Statement.DropView, Statement.Copy, Statement.Describe, Statement.CopyTo,
        Statement.Summarize, Statement.SetOption, Statement.SetVariable, Statement.AlterTable, Statement.CreateMacro,
        Statement.DropMacro, Statement.CreateSequence, Statement.DropSequence, Statement.ExportDatabase,
        Statement.ImportDatabase, Statement.CreateIndex, Statement.DropIndex {

    /** A query, planned and run by {@link SqlFrontEnd}; {@code sql} is its text without trailing semicolons. */
    record Query(String sql) implements Statement {
    }

    /**
     * {@code EXPLAIN [PLAN FOR] query} (the pipelines and their genomes) or {@code EXPLAIN CODE query};
     * {@code analyze}: {@code EXPLAIN ANALYZE} (the query is run and each operator's actual rows shown beside its
     * estimate; with CODE, the code such a run uses); {@code json}: {@code EXPLAIN (FORMAT JSON)}, the plan as one
     * JSON document.
     */
    record Explain(Kind kind, String query, boolean analyze, boolean json) implements Statement {

        public enum Kind { PLAN, CODE }

        /** An EXPLAIN that runs nothing, in text. */
        public Explain(Kind kind, String query) {
            this(kind, query, false, false);
        }
    }

    /**
     * {@code CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name (column type [NOT NULL] [PRIMARY KEY | UNIQUE], ...,
     * [PRIMARY KEY (columns)], [UNIQUE (columns)], [[CONSTRAINT name] CHECK (condition)])}: a primary key's columns
     * are NOT NULL; {@code checks} each with its condition's place; {@code foreignKeys} as written, resolved against
     * their parents when the table is made ({@link ForeignKeys#resolve}); {@code replace} where an existing table of
     * the name gives way to the new one.
     */
    record CreateTable(String name, List<Column> columns, List<TableKey> keys, List<CheckConstraints.Declared> checks,
            List<ForeignKeys.Declared> foreignKeys, boolean ifNotExists, boolean replace) implements Statement {

        public CreateTable {
            columns = List.copyOf(columns);
            keys = List.copyOf(keys);
            checks = List.copyOf(checks);
            foreignKeys = List.copyOf(foreignKeys);
        }

        /**
         * The table as storage keeps it: names as written (lookups ignore case), checked against storage's rules
         * for names.
         */
        public TableSchema schema() {
            try {
                List<ColumnSchema> cols = new ArrayList<>();
                for (Column c : columns) {
                    boolean primary = keys.stream().anyMatch(k -> k.primary() && k.has(c.name()));
                    cols.add(new ColumnSchema(c.name(), c.type(), c.nullable() && !primary, c.defaultValue(),
                            c.generated()));
                }
                return new TableSchema(name, cols, keys, checks.stream().map(CheckConstraints.Declared::constraint)
                        .toList());
            } catch (IllegalArgumentException e) {
                throw new SqlError("CREATE TABLE " + name + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * One column of {@link CreateTable}; {@code defaultValue}: its DEFAULT expression's text, or null;
     * {@code generated}: a generated column's expression's text, or null (its type null where none is written).
     */
    record Column(String name, DataType type, boolean nullable, String defaultValue, String generated) {

        public Column(String name, DataType type, boolean nullable, String defaultValue) {
            this(name, type, nullable, defaultValue, null);
        }

        public Column(String name, DataType type, boolean nullable) {
            this(name, type, nullable, null);
        }
    }

    /**
     * {@code ALTER TABLE [IF EXISTS] table action}: {@code sql} is the whole statement, which exec.TableAlterations
     * reads again as an {@link AlterTableNode} (its expressions are planned as parsed trees).
     */
    record AlterTable(String table, String sql) implements Statement {
    }

    /** {@code DROP TABLE [IF EXISTS] name}. */
    record DropTable(String name, boolean ifExists) implements Statement {
    }

    /**
     * {@code INSERT INTO table [(columns)] VALUES ... | query}: {@code sql} is the whole statement, which
     * {@link SqlFrontEnd#plan} turns into the query of the rows to append, cast to the table's column types.
     */
    record Insert(String table, String sql) implements Statement {
    }

    /**
     * {@code UPDATE table [[AS] alias] SET column = expression, ... [FROM list] [WHERE condition] [RETURNING items]}:
     * {@code sql} is the whole statement, which {@link DataChangeQueries#update} turns into the query of the table's
     * new rows.
     */
    record Update(String table, String sql) implements Statement {
    }

    /**
     * {@code DELETE FROM table [[AS] alias] [USING list] [WHERE condition] [RETURNING items]}: {@code sql} is the
     * whole statement.
     */
    record Delete(String table, String sql) implements Statement {
    }

    /**
     * {@code CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name AS query}: {@code query} is the query's text; {@code
     * replace} where an existing table of the name gives way to the new one.
     */
    record CreateTableAs(String name, String query, boolean ifNotExists, boolean replace) implements Statement {
    }

    /**
     * {@code CREATE [OR REPLACE] VIEW name [(columns)] AS query}: {@code query} is the query's text as written,
     * {@code columns} the names given to its columns (empty: the query's own).
     */
    record CreateView(String name, List<String> columns, String query, boolean replace) implements Statement {

        public CreateView {
            columns = List.copyOf(columns);
        }
    }

    /** {@code DROP VIEW [IF EXISTS] name}. */
    record DropView(String name, boolean ifExists) implements Statement {
    }

    /**
     * {@code COPY table FROM 'file' [(FORMAT csv|tbl, HEADER [true|false], DELIMITER 'c', FORCE_NOT_NULL (...))]}:
     * the SQL form of {@code tessera import}. {@code format} null: from the file's name; {@code delimiter} null: the
     * format's; {@code forceNotNull}: the columns DuckDB's FORCE_NOT_NULL names (its EXPORT DATABASE writes it for
     * NOT NULL columns), which must be NOT NULL in the table.
     */
    record Copy(String table, String file, String format, boolean header, String delimiter,
                List<String> forceNotNull) implements Statement {

        public Copy {
            forceNotNull = List.copyOf(forceNotNull);
        }

        public Copy(String table, String file, String format, boolean header, String delimiter) {
            this(table, file, format, header, delimiter, List.of());
        }
    }

    /**
     * {@code EXPORT DATABASE 'directory' [(FORMAT csv|parquet, DELIMITER 'c')]}: DuckDB's form, a schema.sql of the
     * statements that make the catalog, a file of rows per table and a load.sql of the COPY statements that read them.
     */
    record ExportDatabase(String directory, String format, String delimiter) implements Statement {
    }

    /** {@code IMPORT DATABASE 'directory'}: the schema.sql and then the load.sql there run, as DuckDB does. */
    record ImportDatabase(String directory) implements Statement {
    }

    /**
     * {@code COPY (query) TO 'file' [(FORMAT csv|parquet, HEADER [true|false], DELIMITER 'c')]}: the query's rows
     * written to a file. {@code format} null: from the file's name (.parquet, else CSV); {@code header}: a CSV
     * file's first line names the columns (DuckDB's default); {@code delimiter} null: a comma.
     */
    record CopyTo(String query, String file, String format, boolean header, String delimiter) implements Statement {
    }

    /**
     * {@code SUMMARIZE table} or {@code SUMMARIZE query}: a row of statistics per column of {@code query} (for a
     * table, {@code SELECT * FROM} it), as DuckDB gives them ({@link Summaries}).
     */
    record Summarize(String query) implements Statement {
    }

    /**
     * {@code DESCRIBE query}, {@code DESCRIBE 'file'}, {@code DESCRIBE table} or {@code SHOW table}: the columns of
     * {@code query} (for a file or a table, {@code SELECT * FROM} it), one row each, as DuckDB lists them; or, as
     * {@link Form#TABLE_INFO}, as {@code PRAGMA table_info('table')} lists them (SQLite's columns, as DuckDB has them).
     */
    record Describe(String query, Form form) implements Statement {

        /** The rows' form. */
        public enum Form {
            /** column_name, column_type, null, key, default, extra */
            DESCRIBE,
            /** cid, name, type, notnull, dflt_value, pk */
            TABLE_INFO
        }

        public Describe(String query) {
            this(query, Form.DESCRIBE);
        }
    }

    /**
     * {@code SET name = value} or {@code RESET name} ({@code value} null): a setting of the session, which lasts as
     * long as the connection ({@link SessionSettings}).
     */
    record SetOption(String name, String value) implements Statement {
    }

    /**
     * {@code SET VARIABLE name = expression} or {@code RESET VARIABLE name} ({@code expression} null): a variable of
     * the session, which getvariable('name') reads ({@link SessionVariables}).
     */
    record SetVariable(String name, String expression) implements Statement {
    }

    /**
     * {@code CREATE [OR REPLACE] [TEMP] MACRO name(parameters) AS expression} or {@code ... AS TABLE query} (and
     * {@code CREATE FUNCTION}, its synonym): {@code macro} holds the texts of the body and the defaults as written;
     * {@code temporary}: the session's own, not stored in the database ({@link MacroStatements}); {@code at}: where
     * its name is, for errors.
     */
    record CreateMacro(io.tessera.storage.Macro macro, boolean replace, boolean temporary,
                       org.apache.calcite.sql.parser.SqlParserPos at) implements Statement {
    }

    /**
     * {@code DROP MACRO [TABLE] [IF EXISTS] name} or {@code DROP FUNCTION ...}; {@code table}: only a table macro is
     * dropped; {@code at}: where its name is, for errors.
     */
    record DropMacro(String name, boolean table, boolean ifExists, org.apache.calcite.sql.parser.SqlParserPos at)
            implements Statement {
    }

    /**
     * {@code CREATE [OR REPLACE] [TEMP] SEQUENCE [IF NOT EXISTS] name ...}: {@code sequence} as defined, unused;
     * {@code temporary}: kept by the connection only ({@link SequenceStatements}).
     */
    record CreateSequence(io.tessera.storage.Sequence sequence, boolean ifNotExists, boolean replace,
                          boolean temporary) implements Statement {
    }

    /** {@code DROP SEQUENCE [IF EXISTS] name}. */
    record DropSequence(String name, boolean ifExists) implements Statement {
    }

    /**
     * {@code CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table [USING method] (columns)}: names as written;
     * {@code method} as written, null where none ({@link IndexStatements}); {@code at}: where the table's name is.
     */
    record CreateIndex(String name, String table, List<String> columns, boolean unique, String method,
                       boolean ifNotExists, org.apache.calcite.sql.parser.SqlParserPos at) implements Statement {

        public CreateIndex {
            columns = List.copyOf(columns);
        }
    }

    /** {@code DROP INDEX [IF EXISTS] name}. */
    record DropIndex(String name, boolean ifExists) implements Statement {
    }
}
