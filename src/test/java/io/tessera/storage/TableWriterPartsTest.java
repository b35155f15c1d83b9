package io.tessera.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parts written on many threads, out of order, make the same table as the same batches written in order: the same
 * column files byte for byte, the same dictionaries and statistics.
 */
class TableWriterPartsTest {

    static final TableSchema SCHEMA = TableSchema.parse("p", """
            k INTEGER NOT NULL, b BIGINT, d DOUBLE, m DECIMAL(15,2), f BOOLEAN, s VARCHAR, few VARCHAR NOT NULL,
            note VARCHAR""");

    /** Words whose strings share long prefixes, differ in trailing zero bytes, or lie outside ASCII. */
    static final String[] WORDS = {"", "a", "a\0", "a\0\0", "ab", "carefully final ", "carefully final deposits",
            "carefully final deposits sleep", "é", "ｚ", "😀", "zebra", "Customer#000000001", "Customer#000000010"};

    /** Batch {@code part} of {@code parts}: {@code rows} rows drawn from the part's own random stream. */
    static RowBatch batch(int part, int rows) {
        return batch(part, rows, false);
    }

    /**
     * As {@link #batch(int, int)}; with {@code utf8}, the VARCHAR values are appended as UTF-8 bytes
     * ({@link ColumnBuilder#appendUtf8}), in odd parts after a first value appended as a string.
     */
    static RowBatch batch(int part, int rows, boolean utf8) {
        SplittableRandom r = new SplittableRandom(1000 + part);
        RowBatch b = new RowBatch(SCHEMA, 16);
        boolean allNullNotes = part == 3; // one part whose VARCHAR column holds only NULLs
        for (int i = 0; i < rows; i++) {
            b.column(0).appendInt(part * 1_000_000 + i);
            if (r.nextInt(10) == 0) {
                b.column(1).appendNull();
                b.column(2).appendNull();
                b.column(3).appendNull();
                b.column(4).appendNull();
                b.column(5).appendNull();
            } else {
                b.column(1).appendLong(r.nextLong());
                b.column(2).appendDouble(r.nextDouble() - 0.5);
                b.column(3).appendLong(r.nextLong(-99_999, 100_000));
                b.column(4).appendBoolean(r.nextBoolean());
                append(b.column(5), string(r), utf8 && (part % 2 == 0 || i > 0));
            }
            append(b.column(6), WORDS[r.nextInt(WORDS.length)], utf8 && (part % 2 == 0 || i > 0));
            if (allNullNotes) {
                b.column(7).appendNull();
            } else {
                append(b.column(7), "note " + r.nextInt(50_000) + WORDS[r.nextInt(WORDS.length)],
                        utf8 && (part % 2 == 0 || i > 0));
            }
        }
        return b;
    }

    private static void append(ColumnBuilder b, String v, boolean utf8) {
        if (utf8) {
            byte[] bytes = ("<" + v + ">").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            b.appendUtf8(bytes, 1, bytes.length - 2);
        } else {
            b.appendString(v);
        }
    }

    private static String string(SplittableRandom r) {
        StringBuilder sb = new StringBuilder(WORDS[r.nextInt(WORDS.length)]);
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            sb.append((char) ('a' + r.nextInt(26)));
        }
        return sb.toString();
    }

    static void writeInOrder(Database db, int parts, int rows) {
        try (TableWriter w = db.replace(SCHEMA)) {
            for (int p = 0; p < parts; p++) {
                w.write(batch(p, rows));
            }
            w.commit();
        }
    }

    /** Reserves the parts in order, then writes them on four threads in a shuffled order. */
    static void writeInParts(TableWriter w, int parts, int rows) throws Exception {
        writeInParts(w, parts, rows, false);
    }

    /** As {@link #writeInParts(TableWriter, int, int)}, the strings appended as UTF-8 bytes where {@code utf8}. */
    static void writeInParts(TableWriter w, int parts, int rows, boolean utf8) throws Exception {
        List<Integer> order = new ArrayList<>();
        long[] first = new long[parts];
        for (int p = 0; p < parts; p++) {
            first[p] = w.reserve(batch(p, rows).rowCount());
            order.add(p);
        }
        Collections.shuffle(order, new java.util.Random(7));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int p : order) {
                fs.add(pool.submit(() -> w.writePart(first[p], batch(p, rows, utf8))));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    static void assertSameTable(Table expected, Table actual) {
        assertEquals(expected.rowCount(), actual.rowCount());
        for (int c = 0; c < expected.columns().size(); c++) {
            Column e = expected.column(c);
            Column a = actual.column(c);
            assertEquals(e.stats(), a.stats(), e.name());
            assertEquals(e.hasNulls(), a.hasNulls(), e.name());
            assertEquals(-1, MemorySegment.mismatch(e.data(), 0, e.data().byteSize(), a.data(), 0, a.data().byteSize()),
                    e.name() + " data");
            if (e.hasNulls()) {
                assertEquals(-1, e.validity().mismatch(a.validity()), e.name() + " validity");
            }
            if (e.type().kind() == TypeKind.VARCHAR) {
                assertEquals(e.dictionary().size(), a.dictionary().size(), e.name());
                for (int k = 0; k < e.dictionary().size(); k++) {
                    assertEquals(e.dictionary().value(k), a.dictionary().value(k), e.name() + " code " + k);
                }
            }
        }
    }

    @Test
    void partsOnManyThreadsMakeTheTableOfBatchesInOrder(@TempDir Path dir) throws Exception {
        // 40 parts of 6,000 rows: 'note' has about 50,000 distinct strings per 14 words, enough for the merge of
        // the runs to cut its value space into several ranges
        int parts = 40;
        int rows = 6_000;
        try (Database in = Database.openOrCreate(dir.resolve("in-order"));
             Database p = Database.openOrCreate(dir.resolve("parts"))) {
            writeInOrder(in, parts, rows);
            try (TableWriter w = p.replace(SCHEMA)) {
                writeInParts(w, parts, rows);
                w.commit();
            }
            assertSameTable(in.table("p"), p.table("p"));
            assertTrue(p.table("p").column("note").dictionary().size() > 2 * 65_536);
        }
        // no temporary file stays behind
        try (Stream<Path> files = Files.walk(dir)) {
            assertEquals(List.of(), files.filter(f -> f.toString().endsWith(".tmp")).toList());
        }
    }

    @Test
    void stringsAppendedAsUtf8BytesMakeTheTableOfStrings(@TempDir Path dir) throws Exception {
        try (Database in = Database.openOrCreate(dir.resolve("in-order"));
             Database p = Database.openOrCreate(dir.resolve("parts"))) {
            writeInOrder(in, 12, 6_000);
            try (TableWriter w = p.replace(SCHEMA)) {
                writeInParts(w, 12, 6_000, true);
                w.commit();
            }
            assertSameTable(in.table("p"), p.table("p"));
        }
        // a batch of bytes read back as strings, and one written in order (not as a part)
        RowBatch bytes = batch(0, 300, true);
        RowBatch strings = batch(0, 300, false);
        for (int c = 5; c <= 7; c++) {
            for (int r = 0; r < 300; r++) {
                assertEquals(strings.column(c).get(r), bytes.column(c).get(r), "column " + c + " row " + r);
            }
        }
        try (Database in = Database.openOrCreate(dir.resolve("in-order2"));
             Database o = Database.openOrCreate(dir.resolve("bytes-in-order"))) {
            try (TableWriter w = in.replace(SCHEMA)) {
                w.write(strings);
                w.write(batch(1, 300, false));
                w.commit();
            }
            try (TableWriter w = o.replace(SCHEMA)) {
                w.write(bytes);
                w.write(batch(1, 300, true));
                w.commit();
            }
            assertSameTable(in.table("p"), o.table("p"));
        }
    }

    @Test
    void appendingPartsMergesThemWithTheRowsBefore(@TempDir Path dir) throws Exception {
        try (Database in = Database.openOrCreate(dir.resolve("in-order"));
             Database p = Database.openOrCreate(dir.resolve("parts"))) {
            writeInOrder(in, 6, 500);
            try (TableWriter w = p.replace(SCHEMA)) {
                w.write(batch(0, 500));
                w.write(batch(1, 500));
                w.commit();
            }
            // an append: the table's rows so far, then parts; and one batch in order among them
            try (TableWriter w = p.append("p")) {
                long a = w.reserve(500);
                w.write(batch(3, 500));
                w.writePart(a, batch(2, 500));
                long b = w.reserve(500);
                long c = w.reserve(500);
                w.writePart(c, batch(5, 500));
                w.writePart(b, batch(4, 500));
                w.commit();
            }
            assertSameTable(in.table("p"), p.table("p"));
        }
    }

    @Test
    void aReservedPartNotWrittenBlocksTheCommit(@TempDir Path dir) {
        try (Database db = Database.openOrCreate(dir)) {
            try (TableWriter w = db.replace(SCHEMA)) {
                long first = w.reserve(10);
                w.writePart(w.reserve(10), batch(1, 10));
                assertThrows(IllegalArgumentException.class, () -> w.writePart(first, batch(0, 9)));
                assertThrows(IllegalStateException.class, w::commit);
            }
            assertTrue(!db.hasTable("p"));
        }
    }

    /**
     * The statistics a writer makes from each batch as it writes it (and from a previous version's rows, scanned at
     * commit) are those a scan of the finished column file gives: parts on many threads, batches in order, an append.
     */
    @Test
    void statisticsMadeWhileWritingAreThoseOfTheFinishedFile(@TempDir Path dir) throws Exception {
        try (Database db = Database.openOrCreate(dir)) {
            try (TableWriter w = db.replace(SCHEMA)) {
                writeInParts(w, 9, 2_000);
                w.commit();
            }
            assertStatsOfFiles(db.table("p"));
            try (TableWriter w = db.append("p")) {
                long a = w.reserve(700);
                w.write(batch(11, 300));
                w.writePart(a, batch(10, 700));
                w.commit();
            }
            assertStatsOfFiles(db.table("p"));
            writeInOrder(db, 3, 1_000);
            assertStatsOfFiles(db.table("p"));
        }
    }

    private static void assertStatsOfFiles(Table t) {
        long rows = t.rowCount();
        for (int c = 0; c < t.columns().size(); c++) {
            Column col = t.column(c);
            TypeKind kind = col.type().kind();
            if (kind == TypeKind.VARCHAR) {
                continue;
            }
            long[] nullBits = null;
            if (col.hasNulls()) {
                nullBits = new long[(int) ((rows + 63) >>> 6)];
                for (int w = 0; w < nullBits.length; w++) {
                    nullBits[w] = ~col.validity().get(Column.LONG, (long) w << 3);
                }
                if ((rows & 63) != 0) {
                    nullBits[nullBits.length - 1] &= (1L << (rows & 63)) - 1;
                }
            }
            ColumnStats scanned = ColumnStatsScanner.scan(kind, col.data(), rows, nullBits);
            ColumnStats expected = HistogramBuilder.attach(scanned, kind, col.data(), rows, nullBits, 0, null);
            assertEquals(expected, col.stats(), col.name());
            assertTrue(col.stats().distinctEstimate() > 0, col.name());
        }
    }
}
