package io.tessera.exec;

import io.tessera.data.io.AllowedDirectories;
import io.tessera.data.io.FileAccessException;
import io.tessera.data.io.ImportFormat;
import io.tessera.data.io.OptionSpelling;
import io.tessera.data.io.SourceFile;
import io.tessera.data.io.TableExporter;
import io.tessera.data.io.TableImporter;
import io.tessera.data.parquet.ParquetExporter;
import io.tessera.data.parquet.ParquetImporter;
import io.tessera.sql.SqlError;
import io.tessera.sql.Statement;
import io.tessera.storage.Database;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code COPY table FROM 'file'} ({@code COPY (query) TO 'file'}: {@link #copyTo}): the import of {@code tessera import} ({@link TableImporter}, {@link ParquetImporter}
 * for FORMAT parquet or a file ending in .parquet: all rows or none, a bad value named by file, line and column),
 * for a file SQL may read. A statement's text can come from anyone an application lets write SQL, so COPY reads only
 * regular files below the directories the application allowed ({@code Tessera.allowCopyFrom}; {@code tessera sql}
 * allows its current directory and each {@code --allow-read DIR}), opened by {@link AllowedDirectories} without
 * following any link below them, and the importer reads the file that was opened, not its name again.
 * docs/SECURITY.md states it.
 */
final class CopyFiles {

    private CopyFiles() {
    }

    /**
     * {@code COPY table FROM 'file'}; into a table with CHECK or FOREIGN KEY constraints, keys or generated columns
     * the file's rows are imported into the statement's temporary database first, their generated columns computed
     * ({@link GeneratedRows}), checked there ({@link CheckedRows}; keys as an INSERT checks them,
     * {@link DataChanges#appendKeyed}), and only then appended.
     */
    static long copy(QueryEngine engine, DataChanges changes, Database db, Statement.Copy s, String table,
            List<Path> allowed, io.tessera.api.QueryCancel cancel) {
        io.tessera.storage.TableSchema schema = db.table(table).schema();
        for (String name : s.forceNotNull()) {
            // DuckDB reads an empty field of these columns as an empty string; Tessera's reader gives NULL, which
            // only a NOT NULL column refuses: so only there is the option the same
            io.tessera.storage.ColumnSchema c = schema.columns().stream().filter(x -> x.name().equalsIgnoreCase(name))
                    .findFirst().orElseThrow(() -> new SqlError("COPY " + table + ": FORCE_NOT_NULL names " + name
                            + ", which is no column of " + table));
            if (c.nullable() && (schema.primaryKey() == null || !schema.primaryKey().has(c.name()))) {
                throw new SqlError("unsupported: COPY " + table + " with FORCE_NOT_NULL of " + c.name()
                        + ", a column that may be NULL (an empty field is read as NULL)");
            }
        }
        boolean generated = io.tessera.sql.GeneratedColumns.any(schema);
        boolean keyed = !schema.enforcedKeys().isEmpty();
        if (!CheckedRows.constrained(schema) && !generated && !keyed) {
            return copy(db, s, table, allowed);
        }
        if (!generated && !keyed) {
            return CheckedRows.append(engine, db, schema, (scratch, held) -> copy(scratch, s, held, allowed), cancel);
        }
        // the importers write storage directly, past an INSERT's checks of keys, and a file gives no generated
        // column's values: the rows are imported into the statement's temporary database, completed there and
        // appended as an INSERT's are
        io.tessera.storage.Table rows = CheckedRows.files(engine).imported("copied",
                generated ? GeneratedRows.written(schema) : schema.columns(),
                (scratch, held) -> copy(scratch, s, held, allowed)).rows();
        List<Object[]> full = generated ? GeneratedRows.fromWritten(engine, schema, rows, cancel)
                : ResultRows.of(CheckedRows.rows(engine, schema, rows, cancel));
        if (keyed) {
            return changes.appendKeyed(schema, full, cancel); // CHECKs too
        }
        CheckedRows.verify(engine, schema, full, cancel);
        try (io.tessera.storage.TableWriter w = db.append(table)) {
            long n = RowAppender.append(full, w, cancel);
            if (n > 0) {
                w.commit();
            }
            return n;
        }
    }

    private static long copy(Database db, Statement.Copy s, String table, List<Path> allowed) {
        boolean parquet = s.format() != null ? s.format().equals("parquet")
                : s.file().toLowerCase(java.util.Locale.ROOT).endsWith(".parquet");
        TableImporter.Options o = TableImporter.Options.defaults().withHeader(s.header())
                .withSpelling(OptionSpelling.SQL);
        if (parquet) {
            if (s.header() || s.delimiter() != null) {
                throw new SqlError("COPY " + table + ": HEADER and DELIMITER are for text files, not Parquet");
            }
        } else {
            try {
                if (s.format() != null) {
                    o = o.withFormat(ImportFormat.parse(s.format()));
                }
                if (s.delimiter() != null) {
                    o = o.withDelimiter(ImportFormat.parseDelimiter(s.delimiter()));
                }
            } catch (IllegalArgumentException e) {
                throw new SqlError("COPY " + table + ": " + e.getMessage(), e);
            }
        }
        SourceFile file = readable(s.file(), allowed);
        try {
            return parquet
                    ? ParquetImporter.importSources(db, table, List.of(file), o.threads(), o.invalidUtf8()).rows()
                    : TableImporter.importSources(db, table, List.of(file), o).rows();
        } finally {
            closeQuietly(file);
        }
    }

    /**
     * {@code COPY (query) TO 'file'}: the query's rows (run already) stored in a table of the statement's temporary
     * database, then written as CSV ({@link TableExporter}, a header of the query's column names unless HEADER
     * false) or Parquet ({@link ParquetExporter}, for FORMAT parquet or a name ending in .parquet) to the file,
     * opened by {@link AllowedDirectories} below the directories COPY may use, through no link, created or emptied.
     * A Parquet file's columns need names a table column can have (as CREATE TABLE AS needs them).
     */
    static long copyTo(Statement.CopyTo s, QueryExecutor.Ran ran, List<String> names, Database scratch,
                       List<Path> allowed, io.tessera.api.QueryCancel cancel) {
        boolean parquet = s.format() != null ? s.format().equals("parquet")
                : s.file().toLowerCase(java.util.Locale.ROOT).endsWith(".parquet");
        byte delimiter = ',';
        if (parquet && s.delimiter() != null) {
            throw new SqlError("COPY TO: DELIMITER is for CSV files, not Parquet");
        }
        if (s.delimiter() != null) {
            try {
                delimiter = ImportFormat.parseDelimiter(s.delimiter());
            } catch (IllegalArgumentException e) {
                throw new SqlError("COPY TO: " + e.getMessage(), e);
            }
        }
        List<io.tessera.storage.ColumnSchema> columns = new java.util.ArrayList<>();
        java.util.Set<String> taken = new java.util.HashSet<>();
        for (int i = 0; i < ran.columns().size(); i++) {
            String name = names.get(i);
            boolean usable = name.matches("[A-Za-z_][A-Za-z0-9_]*") && taken.add(name.toLowerCase(java.util.Locale.ROOT));
            if (!usable && parquet) {
                throw new SqlError("COPY TO: column " + (i + 1) + " of the query, " + name + ", has no name a Parquet "
                        + "column of Tessera can have (or repeats one); name it with AS");
            }
            columns.add(new io.tessera.storage.ColumnSchema(usable ? name : "column" + i, ran.columns().get(i).type(),
                    true));
        }
        io.tessera.storage.Table rows;
        try (io.tessera.storage.TableWriter w = scratch.replace(new io.tessera.storage.TableSchema("copy_to", columns))) {
            RowAppender.append(ran, w, cancel);
            w.commit();
        }
        rows = scratch.table("copy_to");
        FileChannel channel;
        try {
            channel = new AllowedDirectories(allowed, true).openForWrite(s.file(), "COPY");
        } catch (FileAccessException e) {
            throw new SqlError(e.getMessage(), e);
        }
        try (OutputStream os = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 20)) {
            if (parquet) {
                ParquetExporter.write(rows, os);
            } else {
                TableExporter.write(rows, os, true, delimiter, s.header() ? names : null);
            }
        } catch (IOException e) {
            throw new SqlError("COPY: cannot write '" + AllowedDirectories.printable(s.file()) + "': "
                    + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new SqlError("COPY: " + e.getMessage(), e);
        }
        return rows.rowCount();
    }

    /** The file, opened, when COPY may read it: a regular file below an allowed directory, reached by no link. */
    static SourceFile readable(String name, List<Path> allowed) {
        try {
            return new AllowedDirectories(allowed).openForRead(name, "COPY");
        } catch (FileAccessException e) {
            throw new SqlError(e.getMessage(), e);
        }
    }

    /** Closes a file an importer may already have closed (closing twice does nothing). */
    static void closeQuietly(SourceFile file) {
        try {
            file.open().close();
        } catch (java.io.IOException e) {
            // read-only: nothing was lost
        }
    }
}
