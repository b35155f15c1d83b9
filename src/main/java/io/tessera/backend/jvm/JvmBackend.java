package io.tessera.backend.jvm;

import io.tessera.backend.Backend;
import io.tessera.backend.host.Host;
import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.JavaCompiler;
import io.tessera.backend.jvm.gen.PipelineCode;
import io.tessera.backend.jvm.gen.PipelineEmitter;
import io.tessera.backend.host.HostRelations;
import io.tessera.backend.host.MatRelation;
import io.tessera.backend.jvm.run.JvmRelations;
import io.tessera.backend.jvm.run.MorselRunner;
import io.tessera.backend.jvm.run.PipelineRunner;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.function.BiFunction;

/**
 * The JVM backend: a pipeline emitted as Java source under its JVM genome, compiled with Janino, and run on all
 * cores over morsels of its source rows. It runs every pipeline there is; the host relations, join tables and
 * parts it makes are {@link Intermediate}s on {@link Intermediate#HOST}. Besides its pipelines it does the host's
 * share of every query: relations completed from their writers' parts (UNION ALL, sort, LIMIT), VALUES, and the
 * result read out.
 */
public final class JvmBackend implements Host {

    public static final JvmBackend INSTANCE = new JvmBackend();

    private JvmBackend() {
    }

    @Override
    public String device() {
        return Intermediate.HOST;
    }

    @Override
    public Query query(QueryPlan plan, Map<Integer, Genome> genomes) {
        return new Query(plan, genomes, false);
    }

    /**
     * A query whose code counts the rows out of every operation when {@code countRows} (EXPLAIN ANALYZE: the
     * counts land in the run's {@link QueryState#actuals()}); plain queries' code has no counters.
     */
    @Override
    public Query query(QueryPlan plan, Map<Integer, Genome> genomes, boolean countRows) {
        return new Query(plan, genomes, countRows);
    }

    /** Each pipeline emitted in plan order and its class taken from {@code classes}, which must extend PipelineCode. */
    @Override
    public Query query(QueryPlan plan, Map<Integer, Genome> genomes, BiFunction<String, String, Class<?>> classes) {
        Query q = new Query(plan, genomes, false);
        long t0 = System.nanoTime();
        for (Pipeline p : plan.pipelines()) {
            EmittedPipeline e = PipelineEmitter.emit(p, genomes.get(p.id()));
            q.install(e, classes.apply(e.className(), e.source()).asSubclass(PipelineCode.class));
        }
        q.addCompileNanos(System.nanoTime() - t0);
        return q;
    }

    /** One pipeline's emitted source and compiled class. */
    public record Compiled(EmittedPipeline emitted, Class<? extends PipelineCode> code) {
    }

    /** A query's pipelines on the JVM: every one can run here; code is compiled when asked for. */
    public static final class Query implements Backend.Query {
        private final QueryPlan plan;
        private final Map<Integer, Genome> genomes;
        private final boolean countRows;
        private final Map<Integer, Compiled> compiled = new ConcurrentHashMap<>();
        private long compileNanos;

        Query(QueryPlan plan, Map<Integer, Genome> genomes, boolean countRows) {
            this.plan = plan;
            this.genomes = genomes;
            this.countRows = countRows;
        }

        @Override
        public synchronized void prepare(Collection<Pipeline> pipelines) {
            long t0 = System.nanoTime();
            List<Pipeline> fresh = new ArrayList<>();
            for (Pipeline p : pipelines) {
                if (!compiled.containsKey(p.id())) {
                    fresh.add(p);
                }
            }
            List<Compiled> made = compile(fresh, genomes, countRows);
            for (Compiled c : made) {
                compiled.put(c.emitted().pipeline().id(), c);
            }
            compileNanos += System.nanoTime() - t0;
        }

        /** Takes a pipeline's code compiled elsewhere (a tuner's own class cache) instead of compiling it. */
        public synchronized void install(EmittedPipeline emitted, Class<? extends PipelineCode> code) {
            compiled.put(emitted.pipeline().id(), new Compiled(emitted, code));
        }

        /** Pipeline {@code id}'s code, or null when it was not prepared. */
        public Compiled compiled(int id) {
            return compiled.get(id);
        }

        @Override
        public String source(int id) {
            Compiled c = compiled.get(id);
            if (c == null) {
                throw new IllegalStateException("pipeline " + id + " was not prepared for the JVM");
            }
            return c.emitted().source();
        }

        @Override
        public List<Object> constants(int id) {
            Compiled c = compiled.get(id);
            return c == null ? List.of() : c.emitted().constants();
        }

        public synchronized long compileNanos() {
            return compileNanos;
        }

        synchronized void addCompileNanos(long nanos) {
            compileNanos += nanos;
        }

        /** The code of the pipelines prepared here, in plan order. */
        JvmExecutor.CompiledQuery compiledQuery() {
            List<EmittedPipeline> emitted = new ArrayList<>();
            List<Class<? extends PipelineCode>> classes = new ArrayList<>();
            for (Pipeline p : plan.pipelines()) {
                Compiled c = compiled.get(p.id());
                if (c != null) {
                    emitted.add(c.emitted());
                    classes.add(c.code());
                }
            }
            return new JvmExecutor.CompiledQuery(plan, emitted, classes, compileNanos());
        }

        @Override
        public void run(Pipeline pipeline, QueryState state) {
            Compiled c = compiled.get(pipeline.id());
            if (c == null) {
                throw new IllegalStateException("pipeline " + pipeline.id() + " was not prepared for the JVM");
            }
            PipelineRunner.run(state, c.emitted(), c.code());
        }
    }

    /** Emits the pipelines and compiles their sources in parallel (those compiled before come from the cache). */
    static List<Compiled> compile(List<Pipeline> pipelines, Map<Integer, Genome> genomes, boolean countRows) {
        List<EmittedPipeline> emitted = new ArrayList<>();
        for (Pipeline p : pipelines) {
            emitted.add(PipelineEmitter.emit(p, genomes.get(p.id()), countRows));
        }
        List<Future<Class<? extends PipelineCode>>> futures = new ArrayList<>();
        for (EmittedPipeline e : emitted) {
            Class<? extends PipelineCode> cached = JavaCompiler.cached(e.source());
            if (cached != null) {
                futures.add(CompletableFuture.completedFuture(cached));
            } else {
                futures.add(MorselRunner.POOL.submit(() -> JavaCompiler.compile(e.className(), e.source())));
            }
        }
        List<Compiled> out = new ArrayList<>();
        for (int i = 0; i < emitted.size(); i++) {
            out.add(new Compiled(emitted.get(i), io.tessera.backend.host.HostWorkers.join(futures.get(i))));
        }
        return out;
    }

    // ---- the host's share of every query ----

    @Override
    public void startQuery(QueryState state) {
        HostRelations.publishValues(state);
    }

    @Override
    public void completeRelation(QueryState state, Sink sink) {
        int rel = switch (sink) {
            case Sink.Materialize m -> m.relationId();
            case Sink.Sort s -> s.relationId();
            default -> throw new IllegalArgumentException(sink + " has no parts");
        };
        JvmRelations.complete(state, sink, state.takeParts(rel), null);
    }

    /** Relation {@code rel} on the host, moved there first where it is on another device. */
    public static MatRelation hostRelation(QueryState state, int rel) {
        return HostRelations.onHost(state, rel);
    }

    @Override
    public MatRelation result(QueryState state, int rel) {
        return hostRelation(state, rel);
    }

    @Override
    public int warmUp(QueryPlan plan, Map<Integer, Genome> genomes) {
        int compiled = 0;
        for (Pipeline p : plan.pipelines()) {
            EmittedPipeline e = PipelineEmitter.emit(p, genomes.get(p.id()));
            compiled += JavaCompiler.warmUp(e.className(), e.source()) ? 1 : 0;
        }
        return compiled;
    }
}
