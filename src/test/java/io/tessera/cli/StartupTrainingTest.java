package io.tessera.cli;

import io.tessera.storage.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The startup cache's training run does what it says: every step (generating SSB and TPC-H, their queries through the
 * command line in each output format, data changes, the JDBC driver) succeeds, so the cache holds what those steps
 * load rather than the classes of an error path. Its output is captured and dropped here, as the launcher drops it.
 */
class StartupTrainingTest extends CapturedMainTest {

    @TempDir
    Path dir;

    @Test
    void everyStepOfTheTrainingSucceeds() {
        List<String> failed = StartupTraining.train(dir);
        assertEquals(List.of(), failed, err());
        try (Database ssb = Database.open(dir.resolve("ssb")); Database tpch = Database.open(dir.resolve("tpch"))) {
            assertEquals(5, ssb.tables().size());
            assertEquals(8, tpch.tables().size());
            try (Database imports = Database.open(dir.resolve("imports"))) {
                long rows = tpch.table("lineitem").rowCount();
                assertEquals(rows, imports.table("lineitem_parquet").rowCount(), "lineitem imported from Parquet");
                assertEquals(rows, imports.table("lineitem_csv").rowCount(), "lineitem imported from CSV");
            }
        }
    }
}
