package io.tessera.backend.cuda.gen;

import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.Sink;
import io.tessera.storage.Dictionary;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.List;

/**
 * Emits one pipeline (IR plus genome) as one tile-based CUDA kernel (Crystal, chapter 3): each block takes tiles of
 * TPB x IPT rows, items in registers; every FILTER and PROBE is fused, columns are loaded on first use (only the
 * rows still selected, unless predicated), and the sink ends the tile: a hash-table insert, aggregation, or
 * materialization (one atomic per tile and a block scan, or two passes over counts and their prefix sum). A kernel
 * of two passes (a cuckoo build with payload, mat=twopass or mat=bitmap) has a {@code pass} parameter and is
 * launched twice. Every choice comes from the genome.
 *
 * <p>This class walks the pipeline and decides what the whole kernel shares (the order of the operations, the
 * bitmaps in shared memory, predicated probes); each operator family has its own emitter: {@link FilterOp}, {@link
 * ProbeOp}, {@link BuildOp}, {@link AggregateOp}, {@link GroupAggregateOp}, {@link MaterializeOp}, with the variant
 * dimensions as named strategies ({@link JoinTable}, {@link GroupTable}, {@link RowPlacement}). Only pipelines that
 * {@link CudaCapabilities} accepts may be emitted; anything else is an {@link IllegalStateException}.
 */
public final class CudaPipelineEmitter {

    /** What emitting needs beyond the pipeline: dictionaries, and the layouts of tables built before. */
    public interface Context {
        Dictionary dictionary(String key);

        JoinLayout join(int joinId);

        /** The groups a GPU aggregation leaves on the device as relation {@code relationId}, or null. */
        default ScannedGroups groups(int relationId) {
            return null;
        }

        /**
         * Whether relation {@code relationId} is made by a GPU kernel whose sink leaves it on the device (the rows of
         * a MATERIALIZE, an aggregation's groups), so that a later kernel may read its rows as columns.
         */
        default boolean relationOnDevice(int relationId) {
            return false;
        }
    }

    private final KernelBuilder k;

    private CudaPipelineEmitter(Pipeline p, Genome g, Context ctx) {
        this.k = new KernelBuilder(p, g, ctx);
    }

    public static String kernelName(Pipeline p) {
        return "tessera_p" + p.id();
    }

    /**
     * The kernel of pipeline p under genome g. The pipeline must be one {@link CudaCapabilities#reason} accepts with
     * the tables of {@code ctx}; for any other, this throws {@link IllegalStateException}.
     */
    public static CudaKernelSource emit(Pipeline p, Genome g, Context ctx) {
        return new CudaPipelineEmitter(p, g, ctx).emit();
    }

    private CudaKernelSource emit() {
        Pipeline p = k.p;
        Genome g = k.g;
        k.params.add(new KernelParam(KernelParam.Kind.ROWS, -1, "n", "const long long"));
        k.operations = g.has(CudaVariantSpace.PROBE_ORDER) && g.get(CudaVariantSpace.PROBE_ORDER).equals("selectivity")
                ? ProbeOrder.bySelectivity(p.operations(), k.ctx::join) : p.operations();
        chooseSharedBitmaps();
        k.predicatedProbes = predicatesProbes();
        if (k.joinScan != null) {
            MarkOps.scanFilter(k);
        }
        if (k.groupScan != null) {
            GroupScan.presence(k);
        }
        for (int i = 0; i < k.operations.size(); i++) {
            Operation op = k.operations.get(i);
            k.collectLaterSlots(i + 1);
            switch (op) {
                case Operation.Filter f -> FilterOp.emit(k, f);
                case Operation.Probe pr -> ProbeOp.emit(k, pr, false);
            }
        }
        k.collectLaterSlots(k.operations.size());
        switch (p.sink()) {
            case Sink.Build b -> BuildOp.emit(k, b);
            case Sink.Aggregate a -> AggregateOp.emit(k, a);
            case Sink.GroupAggregate ga -> GroupAggregateOp.emit(k, ga);
            case Sink.Materialize m -> MaterializeOp.emit(k, m.outputs());
            case Sink.Sort s -> MaterializeOp.emit(k, s.outputs());
            case Sink.Window w -> MaterializeOp.emit(k, w.outputs()); // sorted and windowed after the kernel
            case Sink.Marks m -> MarkOps.sink(k, m);
        }
        ChainedRows.closeRounds(k);
        k.params.add(new KernelParam(KernelParam.Kind.ERROR, -1, "error", "int*"));
        String name = kernelName(p);
        String source = KernelAssembler.assemble(k, name);
        return new CudaKernelSource(p, g, name, "p" + p.id() + ".cu", source, List.copyOf(k.params), k.sink, k.bytesRead,
                k.model.bytes(), k.sharedWords() * 8);
    }

    /** Under bm=shared: which probed perfect tables' bitmaps fit in shared memory beside the sink's table. */
    private void chooseSharedBitmaps() {
        Genome g = k.g;
        if (!g.has(CudaVariantSpace.BITMAPS) || !g.get(CudaVariantSpace.BITMAPS).equals("shared")) {
            return;
        }
        List<Integer> joins = new ArrayList<>();
        List<Long> bytes = new ArrayList<>();
        for (Operation op : k.operations) {
            if (op instanceof Operation.Probe pr && k.ctx.join(pr.joinId()) instanceof JoinLayout t && t.perfect()
                    && !joins.contains(pr.joinId())) {
                joins.add(pr.joinId());
                bytes.add(CudaVariantSpace.bitmapBytes(t.perfectSlots()));
            }
        }
        long sinkBytes = k.p.sink() instanceof Sink.GroupAggregate ga && "wglocal".equals(g.get(CudaVariantSpace.AGGREGATION))
                ? CudaVariantSpace.sharedTableBytes(k.p, ga) : 0;
        boolean[] shared = CudaVariantSpace.sharedBitmaps(bytes, sinkBytes,
                CudaVariantSpace.sharedBudget(Integer.parseInt(g.get(CudaVariantSpace.TPB)),
                        "full".equals(g.get(CudaVariantSpace.OCCUPANCY))));
        for (int i = 0; i < shared.length; i++) {
            if (shared[i]) {
                k.sharedBitmapWords.put(joins.get(i), bytes.get(i) / 4);
            }
        }
    }

    /**
     * Whether the genome predicates the pipeline's perfect-table probes: always, never, or (ppred=estimate) when the
     * estimated share of the rows that reach its last one is {@link CudaVariantSpace#PREDICATED_PROBE_SHARE} or more.
     */
    private boolean predicatesProbes() {
        if (!k.g.has(CudaVariantSpace.PROBE_PREDICATION)) {
            return false;
        }
        return switch (k.g.get(CudaVariantSpace.PROBE_PREDICATION)) {
            case "predicated" -> true;
            case "estimate" -> shareAtLastPerfectProbe() >= CudaVariantSpace.PREDICATED_PROBE_SHARE;
            default -> false;
        };
    }

    /** The estimated share of the scanned rows still selected where the pipeline probes its last perfect table. */
    private double shareAtLastPerfectProbe() {
        ModelAccount walk = new ModelAccount(0); // narrows as the kernel's own account will, ahead of it
        double atLast = 1;
        for (Operation op : k.operations) {
            switch (op) {
                case Operation.Filter f -> walk.narrow(k.estimates.of(f.condition()));
                case Operation.Probe pr -> {
                    JoinLayout t = k.ctx.join(pr.joinId());
                    if (t != null) {
                        if (t.perfect()) {
                            atLast = walk.selected();
                        }
                        walk.narrow(KernelBuilder.keeps(pr, t));
                    }
                }
            }
        }
        return atLast;
    }
}
