package io.tessera.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** bench import runs both engines on the same file, each into new files, and reports both (no times checked). */
class ImportBenchTest {

    @TempDir
    Path dir;

    @Test
    void bothEnginesImportEveryRowOfTheFileAndTheReportNamesBoth() throws Exception {
        StringBuilder csv = new StringBuilder("id,name,price,day\n");
        for (int i = 0; i < 5000; i++) {
            csv.append(i).append(",name ").append(i % 17).append(',').append(i / 4.0).append(",2024-01-")
                    .append(String.format("%02d", 1 + i % 28)).append('\n');
        }
        Path file = dir.resolve("rows.csv");
        Files.writeString(file, csv, StandardCharsets.UTF_8);
        ImportBench.Setup s = new ImportBench.Setup(file, null, false, null, null, null, 2, 2, dir.resolve("work"));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        List<ImportBench.Run> runs = ImportBench.run(s, new PrintStream(log, true, StandardCharsets.UTF_8));
        assertEquals(List.of("duckdb", "tessera", "duckdb", "tessera"), runs.stream().map(ImportBench.Run::engine).toList());
        for (ImportBench.Run r : runs) {
            assertEquals(5000, r.rows(), r.engine());
        }
        String report = ImportBench.format(s, runs, Files.size(file));
        assertTrue(report.contains("5,000 rows") && report.contains("tessera") && report.contains("duckdb")
                && report.contains("ratio"), report);
        try (var left = Files.list(dir.resolve("work"))) {
            assertEquals(0, left.count(), "each run's databases are removed");
        }
    }
}
