package io.tessera.data.ssb;

import io.tessera.data.ChunkPipeline;
import io.tessera.data.Progress;
import io.tessera.data.TableChecksums;
import io.tessera.storage.Database;
import io.tessera.storage.TableWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** SSB's tables are the same for any number of threads, and the same as its chunks written in order. */
class SsbThreadCountTest {

    @Test
    void oneThreadManyThreadsAndTheInOrderPathMakeTheSameTables(@TempDir Path tmp) {
        SsbGenerator generator = new SsbGenerator(0.1, SsbGenerator.DEFAULT_SEED); // lineorder in 3 chunks
        try (Database one = Database.openOrCreate(tmp.resolve("one"));
             Database many = Database.openOrCreate(tmp.resolve("many"));
             Database inOrder = Database.openOrCreate(tmp.resolve("in-order"))) {
            generator.generate(one, Progress.silent(), 1);
            generator.generate(many, Progress.silent(), 4);
            for (ChunkPipeline.TableJob job : generator.jobs()) {
                try (TableWriter w = inOrder.replace(job.schema())) {
                    for (int c = 0; c < job.chunks(); c++) {
                        w.write(job.source().generate(c));
                    }
                    w.commit();
                }
            }
            for (ChunkPipeline.TableJob job : generator.jobs()) {
                String name = job.schema().name();
                String expected = TableChecksums.of(inOrder.table(name));
                assertEquals(expected, TableChecksums.of(one.table(name)), name + " on one thread");
                assertEquals(expected, TableChecksums.of(many.table(name)), name + " on four threads");
            }
        }
    }
}
