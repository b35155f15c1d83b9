package io.tessera.exec;

import io.tessera.data.io.AllowedDirectories;
import io.tessera.data.io.FileAccessException;
import io.tessera.data.io.ImportFormat;
import io.tessera.data.io.OptionSpelling;
import io.tessera.data.io.SourceFile;
import io.tessera.data.io.TableImporter;
import io.tessera.data.parquet.ParquetImporter;
import io.tessera.sql.SqlError;
import io.tessera.sql.Statement;
import io.tessera.storage.Database;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code COPY table FROM 'file'}: the import of {@code tessera import} ({@link TableImporter}, {@link ParquetImporter}
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

    static long copy(Database db, Statement.Copy s, String table, List<Path> allowed) {
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
