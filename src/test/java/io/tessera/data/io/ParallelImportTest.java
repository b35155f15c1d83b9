package io.tessera.data.io;

import io.tessera.storage.Database;
import io.tessera.storage.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.tessera.data.io.ImportTestSupport.opts;
import static io.tessera.data.io.ImportTestSupport.rows;
import static io.tessera.data.io.ImportTestSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A text file parsed in many chunks on several threads, each chunk written as a part of its own: the table holds
 * the file's rows in the file's order, the same as one thread reading one chunk, appends included.
 */
class ParallelImportTest {

    @TempDir
    Path dir;

    private static final int ROWS = 20_000;

    /** Rows with repeated and unique strings, NULLs, and quoted line breaks that chunk ends must not split. */
    private static String csv(List<List<Object>> expected) {
        StringBuilder sb = new StringBuilder("k,tag,note,v\n");
        for (int i = 0; i < ROWS; i++) {
            String tag = "tag" + (i % 7);
            String note = i % 11 == 0 ? null : i % 13 == 0 ? "line\nbreak " + i : "note " + (i * 7919 % ROWS);
            sb.append(i).append(',').append(tag).append(',');
            if (note != null) {
                sb.append(note.contains("\n") ? "\"" + note + "\"" : note);
            }
            sb.append(',').append(i * 3L).append('\n');
            expected.add(Arrays.asList(i, tag, note, i * 3L));
        }
        return sb.toString();
    }

    @Test
    void manyChunksOnManyThreadsKeepTheFilesOrder() {
        List<List<Object>> expected = new ArrayList<>();
        Path f = write(dir, "rows.csv", csv(expected));
        List<List<Object>> serial;
        try (Database db = Database.openOrCreate(dir.resolve("one"))) {
            db.createTable(TableSchema.parse("t", "k INTEGER NOT NULL, tag VARCHAR, note VARCHAR, v BIGINT"));
            TableImporter.importFiles(db, "t", List.of(f), opts().withHeader(true).withThreads(1)
                    .withChunkBytes(1 << 30));
            serial = rows(db.table("t"));
        }
        assertEquals(expected, serial);
        try (Database db = Database.openOrCreate(dir.resolve("many"))) {
            db.createTable(TableSchema.parse("t", "k INTEGER NOT NULL, tag VARCHAR, note VARCHAR, v BIGINT"));
            TableImporter.Options o = opts().withHeader(true).withThreads(4).withChunkBytes(4096);
            var s = TableImporter.importFiles(db, "t", List.of(f), o);
            assertTrue(s.bytes() / 4096 > 50, "the file is read in many chunks");
            assertEquals(serial, rows(db.table("t")));
            TableImporter.importFiles(db, "t", List.of(f), o);
            List<List<Object>> twice = new ArrayList<>(serial);
            twice.addAll(serial);
            assertEquals(twice, rows(db.table("t")), "an append keeps the rows before it, then the file's");
        }
    }

    @Test
    void progressCountsEveryRowAndByteInOrder() {
        List<List<Object>> expected = new ArrayList<>();
        Path f = write(dir, "rows.csv", csv(expected));
        List<long[]> calls = new ArrayList<>();
        long[] started = new long[1];
        ImportProgress p = new ImportProgress() {
            @Override
            public void start(String table, long totalBytes) {
                started[0] = totalBytes;
            }

            @Override
            public void advanced(long rows, long bytes) {
                calls.add(new long[] {rows, bytes});
            }

            @Override
            public void committing() {
                calls.add(new long[] {-1, -1});
            }

            @Override
            public void finish() {
                calls.add(new long[] {-2, -2});
            }
        };
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            db.createTable(TableSchema.parse("t", "k INTEGER NOT NULL, tag VARCHAR, note VARCHAR, v BIGINT"));
            var s = TableImporter.importFiles(db, "t", List.of(f), opts().withHeader(true).withThreads(3)
                    .withChunkBytes(8192).withProgress(p));
            long rows = 0;
            long bytes = 0;
            for (long[] c : calls.subList(0, calls.size() - 2)) {
                rows += c[0];
                bytes += c[1];
            }
            assertEquals(s.bytes(), started[0]);
            assertEquals(ROWS, rows);
            assertEquals(s.bytes(), bytes);
            assertEquals(-1, calls.get(calls.size() - 2)[0], "then the commit");
            assertEquals(-2, calls.getLast()[0], "then the end");
        }
    }
}
