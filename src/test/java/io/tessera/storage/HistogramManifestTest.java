package io.tessera.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Histograms in manifest.json: kept across a reopen, absent from a manifest of an older Tessera, refused damaged. */
class HistogramManifestTest {

    static final TableSchema SCHEMA = TableSchema.parse("t", "i INTEGER, d DOUBLE, s VARCHAR, n BIGINT");

    static void writeTable(Path dir) {
        try (Database db = Database.openOrCreate(dir); TableWriter w = db.replace(SCHEMA)) {
            RowBatch batch = new RowBatch(SCHEMA, 5000);
            for (int r = 0; r < 5000; r++) {
                double d = r % 100 == 0 ? Double.NaN : r % 100 == 1 ? Double.NEGATIVE_INFINITY : r * 0.25;
                StorageRoundTripTest.append(batch, new Object[] {r % 7 == 0 ? 7 : r, d,
                        r % 3 == 0 ? "frequent" : "s" + r, null});
            }
            w.write(batch);
            w.commit();
        }
    }

    @Test
    void histogramsSurviveAReopen(@TempDir Path dir) {
        writeTable(dir);
        List<ColumnStats> written = new ArrayList<>();
        try (Database db = Database.open(dir)) {
            db.table("t").columns().forEach(c -> written.add(c.stats()));
        }
        try (Database db = Database.open(dir)) {
            for (int c = 0; c < written.size(); c++) {
                assertEquals(written.get(c), db.table("t").column(c).stats(), SCHEMA.columns().get(c).name());
            }
        }
        assertTrue(written.get(0).hasHistogram());
        assertEquals(7L, written.get(0).histogram().mostCommon().getFirst().value());
        assertTrue(Double.isNaN((Double) written.get(1).histogram().buckets().getLast().upper()));
        assertEquals(Double.NEGATIVE_INFINITY, written.get(1).histogram().lower());
        assertEquals("frequent", written.get(2).histogram().mostCommon().getFirst().value());
        assertFalse(written.get(3).hasHistogram(), "a column of NULLs");
    }

    @Test
    void aManifestWithoutHistogramsOpensAndEstimatesFromMinMaxAndDistinct(@TempDir Path dir) throws Exception {
        writeTable(dir);
        Path m = dir.resolve(Manifest.FILE_NAME);
        ObjectMapper json = new ObjectMapper();
        JsonNode root = json.readTree(m.toFile());
        int removed = 0;
        for (JsonNode column : root.get("tables").get(0).get("columns")) {
            if (((ObjectNode) column.get("stats")).remove("histogram") != null) {
                removed++;
            }
        }
        assertEquals(3, removed);
        Files.write(m, json.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
        try (Database db = Database.open(dir)) {
            ColumnStats s = db.table("t").column("i").stats();
            assertFalse(s.hasHistogram());
            assertEquals(Histogram.EMPTY, s.histogram());
            assertEquals(1L, s.min());
            double below = s.fractionBelow(2500L, false);
            assertTrue(Math.abs(below - 0.5) < 0.01, "spread evenly from min to max: " + below);
            assertTrue(db.table("t").column("s").stats().fractionWithPrefix("s") > 0);
        }
        // the next write of the table keeps histograms again
        try (Database db = Database.open(dir); TableWriter w = db.append("t")) {
            RowBatch batch = new RowBatch(SCHEMA, 1);
            StorageRoundTripTest.append(batch, new Object[] {1, 1.0, "x", 2L});
            w.write(batch);
            w.commit();
        }
        try (Database db = Database.open(dir)) {
            for (Column c : db.table("t").columns()) {
                assertTrue(c.stats().hasHistogram(), c.name());
            }
        }
    }

    @Test
    void aDamagedHistogramIsRefusedNamingTheManifest(@TempDir Path dir) throws Exception {
        writeTable(dir);
        Path m = dir.resolve(Manifest.FILE_NAME);
        String text = Files.readString(m);
        // bounds out of order: the first bucket's upper bound below the lower bound
        String damaged = text.replaceFirst("\"lower\" : 1,", "\"lower\" : 999999,");
        assertTrue(!damaged.equals(text), text);
        Files.writeString(m, damaged);
        StorageException e = assertThrows(StorageException.class, () -> Database.open(dir).close());
        assertTrue(e.getMessage().contains("manifest.json is damaged"), e.getMessage());
    }
}
