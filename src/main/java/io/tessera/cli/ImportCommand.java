package io.tessera.cli;

import io.tessera.api.QueryCancel;
import io.tessera.data.io.ImportFormat;
import io.tessera.data.io.ImportProgress;
import io.tessera.data.io.ProgressLine;
import io.tessera.data.io.InvalidUtf8;
import io.tessera.data.io.SourceFile;
import io.tessera.data.io.TableImporter;
import io.tessera.data.parquet.ParquetImporter;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.storage.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code tessera import}: appends the rows of .tbl, CSV or Parquet files to a table, all or nothing; a table (and
 * database) not there yet is made from the first file's columns first ({@link NewImportTable}).
 */
@Command(name = "import", mixinStandardHelpOptions = true, description = {
        "Append rows from .tbl, CSV or Parquet files to a table; on any error the table is left unchanged.",
        "A table not there yet is made from the first CSV or Parquet file's columns",
        "with the types FROM 'file' gives them (a CSV file's delimiter, header and",
        "types guessed unless given), and dropped again when the import fails.",
        "tbl: fields separated by '|', a trailing '|' allowed, no quoting; an empty field is NULL",
        "(the empty string in a VARCHAR NOT NULL column).",
        "csv: RFC 4180 quoting; an unquoted empty field is NULL, a quoted \"\" is the empty string.",
        "parquet: columns matched to the table's by name; row groups read on all cores.",
        "A table's CHECK constraints are checked on every row before anything is written.",
        "On a terminal, a line on standard error shows the progress of an import that runs over two seconds."})
public final class ImportCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Mixin
    DbOption db;

    @Mixin
    NoWaitOption noWait;

    @Option(names = "--table", required = true, paramLabel = "T",
            description = "table to append to (made from the first file when it is not there)")
    String table;

    @Option(names = "--format", paramLabel = "tbl|csv|parquet",
            description = "input format (default: tbl for files ending in .tbl, parquet for .parquet, otherwise csv)")
    String format;

    @Option(names = "--delimiter", paramLabel = "C",
            description = "field delimiter (default: '|' for tbl, ',' for csv; \\t or tab for a tab)")
    String delimiter;

    @Option(names = "--header", negatable = true, description = "the first line (record) of every file is a header:"
            + " compared with the table's columns and skipped (default: no header; for a new table, guessed)")
    Boolean header;

    @Option(names = "--threads", paramLabel = "N", description = "parser threads (default: all cores)")
    Integer threads;

    @Option(names = "--invalid-utf8", paramLabel = "error|replace",
            description = "a VARCHAR field that is not UTF-8: an error naming file, line and column (default),"
                    + " or replace each invalid sequence with U+FFFD")
    String invalidUtf8;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "input files, appended in this order")
    List<Path> files;

    /** Parquet when --format says so, or without it when every file ends in .parquet (some but not all: an error). */
    private boolean isParquet() {
        boolean parquet;
        if (format != null) {
            parquet = format.trim().equalsIgnoreCase("parquet");
        } else {
            long named = files.stream().filter(ParquetImporter::isParquetName).count();
            if (named > 0 && named < files.size()) {
                throw new IllegalArgumentException("some files end in .parquet and some do not: import them apart,"
                        + " or give --format");
            }
            parquet = named > 0;
        }
        if (parquet && (header != null || delimiter != null)) {
            throw new IllegalArgumentException("--header and --delimiter are for text files, not Parquet");
        }
        return parquet;
    }

    @Override
    public void run() {
        TableImporter.Options o = TableImporter.Options.defaults().withHeader(Boolean.TRUE.equals(header));
        boolean parquet = isParquet();
        ImportFormat textFormat = format != null && !parquet ? ImportFormat.parse(format) : null;
        if (textFormat != null) {
            o = o.withFormat(textFormat);
        }
        Byte delim = delimiter != null ? ImportFormat.parseDelimiter(delimiter) : null;
        if (delim != null) {
            o = o.withDelimiter(delim);
        }
        if (threads != null) {
            o = o.withThreads(threads);
        }
        if (invalidUtf8 != null) {
            o = o.withInvalidUtf8(InvalidUtf8.parse(invalidUtf8));
        }
        // a database not there yet is made only once the file's columns were read
        NewImportTable created = Database.exists(db.db) ? null : newTable(parquet, textFormat, delim);
        try (Database d = created != null ? Database.openOrCreate(db.db, noWait.waits())
                : Database.open(db.db).waitForOtherWriters(noWait.waits())) {
            if (created == null && !d.hasTable(table)) {
                created = newTable(parquet, textFormat, delim);
            }
            if (created == null && !d.table(table).schema().enforcedKeys().isEmpty()) {
                // the importers write storage directly, past the checks of an INSERT's keys (exec.KeyedInsert)
                throw new IllegalArgumentException("table " + table + " has a " + (d.table(table).schema().keys()
                        .isEmpty() ? "UNIQUE index" : "PRIMARY KEY or UNIQUE constraint") + ", which"
                        + " tessera import does not check: load the file with COPY " + table
                        + " FROM 'file' in tessera sql, which checks it");
            }
            if (created == null && d.table(table).schema().columns().stream().anyMatch(c -> c.isGenerated())) {
                // likewise past the query that computes them (exec.GeneratedRows)
                throw new IllegalArgumentException("table " + table + " has generated columns, which tessera import"
                        + " does not compute: load the file with COPY " + table + " FROM 'file' in tessera sql,"
                        + " which computes them");
            }
            long t0 = System.nanoTime();
            ImportProgress progress = GenerationProgress.stderrIsTerminal()
                    ? new ProgressLine(System.err, System::nanoTime) : ImportProgress.NONE;
            TableImporter.Summary s;
            if (created == null && (!d.table(table).schema().checks().isEmpty()
                    || !d.table(table).schema().foreignKeys().isEmpty())) {
                // checked before the commit as COPY's rows are (exec.CheckedRows: CHECKs and FOREIGN KEYs)
                s = importChecked(d, parquet, o.withProgress(progress));
            } else if (created == null) {
                s = importInto(d, table, parquet, o.withProgress(progress));
            } else {
                s = importIntoNew(d, created, o.withProgress(progress));
                for (String line : created.description()) {
                    spec.commandLine().getOut().println(line);
                }
            }
            double sec = (System.nanoTime() - t0) / 1e9;
            double mb = s.bytes() / 1e6;
            spec.commandLine().getOut().println(String.format(Locale.ROOT,
                    "imported %s into %s from %d file%s (%.1f MB) in %.2f s: %.1f MB/s on %d thread%s"
                            + " (parse and write %.2f s, commit %.2f s)",
                    TablesCommand.rowCount(s.rows()), d.table(table).name(), s.files(), s.files() == 1 ? "" : "s",
                    mb, sec,
                    sec > 0 ? mb / sec : 0.0, o.threads(), o.threads() == 1 ? "" : "s",
                    s.parseNanos() / 1e9, s.commitNanos() / 1e9));
            spec.commandLine().getOut().flush();
        }
    }

    /** Appends the files' rows to table {@code into} of {@code d}, committed once all are read. */
    private TableImporter.Summary importInto(Database d, String into, boolean parquet, TableImporter.Options o) {
        return parquet ? ParquetImporter.importFiles(d, into, files, o.threads(), o.invalidUtf8(), o.progress())
                : TableImporter.importFiles(d, into, files, o);
    }

    /**
     * Into a table with CHECK constraints, which the importers, writing storage directly, do not evaluate: the rows are
     * imported into a table of a temporary database first, checked there by a query, and appended only when every row
     * passes (exec.CheckedRows, as COPY FROM does), so that a row that fails one writes nothing.
     */
    private TableImporter.Summary importChecked(Database d, boolean parquet, TableImporter.Options o) {
        try (QueryEngine engine = new QueryEngine(d, o.threads(), Device.CPU, null)) {
            return engine.appendChecked(table, (scratch, held) -> importInto(scratch, held, parquet, o),
                    new QueryCancel());
        }
    }

    private NewImportTable newTable(boolean parquet, ImportFormat textFormat, Byte delim) {
        return NewImportTable.of(table, db.db.toString(), files, parquet, textFormat, delim, header);
    }

    /** Creates the table, then imports; the table is dropped again when the import fails. */
    private TableImporter.Summary importIntoNew(Database d, NewImportTable created, TableImporter.Options o) {
        d.createTable(created.schema());
        try {
            List<SourceFile> sources = files.stream().map(SourceFile::of).toList();
            if (created.parquetNames() != null) {
                return ParquetImporter.importSources(d, table, sources, created.parquetNames(), o.threads(),
                        o.invalidUtf8(), o.progress());
            }
            // every file read with the first one's dialect, its fields the new table's columns
            TableImporter.Options csv = o.withFormat(ImportFormat.CSV).withDelimiter(created.dialect().delimiter())
                    .withHeader(created.dialect().header());
            return TableImporter.importSources(d, table, sources, csv, created.schema());
        } catch (RuntimeException e) {
            try {
                d.dropTable(table);
            } catch (RuntimeException dropped) {
                e.addSuppressed(dropped);
            }
            throw e;
        }
    }
}
