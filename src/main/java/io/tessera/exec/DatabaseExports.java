package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.data.io.AllowedDirectories;
import io.tessera.data.io.FileAccessException;
import io.tessera.data.io.SourceFile;
import io.tessera.sql.CatalogText;
import io.tessera.sql.SqlError;
import io.tessera.sql.Statement;
import io.tessera.sql.StatementList;
import io.tessera.sql.StatementParser;
import io.tessera.storage.Database;
import io.tessera.storage.Macro;
import io.tessera.storage.Sequence;
import io.tessera.storage.Table;
import io.tessera.storage.View;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * DuckDB's {@code EXPORT DATABASE 'dir'} and {@code IMPORT DATABASE 'dir'}, in DuckDB's layout so that either engine
 * reads the other's: {@code schema.sql} holds the statements that make the sequences, tables, macros, views and
 * indexes (in that order, as {@link CatalogText} writes them), one file of rows per table ({@code COPY ... TO}, CSV
 * with a header or Parquet, named after the table in lower case), and {@code load.sql} the {@code COPY ... FROM} statements that
 * read them back. The export holds the write lock, so its tables are one committed state; the directory lies under
 * the directories COPY may write and is made if absent. The import runs schema.sql's CREATE statements and then
 * load.sql's COPY statements, each as a statement of its own (a failure names the file and the statement, and what
 * ran before it stays); each COPY reads its file by name from the imported directory, wherever the export wrote it.
 */
final class DatabaseExports {

    private static final String SCHEMA = "schema.sql";
    private static final String LOAD = "load.sql";

    private DatabaseExports() {
    }

    static QueryResult export(QueryEngine engine, Database db, Statement.ExportDatabase e, List<Path> writable,
            QueryCancel cancel) {
        String dir = e.directory().endsWith("/") && e.directory().length() > 1
                ? e.directory().substring(0, e.directory().length() - 1) : e.directory();
        AllowedDirectories allowed = new AllowedDirectories(writable, true);
        boolean parquet = "parquet".equals(e.format());
        try (Database.WriteLock lock = db.lockForWriting()) {
            try {
                allowed.makeDirectory(dir, "EXPORT DATABASE");
            } catch (FileAccessException x) {
                throw new SqlError(x.getMessage(), x);
            }
            StringBuilder schema = new StringBuilder();
            for (Sequence q : db.sequences()) {
                schema.append(CatalogText.createSequence(q)).append('\n');
            }
            StringBuilder load = new StringBuilder();
            Set<String> fileNames = new HashSet<>();
            for (Table t : parentsFirst(db.tables())) {
                QueryCancel.check(cancel);
                schema.append(CatalogText.createTable(t)).append('\n');
                String file = dir + "/" + fileName(t.name(), fileNames) + (parquet ? ".parquet" : ".csv");
                String quoted = quoted(t.name());
                // a generated column's values are not written: COPY FROM computes them again, as in DuckDB
                List<String> written = new ArrayList<>();
                for (io.tessera.storage.ColumnSchema c : t.schema().columns()) {
                    if (!c.isGenerated()) {
                        written.add(quoted(c.name()));
                    }
                }
                engine.executeWithin(new Statement.CopyTo("SELECT " + String.join(", ", written) + " FROM " + quoted,
                        file, parquet ? "parquet" : "csv", true, e.delimiter()), cancel);
                load.append("COPY ").append(quoted).append(" FROM ").append(literal(file)).append(parquet
                        ? " (FORMAT 'parquet');" : " (FORMAT 'csv', allow_quoted_nulls false, quote '\"', delimiter "
                        + literal(e.delimiter() == null ? "," : e.delimiter()) + ", header 1);").append('\n');
            }
            for (Macro m : db.macros()) {
                schema.append(CatalogText.createMacro(m)).append('\n');
            }
            for (View v : db.views()) {
                schema.append(CatalogText.createView(v)).append('\n');
            }
            for (var x : CatalogText.indexes(db.tables())) {
                schema.append(CatalogText.createIndex(x.getKey(), x.getValue())).append('\n');
            }
            write(allowed, dir + "/" + SCHEMA, schema.toString());
            write(allowed, dir + "/" + LOAD, load.toString());
        }
        return ResultRows.empty();
    }

    static QueryResult importFrom(QueryEngine engine, Statement.ImportDatabase i, List<Path> readable,
            QueryCancel cancel) {
        String dir = i.directory().endsWith("/") && i.directory().length() > 1
                ? i.directory().substring(0, i.directory().length() - 1) : i.directory();
        AllowedDirectories allowed = new AllowedDirectories(readable);
        String schema = read(allowed, dir + "/" + SCHEMA);
        String load = read(allowed, dir + "/" + LOAD);
        run(engine, SCHEMA, schema, dir, cancel);
        run(engine, LOAD, load, dir, cancel);
        return ResultRows.empty();
    }

    /** Runs the statements of one of the export's files: CREATE statements in schema.sql, COPY ... FROM in load.sql. */
    private static void run(QueryEngine engine, String fileName, String text, String dir, QueryCancel cancel) {
        int n = 0;
        for (String sql : StatementList.split(text)) {
            if (sql.isBlank()) {
                continue;
            }
            n++;
            QueryCancel.check(cancel);
            try {
                Statement st = StatementParser.parse(sql);
                boolean allowed = fileName.equals(SCHEMA)
                        ? st instanceof Statement.CreateTable || st instanceof Statement.CreateView
                                || st instanceof Statement.CreateSequence || st instanceof Statement.CreateMacro
                                || st instanceof Statement.CreateIndex
                        : st instanceof Statement.Copy;
                if (!allowed) {
                    throw new SqlError("unsupported: a statement other than " + (fileName.equals(SCHEMA)
                            ? "CREATE TABLE, VIEW, SEQUENCE, MACRO or INDEX" : "COPY ... FROM") + " there");
                }
                if (st instanceof Statement.Copy c) {
                    // the file of the imported directory by its name, wherever the export wrote it
                    String base = c.file().substring(c.file().lastIndexOf('/') + 1);
                    st = new Statement.Copy(c.table(), dir + "/" + base, c.format(), c.header(), c.delimiter(),
                            c.forceNotNull());
                }
                engine.executeWithin(st, cancel);
            } catch (SqlError e) {
                throw new SqlError("IMPORT DATABASE: " + fileName + ", statement " + n + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * The tables with each FOREIGN KEY's parent before its child, so that schema.sql makes and load.sql fills the
     * parent first (a table referencing itself needs nothing before it); otherwise in the catalog's order.
     */
    private static List<Table> parentsFirst(List<Table> tables) {
        List<Table> ordered = new ArrayList<>();
        Set<String> placed = new HashSet<>();
        List<Table> left = new ArrayList<>(tables);
        while (!left.isEmpty()) {
            boolean progress = false;
            for (java.util.Iterator<Table> it = left.iterator(); it.hasNext(); ) {
                Table t = it.next();
                boolean ready = t.schema().foreignKeys().stream().map(k -> k.parent().toLowerCase(Locale.ROOT))
                        .allMatch(p -> placed.contains(p) || p.equals(t.name().toLowerCase(Locale.ROOT)));
                if (ready) {
                    ordered.add(t);
                    placed.add(t.name().toLowerCase(Locale.ROOT));
                    it.remove();
                    progress = true;
                }
            }
            if (!progress) {
                ordered.addAll(left); // a cycle of keys CREATE TABLE cannot make: kept as it is
                break;
            }
        }
        return ordered;
    }

    /** A table's file name: its name in lower case, each character other than a letter or digit an underscore. */
    private static String fileName(String table, Set<String> taken) {
        StringBuilder sb = new StringBuilder();
        for (char c : table.toLowerCase(Locale.ROOT).toCharArray()) {
            sb.append(c < 128 && Character.isLetterOrDigit(c) ? c : '_');
        }
        String base = sb.toString();
        String name = base;
        for (int k = 1; !taken.add(name); k++) {
            name = base + "_" + k;
        }
        return name;
    }

    /** A name quoted for SQL text, each double quote doubled: read as a name, never as SQL. */
    private static String quoted(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** A SQL string literal of {@code text}, each single quote doubled. */
    private static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    private static void write(AllowedDirectories allowed, String file, String text) {
        try (FileChannel ch = allowed.openForWrite(file, "EXPORT DATABASE")) {
            ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                ch.write(bytes);
            }
        } catch (FileAccessException e) {
            throw new SqlError(e.getMessage(), e);
        } catch (IOException e) {
            throw new SqlError("EXPORT DATABASE: cannot write '" + AllowedDirectories.printable(file) + "': "
                    + e.getMessage(), e);
        }
    }

    private static String read(AllowedDirectories allowed, String file) {
        SourceFile source;
        try {
            source = allowed.openForRead(file, "IMPORT DATABASE");
        } catch (FileAccessException e) {
            throw new SqlError(e.getMessage(), e);
        }
        try (FileChannel ch = source.open()) {
            if (ch.size() > 64L << 20) {
                throw new SqlError("IMPORT DATABASE: '" + AllowedDirectories.printable(file) + "' is larger than"
                        + " 64 MB; an export's statements are far smaller");
            }
            ByteBuffer bytes = ByteBuffer.allocate((int) ch.size());
            while (bytes.hasRemaining() && ch.read(bytes) >= 0) {
                // read to the end
            }
            return new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SqlError("IMPORT DATABASE: cannot read '" + AllowedDirectories.printable(file) + "': "
                    + e.getMessage(), e);
        }
    }
}
