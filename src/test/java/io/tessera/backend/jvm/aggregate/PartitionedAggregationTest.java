package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.gen.PipelineCode;
import io.tessera.backend.host.RowBuffer;
import io.tessera.bench.TinySsbDatabase;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Sink;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The second phase of agg=partitioned: each partition's rows into a table of their own, the tables' keys disjoint. */
class PartitionedAggregationTest {

    @RegisterExtension
    static final TinySsbDatabase SSB = new TinySsbDatabase(11, 200_000);

    @Test
    void tablesAreSizedByTheirPartitionsRowsNotByTheEstimate() throws Exception {
        // grouped by the order key: the planner expects about as many groups as rows
        QueryEngine.Prepared p = new QueryEngine(SSB.db(), 2).prepare(
                "SELECT lo_orderkey, SUM(lo_revenue) FROM lineorder GROUP BY lo_orderkey");
        int fact = -1;
        for (var pl : p.plan().pipelines()) {
            if (pl.sink() instanceof Sink.GroupAggregate) {
                fact = pl.id();
            }
        }
        Map<Integer, Genome> genomes = new HashMap<>(p.genomes());
        genomes.put(fact, genomes.get(fact).with(JvmDimensions.AGGREGATION, "partitioned"));
        JvmExecutor.CompiledQuery q = JvmExecutor.compile(p.plan(), genomes);
        EmittedPipeline e = q.pipelines().get(fact);
        PipelineCode code = q.classes().get(fact).getDeclaredConstructor().newInstance();
        int partitions = 1 << PartitionedInput.bitsFor(((Sink.GroupAggregate) e.pipeline().sink()).estimatedGroups());
        double perPartition = ((Sink.GroupAggregate) e.pipeline().sink()).estimatedGroups() / partitions;
        assertTrue(perPartition > 64, "the estimate alone would size each table for " + perPartition + " groups");
        // buffer columns: the key, then the SUM's flag and argument (a nullable column's SUM does not combine runs
        // of equal keys, KeyRuns, so each row is buffered with its flag)
        assertArrayEquals(new ValueKind[] {ValueKind.LONG, ValueKind.BOOL, e.bufferKinds()[2]}, e.bufferKinds());

        // two workers' rows: keys 1..10 with revenue 100 * key, each key in the partition of its hash
        List<Object> states = List.of(new PartitionedInput(e.bufferKinds(), 0, Integer.numberOfTrailingZeros(partitions)),
                new PartitionedInput(e.bufferKinds(), 0, Integer.numberOfTrailingZeros(partitions)));
        for (int key = 1; key <= 10; key++) {
            RowBuffer out = ((PartitionedInput) states.get(key % 2)).part(key);
            int w = out.next();
            out.longs[0][w] = key;
            out.bytes[1][w] = 1;
            if (out.ints[2] != null) {
                out.ints[2][w] = 100 * key;
            } else {
                out.longs[2][w] = 100 * key;
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<HashGroupTable> tables = PartitionedAggregation.aggregate(e, code, states, pool);
            Set<Long> keys = new HashSet<>();
            for (HashGroupTable t : tables) {
                assertTrue(t.groups > 0, "a partition without groups is left out");
                for (int g = 0; g < t.groups; g++) {
                    assertTrue(keys.add(t.keys[t.width * g]), "a key in two partitions' tables");
                    assertEquals(100 * t.keys[t.width * g], t.lvals[0][g]);
                }
                // a partition of a group or two: its table stays near the 16 slots a table has at least
                assertTrue(t.keys.length <= 32 * t.width, "a table of " + t.keys.length / t.width + " groups");
            }
            assertEquals(10, keys.size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void manyEstimatedGroupsSpreadOverMorePartitions() {
        assertEquals(PartitionedInput.PARTITION_BITS, PartitionedInput.bitsFor(0));
        assertEquals(PartitionedInput.PARTITION_BITS, PartitionedInput.bitsFor(1_500_000));
        assertEquals(7, PartitionedInput.bitsFor(3_000_000));
        assertEquals(PartitionedInput.MAX_PARTITION_BITS, PartitionedInput.bitsFor(15_000_000));
        assertEquals(PartitionedInput.MAX_PARTITION_BITS, PartitionedInput.bitsFor(1e12));
        // a key lands in the partition of its hash's top bits at every count, so equal keys meet in one partition
        PartitionedInput wide = new PartitionedInput(new ValueKind[] {ValueKind.LONG}, 0, 8);
        assertEquals(256, wide.parts.length);
        assertTrue(wide.part(42) == wide.part(42), "one key, one partition");
    }
}
