package io.tessera.cli;

import io.tessera.bench.ImportBench;
import io.tessera.data.io.ImportFormat;
import io.tessera.data.parquet.ParquetImporter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code tessera bench import FILE}: the file imported by Tessera and by DuckDB's {@code CREATE TABLE AS} in one
 * process, side by side (see {@link ImportBench}).
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Import one CSV or Parquet file into a new table in Tessera and with DuckDB's "
                + "CREATE TABLE t AS SELECT * FROM 'FILE' (then CHECKPOINT), alternating, each run into new files: "
                + "wall and CPU seconds, medians, and their ratio.",
                "Tessera's table gets the column types DuckDB's got, unless --columns gives them."})
public final class ImportBenchCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE", description = "a .csv (or other text) or .parquet file")
    Path file;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "3",
            description = "runs of each engine (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--format", paramLabel = "csv|tbl|parquet", description = "default: from the file's name")
    String format;

    @Option(names = "--delimiter", paramLabel = "C", description = "CSV delimiter (default: guessed by both)")
    String delimiter;

    @Option(names = "--header", negatable = true,
            description = "whether a CSV file's first line is a header (default: guessed by both)")
    Boolean header;

    @Option(names = "--columns", paramLabel = "LIST",
            description = "Tessera's columns, e.g. \"a INTEGER, b VARCHAR\" (default: the types DuckDB gave)")
    String columns;

    @Option(names = "--threads", paramLabel = "N", description = "Tessera's import threads (default: all cores)")
    Integer threads;

    @Option(names = "--work", paramLabel = "DIR",
            description = "where both write their databases (default: a new directory under the system's temporary"
                    + " directory, removed at the end)")
    Path work;

    @Override
    public Integer call() throws Exception {
        if (runs < 1) {
            throw new IllegalArgumentException("--runs must be at least 1");
        }
        boolean parquet = format != null ? format.trim().equalsIgnoreCase("parquet")
                : ParquetImporter.isParquetName(file);
        ImportFormat text = parquet ? null : format != null ? ImportFormat.parse(format) : ImportFormat.fromFileName(file);
        Byte delim = delimiter == null ? null : ImportFormat.parseDelimiter(delimiter);
        boolean temporary = work == null;
        Path dir = temporary ? Files.createTempDirectory("tessera-bench-import") : work;
        ImportBench.Setup s = new ImportBench.Setup(file, text, parquet, delim, header, columns,
                threads != null ? threads : Runtime.getRuntime().availableProcessors(), runs, dir);
        try {
            List<ImportBench.Run> all = ImportBench.run(s, System.err);
            System.out.print(ImportBench.format(s, all, Files.size(file)));
            System.out.println(String.format(Locale.ROOT, "databases written in %s", dir));
            return 0;
        } finally {
            if (temporary) {
                try (var walk = Files.walk(dir)) {
                    for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
    }
}
