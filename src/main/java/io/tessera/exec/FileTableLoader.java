package io.tessera.exec;

import io.tessera.data.io.AllowedDirectories;
import io.tessera.data.io.CsvSniffer;
import io.tessera.data.io.FileAccessException;
import io.tessera.data.io.ImportException;
import io.tessera.data.io.ImportFormat;
import io.tessera.data.io.InferredSchema;
import io.tessera.data.io.InvalidUtf8;
import io.tessera.data.io.OptionSpelling;
import io.tessera.data.io.SourceFile;
import io.tessera.data.io.TableImporter;
import io.tessera.data.parquet.ParquetImporter;
import io.tessera.data.parquet.RowGroupBounds;
import io.tessera.sql.FileReference;
import io.tessera.sql.FileTables;
import io.tessera.sql.Series;
import io.tessera.sql.SqlError;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * The files one statement names in FROM, each loaded into a table of a temporary database in the database
 * directory ({@code .files/<pid>-<n>/}, deleted when the statement ends): opened below the directories SQL may
 * read ({@link AllowedDirectories}, as COPY), with only the columns the statement names (a Parquet file's other
 * columns are not read, a CSV file's other fields not parsed; a Parquet row group whose statistics rule out the
 * WHERE's comparisons of a column with a number is skipped), a CSV file's delimiter, header and types guessed
 * ({@link CsvSniffer}) where the statement does not give them. The query then plans the file as a table, statistics included.
 */
final class FileTableLoader implements FileTables, AutoCloseable {

    private static final AtomicLong NEXT_DIRECTORY = new AtomicLong();

    private final Database db;
    private final List<Path> allowed;
    private Path directory;
    private Database files;
    private boolean schemaOnly;
    /** The series made in memory so far, which the temporary database does not count. */
    private int seriesInMemory;

    /** The statement's cancellation handle (null: it cannot be cancelled). */
    private final io.tessera.api.QueryCancel cancel;
    /** The tables of rows made so far ({@link #rows}), for their names. */
    private int rowTables;

    FileTableLoader(Database db, List<Path> allowed, io.tessera.api.QueryCancel cancel) {
        this.db = db;
        this.allowed = allowed;
        this.cancel = cancel;
    }

    /** The statement's cancellation handle, for work done while it is planned (null: none). */
    io.tessera.api.QueryCancel cancel() {
        return cancel;
    }

    /**
     * A new table of the temporary database holding {@code rows} (values as a query's result gives them) in
     * {@code columns}, named {@code prefix_N}: the rows a recursive query made.
     */
    Table rows(String prefix, List<ColumnSchema> columns, List<Object[]> rows) {
        return replaceRows(newTableName(prefix), columns, rows);
    }

    /**
     * Table {@code name} of the temporary database holding {@code rows} in {@code columns}, in place of the one of
     * that name before (a recursive query's rows of one iteration, which no reader needs once the next is made).
     */
    Table replaceRows(String name, List<ColumnSchema> columns, List<Object[]> rows) {
        Database d = database();
        try (io.tessera.storage.TableWriter w = d.replace(new TableSchema(name, columns))) {
            RowAppender.append(rows, w, cancel);
            return w.commit();
        }
    }

    /** A table {@link #imported} filled, and what its import returned. */
    record Imported<T>(Table rows, T result) {
    }

    /**
     * A new table of the temporary database of {@code columns}, named {@code prefix_N}, filled by {@code importInto}
     * (given the database and the table's name): the rows COPY FROM or {@code tessera import} reads from a file, held
     * there to be completed and checked before they are appended to the table they are for.
     */
    <T> Imported<T> imported(String prefix, List<ColumnSchema> columns, BiFunction<Database, String, T> importInto) {
        Database d = database();
        String name = newTableName(prefix);
        d.createTable(new TableSchema(name, columns));
        T result = importInto.apply(d, name);
        return new Imported<>(d.table(name), result);
    }

    /** A name for a table of {@link #replaceRows} that no other table of the statement has. */
    String newTableName(String prefix) {
        return prefix + "_" + rowTables++;
    }

    /** Whether the statement has read a file or made a table of rows or a series so far. */
    boolean used() {
        return files != null || seriesInMemory > 0 || rowTables > 0;
    }

    /** Makes the tables of files without their rows (for DESCRIBE). */
    void schemaOnly() {
        schemaOnly = true;
    }

    @Override
    public Table table(FileReference ref) {
        try {
            return load(ref);
        } catch (FileAccessException e) {
            throw new SqlError(e.getMessage() + ref.at(), e);
        } catch (ImportException | IllegalArgumentException e) {
            throw new SqlError(e.getMessage(), e);
        }
    }

    @Override
    public Table series(Series series) {
        // the name EXPLAIN shows
        String name = "series_" + ((files == null ? 0 : files.tables().size()) + seriesInMemory);
        if (SeriesTables.inMemory(series)) {
            seriesInMemory++;
            return SeriesTables.inMemory(name, series, schemaOnly);
        }
        Database d = database();
        return SeriesTables.write(d, name, series, schemaOnly);
    }

    private Table load(FileReference ref) {
        List<SourceFile> sources = new ArrayList<>();
        AllowedDirectories readable = new AllowedDirectories(allowed);
        try {
            for (String path : ref.paths()) { // a list's files read in its order, a glob's in its names' order
                sources.addAll(readable.openMatching(path, "FROM"));
            }
            String name = "file_" + (files == null ? 0 : files.tables().size()); // the name EXPLAIN shows
            return ref.parquet() ? parquet(ref, name, sources) : csv(ref, name, sources);
        } finally {
            for (SourceFile f : sources) {
                CopyFiles.closeQuietly(f);
            }
        }
    }

    private Table parquet(FileReference ref, String name, List<SourceFile> sources) {
        if (!ref.options().isEmpty()) {
            throw new SqlError("unsupported: option " + ref.options().keySet().iterator().next() + " of "
                    + ref.function() + ref.at());
        }
        List<ParquetImporter.FileColumn> columns = ParquetImporter.columns(sources.getFirst());
        List<ParquetImporter.FileColumn> read = new ArrayList<>();
        for (ParquetImporter.FileColumn c : columns) {
            if (ref.usedNames() == null || ref.usedNames().contains(c.name().toLowerCase(Locale.ROOT))) {
                read.add(c);
            }
        }
        if (read.isEmpty()) {
            // the rows are counted by one column: the first Tessera can hold
            columns.stream().filter(c -> c.type() != null).findFirst().ifPresent(read::add);
        }
        for (ParquetImporter.FileColumn c : read) {
            if (c.type() == null) {
                throw new SqlError("FROM: '" + ref.path() + "'" + ref.at() + ": column " + c.name() + " holds "
                        + c.reason() + " (a query that does not name it reads the file's other columns)");
            }
        }
        if (read.isEmpty()) {
            throw new SqlError("FROM: '" + ref.path() + "'" + ref.at() + ": no column of a type Tessera can hold");
        }
        TableSchema schema = InferredSchema.of(name, read.stream().map(ParquetImporter.FileColumn::name).toList(),
                read.stream().map(ParquetImporter.FileColumn::type).toList());
        Database d = database();
        d.createTable(schema);
        TableImporter.Options o = TableImporter.Options.defaults();
        if (!schemaOnly) {
            ParquetImporter.importSources(d, name, sources, read.stream().map(ParquetImporter.FileColumn::name)
                    .toList(), bounds(ref, columns), o.threads(), InvalidUtf8.ERROR);
        }
        return d.table(name);
    }

    /** The statement's bounds on the file's columns (one column of the name, ignoring case), for row groups. */
    private static RowGroupBounds bounds(FileReference ref, List<ParquetImporter.FileColumn> columns) {
        List<RowGroupBounds.Bound> out = new ArrayList<>();
        for (FileReference.Bound b : ref.bounds()) {
            List<ParquetImporter.FileColumn> named = columns.stream()
                    .filter(c -> c.name().equalsIgnoreCase(b.column())).toList();
            if (named.size() == 1) {
                RowGroupBounds.Op op = switch (b.op()) {
                    case "<" -> RowGroupBounds.Op.LT;
                    case "<=" -> RowGroupBounds.Op.LE;
                    case ">" -> RowGroupBounds.Op.GT;
                    case ">=" -> RowGroupBounds.Op.GE;
                    default -> RowGroupBounds.Op.EQ;
                };
                out.add(new RowGroupBounds.Bound(named.getFirst().name(), op, b.value()));
            }
        }
        return new RowGroupBounds(out);
    }

    /**
     * Refuses a Parquet file (its first bytes are PAR1) about to be read as CSV, as a pattern not ending in .parquet
     * would read it ({@code FROM 'logs/ev.*'} matching ev.csv and ev.parquet): its bytes would be parsed as text.
     */
    private static void refuseParquet(FileReference ref, List<SourceFile> sources) {
        for (SourceFile s : sources) {
            boolean parquet;
            try {
                parquet = ParquetImporter.beginsAsParquet(s.open()); // the channel, open until the statement ends
            } catch (IOException e) {
                continue; // the CSV reader says what is wrong with it
            }
            if (parquet) {
                throw new SqlError("FROM: '" + s.name() + "' is a Parquet file, which '" + ref.path()
                        + "' reads as CSV (it does not end in .parquet): name the Parquet files apart, with "
                        + "read_parquet or a pattern ending in .parquet" + ref.at());
            }
        }
    }

    /** Refuses an option whose value is other than the one the reader always takes. */
    private static void requireOption(FileReference ref, String option, String value, String only) {
        if (!value.equalsIgnoreCase(only)) {
            throw new SqlError("unsupported: " + option + " = '" + value + "' of " + ref.function() + ref.at()
                    + " (only " + only + ")");
        }
    }

    /**
     * The types of a CSV file's fields: those {@code columns = {...}} names (as many as the file has fields), else
     * VARCHAR for each where {@code all_varchar} asks, else those sniffed.
     */
    private static List<DataType> givenTypes(FileReference ref, CsvSniffer.Dialect dialect, boolean allVarchar) {
        if (!ref.columns().isEmpty()) {
            if (ref.columns().size() != dialect.names().size()) {
                throw new SqlError("FROM: columns of " + ref.function() + ref.at() + " names "
                        + ref.columns().size() + " columns, the file '" + ref.path() + "' has "
                        + dialect.names().size() + " fields a line");
            }
            List<DataType> types = new ArrayList<>();
            for (var c : ref.columns().entrySet()) {
                try {
                    types.add(DataType.parse(c.getValue()));
                } catch (IllegalArgumentException e) {
                    throw new SqlError("FROM: columns of " + ref.function() + ref.at() + ": column " + c.getKey()
                            + ": " + e.getMessage(), e);
                }
            }
            return types;
        }
        if (allVarchar) {
            return java.util.Collections.nCopies(dialect.names().size(), DataType.VARCHAR);
        }
        return dialect.types();
    }

    private Table csv(FileReference ref, String name, List<SourceFile> sources) {
        Byte delimiter = null;
        Boolean header = null;
        boolean allVarchar = false;
        for (var e : ref.options().entrySet()) {
            switch (e.getKey()) {
                case "delim", "sep", "delimiter" -> delimiter = ImportFormat.parseDelimiter(e.getValue());
                case "header" -> header = Boolean.parseBoolean(e.getValue());
                case "all_varchar" -> allVarchar = Boolean.parseBoolean(e.getValue());
                // what the reader does anyway: RFC 4180's quote, doubled to escape it, types guessed
                case "quote", "escape" -> requireOption(ref, e.getKey(), e.getValue(), "\"");
                case "auto_detect" -> requireOption(ref, e.getKey(), e.getValue(), "true");
                default -> throw new SqlError("unsupported: option " + e.getKey() + " of " + ref.function()
                        + ref.at() + " (delim, header, all_varchar, columns)");
            }
        }
        refuseParquet(ref, sources);
        SourceFile first = sources.getFirst();
        CsvSniffer.Dialect dialect;
        try {
            dialect = CsvSniffer.sniff(first, first.open(), delimiter, header);
        } catch (IOException e) {
            throw new SqlError("FROM: cannot read '" + first.name() + "': " + e.getMessage(), e);
        }
        List<String> names = ref.columns().isEmpty() ? dialect.names() : List.copyOf(ref.columns().keySet());
        TableSchema fields = InferredSchema.of(name, names, givenTypes(ref, dialect, allVarchar));
        // the columns the statement names: the others are skipped unparsed
        List<ColumnSchema> kept = new ArrayList<>();
        for (ColumnSchema c : fields.columns()) {
            if (ref.usedNames() == null || ref.usedNames().contains(c.name().toLowerCase(Locale.ROOT))) {
                kept.add(c);
            }
        }
        if (kept.isEmpty()) {
            kept.add(fields.columns().getFirst()); // the rows are counted by one column
        }
        Database d = database();
        d.createTable(new TableSchema(name, kept));
        if (!schemaOnly) {
            TableImporter.importSources(d, name, sources, TableImporter.Options.defaults()
                    .withFormat(ImportFormat.CSV).withDelimiter(dialect.delimiter()).withHeader(dialect.header())
                    .withSpelling(OptionSpelling.READ_CSV),
                    fields);
        }
        return d.table(name);
    }

    /**
     * The statement's temporary database, made when its first file is read (or COPY TO needs a table of its rows);
     * deleted when the statement ends.
     */
    Database database() {
        if (files == null) {
            directory = db.directory().resolve(".files").resolve(ProcessHandle.current().pid() + "-"
                    + NEXT_DIRECTORY.incrementAndGet());
            try {
                Files.createDirectories(directory.getParent());
            } catch (IOException e) {
                throw new SqlError("FROM: cannot make a temporary table for a file in " + directory.getParent()
                        + ": " + e.getMessage(), e);
            }
            Database.deleteTree(directory);
            files = Database.createTemporary(directory);
        }
        return files;
    }

    @Override
    public void close() {
        if (files != null) {
            files.close();
            Database.deleteTree(directory);
            try {
                Files.deleteIfExists(directory.getParent()); // only when no other statement's files are there
            } catch (IOException e) {
                // another statement's files are there
            }
            files = null;
        }
    }
}
