package io.tessera.backend.jvm.gen;

import io.tessera.backend.GeneratedSource;
import io.tessera.plan.Operation;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The row counters of a pipeline emitted for EXPLAIN ANALYZE: a local {@code long} per counted operation, raised by
 * one where a row leaves the operation, added to the worker's slot of {@code rowCounts} when the morsel ends (so the
 * loop pays no atomics and no write to shared memory). Plain queries are emitted without them.
 *
 * <p>An operation is counted where the rows that reach the point after it are exactly the rows after it in the
 * plan's order: where the emitter reordered probes (probe_order=selectivity) or a vectorized filter took leading
 * filters, the count is made only once every operation up to it in the plan's order was emitted, and the ones in
 * between stay uncounted.
 */
final class RowCounters {

    private final PipelineWriter w;
    private final List<Operation> planned;
    /** Leading filters of the plan that a vectorized filter took, and the residual filters emitted in their place. */
    private int vectorized;
    private int residuals;
    private final BitSet emitted = new BitSet();
    private final List<Integer> counted = new ArrayList<>();

    RowCounters(PipelineWriter w, List<Operation> planned) {
        this.w = w;
        this.planned = planned;
    }

    /**
     * The vectorized filter took the plan's first {@code taken} filters, leaving {@code residualFilters} conditions
     * emitted first in the loop; where it left none, the loop's rows are those after the filters taken.
     */
    void vectorFilter(int taken, int residualFilters) {
        vectorized = taken;
        residuals = residualFilters;
        if (residualFilters == 0 && taken > 0) {
            emitted.set(0, taken);
            countIfComplete();
        }
    }

    /** Emitted operations {@code [from, to]} of {@code ops} (the emitter's order) were just written. */
    void after(List<Operation> ops, int from, int to) {
        for (int pos = from; pos <= to; pos++) {
            if (pos < residuals) {
                if (pos == residuals - 1) {
                    emitted.set(0, vectorized);
                }
            } else {
                emitted.set(indexInPlan(ops.get(pos)));
            }
        }
        countIfComplete();
    }

    /** Counts the last operation of the plan's order when every one before it was emitted and none after it. */
    private void countIfComplete() {
        int n = emitted.cardinality();
        if (n == 0 || emitted.nextClearBit(0) != n) {
            return;
        }
        int op = n - 1;
        if (!counted.isEmpty() && counted.getLast() == op) {
            return;
        }
        counted.add(op);
        String v = "rowsOut" + op;
        w.before.append("        long ").append(v).append(" = 0;  // rows out of ")
                .append(GeneratedSource.comment(w.codeNames.operation(planned.get(op)))).append('\n');
        w.line(v + "++;");
        w.after.append("        rowCounts[").append(op).append("] += ").append(v).append(";\n");
    }

    private int indexInPlan(Operation op) {
        for (int i = 0; i < planned.size(); i++) {
            if (planned.get(i) == op) {
                return i;
            }
        }
        throw new IllegalStateException("operation " + op + " is not the plan's");
    }

    /** The plan's operations counted, in the order of {@code rowCounts}' slots (one per operation of the plan). */
    int[] counted() {
        return counted.stream().mapToInt(Integer::intValue).toArray();
    }
}
