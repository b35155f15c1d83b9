package io.tessera.backend.jvm.run;

import io.tessera.backend.QueryState;
import io.tessera.backend.jvm.BlockControl;
import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.backend.jvm.aggregate.GroupTable;
import io.tessera.backend.jvm.aggregate.Groups;
import io.tessera.backend.jvm.aggregate.HashGroupTable;
import io.tessera.backend.jvm.aggregate.JvmGroups;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.JavaCompiler;
import io.tessera.backend.jvm.gen.PipelineCode;
import io.tessera.backend.jvm.gen.PipelineContext;
import io.tessera.backend.jvm.gen.PipelineEmitter;
import io.tessera.plan.Sink;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Runs a pipeline block by block for a tuner ({@link BlockControl}): each block of source rows with the genome
 * the control chooses, its code compiled on first use, each block's time handed back. Blocks of one kind of
 * sink state fill the same states; a grouping pipeline whose blocks changed its aggregation merges its kinds'
 * tables at the end.
 */
final class BlockRunner {

    private BlockRunner() {
    }

    /** A block genome's emitted variant (the layout of its sink state) and its code. */
    private record BlockVariant(EmittedPipeline emitted, PipelineCode code) {
    }

    /** Runs the pipeline in the control's blocks and finishes it; the finishing time goes to the control. */
    static void run(QueryState state, EmittedPipeline e, PipelineCode code, PipelineContext ctx,
                    BlockControl.Blocks blocks, long rows) {
        BlockSinks sinks = runBlocks(state, e, code, ctx, blocks, rows);
        long t0 = System.nanoTime();
        finishBlocks(state, e, sinks);
        blocks.finished(sinks.setupNanos() + System.nanoTime() - t0);
    }

    /**
     * Runs a pipeline block by block with the genome the control chooses for each block; each block fills the
     * states of its own kind, made before the first block of that kind (those of the compiled genome when no block
     * ran).
     */
    private static BlockSinks runBlocks(QueryState state, EmittedPipeline e, PipelineCode code, PipelineContext ctx,
                                        BlockControl.Blocks blocks, long rows) {
        Map<String, BlockVariant> variants = new HashMap<>();
        variants.put(codeKey(e.genome()), new BlockVariant(e, code));
        BlockSinks sinks = new BlockSinks(blocks.maxWorkers());
        long blockRows = Math.max(1, blocks.blockRows());
        for (long from = 0; from < rows; from += blockRows) {
            long to = Math.min(rows, from + blockRows);
            Genome g = blocks.next();
            BlockVariant v = variants.get(codeKey(g));
            if (v == null) {
                v = blockVariant(e, g, ctx);
                variants.put(codeKey(g), v);
            }
            BlockSinks.Kind k = sinks.kind(v.emitted(), v.code());
            long nanos = MorselRunner.run(state, k.emitted(), v.code(), g, from, to, k.states(), k.shared());
            sinks.ran(k);
            blocks.done(g, to - from, nanos);
        }
        if (rows == 0) {
            sinks.ran(sinks.kind(e, code));
        }
        return sinks;
    }

    /**
     * Ends a pipeline run block by block: one kind of sink state ends as a run in one go does; several (a grouping
     * pipeline whose blocks changed agg) are each merged over their workers, then into one table.
     */
    private static void finishBlocks(QueryState state, EmittedPipeline e, BlockSinks sinks) {
        List<BlockSinks.Kind> used = sinks.used();
        if (used.size() == 1) {
            BlockSinks.Kind k = used.get(0);
            SinkFinisher.finish(state, k.emitted(), k.code(), k.states());
            return;
        }
        Sink.GroupAggregate ga = (Sink.GroupAggregate) e.pipeline().sink();
        boolean[] stringKeys = JvmGroups.stringKeys(e);
        List<GroupTable> tables = new ArrayList<>();
        for (BlockSinks.Kind k : used) {
            tables.addAll(JvmGroups.merged(k.emitted(), k.code(), k.states(), stringKeys, MorselRunner.pool(state)).tables());
        }
        HashGroupTable all = BlockSinks.combine(tables, stringKeys, () -> SinkStates.hashTable(e, ga));
        SinkFinisher.groupsToRelation(state, e, Groups.of(List.of(all)), ga.relationId());
    }

    /** The part of a genome that selects a block's code: everything but how the workers share the rows. */
    private static String codeKey(Genome g) {
        Map<String, String> m = new TreeMap<>(g.values());
        m.remove(JvmDimensions.WORKERS);
        m.remove(JvmDimensions.MORSEL);
        m.remove(JvmDimensions.ACCESS);
        return m.toString();
    }

    /**
     * Compiles a block genome's code after checking that it changes only what a block may: a block of another
     * aggregation must group by the same keys into the same aggregates (its own tables are merged with the others
     * at the end), and one of the same aggregation must keep the compiled variant's sink state.
     */
    private static BlockVariant blockVariant(EmittedPipeline base, Genome g, PipelineContext ctx) {
        Genome b = base.genome();
        if (!b.backend().equals(g.backend()) || !b.values().keySet().equals(g.values().keySet())) {
            throw new IllegalArgumentException("block genome " + g + " does not have the dimensions of " + b);
        }
        for (String k : b.values().keySet()) {
            if (b.get(k).equals(g.get(k))) {
                continue;
            }
            if (!JvmExecutor.BLOCK_SWITCHABLE.contains(k)) {
                throw new IllegalArgumentException("block genome " + g + " changes " + k + " of " + b
                        + "; a block may change only " + new TreeSet<>(JvmExecutor.BLOCK_SWITCHABLE));
            }
            Set<String> fixed = JvmExecutor.BLOCK_FIXED_VALUES.getOrDefault(k, Set.of());
            if (fixed.contains(b.get(k)) || fixed.contains(g.get(k))) {
                throw new IllegalArgumentException("block genome " + g + " changes " + k + " of " + b
                        + "; a block may not switch " + k + " to or from " + new TreeSet<>(fixed));
            }
        }
        EmittedPipeline v = PipelineEmitter.emit(base.pipeline(), g);
        boolean sameKind = SinkStates.kind(g).equals(SinkStates.kind(b));
        if (!Arrays.equals(v.bufferKinds(), base.bufferKinds()) || !Arrays.equals(v.bufferDicts(), base.bufferDicts())
                || !Arrays.equals(v.aggs(), base.aggs()) || !Arrays.equals(v.keyKinds(), base.keyKinds())
                || !Arrays.equals(v.keyDicts(), base.keyDicts())
                || v.keyWidth() != base.keyWidth() || v.nullableKeys() != base.nullableKeys()
                || sameKind && (v.dense() != base.dense() || !Arrays.equals(v.denseMins(), base.denseMins())
                        || !Arrays.equals(v.denseSizes(), base.denseSizes()))) {
            throw new IllegalStateException("block genome " + g + " has a sink state unlike " + b);
        }
        try {
            PipelineCode c = JavaCompiler.compile(v.className(), v.source()).getDeclaredConstructor().newInstance();
            c.init(ctx, v.constants().toArray());
            return new BlockVariant(v, c);
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
