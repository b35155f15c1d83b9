package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.variant.Genome;

/**
 * The strategies of GROUP_AGGREGATE, one per value of the {@code agg} dimension: where a row's group lives and
 * how the workers' groups come together.
 */
enum GroupAggregation {

    /** An array indexed by the keys' offsets in their known ranges, one per worker, merged at the end. */
    DENSE("dense", "dense array per worker, merged at the end") {
        @Override
        void emit(GroupAggregateEmitter e) {
            e.w.before.append("        final io.tessera.backend.jvm.aggregate.DenseGroupTable t = (io.tessera.backend.jvm.aggregate.DenseGroupTable) sinkState;\n");
            e.denseGroup();
            e.updates();
        }
    },

    /** A hash table per worker, merged at the end. */
    HASH("hash", "hash table per worker, merged at the end") {
        @Override
        void emit(GroupAggregateEmitter e) {
            e.w.before.append("        final io.tessera.backend.jvm.aggregate.HashGroupTable t = (io.tessera.backend.jvm.aggregate.HashGroupTable) sinkState;\n");
            e.findGroup(e.encodedKeys(false));
            e.updates();
        }
    },

    /** One hash table shared by the workers, in stripes by key hash, each updated under its lock. */
    SHARED("shared", "one hash table shared by the workers, in lock stripes") {
        @Override
        void emit(GroupAggregateEmitter e) {
            PipelineWriter w = e.w;
            w.before.append("        final io.tessera.backend.jvm.aggregate.SharedGroupTable shared = (io.tessera.backend.jvm.aggregate.SharedGroupTable) sinkState;\n");
            String h = w.name("stripeHash");
            w.line("final long " + h + " = " + GroupAggregateEmitter.combined(e.encodedKeys(true)) + ";");
            w.line("final io.tessera.backend.jvm.aggregate.HashGroupTable t = shared.stripe(" + h + ");");
            w.line("synchronized (t) { // the stripe of this key's group");
            w.indent++;
            e.findGroup(e.encodedKeys(false));
            e.updates();
            w.indent--;
            w.line("}");
        }
    },

    /** Rows radix-partitioned by key hash into buffers, then one hash table per partition ({@link PartitionedGroupEmitter}). */
    PARTITIONED("partitioned", "rows radix-partitioned by key hash, then one hash table per partition") {
        @Override
        void emit(GroupAggregateEmitter e) {
            PartitionedGroupEmitter.emit(e);
        }
    },

    /** Runs of equal keys appended as groups, merged by the morsels' key ranges ({@link OrderedGroupEmitter}). */
    ORDERED("ordered", "runs of equal keys appended as groups per worker, merged by key ranges") {
        @Override
        void emit(GroupAggregateEmitter e) {
            OrderedGroupEmitter.emit(e);
        }
    };

    /** The genome value. */
    final String label;
    /** What the generated code's comment says of it. */
    final String description;

    GroupAggregation(String label, String description) {
        this.label = label;
        this.description = description;
    }

    /** Emits the sink's per-row code: the row's group, and every aggregate's update of it. */
    abstract void emit(GroupAggregateEmitter e);

    static GroupAggregation of(String label, Genome g) {
        for (GroupAggregation a : values()) {
            if (a.label.equals(label)) {
                return a;
            }
        }
        throw new IllegalArgumentException("genome " + g + ": unknown aggregation " + label);
    }
}
