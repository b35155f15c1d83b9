package io.tessera.storage;

import io.tessera.Tessera;
import io.tessera.data.Progress;
import io.tessera.data.parquet.ParquetExporter;
import io.tessera.data.ssb.SsbGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.tessera.storage.HistogramTest.assertNear;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every way a table gets a new version leaves histograms that describe its rows: CREATE TABLE AS, INSERT (appended
 * rows), UPDATE, DELETE, COPY from .tbl, CSV and Parquet files, and the generators. The columns here have fewer than
 * 65,536 values or a narrow range, so their histograms are exact; estimates are checked within 0.002.
 */
class HistogramWritePathsTest {

    static final double EXACT = 0.002;
    static final double ONE_BUCKET = HistogramTest.ONE_BUCKET;

    @TempDir
    Path dir;

    static ColumnStats stats(Tessera t, String table, String column) {
        return t.database().table(table).column(column).stats();
    }

    /** The exact fraction of a stored integer column's non-null values below x. */
    static double below(Column c, long x, boolean inclusive) {
        long n = 0;
        long hit = 0;
        for (long r = 0; r < c.rowCount(); r++) {
            if (!c.isNull(r)) {
                n++;
                long v = c.getInt(r);
                hit += v < x || (inclusive && v == x) ? 1 : 0;
            }
        }
        return (double) hit / n;
    }

    @Test
    void insertUpdateDeleteAndCreateTableAsKeepThemRight() {
        try (Tessera t = Tessera.openOrCreate(dir.resolve("db"))) {
            t.query("CREATE TABLE src (id INTEGER NOT NULL, k INTEGER, s VARCHAR)");
            t.query("INSERT INTO src VALUES (0, 0, 'a0')");
            for (int n = 1; n < 4096; n *= 2) {
                t.query("INSERT INTO src SELECT id + " + n + ", (id + " + n + ") % 10, 'a' || CAST((id + " + n
                        + ") % 100 AS VARCHAR) FROM src");
            }
            ColumnStats id = stats(t, "src", "id");
            assertEquals(4096, id.histogram().rows(), "appended rows are in the histogram");
            assertEquals(0L, id.histogram().lower());
            assertEquals(4095L, id.histogram().buckets().getLast().upper());
            assertNear(0.25, id.fractionBelow(1024L, false), EXACT, "id < 1024");
            assertEquals(10, stats(t, "src", "k").histogram().buckets().size(), "k: a bucket per value");
            assertNear(0.1, stats(t, "src", "k").fractionEqual(3L), EXACT, "k = 3");
            assertNear(0.01, stats(t, "src", "s").fractionWithPrefix("a42"), EXACT, "s LIKE 'a42%'");

            t.query("UPDATE src SET k = 99 WHERE id < 2048");
            ColumnStats k = stats(t, "src", "k");
            assertEquals(List.of(new Histogram.MostCommon(99L, 2048)), k.histogram().mostCommon());
            assertNear(0.5, k.fractionEqual(99L), EXACT, "k = 99 after the update");
            assertNear(0.05, k.fractionEqual(3L), EXACT, "k = 3 after the update");

            t.query("DELETE FROM src WHERE id >= 2048");
            id = stats(t, "src", "id");
            assertEquals(2048, id.histogram().rows(), "deleted rows leave the histogram");
            assertEquals(2047L, id.histogram().buckets().getLast().upper());
            assertNear(0.5, id.fractionBelow(1024L, false), EXACT, "id < 1024 after deleting half");
            assertEquals(List.of(new Histogram.Bucket(99L, 2048, 1)), stats(t, "src", "k").histogram().buckets());
            assertEquals(0, stats(t, "src", "k").fractionEqual(3L), "k = 3 was deleted");

            t.query("INSERT INTO src SELECT id + 10000, NULL, s FROM src");
            id = stats(t, "src", "id");
            assertEquals(4096, id.histogram().rows());
            assertEquals(12047L, id.histogram().buckets().getLast().upper());
            assertNear(0.5, id.fractionBelow(2048L, false), EXACT, "old and appended ids");
            // 10000 lies in the bucket after 2047, whose values are taken as spread evenly from 2048: within its rows
            assertNear(0.5, id.fractionBetween(10000L, true, 12047L, true), ONE_BUCKET, "appended ids");
            assertNear(0.5, id.fractionBetween(10000L, true, null, false), ONE_BUCKET, "open above");
            k = stats(t, "src", "k");
            assertEquals(2048, k.nullCount());
            assertEquals(2048, k.histogram().rows(), "the appended NULLs are not in the histogram");

            t.query("CREATE TABLE c AS SELECT id, s FROM src WHERE id < 1000");
            ColumnStats cid = stats(t, "c", "id");
            assertEquals(1000, cid.histogram().rows());
            assertNear(0.5, cid.fractionBelow(500L, false), EXACT, "c.id < 500");
            assertNear(0.01, stats(t, "c", "s").fractionEqual("a42"), EXACT, "c.s = 'a42'");
        }
    }

    @Test
    void importsFromTblCsvAndParquetKeepThemRight() throws Exception {
        Path files = Files.createDirectories(dir.resolve("files"));
        StringBuilder csv = new StringBuilder("id,cat\n");
        for (int i = 0; i < 3000; i++) {
            csv.append(i).append(',').append(i % 5 < 3 ? "A" : "B" + i % 50).append('\n');
        }
        Files.writeString(files.resolve("rows.csv"), csv);
        StringBuilder tbl = new StringBuilder();
        for (int i = 3000; i < 6000; i++) {
            tbl.append(i).append("|C|\n");
        }
        Files.writeString(files.resolve("rows.tbl"), tbl);
        try (Tessera t = Tessera.openOrCreate(dir.resolve("db"))) {
            t.allowCopyFrom(files);
            t.query("CREATE TABLE imp (id INTEGER NOT NULL, cat VARCHAR)");
            t.query("COPY imp FROM '" + files.resolve("rows.csv") + "' (FORMAT csv, HEADER)");
            ColumnStats cat = stats(t, "imp", "cat");
            assertEquals(List.of(new Histogram.MostCommon("A", 1800)), cat.histogram().mostCommon());
            assertNear(0.6, cat.fractionEqual("A"), EXACT, "cat = 'A'");
            assertNear(0.4, cat.fractionWithPrefix("B"), EXACT, "cat LIKE 'B%'");

            t.query("COPY imp FROM '" + files.resolve("rows.tbl") + "' (FORMAT tbl)");
            cat = stats(t, "imp", "cat");
            assertNear(0.3, cat.fractionEqual("A"), EXACT, "cat = 'A' after appending the .tbl rows");
            assertNear(0.5, cat.fractionEqual("C"), EXACT, "cat = 'C'");
            assertNear(0.5, stats(t, "imp", "id").fractionBelow(3000L, false), EXACT, "id < 3000");

            Path parquet = files.resolve("imp.parquet");
            ParquetExporter.export(t.database().table("imp"), parquet);
            t.query("CREATE TABLE pq (id INTEGER NOT NULL, cat VARCHAR)");
            t.query("COPY pq FROM '" + parquet + "' (FORMAT parquet)");
            for (String column : List.of("id", "cat")) {
                assertEquals(stats(t, "imp", column).histogram(), stats(t, "pq", column).histogram(),
                        "the same rows from Parquet: " + column);
            }
        }
    }

    @Test
    void generatedTablesHaveThem() {
        try (Database db = Database.openOrCreate(dir.resolve("ssb"))) {
            new SsbGenerator(0.01, SsbGenerator.DEFAULT_SEED).generate(db, Progress.silent());
            Table lineorder = db.table("lineorder");
            Column quantity = lineorder.column("lo_quantity");
            ColumnStats q = quantity.stats();
            assertEquals(50, q.histogram().buckets().size(), "quantities 1 to 50: a bucket each");
            assertTrue(q.histogram().exact());
            assertTrue(q.histogram().mostCommon().isEmpty(), "uniform");
            for (long x : new long[] {1, 10, 26, 50}) {
                assertNear(below(quantity, x, false), q.fractionBelow(x, false), EXACT, "lo_quantity < " + x);
            }
            Column discount = lineorder.column("lo_discount");
            assertEquals(11, discount.stats().histogram().buckets().size(), "discounts 0 to 10");
            Column orderdate = lineorder.column("lo_orderdate");
            // yyyymmdd numbers jump at each month's end, and interpolation inside a bucket does not know where:
            // within one bucket's rows
            long mid = 19950101;
            assertNear(below(orderdate, mid, false), orderdate.stats().fractionBelow(mid, false), ONE_BUCKET,
                    "lo_orderdate < 19950101");
            for (Table table : db.tables()) {
                for (Column c : table.columns()) {
                    assertTrue(c.stats().hasHistogram(), table.name() + "." + c.name());
                    assertEquals(table.rowCount() - c.stats().nullCount(), c.stats().histogram().rows(),
                            table.name() + "." + c.name());
                }
            }
            assertFalse(db.table("customer").column("c_region").stats().histogram().buckets().size() > 5);
        }
    }
}
