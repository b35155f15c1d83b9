package io.tessera.optimize;

import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A conjunct's answer on a table's sample is evaluated once per table generation (every prepare of a query asks
 * again), an answer that the sample cannot give is remembered as such, and a new generation of the table evaluates
 * anew.
 */
class TableSampleTest {

    private static Table write(Database db, int rows) {
        TableSchema s = TableSchema.parse("t", "a INTEGER NOT NULL");
        RowBatch b = new RowBatch(s, rows);
        for (int r = 0; r < rows; r++) {
            b.column(0).appendInt(r);
        }
        try (TableWriter w = db.replace(s)) {
            w.write(b);
            w.commit();
        }
        return db.table("t");
    }

    @Test
    void answersAreKeptPerTableGeneration(@TempDir Path dir) {
        try (Database db = Database.openOrCreate(dir)) {
            Table first = write(db, 10);
            AtomicInteger evaluations = new AtomicInteger();
            TableSample sample = TableSample.of(first);
            boolean[] t = sample.truth(">($0, 4)", () -> {
                evaluations.incrementAndGet();
                return new boolean[] {false, true};
            });
            assertSame(t, TableSample.of(first).truth(">($0, 4)", () -> {
                evaluations.incrementAndGet();
                return new boolean[0];
            }));
            assertNull(sample.truth("f($0)", () -> {
                evaluations.incrementAndGet();
                return null;
            }));
            assertNull(sample.truth("f($0)", () -> {
                evaluations.incrementAndGet();
                return new boolean[0];
            }));
            assertEquals(2, evaluations.get());

            Table second = write(db, 20);
            assertNotSame(first, second);
            boolean[] again = TableSample.of(second).truth(">($0, 4)", () -> {
                evaluations.incrementAndGet();
                return new boolean[] {true};
            });
            assertEquals(3, evaluations.get());
            assertEquals(1, again.length);
        }
    }
}
