package io.tessera.variant;

import io.tessera.plan.AscendingColumns;
import io.tessera.plan.KeyRange;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.PipelineAnalysis;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.RuntimeFilters;
import io.tessera.plan.Sink;
import io.tessera.storage.TypeKind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * The code variants of the JVM backend. Every dimension is declared below with where it applies, its values
 * (a value may carry its own condition on the pipeline, such as a perfect table needing a small key range),
 * its default, and the constraints between dimensions. A dimension applies to a pipeline only when it offers
 * at least two different variants there; otherwise it is absent from the pipeline's genomes.
 *
 * <table>
 * <caption>JVM dimensions</caption>
 * <tr><th>dimension</th><th>values</th><th>applies to</th></tr>
 * <tr><td>workers</td><td>1, 2, 4, ... up to the cores (and the core count itself); by default all cores, on
 * {@link #FEW_CORES} cores one for a pipeline whose estimates stay below {@link #PARALLEL_PIPELINE_ROWS}</td><td>every
 * pipeline</td></tr>
 * <tr><td>ht</td><td>perfect (one integer key, known range of at most 2^24), linear, cuckoo2, cuckoo3, cuckoo4</td>
 * <td>BUILD sinks (probes mirror it as ht.jN)</td></tr>
 * <tr><td>build</td><td>serial (one thread indexes the rows), partitioned (radix partitions of the slots, each
 * indexed by one worker), atomic (every worker inserts into the one table with atomic operations; not cuckoo); by
 * default partitioned for a hashed table, atomic for a perfect one (serial on {@link #FEW_CORES} cores below {@link
 * #PARALLEL_BUILD_ROWS} estimated rows)</td><td>BUILD sinks, where there is more than one core</td></tr>
 * <tr><td>agg</td><td>dense (every key's range known, at most 2^21 groups), hash (per worker, merged), shared
 * (one table in lock stripes), partitioned (radix partitions, one table each), ordered (each morsel's runs of equal
 * keys appended as groups, merged by the morsels' key ranges where they ascend and meet only at their ends, else by
 * hash; no string keys but dictionary codes); by default dense where allowed and
 * at most {@link #SPARSE_DENSE_FACTOR} times the estimated groups (or cached),
 * else hash up to {@link #CACHED_GROUPS} estimated groups, beyond that ordered where the first key is a stored
 * column that ascends with the row ({@link AscendingColumns}), else partitioned</td><td>GROUP_AGGREGATE sinks</td></tr>
 * <tr><td>merge</td><td>serial (the workers' tables merged on one thread), partitioned (split by key hash, the
 * partitions merged by the workers at once; fixed for shared and partitioned tables, whose keys are disjoint)</td>
 * <td>GROUP_AGGREGATE sinks, where there is more than one core</td></tr>
 * <tr><td>distinct</td><td>serial (each group's sets united by one thread), partitioned (large unions split by
 * value hash over the workers)</td><td>AGGREGATE and GROUP_AGGREGATE sinks with a DISTINCT aggregate, where there
 * is more than one core</td></tr>
 * <tr><td>order</td><td>written, selectivity</td><td>pipelines whose inner/semi probes may swap and whose
 * estimated order differs from the written one</td></tr>
 * <tr><td>joinfilter</td><td>none, range (a join table's key range tested just before the probe's lookup where
 * the probe keys' range reaches beyond it), bloom (that, and a Bloom filter over the table's keys for the probes of
 * a large hashed table that most rows reaching the probe miss; {@link RuntimeFilters#filters} picks the tests of
 * each probe; a perfect table's presence bits in place of a Bloom filter); by default the estimates' choice,
 * {@link RuntimeFilters#estimatedStrategy}, on at most four cores, on more only presence bits
 * ({@link RuntimeFilters#presenceStrategy}; {@link #JOIN_FILTER_DEFAULT} sets another); the tuner tries each</td><td>pipelines with an inner, semi or mark probe on source columns
 * ({@link RuntimeFilters#filterable})</td></tr>
 * <tr><td>simd</td><td>scalar, vector</td><td>pipelines whose leading filters compare a column with a constant,
 * when the Vector API module is present</td></tr>
 * <tr><td>pred</td><td>branch, predicated</td><td>pipelines with a run of at least two filter conjuncts that
 * cannot fail</td></tr>
 * <tr><td>hash</td><td>mulshift, murmur</td><td>BUILD and GROUP_AGGREGATE sinks (probes mirror it as hash.jN)</td></tr>
 * <tr><td>morsel</td><td>1024, 2048, ..., 262144</td><td>every pipeline</td></tr>
 * <tr><td>access</td><td>dynamic, blocked, strided</td><td>every pipeline, where there is more than one core</td></tr>
 * <tr><td>sort</td><td>serial (one thread), runs (a run per worker, radix-sorted, merged by the workers)</td>
 * <td>SORT sinks without a LIMIT, where there is more than one core</td></tr>
 * <tr><td>topk</td><td>serial (one bounded heap), worker (each worker's rows cut to their top k on that worker,
 * then merged)</td><td>SORT sinks with a LIMIT, where there is more than one core</td></tr>
 * <tr><td>window</td><td>serial (one thread), partitions (rows hash-grouped by the PARTITION BY columns every
 * function shares, each group sorted and evaluated by a worker)</td><td>WINDOW sinks, where there is more than one
 * core</td></tr>
 * </table>
 *
 * <p>SIMD covers filters only, for now: the leading comparisons of a column with a constant go to a hand-written
 * Vector API kernel that the generated code calls. No aggregation kernel exists yet (it would apply to pipelines
 * that aggregate right after their filters, such as TPC-H Q1 and Q6; in SSB every aggregate follows probes, whose
 * per-row hash lookups and gathers the Vector API does not help), so simd applies to no aggregation.
 */
public final class JvmVariantSpace implements VariantSpace {

    public static final String BACKEND = "jvm";

    /** Largest dense aggregation array, in groups (per worker). */
    public static final long MAX_DENSE_GROUPS = 1L << 21;
    /** Largest perfect join table, in slots. */
    public static final long MAX_PERFECT_SLOTS = 1L << 24;
    /**
     * The most groups the default genome aggregates in per-worker hash tables: about what fits a core's cache (a
     * group takes some 32 to 64 bytes); more are aggregated in radix partitions.
     */
    public static final double CACHED_GROUPS = 1 << 16;

    /** A dense array is the default while its slots are at most this many times the estimated groups (or cached). */
    static final double SPARSE_DENSE_FACTOR = 4;
    /** The most cores for which the default genome takes the estimates' runtime join filters (see joinfilter). */
    static final int FILTERING_CORES = 4;
    /**
     * A system property that sets the default genome's joinfilter, for an A/B without a rebuild
     * ({@code TESSERA_JAVA_OPTS=-Dtessera.joinfilter=none ./tessera bench ...}): estimates (the estimates' choice),
     * none, range or bloom (each probe still with the tests {@link RuntimeFilters#filters} picks).
     */
    public static final String JOIN_FILTER_DEFAULT = "tessera.joinfilter";
    public static final int MIN_MORSEL = 1 << 10;
    public static final int MAX_MORSEL = 1 << 18;
    /**
     * Estimated source rows from which a sort, top-k or window sink's end runs on the workers by default: below it
     * the threads' start and the merge cost more than they save.
     */
    public static final double PARALLEL_END_ROWS = 1 << 16;
    /**
     * The most cores on which a small pipeline runs on one worker, and a small join table is indexed by one thread,
     * by default: there the second worker's core is the one the JIT, the collector and everything else on the machine
     * share (the second worker started 0.05 to 2 ms after the first), and handing it a pipeline of a millisecond or
     * two cost more than it saved: TPC-H SF 1 on the 2-core VM, two workers in one process, the old and these
     * defaults alternated, medians of 31 runs at load 8 to 9, Q3's customer pipeline (150,000 rows, 30,142 built) 5.7
     * against 1.0 ms, Q7's supplier and nation pipeline 3.6 against 0.8 ms. Not measured on more cores, whose defaults
     * are as before.
     */
    static final int FEW_CORES = 2;
    /**
     * Estimated rows (the most at any step of a pipeline: its source, after an operation, its sink) below which a
     * pipeline runs on one worker by default on {@link #FEW_CORES} cores: its rows stay in one sink state, so its
     * end copies, merges and sorts nothing of the workers'.
     */
    public static final double PARALLEL_PIPELINE_ROWS = 1 << 18;
    /**
     * Estimated rows of a perfect join table below which one thread indexes it by default on {@link #FEW_CORES} cores: two
     * workers' atomic inserts into a perfect table took longer than one thread's plain stores for every table of TPC-H
     * SF 1 up to 147,126 rows, and as long at 319,404 (load 3 to 5); at load 8 a perfect table over [1..6M] from two
     * workers' rows took 2.7/4.0 ms serial/atomic for 30,000 rows, 6.6/12.1 for 319,404 and 48/106 for 1.5M.
     */
    public static final double PARALLEL_BUILD_ROWS = 1 << 19;

    /** A value of a dimension and the condition a pipeline must meet for it (null: always allowed). */
    private record Value(String name, BiPredicate<QueryPlan, Pipeline> allowed) {
    }

    /** A dimension: its name, where it applies, its values, and its default value on a pipeline. */
    private record Declared(String name, Predicate<Pipeline> applies, List<Value> values,
                            java.util.function.BiFunction<QueryPlan, Pipeline, String> defaultValue) {
    }

    /** A constraint between dimensions: genomes where {@code holds} is false are not valid. */
    public record Constraint(String description, Set<String> dimensions, Predicate<Genome> holds) {
    }

    private final int cores;
    private final boolean vectorApi;
    private final List<Declared> declared = new ArrayList<>();
    private final List<Constraint> constraints = new ArrayList<>();

    /** The space of this machine: its cores, and the Vector API where the JVM was started with it. */
    public JvmVariantSpace() {
        this(java.lang.Runtime.getRuntime().availableProcessors());
    }

    public JvmVariantSpace(int cores) {
        this(cores, vectorApiPresent());
    }

    public JvmVariantSpace(int cores, boolean vectorApi) {
        if (cores < 1) {
            throw new IllegalArgumentException("cores: " + cores);
        }
        this.cores = cores;
        this.vectorApi = vectorApi;
        declare();
    }

    /** Whether the Vector API module (jdk.incubator.vector) is in this JVM's boot layer. */
    public static boolean vectorApiPresent() {
        return ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    }

    private static Value v(String name) {
        return new Value(name, null);
    }

    private static Value v(String name, BiPredicate<QueryPlan, Pipeline> allowed) {
        return new Value(name, allowed);
    }

    private void declare() {
        List<Value> workers = new ArrayList<>();
        for (int w = 1; w < cores; w *= 2) {
            workers.add(v(Integer.toString(w)));
        }
        workers.add(v(Integer.toString(cores)));
        declared.add(new Declared(JvmDimensions.WORKERS, p -> true, workers, (q, p) -> Integer.toString(defaultWorkers(p))));

        declared.add(new Declared(JvmDimensions.HASH_TABLE, p -> p.sink() instanceof Sink.Build,
                List.of(v("perfect", (q, p) -> perfectAllowed((Sink.Build) p.sink())), v("linear"), v("cuckoo2"),
                        v("cuckoo3"), v("cuckoo4")),
                (q, p) -> perfectAllowed((Sink.Build) p.sink()) ? "perfect" : "linear"));

        // the workers build a large table together; a perfect one by atomic exchanges on its slots, which need no
        // partitioning pass over the rows, the hashed ones in radix partitions of their slots
        declared.add(new Declared(JvmDimensions.JOIN_BUILD, p -> cores > 1 && p.sink() instanceof Sink.Build,
                List.of(v("serial"), v("partitioned"), v("atomic")),
                (q, p) -> defaultJoinBuild(p)));

        declared.add(new Declared(JvmDimensions.AGGREGATION, p -> p.sink() instanceof Sink.GroupAggregate,
                List.of(v("dense", (q, p) -> denseAllowed((Sink.GroupAggregate) p.sink())), v("hash"), v("shared"),
                        v("partitioned"), v("ordered", (q, p) -> orderedAllowed((Sink.GroupAggregate) p.sink()))),
                (q, p) -> defaultAggregation((Sink.GroupAggregate) p.sink())));

        declared.add(new Declared(JvmDimensions.GROUP_MERGE, p -> cores > 1 && p.sink() instanceof Sink.GroupAggregate,
                List.of(v("serial"), v("partitioned")), (q, p) -> "partitioned"));

        declared.add(new Declared(JvmDimensions.DISTINCT, p -> cores > 1 && hasDistinct(p.sink()),
                List.of(v("serial"), v("partitioned")), (q, p) -> "partitioned"));

        // only inner and semi probes whose keys read no earlier probe's payload move (PipelineAnalysis)
        declared.add(new Declared(JvmDimensions.PROBE_ORDER,
                p -> PipelineAnalysis.probesReorderable(p.operations())
                        && !PipelineAnalysis.probesBySelectivity(p.operations()).equals(p.operations()),
                List.of(v("written"), v("selectivity")), (q, p) -> "written"));

        // runtime join filters: only where a probe may drop rows before it runs (plan.RuntimeFilters), each probe
        // with the tests that pay (RuntimeFilters.filters), tested just before its own lookup. By default the
        // estimates' choice on a machine of few cores, on more only a perfect table's presence bits (bloom where
        // those are all its tests: on the H200 machine's 16 cores SSB SF 20 took 17% less time with them, 93.6 and
        // 89.2 ms geomean before, 77.3 and 77.1 after) and else none: on the 2-core VM (TPC-H SF 1 and 3, one and two
        // workers, CPU time) no query was slower than without them, and at SF 3 Q3, Q5, Q9, Q10 and Q21 took 16 to 44%
        // less CPU; on the H200 machine's 16 cores (SF 10, two rounds beside the same build with
        // tessera.joinfilter=none) the geomean did not move beyond the rounds' spread, Q9 was faster in both rounds
        // and Q21 slower in both: there the probes' cache misses overlap across cores and the filter's hashing of
        // the rows is what is left
        declared.add(new Declared(JvmDimensions.JOIN_FILTER,
                p -> !RuntimeFilters.filterable(p.operations()).isEmpty(),
                List.of(v("none"), v("range"), v("bloom")),
                (q, p) -> defaultJoinFilter(p)));

        declared.add(new Declared(JvmDimensions.SIMD,
                p -> vectorApi && !PipelineAnalysis.leadingColumnComparisons(p.operations()).isEmpty(),
                List.of(v("scalar"), v("vector")), (q, p) -> "scalar"));

        declared.add(new Declared(JvmDimensions.PREDICATION, PipelineAnalysis::hasPredicableRun,
                List.of(v("branch"), v("predicated")), (q, p) -> "branch"));

        declared.add(new Declared(JvmDimensions.HASH,
                p -> p.sink() instanceof Sink.Build || p.sink() instanceof Sink.GroupAggregate,
                List.of(v("mulshift"), v("murmur")), (q, p) -> "mulshift"));

        List<Value> morsels = new ArrayList<>();
        for (int m = MIN_MORSEL; m <= MAX_MORSEL; m *= 2) {
            morsels.add(v(Integer.toString(m)));
        }
        declared.add(new Declared(JvmDimensions.MORSEL, p -> true, morsels, (q, p) -> "16384"));

        declared.add(new Declared(JvmDimensions.ACCESS, p -> cores > 1,
                List.of(v("dynamic"), v("blocked"), v("strided")), (q, p) -> "dynamic"));

        declared.add(new Declared(JvmDimensions.SORT, p -> cores > 1 && p.sink() instanceof Sink.Sort s && !s.isTopK(),
                List.of(v("serial"), v("runs")), (q, p) -> bySize(p, "serial", "runs")));
        declared.add(new Declared(JvmDimensions.TOP_K, p -> cores > 1 && p.sink() instanceof Sink.Sort s && s.isTopK(),
                List.of(v("serial"), v("worker")), (q, p) -> bySize(p, "serial", "worker")));
        declared.add(new Declared(JvmDimensions.WINDOW, p -> cores > 1 && p.sink() instanceof Sink.Window,
                List.of(v("serial"), v("partitions")), (q, p) -> bySize(p, "serial", "partitions")));

        constraints.add(new Constraint("a perfect table hashes nothing: its hash is fixed to mulshift",
                Set.of(JvmDimensions.HASH_TABLE, JvmDimensions.HASH),
                g -> !"perfect".equals(g.get(JvmDimensions.HASH_TABLE)) || "mulshift".equals(g.get(JvmDimensions.HASH))));
        constraints.add(new Constraint("a dense array hashes nothing: its hash is fixed to mulshift",
                Set.of(JvmDimensions.AGGREGATION, JvmDimensions.HASH),
                g -> !"dense".equals(g.get(JvmDimensions.AGGREGATION)) || "mulshift".equals(g.get(JvmDimensions.HASH))));
        constraints.add(new Constraint("a cuckoo table's eviction moves a key out of the table: it is not built by atomic inserts",
                Set.of(JvmDimensions.HASH_TABLE, JvmDimensions.JOIN_BUILD),
                g -> !g.get(JvmDimensions.HASH_TABLE).startsWith("cuckoo") || !"atomic".equals(g.get(JvmDimensions.JOIN_BUILD))));
        constraints.add(new Constraint("shared and partitioned tables hold disjoint keys: their merge is fixed to partitioned",
                Set.of(JvmDimensions.AGGREGATION, JvmDimensions.GROUP_MERGE),
                g -> !Set.of("shared", "partitioned").contains(g.get(JvmDimensions.AGGREGATION))
                        || "partitioned".equals(g.get(JvmDimensions.GROUP_MERGE))));
        constraints.add(new Constraint("one worker has nobody to share morsels with: its access is fixed to dynamic",
                Set.of(JvmDimensions.WORKERS, JvmDimensions.ACCESS),
                g -> !"1".equals(g.get(JvmDimensions.WORKERS)) || "dynamic".equals(g.get(JvmDimensions.ACCESS))));
        for (String end : List.of(JvmDimensions.SORT, JvmDimensions.TOP_K, JvmDimensions.WINDOW)) {
            constraints.add(new Constraint("one worker sorts alone: its " + end + " is fixed to serial",
                    Set.of(JvmDimensions.WORKERS, end),
                    g -> !"1".equals(g.get(JvmDimensions.WORKERS)) || "serial".equals(g.get(end))));
        }
    }

    /**
     * The default joinfilter of pipeline {@code p}: the value {@link #JOIN_FILTER_DEFAULT} names, where it names
     * one, else the estimates' choice on at most {@link #FILTERING_CORES} cores, and on more bloom only where every
     * test it picks is a perfect table's presence bits ({@link RuntimeFilters#presenceStrategy}).
     */
    private String defaultJoinFilter(Pipeline p) {
        String forced = System.getProperty(JOIN_FILTER_DEFAULT, "");
        return switch (forced) {
            case "" -> cores <= FILTERING_CORES ? RuntimeFilters.estimatedStrategy(p) : RuntimeFilters.presenceStrategy(p);
            case "estimates" -> RuntimeFilters.estimatedStrategy(p);
            case "none", "range", "bloom" -> forced;
            default -> throw new IllegalArgumentException(JOIN_FILTER_DEFAULT + "=" + forced
                    + ": the default joinfilter is one of estimates, none, range and bloom");
        };
    }

    /**
     * The serial value for a pipeline whose source is estimated below {@link #PARALLEL_END_ROWS} rows or that runs on
     * one worker by default, else the parallel.
     */
    private String bySize(Pipeline p, String serial, String parallel) {
        return defaultWorkers(p) > 1 && p.source().estimatedRows() >= PARALLEL_END_ROWS ? parallel : serial;
    }

    /**
     * The default workers of pipeline {@code p}: one on {@link #FEW_CORES} cores where every estimate of its rows is
     * below {@link #PARALLEL_PIPELINE_ROWS}, else all cores.
     */
    int defaultWorkers(Pipeline p) {
        return cores <= FEW_CORES && largestEstimate(p) < PARALLEL_PIPELINE_ROWS ? 1 : cores;
    }

    /**
     * The default build of a BUILD pipeline: partitioned for a hashed table; for a perfect one serial on {@link
     * #FEW_CORES} cores below {@link #PARALLEL_BUILD_ROWS} estimated rows, else atomic (exchanges on its slots, no
     * partitioning pass). TPC-H Q9's pipeline that builds a hashed table of 319,404 rows on two keys took 40-49 ms
     * with it partitioned, 70-82 ms with it serial (two workers, load 9 to 12): its hashing and probing are worth
     * sharing.
     */
    private String defaultJoinBuild(Pipeline p) {
        Sink.Build b = (Sink.Build) p.sink();
        if (!perfectAllowed(b)) {
            return "partitioned";
        }
        return cores <= FEW_CORES && b.estimatedRows() < PARALLEL_BUILD_ROWS ? "serial" : "atomic";
    }

    /** The most rows estimated at any step of {@code p}; infinite where it has no estimate. */
    static double largestEstimate(Pipeline p) {
        double most = Double.NaN;
        for (double rows : p.estimatedRows()) {
            if (!Double.isNaN(rows)) {
                most = Double.isNaN(most) ? rows : Math.max(most, rows);
            }
        }
        return Double.isNaN(most) ? Double.POSITIVE_INFINITY : most;
    }

    /**
     * The constraint between simd and pred of a pipeline: predication needs a run of at least two conjuncts that
     * scalar code still evaluates, which the vectorized filter may have taken over.
     */
    private static Constraint predicationAfterVectorizing(Pipeline p) {
        boolean left = PipelineAnalysis.filterRuns(PipelineAnalysis.withoutLeadingColumnComparisons(p.operations()))
                .stream().anyMatch(r -> PipelineAnalysis.predicable(r.conjuncts()));
        return new Constraint("predication needs two conjuncts left to scalar code after the vectorized filter",
                Set.of(JvmDimensions.SIMD, JvmDimensions.PREDICATION),
                g -> left || !"vector".equals(g.get(JvmDimensions.SIMD)) || "branch".equals(g.get(JvmDimensions.PREDICATION)));
    }

    @Override
    public String backend() {
        return BACKEND;
    }

    /** The core count the workers dimension goes up to. */
    public int cores() {
        return cores;
    }

    /** The values of a declared dimension allowed on this pipeline. */
    private static List<String> allowed(Declared d, QueryPlan plan, Pipeline p) {
        List<String> out = new ArrayList<>();
        for (Value val : d.values()) {
            if (val.allowed() == null || val.allowed().test(plan, p)) {
                out.add(val.name());
            }
        }
        return out;
    }

    @Override
    public List<Dimension> dimensions(QueryPlan plan, Pipeline p) {
        List<Dimension> out = new ArrayList<>();
        for (Declared d : declared) {
            if (d.applies().test(p)) {
                List<String> values = allowed(d, plan, p);
                if (values.size() >= 2) {
                    out.add(new Dimension(d.name(), values));
                }
            }
        }
        return out;
    }

    /** The constraints that apply to this pipeline (those whose dimensions all apply to it). */
    public List<Constraint> constraints(QueryPlan plan, Pipeline p) {
        Set<String> names = new java.util.HashSet<>();
        for (Dimension d : dimensions(plan, p)) {
            names.add(d.name());
        }
        List<Constraint> out = new ArrayList<>();
        List<Constraint> all = new ArrayList<>(constraints);
        all.add(predicationAfterVectorizing(p));
        for (Constraint c : all) {
            if (names.containsAll(c.dimensions())) {
                out.add(c);
            }
        }
        return out;
    }

    @Override
    public boolean valid(QueryPlan plan, Pipeline p, Genome g) {
        if (!BACKEND.equals(g.backend())) {
            return false;
        }
        List<Dimension> dims = dimensions(plan, p);
        Set<String> derived = derivedNames(p);
        for (String key : g.values().keySet()) {
            if (!derived.contains(key) && dims.stream().noneMatch(d -> d.name().equals(key))) {
                return false;
            }
        }
        for (Dimension d : dims) {
            if (!g.has(d.name()) || !d.values().contains(g.get(d.name()))) {
                return false;
            }
        }
        for (Constraint c : constraints(plan, p)) {
            if (!c.holds().test(g)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Genome defaultGenome(QueryPlan plan, Pipeline p) {
        Map<String, String> m = new LinkedHashMap<>();
        for (Dimension d : dimensions(plan, p)) {
            Declared decl = declared.stream().filter(x -> x.name().equals(d.name())).findFirst().orElseThrow();
            m.put(d.name(), decl.defaultValue().apply(plan, p));
        }
        return Genome.of(BACKEND, m);
    }

    /** The names of the derived dimensions of a pipeline: ht.jN and hash.jN of every join it probes. */
    private static Set<String> derivedNames(Pipeline p) {
        Set<String> out = new java.util.HashSet<>();
        for (Operation op : p.operations()) {
            if (op instanceof Operation.Probe probe) {
                out.add(JvmDimensions.probeTable(probe.joinId()));
                out.add(JvmDimensions.probeHash(probe.joinId()));
            }
        }
        return out;
    }

    @Override
    public Genome complete(QueryPlan plan, Pipeline p, Genome g, Map<Integer, Genome> genomesByPipeline) {
        Genome out = g;
        for (Operation op : p.operations()) {
            if (op instanceof Operation.Probe probe) {
                Pipeline build = buildOf(plan, probe.joinId());
                Genome b = genomesByPipeline.get(build.id());
                if (b == null) {
                    throw new IllegalArgumentException("pipeline " + p.id() + " probes join " + probe.joinId()
                            + ", whose build (pipeline " + build.id() + ") has no genome yet");
                }
                out = out.with(JvmDimensions.probeTable(probe.joinId()), tableOf(plan, build, b))
                        .with(JvmDimensions.probeHash(probe.joinId()), hashOf(plan, build, b));
            }
        }
        return out;
    }

    /** The build's table kind: its ht value, or the only one allowed when the dimension is absent. */
    private String tableOf(QueryPlan plan, Pipeline build, Genome b) {
        return b.has(JvmDimensions.HASH_TABLE) ? b.get(JvmDimensions.HASH_TABLE) : defaultGenomeValue(plan, build, JvmDimensions.HASH_TABLE);
    }

    private String hashOf(QueryPlan plan, Pipeline build, Genome b) {
        return b.has(JvmDimensions.HASH) ? b.get(JvmDimensions.HASH) : defaultGenomeValue(plan, build, JvmDimensions.HASH);
    }

    /** The value a pipeline gets for a declared dimension that does not vary on it. */
    private String defaultGenomeValue(QueryPlan plan, Pipeline p, String name) {
        Declared d = declared.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
        List<String> values = allowed(d, plan, p);
        return values.size() == 1 ? values.get(0) : d.defaultValue().apply(plan, p);
    }

    private static Pipeline buildOf(QueryPlan plan, int joinId) {
        for (Pipeline q : plan.pipelines()) {
            if (q.sink() instanceof Sink.Build b && b.joinId() == joinId) {
                return q;
            }
        }
        throw new IllegalArgumentException("no pipeline builds join " + joinId);
    }

    /** Constraint of ht=perfect: one integer key whose range is known and not too large. */
    public static boolean perfectAllowed(Sink.Build b) {
        if (b.keys().size() != 1 || b.range() == null || b.range().size() > MAX_PERFECT_SLOTS) {
            return false;
        }
        TypeKind k = b.keys().get(0).type().kind();
        return k == TypeKind.INTEGER || k == TypeKind.DATE || k == TypeKind.BIGINT || k == TypeKind.VARCHAR;
    }

    /**
     * The default aggregation: a dense array where the keys allow one and the groups fill enough of it; else
     * per-worker hash tables (merged in parallel) while the estimated groups fit a core's cache, and beyond that runs
     * of equal keys where the first key ascends with the rows read (TPC-H Q18's lineitem by l_orderkey: a morsel's
     * groups are whole but its first and last), else radix partitions. A sparse dense array costs every worker its whole range to clear and merge (TPC-H Q11 at SF 10: 2M
     * slots per worker for about 320,000 groups).
     */
    static String defaultAggregation(Sink.GroupAggregate ga) {
        if (denseAllowed(ga) && denseSlots(ga) <= Math.max(CACHED_GROUPS, SPARSE_DENSE_FACTOR * ga.estimatedGroups())) {
            return "dense";
        }
        if (ga.estimatedGroups() <= CACHED_GROUPS) {
            return "hash";
        }
        return orderedAllowed(ga) && AscendingColumns.ascendingSource(ga.keys().get(0)) ? "ordered" : "partitioned";
    }

    /**
     * Constraint of agg=ordered: keys of the hash tables' encoding whose order every worker shares (a VARCHAR only
     * as a dictionary column's codes: other strings a table interns to ids of its own). Every aggregate combines as
     * the hash merge combines it.
     */
    public static boolean orderedAllowed(Sink.GroupAggregate ga) {
        for (io.tessera.plan.Expr k : ga.keys()) {
            boolean code = k instanceof io.tessera.plan.Expr.Ref r && r.slot().dictionaryKey() != null;
            if (!code && k.type().kind() == TypeKind.VARCHAR) {
                return false;
            }
        }
        return true;
    }

    /** Whether an aggregation sink has a DISTINCT aggregate (COUNT, SUM or AVG of DISTINCT values). */
    static boolean hasDistinct(Sink sink) {
        List<io.tessera.plan.AggCall> aggs = sink instanceof Sink.GroupAggregate ga ? ga.aggs()
                : sink instanceof Sink.Aggregate a ? a.aggs() : List.of();
        return aggs.stream().anyMatch(c -> c.function().distinct());
    }

    /** Constraint of agg=dense: every key's range known, and the product of (range + NULL slot) small. */
    public static boolean denseAllowed(Sink.GroupAggregate ga) {
        return denseSlots(ga) <= MAX_DENSE_GROUPS;
    }

    /** The slots a dense array of the keys' ranges has (NULL slots included), or Long.MAX_VALUE when unknown or above the limit. */
    static long denseSlots(Sink.GroupAggregate ga) {
        long slots = 1;
        for (int i = 0; i < ga.keys().size(); i++) {
            KeyRange r = ga.ranges().get(i);
            if (r == null) {
                return Long.MAX_VALUE;
            }
            TypeKind k = ga.keys().get(i).type().kind();
            if (k == TypeKind.DOUBLE || k == TypeKind.DECIMAL) {
                return Long.MAX_VALUE;
            }
            slots *= r.size() + 1;
            if (slots > MAX_DENSE_GROUPS) {
                return Long.MAX_VALUE;
            }
        }
        return slots;
    }
}
