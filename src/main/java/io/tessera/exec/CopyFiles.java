package io.tessera.exec;

import io.tessera.data.io.ImportFormat;
import io.tessera.data.io.TableImporter;
import io.tessera.data.parquet.ParquetImporter;
import io.tessera.sql.SqlError;
import io.tessera.sql.Statement;
import io.tessera.storage.Database;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code COPY table FROM 'file'}: the import of {@code tessera import} ({@link TableImporter}, {@link ParquetImporter}
 * for FORMAT parquet or a file ending in .parquet: all rows or none, a
 * bad value named by file, line and column), for a file SQL may read. A statement's text can come from anyone an
 * application lets write SQL, so COPY reads only regular files whose real path (links followed) lies under one of
 * the directories the application allowed ({@code Tessera.allowCopyFrom}; {@code tessera sql} allows its current
 * directory and each {@code --allow-read DIR}); with none allowed, COPY reads nothing. docs/SECURITY.md states it.
 */
final class CopyFiles {

    private CopyFiles() {
    }

    static long copy(Database db, Statement.Copy s, String table, List<Path> allowed) {
        Path file = readable(s.file(), allowed);
        boolean parquet = s.format() != null ? s.format().equals("parquet") : ParquetImporter.isParquetName(file);
        if (parquet) {
            if (s.header() || s.delimiter() != null) {
                throw new SqlError("COPY " + table + ": HEADER and DELIMITER are for text files, not Parquet");
            }
            TableImporter.Options d = TableImporter.Options.defaults();
            return ParquetImporter.importFiles(db, table, List.of(file), d.threads(), d.invalidUtf8()).rows();
        }
        TableImporter.Options o = TableImporter.Options.defaults().withHeader(s.header());
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
        // read by its real path, the one checked: a link swapped in later leads nowhere else
        return TableImporter.importFiles(db, table, List.of(file), o).rows();
    }

    /** The file, when COPY may read it: a regular file under an allowed directory. */
    static Path readable(String name, List<Path> allowed) {
        if (allowed.isEmpty()) {
            throw new SqlError("COPY reads no file here: the application allowed no directory to read from"
                    + " (Tessera.allowCopyFrom; tessera sql allows its current directory and --allow-read DIR)");
        }
        Path given;
        try {
            given = Path.of(name);
        } catch (java.nio.file.InvalidPathException e) {
            throw new SqlError("COPY: '" + printable(name) + "' is not a file name", e);
        }
        Path real;
        try {
            real = given.toRealPath();
        } catch (NoSuchFileException e) {
            throw new SqlError("COPY: no such file '" + printable(name) + "'", e);
        } catch (IOException e) {
            throw new SqlError("COPY: cannot read '" + printable(name) + "': " + e.getMessage(), e);
        }
        boolean inside = false;
        for (Path dir : allowed) {
            try {
                inside |= real.startsWith(dir.toRealPath());
            } catch (IOException e) {
                // an allowed directory that is not there allows nothing
            }
        }
        if (!inside) {
            throw new SqlError("COPY: refusing to read '" + printable(name) + "': it is not under a directory COPY may"
                    + " read (" + String.join(", ", allowed.stream().map(Path::toString).toList()) + ")");
        }
        if (!Files.isRegularFile(real)) {
            throw new SqlError("COPY: refusing to read '" + printable(name) + "': not a regular file");
        }
        return real;
    }

    /** A name as an error shows it: control characters escaped, at most 200 characters. */
    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && b.length() < 200; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
