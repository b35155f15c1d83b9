package io.tessera.sql;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.TableSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One statement as {@link StatementParser} reads it: a query, an EXPLAIN of one, or a table definition. Names are
 * as SQL means them: unquoted ones folded to lower case, quoted ones exactly as written. A new kind of statement
 * (INSERT, when it comes) is one more record here and one more branch in the parser.
 */
public sealed interface Statement permits Statement.Query, Statement.Explain, Statement.CreateTable,
        Statement.DropTable {

    /** A query, planned and run by {@link SqlFrontEnd}; {@code sql} is its text without trailing semicolons. */
    record Query(String sql) implements Statement {
    }

    /** {@code EXPLAIN [PLAN FOR] query} (the pipelines and their genomes) or {@code EXPLAIN CODE query}. */
    record Explain(Kind kind, String query) implements Statement {

        public enum Kind { PLAN, CODE }
    }

    /** {@code CREATE TABLE [IF NOT EXISTS] name (column type [NOT NULL], ...)}. */
    record CreateTable(String name, List<Column> columns, boolean ifNotExists) implements Statement {

        public CreateTable {
            columns = List.copyOf(columns);
        }

        /**
         * The table as storage keeps it: names in lower case (lookups ignore case), checked against storage's
         * rules for names.
         */
        public TableSchema schema() {
            try {
                List<ColumnSchema> cols = new ArrayList<>();
                for (Column c : columns) {
                    cols.add(new ColumnSchema(c.name().toLowerCase(Locale.ROOT), c.type(), c.nullable()));
                }
                return new TableSchema(name.toLowerCase(Locale.ROOT), cols);
            } catch (IllegalArgumentException e) {
                throw new SqlError("CREATE TABLE " + name + ": " + e.getMessage(), e);
            }
        }
    }

    /** One column of {@link CreateTable}. */
    record Column(String name, DataType type, boolean nullable) {
    }

    /** {@code DROP TABLE [IF EXISTS] name}. */
    record DropTable(String name, boolean ifExists) implements Statement {
    }
}
