package io.tessera.data.tpch;

import io.tessera.data.ChunkPipeline;
import io.tessera.data.Progress;
import io.tessera.data.TableChecksums;
import io.tessera.storage.Database;
import io.tessera.storage.TableWriter;
import io.trino.tpch.TpchTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The tables are the same for any number of threads, and the same as the parts written one after another through
 * the writer's in-order path: every column's values (its file, checksummed), dictionary and statistics.
 */
class TpchThreadCountTest {

    static final double SF = 0.01;

    @Test
    void oneThreadManyThreadsAndTheInOrderPathMakeTheSameTables(@TempDir Path tmp) {
        TpchGenerator generator = new TpchGenerator(SF, 5_000); // lineitem in 13 parts
        try (Database one = Database.openOrCreate(tmp.resolve("one"));
             Database many = Database.openOrCreate(tmp.resolve("many"));
             Database inOrder = Database.openOrCreate(tmp.resolve("in-order"))) {
            generator.generate(one, Progress.silent(), 1);
            generator.generate(many, Progress.silent(), 4);
            for (TpchTable<?> t : TpchTable.getTables()) {
                ChunkPipeline.TableJob job = generator.job(t);
                try (TableWriter w = inOrder.replace(job.schema())) {
                    for (int part = 0; part < job.chunks(); part++) {
                        w.write(job.source().generate(part));
                    }
                    w.commit();
                }
            }
            for (TpchTable<?> t : TpchTable.getTables()) {
                String name = t.getTableName();
                String expected = TableChecksums.of(inOrder.table(name));
                assertEquals(expected, TableChecksums.of(one.table(name)), name + " on one thread");
                assertEquals(expected, TableChecksums.of(many.table(name)), name + " on four threads");
            }
        }
    }
}
