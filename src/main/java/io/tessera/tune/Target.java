package io.tessera.tune;

import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.Genome;
import io.tessera.variant.VariantSpace;

import java.util.Map;
import java.util.Set;

/**
 * One query on one device, as the strategies see it: its plan, the device's variant space and default genomes,
 * the pipeline worth tuning, an objective that runs the whole query, and (where the backend can switch genomes
 * between blocks) a source of blocks for tuning while the query runs.
 */
public interface Target extends AutoCloseable {

    TuningDevice device();

    QueryPlan plan();

    VariantSpace space();

    /** Every pipeline's default genome on this device, without derived dimensions. */
    Map<Integer, Genome> defaults();

    /**
     * The pipeline that scans the largest stored table: the one tuning is for. (Pipelines over intermediate
     * relations only count when no pipeline scans a table; their row estimates are rough.)
     */
    default int focus() {
        Pipeline best = null;
        for (Pipeline p : plan().pipelines()) {
            boolean table = p.source() instanceof io.tessera.plan.Source.TableScan;
            boolean bestTable = best != null && best.source() instanceof io.tessera.plan.Source.TableScan;
            if (best == null || (table && !bestTable)
                    || (table == bestTable && p.source().estimatedRows() > best.source().estimatedRows())) {
                best = p;
            }
        }
        if (best == null) {
            throw new IllegalStateException("the plan has no pipeline");
        }
        return best.id();
    }

    default Pipeline pipeline(int id) {
        for (Pipeline p : plan().pipelines()) {
            if (p.id() == id) {
                return p;
            }
        }
        throw new IllegalArgumentException("no pipeline " + id);
    }

    /**
     * Forgets the code compiled so far, so that the next strategy pays for all it compiles, as it would tuning alone
     * (the tuning bench calls it before each strategy). Nothing to do by default: on the JVM each objective and
     * block source compiles anew already.
     */
    default void coldStart() {
    }

    /** Runs the whole query; a fresh objective compiles every variant anew. */
    Objective objective();

    /**
     * How many compiles of each genome the tuning bench's final re-measurement spreads its rounds over: more than
     * one where equal genomes compiled apart run measurably apart. One by default.
     */
    default int remeasureCompiles() {
        return 1;
    }

    /** The dimensions a block may change (empty when the tuned pipeline cannot run in blocks on this device). */
    Set<String> blockSwitchable();

    /**
     * The dimensions the in-query strategies change from one whole run of the query to the next where the tuned
     * pipeline cannot run in blocks: by default those a block may change.
     */
    default Set<String> runSwitchable() {
        return blockSwitchable();
    }

    /**
     * Throws unless every knob of {@code tuning} is one of {@link #blockSwitchable} of the tuned pipeline: what
     * {@link #blocks} may change from one block to the next.
     */
    default void requireBlockKnobs(TuningSpace tuning) {
        Set<String> switchable = blockSwitchable();
        for (TuningSpace.Knob k : tuning.knobs()) {
            if (k.pipeline() != tuning.focus() || !switchable.contains(k.name())) {
                throw new IllegalArgumentException("knob " + k.label() + " cannot change between blocks on "
                        + device().name() + (switchable.isEmpty()
                        ? " (pipeline " + tuning.focus() + " cannot run in blocks there)"
                        : " (only " + new java.util.TreeSet<>(switchable) + " of the tuned pipeline can)"));
            }
        }
    }

    /**
     * Values of block-switchable dimensions that a block may neither switch to nor from, by dimension (a pipeline
     * whose start genome has one keeps that dimension for every block); none by default.
     */
    default Map<String, Set<String>> blockFixedValues() {
        return Map.of();
    }

    /** Runs the query with the focus pipeline's blocks chosen by a tuner over {@code space}. */
    InQueryTuning.BlockSource blocks(TuningSpace space, long blockRows);

    /**
     * Closes what the target opened (its engines, and with them the GPU's runtime); whoever made the target closes it
     * once it is done measuring. Nothing by default.
     */
    @Override
    default void close() {
    }
}
