package io.tessera.backend.jvm;

import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.JavaCompiler;
import io.tessera.backend.jvm.gen.PipelineEmitter;
import io.tessera.backend.host.MatRelation;
import io.tessera.bench.Queries;
import io.tessera.bench.TinySsbDatabase;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Pipeline;
import io.tessera.plan.Source;
import io.tessera.storage.Database;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The executor's hook for tuning while a query runs: blocks with a genome each, a deadline, a pool of its own. */
class BlockExecutionTest {

    @RegisterExtension
    static final TinySsbDatabase SSB = new TinySsbDatabase(7, 20_000);
    static Database db;
    static QueryEngine engine;

    @BeforeAll
    static void engine() {
        db = SSB.db();
        engine = new QueryEngine(db, 2);
    }

    static List<String> rows(MatRelation rel) {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < rel.rowCount(); r++) {
            StringBuilder sb = new StringBuilder();
            for (int c = 0; c < rel.columns.size(); c++) {
                sb.append(JvmExecutor.value(rel, c, r)).append('|');
            }
            out.add(sb.toString());
        }
        Collections.sort(out);
        return out;
    }

    static int factPipeline(QueryEngine.Prepared p) {
        for (Pipeline pl : p.plan().pipelines()) {
            if (pl.source() instanceof Source.TableScan ts && ts.table().name().equals("lineorder")) {
                return pl.id();
            }
        }
        throw new AssertionError("no lineorder pipeline");
    }

    /** A control that cycles through genomes block by block and records what ran. */
    static final class Cycling implements BlockControl {
        final int pipeline;
        final List<Genome> cycle;
        final long rows;
        final List<Genome> ran = new ArrayList<>();
        long rowsSeen;
        int finished;

        Cycling(int pipeline, List<Genome> cycle, long rows) {
            this.pipeline = pipeline;
            this.cycle = cycle;
            this.rows = rows;
        }

        @Override
        public Blocks blocks(Pipeline p, Genome compiled) {
            if (p.id() != pipeline) {
                return null;
            }
            return new Blocks() {
                int i;
                long nextAt;

                @Override
                public long blockRows() {
                    return rows;
                }

                @Override
                public int maxWorkers() {
                    return 3; // made before the first block; unused ones merge as empty states
                }

                @Override
                public Genome next() {
                    nextAt = System.nanoTime();
                    return cycle.get(i++ % cycle.size());
                }

                @Override
                public void done(Genome g, long n, long nanos) {
                    ran.add(g);
                    rowsSeen += n;
                    // the workers' time on the block: within the block's wall time (the mean or the slowest worker's,
                    // never their sum)
                    assertTrue(nanos > 0 && nanos <= System.nanoTime() - nextAt, nanos + " ns");
                }

                @Override
                public void finished(long nanos) {
                    assertTrue(nanos > 0, "making and merging the sink states took time");
                    finished++;
                }
            };
        }
    }

    @Test
    void blocksWithChangingThreadConfigurationAndPredicationGiveTheSameAnswer() {
        for (String q : List.of("q1.1", "q2.1", "q3.2", "q4.1")) {
            QueryEngine.Prepared p = engine.prepare(Queries.sql("ssb", q));
            List<String> expected = rows(JvmExecutor.run(JvmExecutor.compiled(p.jvm()), db));
            int fact = factPipeline(p);
            Genome g = p.genomes().get(fact);
            Genome third = g.with(JvmDimensions.WORKERS, "2").with(JvmDimensions.MORSEL, "512")
                    .with(JvmDimensions.ACCESS, "strided");
            if (g.has(JvmDimensions.PREDICATION)) {
                third = third.with(JvmDimensions.PREDICATION, "predicated");
            }
            List<Genome> cycle = List.of(g,
                    g.with(JvmDimensions.WORKERS, "1").with(JvmDimensions.MORSEL, "64"),
                    third,
                    g.with(JvmDimensions.WORKERS, "3").with(JvmDimensions.MORSEL, "100").with(JvmDimensions.ACCESS, "blocked"));
            Cycling control = new Cycling(fact, cycle, 1_500);
            MatRelation rel = JvmExecutor.run(JvmExecutor.compiled(p.jvm()), db, new JvmExecutor.Options(null, control, 0));
            assertEquals(expected, rows(rel), q);
            assertEquals(20_000, control.rowsSeen, q);
            assertEquals(14, control.ran.size(), q); // ceil(20000 / 1500)
            assertEquals(1, control.finished, q);
            assertEquals(cycle.get(1), control.ran.get(1), q);
        }
    }

    @Test
    void sharedAndPartitionedAggregationRunInBlocksToo() {
        QueryEngine.Prepared p = engine.prepare(Queries.sql("ssb", "q3.1"));
        List<String> expected = rows(JvmExecutor.run(JvmExecutor.compiled(p.jvm()), db));
        int fact = factPipeline(p);
        for (String agg : List.of("shared", "partitioned", "hash")) {
            java.util.Map<Integer, Genome> genomes = new java.util.HashMap<>(p.genomes());
            Genome g = genomes.get(fact).with(JvmDimensions.AGGREGATION, agg);
            genomes.put(fact, g);
            JvmExecutor.CompiledQuery q = JvmExecutor.compile(p.plan(), genomes);
            Cycling control = new Cycling(fact, List.of(g, g.with(JvmDimensions.WORKERS, "1"),
                    g.with(JvmDimensions.MORSEL, "1024").with(JvmDimensions.ACCESS, "strided")), 2_000);
            assertEquals(expected, rows(JvmExecutor.run(q, db, new JvmExecutor.Options(null, control, 0))), agg);
        }
    }

    @Test
    void blocksThatAlternateTheAggregationGiveTheSameAnswer() {
        int orderedQueries = 0;
        for (String q : List.of("q2.1", "q3.1", "q3.3", "q4.3")) {
            QueryEngine.Prepared p = engine.prepare(Queries.sql("ssb", q));
            List<String> expected = rows(JvmExecutor.run(JvmExecutor.compiled(p.jvm()), db));
            int fact = factPipeline(p);
            // dense is allowed for these groups (known small key ranges), if not always the default
            Genome dense = p.genomes().get(fact).with(JvmDimensions.AGGREGATION, "dense");
            assertTrue(new io.tessera.variant.JvmVariantSpace().valid(p.plan(), p.plan().pipelines().get(fact), dense), q);
            Genome hash = dense.with(JvmDimensions.AGGREGATION, "hash");
            Genome shared = dense.with(JvmDimensions.AGGREGATION, "shared");
            // compiled dense: blocks of all three kinds, then of two kinds without the compiled one, then of one
            List<List<Genome>> cycles = new java.util.ArrayList<>(List.of(
                    List.of(dense, hash.with(JvmDimensions.WORKERS, "1"), shared, hash.with(JvmDimensions.MORSEL, "1024")),
                    List.of(shared, hash.with(JvmDimensions.WORKERS, "3")),
                    List.of(shared.with(JvmDimensions.ACCESS, "strided"))));
            // ordered blocks append runs without a lookup; a later block's lookups find them indexed first
            Genome ordered = dense.with(JvmDimensions.AGGREGATION, "ordered");
            if (new io.tessera.variant.JvmVariantSpace().valid(p.plan(), p.plan().pipelines().get(fact), ordered)) {
                orderedQueries++;
                cycles.add(List.of(ordered, hash, dense.with(JvmDimensions.WORKERS, "1"), shared, ordered));
                cycles.add(List.of(dense, ordered.with(JvmDimensions.MORSEL, "1024")));
            }
            for (List<Genome> cycle : cycles) {
                Cycling control = new Cycling(fact, cycle, 1_500);
                MatRelation rel = JvmExecutor.run(JvmExecutor.compiled(p.jvm()), db, new JvmExecutor.Options(null, control, 0));
                assertEquals(expected, rows(rel), q + " " + cycle);
                assertEquals(20_000, control.rowsSeen, q);
            }
            // compiled hash: dense blocks fill dense arrays of their own
            java.util.Map<Integer, Genome> genomes = new java.util.HashMap<>(p.genomes());
            genomes.put(fact, hash);
            JvmExecutor.CompiledQuery compiledHash = JvmExecutor.compile(p.plan(), genomes);
            Cycling control = new Cycling(fact, List.of(dense, hash, dense.with(JvmDimensions.WORKERS, "1")), 2_000);
            assertEquals(expected, rows(JvmExecutor.run(compiledHash, db, new JvmExecutor.Options(null, control, 0))), q);
        }
        assertTrue(orderedQueries > 0, "agg=ordered allowed for none of the queries' fact pipelines");
    }

    @Test
    void aBlockCannotChangeTheSinkState() {
        QueryEngine.Prepared p = engine.prepare(Queries.sql("ssb", "q3.1"));
        int fact = factPipeline(p);
        Genome g = p.genomes().get(fact).with(JvmDimensions.AGGREGATION, "hash");
        java.util.Map<Integer, Genome> genomes = new java.util.HashMap<>(p.genomes());
        genomes.put(fact, g);
        JvmExecutor.CompiledQuery q = JvmExecutor.compile(p.plan(), genomes);
        // the hash function is the tables' layout
        Cycling murmur = new Cycling(fact, List.of(g, g.with(JvmDimensions.HASH, "murmur")), 5_000);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JvmExecutor.run(q, db, new JvmExecutor.Options(null, murmur, 0)));
        assertTrue(e.getMessage().contains("changes hash"), e.getMessage());
        // a partitioned aggregation happens after the last block: no block may switch to it, or from it
        Cycling toPartitioned = new Cycling(fact, List.of(g, g.with(JvmDimensions.AGGREGATION, "partitioned")), 5_000);
        e = assertThrows(IllegalArgumentException.class,
                () -> JvmExecutor.run(q, db, new JvmExecutor.Options(null, toPartitioned, 0)));
        assertTrue(e.getMessage().contains("may not switch agg to or from [partitioned]"), e.getMessage());
        Genome partitioned = g.with(JvmDimensions.AGGREGATION, "partitioned");
        genomes.put(fact, partitioned);
        JvmExecutor.CompiledQuery qp = JvmExecutor.compile(p.plan(), genomes);
        Cycling fromPartitioned = new Cycling(fact, List.of(partitioned, g), 5_000);
        assertThrows(IllegalArgumentException.class,
                () -> JvmExecutor.run(qp, db, new JvmExecutor.Options(null, fromPartitioned, 0)));
    }

    @Test
    void aRunStopsAtItsDeadline() {
        QueryEngine.Prepared p = engine.prepare(Queries.sql("ssb", "q1.1"));
        long past = System.nanoTime() - 1_000_000;
        assertThrows(JvmExecutor.DeadlineExceeded.class,
                () -> JvmExecutor.run(JvmExecutor.compiled(p.jvm()), db, new JvmExecutor.Options(null, null, past)));
        long later = System.nanoTime() + 3_600_000_000_000L; // an hour: a deadline that no load brings near
        assertEquals(rows(JvmExecutor.run(JvmExecutor.compiled(p.jvm()), db)),
                rows(JvmExecutor.run(JvmExecutor.compiled(p.jvm()), db, new JvmExecutor.Options(null, null, later))));
    }

    @Test
    void workersRunOnTheGivenPool() {
        ExecutorService one = Executors.newFixedThreadPool(1);
        try {
            QueryEngine.Prepared p = engine.prepare(Queries.sql("ssb", "q3.1"));
            assertEquals(rows(JvmExecutor.run(JvmExecutor.compiled(p.jvm()), db)),
                    rows(JvmExecutor.run(JvmExecutor.compiled(p.jvm()), db, new JvmExecutor.Options(one, null, 0))));
            assertFalse(one.isShutdown());
        } finally {
            one.shutdownNow();
        }
    }

    @Test
    void variantsWithTheSameCodeShareOneClass() {
        QueryEngine.Prepared p = engine.prepare(Queries.sql("ssb", "q2.2"));
        int fact = factPipeline(p);
        Pipeline pl = p.plan().pipelines().get(fact);
        Genome g = p.genomes().get(fact);
        EmittedPipeline a = PipelineEmitter.emit(pl, g.with(JvmDimensions.MORSEL, "4096"));
        EmittedPipeline b = PipelineEmitter.emit(pl, g.with(JvmDimensions.MORSEL, "65536").with(JvmDimensions.WORKERS, "1"));
        EmittedPipeline c = PipelineEmitter.emit(pl, g.with(JvmDimensions.AGGREGATION, "hash"));
        assertTrue(a.source().contains("// genome: " + g.with(JvmDimensions.MORSEL, "4096")));
        assertEquals(JavaCompiler.codeKey(a.source()), JavaCompiler.codeKey(b.source()));
        assertSame(JavaCompiler.compile(a.className(), a.source()), JavaCompiler.compile(b.className(), b.source()));
        assertNotSame(JavaCompiler.compile(a.className(), a.source()), JavaCompiler.compile(c.className(), c.source()));
        assertNotSame(JavaCompiler.compile(a.className(), a.source()), JavaCompiler.compileUncached(a.className(), a.source()));
    }
}
