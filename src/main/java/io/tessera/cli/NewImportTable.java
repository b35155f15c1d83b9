package io.tessera.cli;

import io.tessera.data.io.CsvSniffer;
import io.tessera.data.io.ImportException;
import io.tessera.data.io.ImportFormat;
import io.tessera.data.io.InferredSchema;
import io.tessera.data.io.SourceFile;
import io.tessera.data.parquet.ParquetImporter;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.TableSchema;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The table {@code tessera import} makes when its table is not there: the first file's columns with the types
 * a query's {@code FROM 'file'} gives them. A Parquet file's columns come from its footer (a column of a type
 * Tessera cannot hold is left out, and said so); a CSV file's delimiter, header and types are guessed as
 * {@code read_csv} guesses them ({@link CsvSniffer}), where {@code --delimiter} and {@code --header} do not give
 * them. A .tbl file names no columns, so its table is made with {@code tessera create} first.
 *
 * @param schema       the table to create
 * @param parquetNames for Parquet, the file column each table column is read from (a name storage cannot hold
 *                     is changed in the table); null for CSV
 * @param dialect      for CSV, the delimiter and header the import reads the files with; null for Parquet
 * @param skipped      Parquet columns left out, each with why
 * @param from         the file the columns were read from
 */
record NewImportTable(TableSchema schema, List<String> parquetNames, CsvSniffer.Dialect dialect,
                      List<String> skipped, String from) {

    /**
     * The table {@code files} make, read as {@code parquet} or else in {@code format} (null: from the first
     * file's name), with the CSV options the command line gave (null: guessed).
     */
    static NewImportTable of(String table, String database, List<Path> files, boolean parquet, ImportFormat format,
                             Byte delimiter, Boolean header) {
        Path first = files.getFirst();
        if (!parquet && (format != null ? format : ImportFormat.fromFileName(first)) == ImportFormat.TBL) {
            throw new IllegalArgumentException("no table " + table + " in database " + database + ", and a .tbl"
                    + " file names no columns to make it from: create it first (tessera create --db " + database
                    + " --table " + table + " --columns \"...\"), or give --format csv");
        }
        if (!Files.isRegularFile(first)) {
            throw new ImportException(first.toString(), first + ": no such file", null);
        }
        return parquet ? parquet(table, first) : csv(table, first, delimiter, header);
    }

    private static NewImportTable parquet(String table, Path first) {
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (ParquetImporter.FileColumn c : ParquetImporter.columns(SourceFile.of(first))) {
            if (c.type() != null) {
                names.add(c.name());
                types.add(c.type());
            } else {
                skipped.add(c.name() + " (" + c.reason() + ")");
            }
        }
        if (names.isEmpty()) {
            throw new ImportException(first.toString(), 0, 0, first + ": no column of a type Tessera can hold, so"
                    + " table " + table + " cannot be made from it (" + String.join(", ", skipped) + ")");
        }
        return new NewImportTable(InferredSchema.of(table, names, types), List.copyOf(names), null,
                List.copyOf(skipped), first.toString());
    }

    private static NewImportTable csv(String table, Path first, Byte delimiter, Boolean header) {
        SourceFile source = SourceFile.of(first);
        CsvSniffer.Dialect dialect;
        try (FileChannel ch = source.open()) {
            dialect = CsvSniffer.sniff(source, ch, delimiter, header);
        } catch (IOException e) {
            throw new ImportException(source.name(), source.name() + ": cannot read: " + e.getMessage(), e);
        }
        return new NewImportTable(InferredSchema.of(table, dialect.names(), dialect.types()), null, dialect,
                List.of(), first.toString());
    }

    /** What was made, for the user: the columns with their types, and how a CSV file is read. */
    List<String> description() {
        List<String> lines = new ArrayList<>();
        String how = dialect == null ? "" : ", delimiter " + delimiterText(dialect.delimiter())
                + (dialect.header() ? ", the first line a header" : ", no header");
        lines.add("created table " + schema.name() + " (" + schema.columns().size() + " column"
                + (schema.columns().size() == 1 ? "" : "s") + ") from " + from + how + ": "
                + schema.columns().stream().map(ColumnSchema::toString).collect(Collectors.joining(", ")));
        for (String s : skipped) {
            lines.add("left out column " + s);
        }
        return lines;
    }

    private static String delimiterText(byte d) {
        return d == '\t' ? "tab" : "'" + (char) d + "'";
    }
}
