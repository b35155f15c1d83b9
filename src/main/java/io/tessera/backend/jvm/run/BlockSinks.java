package io.tessera.backend.jvm.run;

import io.tessera.backend.jvm.aggregate.DenseGroupTable;
import io.tessera.backend.jvm.aggregate.GroupTable;
import io.tessera.backend.jvm.aggregate.HashGroupTable;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.PipelineCode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sink states of a pipeline run block by block, one set per kind of state that the blocks' genomes fill (a
 * grouping pipeline's blocks may change agg among dense, hash and shared: each kind keeps its own tables). A
 * kind's states are made when a block first needs them, before that block's time starts (so that a kind no block
 * uses costs nothing), and carried over from block to block; at the end each kind that ran a block is merged as a run in one go would merge it, and the
 * kinds' results are then merged into one ({@link #combine}).
 */
final class BlockSinks {

    /** One kind's emitted variant (its state layout), its code, and its states (one shared, or one per worker). */
    record Kind(EmittedPipeline emitted, PipelineCode code, List<Object> states, boolean shared) {
    }

    private final int workers;
    private final Map<String, Kind> kinds = new LinkedHashMap<>();
    private final Map<String, Kind> used = new LinkedHashMap<>();
    private long setupNanos;

    /** {@code workers}: per-worker states made with each kind, the most workers a block uses. */
    BlockSinks(int workers) {
        this.workers = Math.max(1, workers);
    }

    /** The states of the kind {@code emitted} fills, made now when no block has needed them yet. */
    Kind kind(EmittedPipeline emitted, PipelineCode code) {
        return kinds.computeIfAbsent(SinkStates.kind(emitted.genome()), k -> {
            long t0 = System.nanoTime();
            Object shared = SinkStates.shared(emitted);
            List<Object> states = new ArrayList<>();
            if (shared != null) {
                states.add(shared);
            } else {
                for (int w = 0; w < workers; w++) {
                    states.add(SinkStates.perWorker(emitted));
                }
            }
            setupNanos += System.nanoTime() - t0;
            return new Kind(emitted, code, states, shared != null);
        });
    }

    /** Notes that a block ran with kind {@code k}. */
    void ran(Kind k) {
        used.putIfAbsent(SinkStates.kind(k.emitted().genome()), k);
    }

    /** The time spent making the kinds' states. */
    long setupNanos() {
        return setupNanos;
    }

    /** The kinds that ran a block, in the order they first did. */
    List<Kind> used() {
        return List.copyOf(used.values());
    }

    /**
     * Merges the group tables of several kinds, each already merged over its workers, into one hash table: hash
     * tables group by group ({@link HashGroupTable#mergeFrom(HashGroupTable, boolean[])}), dense arrays slot by
     * slot ({@link HashGroupTable#mergeFrom(DenseGroupTable)}). {@code empty} makes the table when every one is dense.
     */
    static HashGroupTable combine(List<GroupTable> tables, boolean[] stringKeys,
                                  java.util.function.Supplier<HashGroupTable> empty) {
        HashGroupTable all = null;
        for (GroupTable t : tables) {
            if (t instanceof HashGroupTable h) {
                if (all == null) {
                    all = h;
                } else {
                    all.mergeFrom(h, stringKeys);
                }
            }
        }
        if (all == null) {
            all = empty.get();
        }
        for (GroupTable t : tables) {
            if (t instanceof DenseGroupTable d) {
                all.mergeFrom(d);
            }
        }
        return all;
    }
}
