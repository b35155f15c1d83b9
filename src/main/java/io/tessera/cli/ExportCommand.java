package io.tessera.cli;

import io.tessera.data.io.ImportFormat;
import io.tessera.data.io.TableExporter;
import io.tessera.data.parquet.ParquetExporter;
import io.tessera.data.parquet.ParquetImporter;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;

/** {@code tessera export}: writes a table as .tbl, CSV or Parquet that {@code tessera import} reads back. */
@Command(name = "export", mixinStandardHelpOptions = true, description = {
        "Write a table as .tbl, CSV or Parquet, readable by import to the same values.",
        "csv: a header line, RFC 4180 quoting, NULL as an empty field, the empty string as \"\".",
        "tbl: every field followed by '|', NULL as an empty field.",
        "parquet: the column types kept (DECIMAL, DATE, ...), Snappy-compressed pages."})
public final class ExportCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Mixin
    DbOption db;

    @Option(names = "--table", required = true, paramLabel = "T", description = "table to write")
    String table;

    @Option(names = "--format", paramLabel = "tbl|csv|parquet",
            description = "output format (default: tbl when OUT ends in .tbl, parquet for .parquet, otherwise csv)")
    String format;

    @Option(names = "--delimiter", paramLabel = "C", description = "field delimiter (default: '|' for tbl, ',' for csv)")
    String delimiter;

    @Parameters(index = "0", paramLabel = "OUT", description = "output file (replaced when it exists)")
    Path out;

    @Override
    public void run() {
        boolean parquet = format != null ? format.trim().equalsIgnoreCase("parquet") : ParquetImporter.isParquetName(out);
        if (parquet) {
            if (delimiter != null) {
                throw new IllegalArgumentException("--delimiter is for text files, not Parquet");
            }
            try (Database d = Database.open(db.db)) {
                Table t = d.table(table);
                long rows = ParquetExporter.export(t, out);
                spec.commandLine().getOut().println("exported " + TablesCommand.rowCount(rows) + " of " + t.name()
                        + " to " + out);
                spec.commandLine().getOut().flush();
            }
            return;
        }
        ImportFormat f = format != null ? ImportFormat.parse(format) : ImportFormat.fromFileName(out);
        byte delim = delimiter != null ? ImportFormat.parseDelimiter(delimiter) : (byte) f.defaultDelimiter();
        try (Database d = Database.open(db.db)) {
            Table t = d.table(table);
            long rows = TableExporter.export(t, out, f, delim);
            spec.commandLine().getOut().println("exported " + TablesCommand.rowCount(rows) + " of " + t.name()
                    + " to " + out);
            spec.commandLine().getOut().flush();
        }
    }
}
