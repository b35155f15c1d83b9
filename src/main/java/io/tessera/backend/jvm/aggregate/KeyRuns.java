package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.gen.JExpr;
import io.tessera.backend.ValueKind;
import io.tessera.plan.AggCall;
import io.tessera.plan.AggFunction;

import java.util.List;

/**
 * Runs of equal keys in a partitioned aggregation's input ({@link PartitionedGroupEmitter}): a row whose group keys
 * equal the previous row's (of the same morsel) is combined into the row the worker buffered last, rather than
 * buffered again. Tables stored in the order of a key (lineitem by order, a log by time) hand the aggregation such
 * runs, and every row combined is one row less written, read back and looked up in a partition's table.
 *
 * <p>Only aggregates whose buffered value can stand for several rows combine: SUM and SUM0 of a LONG or DOUBLE
 * (their count says only whether any value was added), MIN and MAX (of an integer or dictionary code, compared as
 * the partition's update compares), ANY_VALUE (the first kept), and COUNT(*) (a count buffered per row); each
 * without a FILTER and over a value that is never NULL. String keys do not take part (their comparison costs what
 * the row's buffering saves).
 */
final class KeyRuns {
    private KeyRuns() {
    }

    /** Whether every key and aggregate of the sink can combine runs (class comment). */
    static boolean apply(List<JExpr> keys, List<AggCall> aggs, JExpr[] args) {
        for (JExpr k : keys) {
            if (k.kind() == ValueKind.STRING) {
                return false;
            }
        }
        for (int i = 0; i < aggs.size(); i++) {
            if (!combines(aggs.get(i), args[i])) {
                return false;
            }
        }
        return true;
    }

    private static boolean combines(AggCall call, JExpr x) {
        if (call.filter() != null) {
            return false;
        }
        if (call.function() == AggFunction.COUNT_STAR) {
            return true;
        }
        if (x == null || x.nullable()) {
            return false;
        }
        return switch (call.function()) {
            case SUM, SUM0 -> x.kind() == ValueKind.LONG || x.kind() == ValueKind.DOUBLE;
            // not DOUBLE: with a NaN, the minimum of a run and then of the group is not the row-by-row one
            case MIN, MAX -> x.kind() == ValueKind.LONG || x.kind() == ValueKind.INT || x.kind() == ValueKind.CODE;
            case ANY_VALUE -> x.kind() != ValueKind.STRING && x.kind() != ValueKind.BOOL;
            default -> false;
        };
    }

    /**
     * The statement that combines the current row's value {@code v} of aggregate {@code call} into the buffered
     * value {@code at} of the run's row (null: nothing to do, ANY_VALUE keeps the run's first value).
     */
    static String combine(AggCall call, ValueKind kind, String at, String v) {
        return switch (call.function()) {
            case COUNT_STAR -> at + "++;";
            case SUM, SUM0 -> kind == ValueKind.DOUBLE ? at + " += " + v + ";" : at + " = Math.addExact(" + at + ", " + v + ");";
            case MIN -> "if (" + v + " < " + at + ") " + at + " = " + v + ";";
            case MAX -> "if (" + v + " > " + at + ") " + at + " = " + v + ";";
            case ANY_VALUE -> null;
            default -> throw new IllegalStateException("no run combining for " + call);
        };
    }
}
