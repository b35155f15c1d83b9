package io.tessera.backend.cuda.gen;

import io.tessera.backend.ValueKind;
import io.tessera.backend.cuda.ops.WindowScan;
import io.tessera.plan.Sink;
import io.tessera.plan.SortKey;
import io.tessera.plan.WindowFunction;
import io.tessera.plan.WindowFunction.BoundKind;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;

import java.util.ArrayList;
import java.util.List;

/**
 * A WINDOW sink as the GPU computes it: its rows sorted once by the PARTITION BY columns (ascending, NULLs first, as
 * the JVM's window order) then the ORDER BY keys, and per function the value {@link WindowScan} writes, over the
 * frame that ends at the partition's last row, the row's last peer or the row. Only what gives the JVM's values
 * exactly: one PARTITION BY and one ORDER BY for all functions (a function may have none), ROW_NUMBER, RANK,
 * DENSE_RANK, and COUNT, SUM, AVG, MIN, MAX from UNBOUNDED PRECEDING, of integers and decimals (the JVM sums doubles
 * in a segment tree's order, which a scan does not repeat bit for bit).
 */
public record GpuWindow(List<Integer> partition, List<SortKey> order, List<Step> steps) {

    /**
     * One function: the value written, its frame's end, whether its peers are the ORDER BY's (else its partition is
     * one peer group), its argument column (-1: none), the scan of the argument (null: none), a SUM's bound (-1:
     * none) and what AVG divides the mean by; the result's kind.
     */
    public record Step(WindowScan.Result result, WindowScan.Frame frame, boolean peers, int arg, WindowScan.Op op,
                       long limit, double scale, ValueKind kind) {
    }

    /** The sort keys: the PARTITION BY columns, then the ORDER BY keys. */
    public List<SortKey> sortKeys() {
        List<SortKey> keys = new ArrayList<>();
        for (int c : partition) {
            keys.add(new SortKey(c, false, true));
        }
        keys.addAll(order);
        return keys;
    }

    /** Null when the GPU computes every function of {@code w} as the JVM does, else why not. */
    public static String reason(Sink.Window w) {
        List<WindowFunction> fns = w.functions();
        if (fns.isEmpty()) {
            return "a WINDOW without functions";
        }
        List<Integer> partition = fns.get(0).partition();
        List<SortKey> order = commonOrder(fns);
        for (WindowFunction fn : fns) {
            if (!fn.partition().equals(partition)) {
                return "window functions over different PARTITION BY columns (" + fns.get(0).kind() + ", " + fn.kind() + ")";
            }
            if (!fn.order().isEmpty() && !fn.order().equals(order)) {
                return "window functions over different ORDER BY keys (" + fns.get(0).kind() + ", " + fn.kind() + ")";
            }
        }
        List<Integer> keyColumns = new ArrayList<>(partition);
        order.forEach(k -> keyColumns.add(k.column()));
        for (int i = 0; i + 1 < keyColumns.size(); i++) {
            if (ValueKind.stored(w.outputs().get(keyColumns.get(i)).type()) == ValueKind.DOUBLE) {
                // the device sorts -0.0 before 0.0, which the JVM's window order takes as one key
                return "a DOUBLE PARTITION BY or ORDER BY key of a window before its last key";
            }
        }
        for (WindowFunction fn : fns) {
            String why = functionReason(w, fn);
            if (why != null) {
                return "window function " + fn.kind() + ": " + why;
            }
        }
        return null;
    }

    /** The GPU's plan of {@code w}, which {@link #reason} accepts. */
    public static GpuWindow of(Sink.Window w) {
        String why = reason(w);
        if (why != null) {
            throw new IllegalStateException("no GPU code for " + w + ": " + why);
        }
        List<Step> steps = new ArrayList<>();
        for (WindowFunction fn : w.functions()) {
            steps.add(step(w, fn));
        }
        return new GpuWindow(w.functions().get(0).partition(), commonOrder(w.functions()), steps);
    }

    private static List<SortKey> commonOrder(List<WindowFunction> fns) {
        for (WindowFunction fn : fns) {
            if (!fn.order().isEmpty()) {
                return fn.order();
            }
        }
        return List.of();
    }

    private static String functionReason(Sink.Window w, WindowFunction fn) {
        ValueKind result = ValueKind.stored(fn.type());
        ValueKind arg = fn.arg() >= 0 ? ValueKind.stored(w.outputs().get(fn.arg()).type()) : null;
        switch (fn.kind()) {
            case ROW_NUMBER, RANK, DENSE_RANK, COUNT_STAR, COUNT -> {
                if (result != ValueKind.LONG) {
                    return "a result of type " + fn.type();
                }
            }
            case SUM, SUM0, AVG -> {
                if (arg != ValueKind.INT && arg != ValueKind.LONG) {
                    return fn.kind() + " of " + w.outputs().get(fn.arg()).type() + " values (the JVM's sums of "
                            + "doubles are a segment tree's, which no scan repeats bit for bit)";
                }
                if (result != (fn.kind() == WindowFunction.Kind.AVG ? ValueKind.DOUBLE : ValueKind.LONG)) {
                    return "a result of type " + fn.type();
                }
            }
            case MIN, MAX -> {
                if (arg != ValueKind.INT && arg != ValueKind.LONG) {
                    return fn.kind() + " of " + w.outputs().get(fn.arg()).type() + " values";
                }
                if (result != arg) {
                    return "a result of type " + fn.type();
                }
            }
            default -> {
                return "no GPU code";
            }
        }
        if (fn.kind().framed() && frame(fn) == null) {
            return "the frame " + fn.frame() + " (the GPU's frames, in ROWS or RANGE and without EXCLUDE, start at "
                    + "UNBOUNDED PRECEDING and end at the CURRENT ROW or UNBOUNDED FOLLOWING)";
        }
        return null;
    }

    /** Where a framed function's frame ends, or null for a frame the GPU has no code for. */
    private static WindowScan.Frame frame(WindowFunction fn) {
        WindowFunction.Frame f = fn.frame();
        if (f == null || f.lower().kind() != BoundKind.UNBOUNDED_PRECEDING
                || f.unit() == WindowFunction.Unit.GROUPS || f.exclude() != WindowFunction.Exclusion.NO_OTHERS) {
            return null; // GROUPS frames and EXCLUDE clauses: the JVM's
        }
        return switch (f.upper().kind()) {
            case UNBOUNDED_FOLLOWING -> WindowScan.Frame.PARTITION;
            case CURRENT_ROW -> f.rows() ? WindowScan.Frame.ROW
                    : fn.order().isEmpty() ? WindowScan.Frame.PARTITION : WindowScan.Frame.PEERS;
            default -> null;
        };
    }

    private static Step step(Sink.Window w, WindowFunction fn) {
        boolean peers = !fn.order().isEmpty();
        ValueKind kind = ValueKind.stored(fn.type());
        WindowScan.Frame frame = fn.kind().framed() ? frame(fn) : WindowScan.Frame.ROW;
        DataType argType = fn.arg() >= 0 ? w.outputs().get(fn.arg()).type() : null;
        return switch (fn.kind()) {
            case ROW_NUMBER -> new Step(WindowScan.Result.ROW_NUMBER, frame, peers, -1, null, -1, 1, kind);
            case RANK -> new Step(WindowScan.Result.RANK, frame, peers, -1, null, -1, 1, kind);
            // the peer groups' starts counted from the partition's
            case DENSE_RANK -> new Step(WindowScan.Result.SCANNED, frame, peers, -1, WindowScan.Op.SUM, -1, 1, kind);
            case COUNT_STAR -> new Step(WindowScan.Result.COUNT_STAR, frame, peers, -1, null, -1, 1, kind);
            case COUNT -> new Step(WindowScan.Result.COUNT, frame, peers, fn.arg(), null, -1, 1, kind);
            case SUM, SUM0 -> new Step(fn.kind() == WindowFunction.Kind.SUM ? WindowScan.Result.SUM_OR_NULL
                    : WindowScan.Result.SUM_OR_ZERO, frame, peers, fn.arg(), WindowScan.Op.SUM, limit(fn.type()), 1, kind);
            case AVG -> new Step(WindowScan.Result.AVG, frame, peers, fn.arg(), WindowScan.Op.SUM, -1,
                    argType.kind() == TypeKind.DECIMAL ? Math.pow(10, argType.scale()) : 1.0, kind);
            case MIN, MAX -> new Step(WindowScan.Result.EXTREME, frame, peers, fn.arg(),
                    fn.kind() == WindowFunction.Kind.MIN ? WindowScan.Op.MIN : WindowScan.Op.MAX, -1, 1, kind);
            default -> throw new IllegalStateException(fn.kind() + " has no GPU code");
        };
    }

    /** A SUM's bound: 10^precision of a DECIMAL of at most 18 digits, else none (the 64-bit range is checked). */
    private static long limit(DataType type) {
        if (type.kind() != TypeKind.DECIMAL || type.precision() > 18) {
            return -1;
        }
        long p = 1;
        for (int i = 0; i < type.precision(); i++) {
            p *= 10;
        }
        return p;
    }
}
