package io.tessera.backend.jvm.gen;

import io.tessera.backend.jvm.aggregate.AggregateEmitter;
import io.tessera.backend.jvm.aggregate.GroupAggregateEmitter;
import io.tessera.backend.jvm.filter.FilterEmitter;
import io.tessera.backend.jvm.filter.VectorFilterEmitter;
import io.tessera.backend.jvm.join.BuildEmitter;
import io.tessera.backend.jvm.join.JoinFilterEmitter;
import io.tessera.backend.jvm.join.MarkEmitter;
import io.tessera.backend.jvm.join.ProbeEmitter;
import io.tessera.backend.jvm.relation.MaterializeEmitter;
import io.tessera.backend.jvm.sort.SortEmitter;
import io.tessera.backend.jvm.window.WindowEmitter;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.PipelineAnalysis;
import io.tessera.plan.RuntimeFilters;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;

import java.util.List;
import java.util.Map;

/**
 * Emits one pipeline as a Java class: a loop over the rows of one morsel whose body is the pipeline's
 * operations, fused, followed by its sink. Every choice with alternatives is read from the genome. The code
 * is indented and each part is commented with the IR operation it comes from.
 *
 * <p>This class drives; each operator family has its own emitter: {@link VectorFilterEmitter} and
 * {@link FilterEmitter} (scan/filter/map), {@link JoinFilterEmitter} (runtime join filters, each just before
 * its probe's lookup), {@link ProbeEmitter} (with {@code JoinLookup} per table layout),
 * {@link BuildEmitter}, {@link MarkEmitter} (marks and the scan of marked rows), {@link AggregateEmitter}, {@link GroupAggregateEmitter} (with {@code GroupAggregation} per
 * strategy), {@link MaterializeEmitter} and {@link SortEmitter}; hashed tables name their {@link HashFunction}. They write into a {@link PipelineWriter};
 * {@link PipelineClass} assembles the class.
 */
public final class PipelineEmitter {

    static final String SCALAR = "scalar";
    static final String VECTOR = "vector";
    static final String WRITTEN = "written";
    static final String SELECTIVITY = "selectivity";

    private PipelineEmitter() {
    }

    public static EmittedPipeline emit(Pipeline p, Genome g) {
        return emit(p, g, false);
    }

    /**
     * Emits pipeline {@code p} under genome {@code g}; {@code countRows}: with a counter of the rows out of each
     * operation ({@link RowCounters}, for EXPLAIN ANALYZE), which plain queries' code never has.
     */
    public static EmittedPipeline emit(Pipeline p, Genome g, boolean countRows) {
        PipelineWriter w = new PipelineWriter(p, g);
        List<Operation> ops = p.operations();
        RowCounters counters = countRows && !ops.isEmpty() ? new RowCounters(w, ops) : null;
        if (VECTOR.equals(w.choice(JvmDimensions.SIMD, SCALAR))) {
            List<PipelineAnalysis.ColumnComparison> terms = PipelineAnalysis.leadingColumnComparisons(ops);
            if (terms.isEmpty()) {
                throw new IllegalArgumentException("genome " + g + ": no filter of pipeline " + p.id() + " can be vectorized");
            }
            w.vectorFilter = VectorFilterEmitter.emit(w, terms);
            int taken = PipelineAnalysis.leadingFilters(ops);
            ops = PipelineAnalysis.withoutLeadingColumnComparisons(ops);
            w.indent = 4;
            if (counters != null) {
                counters.vectorFilter(taken, ops.size() - (p.operations().size() - taken));
            }
        }
        if (SELECTIVITY.equals(w.choice(JvmDimensions.PROBE_ORDER, WRITTEN))) {
            ops = PipelineAnalysis.probesBySelectivity(ops);
        }
        if (p.source() instanceof Source.JoinTableScan scan) {
            MarkEmitter.scan(w, scan);
        }
        FilterEmitter.Predication predication = FilterEmitter.Predication.of(w);
        Map<Operation.Probe, RuntimeFilters.ProbeFilter> joinFilters = JoinFilterEmitter.filters(w, ops);
        for (int i = 0; i < ops.size(); i++) {
            int first = i;
            if (ops.get(i) instanceof Operation.Filter) {
                i = FilterEmitter.emit(w, ops, i, predication);
            } else {
                Operation.Probe pr = (Operation.Probe) ops.get(i);
                ProbeEmitter.emit(w, pr, joinFilters.get(pr));
            }
            if (counters != null) {
                counters.after(ops, first, i);
            }
        }
        sink(w, p.sink());
        int[] counted = counters == null ? new int[0] : counters.counted();
        w.rowCounters = counted.length > 0;
        return new EmittedPipeline(p, g, w.className, PipelineClass.assemble(w), List.copyOf(w.constants), w.bufferKinds,
                w.bufferDicts, w.aggSpecs, w.keyKinds, w.keyDicts, w.dense, w.denseMins, w.denseSizes, w.keyWidth,
                w.nullableKeys, counted);
    }

    private static void sink(PipelineWriter w, Sink s) {
        switch (s) {
            case Sink.Build b -> BuildEmitter.emit(w, b);
            case Sink.Aggregate a -> AggregateEmitter.emit(w, a);
            case Sink.GroupAggregate ga -> GroupAggregateEmitter.emit(w, ga);
            case Sink.Materialize m -> MaterializeEmitter.emit(w, m);
            case Sink.Sort so -> SortEmitter.emit(w, so);
            case Sink.Window win -> WindowEmitter.emit(w, win);
            case Sink.Marks m -> MarkEmitter.sink(w, m);
        }
        // close the loops of probes over repeated build keys, innermost first
        for (int i = w.closers.size() - 1; i >= 0; i--) {
            w.indent--;
            w.line(w.closers.get(i));
        }
    }
}
