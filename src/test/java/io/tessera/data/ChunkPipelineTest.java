package io.tessera.data;

import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChunkPipelineTest {

    static final TableSchema A = TableSchema.parse("a", "k INTEGER NOT NULL, s VARCHAR NOT NULL");
    static final TableSchema B = TableSchema.parse("b", "k INTEGER NOT NULL, s VARCHAR NOT NULL");

    /** Chunk c: 100 + c rows, keys counting on from the chunks before it. */
    static RowBatch chunk(TableSchema schema, int c) {
        RowBatch b = new RowBatch(schema, 16);
        long first = 100L * c + (long) c * (c - 1) / 2;
        for (int i = 0; i < 100 + c; i++) {
            b.column(0).appendInt((int) (first + i));
            b.column(1).appendString("v" + (first + i) % 37);
        }
        return b;
    }

    @Test
    void tablesAreCommittedInOrderWithTheirChunksInOrder(@TempDir Path dir) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Progress report = Progress.report(new PrintStream(out, true, StandardCharsets.UTF_8), null);
        try (Database db = Database.openOrCreate(dir)) {
            Map<String, Long> rows = ChunkPipeline.run(db, List.of(
                    new ChunkPipeline.TableJob(A, 12, 1_266, c -> chunk(A, c)),
                    new ChunkPipeline.TableJob(B, 3, 303, c -> chunk(B, c))), 3, 4, report);
            assertEquals(Map.of("a", 1_266L, "b", 303L), rows);
            assertEquals(List.of("a", "b"), db.tables().stream().map(t -> t.name()).toList());
            for (int r = 0; r < 1_266; r++) {
                assertEquals(r, db.table("a").column("k").getInt(r));
                assertEquals("v" + r % 37, db.table("a").column("s").getString(r));
            }
        }
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(2, lines.length, out.toString(StandardCharsets.UTF_8));
        assertTrue(lines[0].matches("a +1,266 rows, done at +\\d+\\.\\d\\d s"), lines[0]);
        assertTrue(lines[1].matches("b +303 rows, done at +\\d+\\.\\d\\d s"), lines[1]);
    }

    @Test
    void aFailingChunkLeavesTheTablesNotYetCommittedAsTheyWere(@TempDir Path dir) throws Exception {
        try (Database db = Database.openOrCreate(dir)) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> ChunkPipeline.run(db, List.of(
                    new ChunkPipeline.TableJob(A, 2, 201, c -> chunk(A, c)),
                    new ChunkPipeline.TableJob(B, 20, 2_000, c -> {
                        if (c == 7) {
                            throw new IllegalStateException("chunk 7 failed");
                        }
                        return chunk(B, c);
                    })), 3, 4, Progress.silent()));
            assertEquals("chunk 7 failed", e.getMessage());
            assertFalse(db.hasTable("b"));
            // the writer lock is free again, and no temporary file stayed
            ChunkPipeline.run(db, List.of(new ChunkPipeline.TableJob(B, 1, 100, c -> chunk(B, c))), 2, 2,
                    Progress.silent());
            assertEquals(100, db.table("b").rowCount());
        }
        try (Stream<Path> files = Files.walk(dir)) {
            assertEquals(List.of(), files.filter(f -> f.toString().endsWith(".tmp")).toList());
        }
    }

    @Test
    void theLiveLineShowsRowsRateAndTimeLeftAndIsClearedAtTheEnd() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream live = new ByteArrayOutputStream();
        long[] now = {0};
        Progress p = new Progress.Report(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(live, true, StandardCharsets.UTF_8), () -> now[0]);
        p.start(1_000);
        p.table("lineitem");
        now[0] = 1_000_000_000L;
        p.made(250);
        now[0] = 1_100_000_000L;
        p.made(10); // within a fifth of a second of the last line: not drawn
        now[0] = 4_000_000_000L;
        p.made(240);
        now[0] = 5_000_000_000L;
        p.committed("lineitem", 1_000, now[0]);
        p.finish();
        String last = "lineitem: 500 of ~1,000 rows, 125 rows/s, 0:04 left";
        String after = "lineitem: 500 of ~1,000 rows, 100 rows/s, 0:05 left";
        assertEquals("\rlineitem: 0 of ~1,000 rows, 0 rows/s"
                        + "\rlineitem: 250 of ~1,000 rows, 250 rows/s" // no time left in the first seconds
                        + "\r" + last
                        + "\r" + " ".repeat(last.length()) + "\r" // cleared for the table's line
                        + "\r" + after
                        + "\r" + " ".repeat(after.length()) + "\r",
                live.toString(StandardCharsets.UTF_8));
        assertEquals(String.format("lineitem            1,000 rows, done at     5.00 s%n"),
                out.toString(StandardCharsets.UTF_8));
    }
}
