package io.tessera.spark;

import io.tessera.Tessera;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parts read the table as the driver planned it: after a write, parts planned before it read the rows of before it
 * where the executor still has that state open, and fail naming why where it has not; a read planned after the
 * write sees the new rows, although the executor keeps the database open between reads.
 */
class SnapshotTest {

    @TempDir
    Path dir;

    private Scan scan() {
        return scan("cpu");
    }

    private Scan scan(String device) {
        Map<String, String> options = Map.of("path", dir.toString(), "table", "t", "partitionRows", "64",
                "device", device);
        SupportsRead table = (SupportsRead) new TesseraDataSource().getTable(null, new Transform[0], options);
        return table.newScanBuilder(CaseInsensitiveStringMap.empty()).build();
    }

    private static long sum(Scan scan, InputPartition[] parts) throws IOException {
        PartitionReaderFactory factory = scan.toBatch().createReaderFactory();
        long sum = 0;
        for (InputPartition p : parts) {
            try (PartitionReader<InternalRow> r = factory.createReader(p)) {
                while (r.next()) {
                    sum += r.get().getInt(0);
                }
            }
        }
        return sum;
    }

    private void insert(int from, int to) {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table if not exists t (v integer not null)");
            t.query("insert into t select * from (values " + java.util.stream.IntStream.range(from, to)
                    .mapToObj(i -> "(" + i + ")").collect(java.util.stream.Collectors.joining(", ")) + ")");
        }
    }

    @Test
    void aWriteBetweenPlanAndReadFailsTheOldPartsAndANewPlanSeesIt() throws IOException {
        insert(0, 100);
        Scan before = scan();
        InputPartition[] planned = before.toBatch().planInputPartitions();
        assertEquals(2, planned.length);
        assertEquals(4950, sum(before, planned));
        insert(100, 150);
        assertEquals(4950, sum(before, planned), "the open state of before the write");
        OpenDatabases.closeUnused();
        IllegalStateException stale = assertThrows(IllegalStateException.class, () -> sum(before, planned));
        assertTrue(stale.getMessage().contains("was written since its slice was planned"), stale.getMessage());
        Scan after = scan();
        InputPartition[] replanned = after.toBatch().planInputPartitions();
        assertEquals(3, replanned.length);
        assertEquals(149 * 150 / 2, sum(after, replanned));
    }

    @Test
    void eachPartRunsOnTheDeviceAskedFor() throws IOException {
        insert(0, 100);
        // auto takes a GPU where there is one and the JVM elsewhere (CI has none): the same rows either way
        Scan auto = scan("auto");
        assertEquals(4950, sum(auto, auto.toBatch().planInputPartitions()));
        assertTrue(auto.description().contains("device auto"), auto.description());
    }
}
