package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.GroupRows;
import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.PipelineCode;
import io.tessera.backend.host.RelationPart;
import io.tessera.plan.AggCall;
import io.tessera.plan.ColumnInfo;
import io.tessera.plan.Expr;
import io.tessera.plan.Sink;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * The end of a grouping pipeline on the JVM: its workers' group tables brought together ({@link GroupMerge},
 * {@link DistinctUnion}), and the groups turned into the result relation's rows ({@link GroupsToRows}; each
 * aggregate's final value by {@link GroupRows}).
 */
public final class JvmGroups {

    /** The value of the merge and distinct dimensions that spreads their work over the workers. */
    static final String PARTITIONED = "partitioned";

    private JvmGroups() {
    }

    /** Which key columns of a grouping pipeline hold interned string ids in its hash tables. */
    public static boolean[] stringKeys(EmittedPipeline e) {
        boolean[] stringKeys = new boolean[e.keyKinds().length];
        for (int k = 0; k < stringKeys.length; k++) {
            stringKeys[k] = e.keyKinds()[k] == ValueKind.STRING;
        }
        return stringKeys;
    }

    /**
     * The workers' group states of one kind brought together (a dense array's slots, hash tables merged as the
     * genome's {@code merge} says, a partitioned aggregation's or a shared table's partitions as they are, an
     * ordered aggregation's runs by their key ranges), and the
     * DISTINCT sets united as its {@code distinct} says.
     */
    public static Groups merged(EmittedPipeline e, PipelineCode code, List<Object> states, boolean[] stringKeys,
                                ExecutorService pool) {
        Genome g = e.genome();
        int workers = g.has(JvmDimensions.WORKERS) ? Math.max(1, g.getInt(JvmDimensions.WORKERS)) : 1;
        boolean partitionedMerge = PARTITIONED.equals(g.has(JvmDimensions.GROUP_MERGE) ? g.get(JvmDimensions.GROUP_MERGE) : "");
        Groups groups;
        if (e.dense() || e.pipeline().sink() instanceof Sink.Aggregate) {
            List<DenseGroupTable> tables = new ArrayList<>();
            for (Object s : states) {
                tables.add((DenseGroupTable) s);
            }
            DenseGroupTable d = GroupMerge.dense(tables, partitionedMerge, pool, workers);
            groups = e.pipeline().sink() instanceof Sink.Aggregate ? Groups.single(d) : Groups.dense(d);
        } else if (states.get(0) instanceof SharedGroupTable shared) {
            groups = Groups.of(shared.stripes());
        } else if (states.get(0) instanceof OrderedRuns) {
            List<OrderedRuns> runs = new ArrayList<>();
            for (Object s : states) {
                runs.add((OrderedRuns) s);
            }
            groups = Groups.of(OrderedMerge.merge(runs, stringKeys, partitionedMerge, pool, workers).tables());
        } else if (states.get(0) instanceof PartitionedInput) {
            groups = Groups.of(PartitionedAggregation.aggregate(e, code, states, pool));
        } else {
            List<HashGroupTable> tables = new ArrayList<>();
            for (Object s : states) {
                tables.add((HashGroupTable) s);
            }
            groups = Groups.of(GroupMerge.hash(tables, stringKeys, partitionedMerge, pool, workers));
        }
        if (g.has(JvmDimensions.DISTINCT) && PARTITIONED.equals(g.get(JvmDimensions.DISTINCT))) {
            DistinctUnion.resolve(groups, pool, workers);
        }
        return groups;
    }

    /** The rows of the groups: keys decoded, then each aggregate's final value (by the workers when there are many). */
    public static RelationPart toRows(EmittedPipeline e, Groups groups, List<ColumnInfo> cols, ExecutorService pool) {
        Genome g = e.genome();
        int workers = g.has(JvmDimensions.WORKERS) ? Math.max(1, g.getInt(JvmDimensions.WORKERS)) : 1;
        int nk = e.keyKinds().length;
        AggSpec[] aggs = groups.tables().get(0).aggs;
        ValueKind[] kinds = new ValueKind[cols.size()];
        for (int c = 0; c < kinds.length; c++) {
            kinds[c] = c < nk ? e.keyKinds()[c]
                    : aggs[c - nk].stringResult() ? ValueKind.STRING : ValueKind.stored(cols.get(c).type());
        }
        return GroupsToRows.rows(groups, e.keyKinds(), kinds, dictionaries(e, nk, cols.size()), pool, workers);
    }

    /** What a line of the run's steps says of groups: how many, in how many tables. */
    public static String describe(EmittedPipeline e, Groups groups) {
        Genome g = e.genome();
        String how = g.has(JvmDimensions.AGGREGATION) ? g.get(JvmDimensions.AGGREGATION) : "one group";
        if (g.has(JvmDimensions.GROUP_MERGE)) {
            how += ", merge " + g.get(JvmDimensions.GROUP_MERGE);
        }
        if (g.has(JvmDimensions.DISTINCT)) {
            how += ", distinct " + g.get(JvmDimensions.DISTINCT);
        }
        return "(" + how + "): " + groups.total() + " group" + (groups.total() == 1 ? "" : "s") + " in "
                + groups.tables().size() + " table" + (groups.tables().size() == 1 ? "" : "s");
    }

    static GroupRows.Final[] finals(AggSpec[] aggs) {
        GroupRows.Final[] f = new GroupRows.Final[aggs.length];
        for (int a = 0; a < aggs.length; a++) {
            f[a] = GroupRows.Final.of(aggs[a].function(), aggs[a].doubleValue(), aggs[a].argType());
        }
        return f;
    }

    /** Per result column, the dictionary of its codes: the keys', then an aggregate's over a column (MIN of codes). */
    private static String[] dictionaries(EmittedPipeline e, int nk, int n) {
        String[] d = Arrays.copyOf(e.keyDicts(), n);
        Sink sink = e.pipeline().sink();
        List<AggCall> calls = sink instanceof Sink.GroupAggregate ga ? ga.aggs() : ((Sink.Aggregate) sink).aggs();
        for (int a = 0; a < e.aggs().length; a++) {
            if (calls.get(a).arg() instanceof Expr.Ref r) {
                d[nk + a] = r.slot().dictionaryKey();
            } else if (e.aggs()[a].argDict() != null) {
                d[nk + a] = e.aggs()[a].argDict(); // codes of a computed expression over a dictionary column
            }
        }
        return d;
    }
}
