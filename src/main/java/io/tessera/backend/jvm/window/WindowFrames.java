package io.tessera.backend.jvm.window;

import io.tessera.backend.ValueKind;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.jvm.lib.TimestampRuntime;
import io.tessera.plan.SortKey;
import io.tessera.plan.WindowFunction;
import io.tessera.plan.WindowFunction.Bound;
import io.tessera.storage.Interval;

/**
 * The frame of every position of a {@link WindowOrder}, as positions {@code [start, end)} inside its partition
 * (empty where start >= end). ROWS counts positions; RANGE reaches the current row's peers, and with an offset the
 * rows whose single ORDER BY key lies within that distance of the current row's (searched among the partition's
 * non-NULL keys; a row whose key is NULL has its NULL peers as its frame's offset bounds). An INTERVAL offset over
 * a DATE or TIMESTAMP key moves the key on the calendar, as DuckDB's date arithmetic does.
 */
final class WindowFrames {

    final int[] start;
    final int[] end;

    WindowFrames(RowBuffer b, WindowOrder o, WindowFunction.Frame frame, java.util.List<SortKey> order) {
        int n = o.rows.length;
        start = new int[n];
        end = new int[n];
        RangeKey key = !frame.rows() && order.size() == 1 ? new RangeKey(b, order.get(0), o) : null;
        for (int i = 0; i < n; i++) {
            int ps = o.partStart[i];
            int pe = o.partEnd[i];
            int s = frame.rows() ? rowsBound(frame.lower(), i, ps, pe, true) : rangeBound(frame.lower(), i, o, key, true);
            int e = frame.rows() ? rowsBound(frame.upper(), i, ps, pe, false) : rangeBound(frame.upper(), i, o, key, false);
            start[i] = Math.max(ps, Math.min(pe, s));
            end[i] = Math.max(ps, Math.min(pe, e));
        }
    }

    /** A ROWS bound: the first position of the frame ({@code lower}) or the position after its last. */
    private static int rowsBound(Bound bd, int i, int ps, int pe, boolean lower) {
        long at = switch (bd.kind()) {
            case UNBOUNDED_PRECEDING -> ps;
            case UNBOUNDED_FOLLOWING -> pe;
            case CURRENT_ROW -> i + (lower ? 0 : 1);
            case PRECEDING -> (long) i - (Long) bd.offset() + (lower ? 0 : 1);
            case FOLLOWING -> (long) i + (Long) bd.offset() + (lower ? 0 : 1);
        };
        return (int) Math.max(ps, Math.min(pe, at));
    }

    private static int rangeBound(Bound bd, int i, WindowOrder o, RangeKey key, boolean lower) {
        return switch (bd.kind()) {
            case UNBOUNDED_PRECEDING -> o.partStart[i];
            case UNBOUNDED_FOLLOWING -> o.partEnd[i];
            case CURRENT_ROW -> lower ? o.peerStart[i] : o.peerEnd[i];
            case PRECEDING, FOLLOWING -> {
                if (key == null) {
                    throw new IllegalStateException("a RANGE offset without one ORDER BY key");
                }
                if (key.isNull(i)) {
                    yield lower ? o.peerStart[i] : o.peerEnd[i];
                }
                yield key.search(i, bd.kind() == WindowFunction.BoundKind.PRECEDING, bd.offset(), lower);
            }
        };
    }

    /** The single ORDER BY key of a RANGE frame with offsets, read by position. */
    private static final class RangeKey {
        private final RowBuffer b;
        private final SortKey k;
        private final WindowOrder o;

        RangeKey(RowBuffer b, SortKey k, WindowOrder o) {
            this.b = b;
            this.k = k;
            this.o = o;
        }

        boolean isNull(int pos) {
            return b.isNull(k.column(), o.rows[pos]);
        }

        /**
         * The first position of the partition (among its non-NULL keys) whose key is at or after ({@code lower}) or
         * strictly after the target: the current key moved by the offset towards the preceding (or following) rows.
         */
        int search(int i, boolean preceding, Object offset, boolean lower) {
            int lo = o.partStart[i];
            int hi = o.partEnd[i];
            // the NULL keys sit at one end of the partition
            while (lo < hi && isNull(lo)) {
                lo++;
            }
            while (hi > lo && isNull(hi - 1)) {
                hi--;
            }
            boolean towardsSmaller = preceding != k.descending();
            int c = k.column();
            int r = o.rows[i];
            // the order of the row at a position of the partition against the target, in the window's direction
            java.util.function.IntUnaryOperator against;
            if (offset instanceof Interval iv) {
                // a calendar distance: the keys compared as microseconds (a DATE's at its midnight)
                long target = calendarTarget(micros(r), towardsSmaller ? iv.negate() : iv, towardsSmaller);
                against = pos -> Long.compare(micros(o.rows[pos]), target);
            } else if (b.kinds[c] == ValueKind.DOUBLE) {
                double d = (Double) offset;
                double target = (towardsSmaller ? b.doubles[c][r] - d : b.doubles[c][r] + d) + 0.0;
                against = pos -> Double.compare(b.doubles[c][o.rows[pos]] + 0.0, target);
            } else {
                long v = b.kinds[c] == ValueKind.LONG ? b.longs[c][r] : b.ints[c][r];
                long d = (Long) offset;
                long target = towardsSmaller ? saturatedSub(v, d) : saturatedAdd(v, d);
                against = pos -> {
                    int m = o.rows[pos];
                    return Long.compare(b.kinds[c] == ValueKind.LONG ? b.longs[c][m] : b.ints[c][m], target);
                };
            }
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                int cmp = against.applyAsInt(mid);
                cmp = k.descending() ? -cmp : cmp;
                if (cmp < 0 || (!lower && cmp == 0)) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /** The key of a DATE or TIMESTAMP row as microseconds since the epoch (a DATE at its midnight). */
        private long micros(int row) {
            int c = k.column();
            return b.kinds[c] == ValueKind.LONG ? b.longs[c][row] : b.ints[c][row] * Interval.MICROS_PER_DAY;
        }

        /** {@code micros} plus an interval on the calendar; past the ends, the end it went towards. */
        private static long calendarTarget(long micros, Interval iv, boolean towardsSmaller) {
            try {
                long t = iv.months() == 0 ? micros : TimestampRuntime.addMonths(micros, iv.months());
                t = Math.addExact(t, Math.multiplyExact((long) iv.days(), Interval.MICROS_PER_DAY));
                return Math.addExact(t, iv.micros());
            } catch (ArithmeticException | java.time.DateTimeException outside) {
                return towardsSmaller ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
        }

        private static long saturatedSub(long a, long b) {
            long r = a - b;
            return ((a ^ b) & (a ^ r)) < 0 ? Long.MIN_VALUE : r;
        }

        private static long saturatedAdd(long a, long b) {
            long r = a + b;
            return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
        }
    }
}
