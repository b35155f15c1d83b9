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
 * (empty where start >= end), less the rows its exclusion leaves out ({@link #pieces}). ROWS counts positions;
 * GROUPS counts peer groups (the rows equal in every ORDER BY key, NULLs one group); RANGE reaches the current row's
 * peers, and with an offset the rows whose single ORDER BY key lies within that distance of the current row's
 * (searched among the partition's non-NULL keys; a row whose key is NULL has its NULL peers as its frame's offset
 * bounds). An INTERVAL offset over a DATE or TIMESTAMP key moves the key on the calendar, as DuckDB's date arithmetic
 * does.
 */
final class WindowFrames {

    final int[] start;
    final int[] end;
    private final WindowOrder o;
    private final WindowFunction.Exclusion exclude;

    WindowFrames(RowBuffer b, WindowOrder o, WindowFunction.Frame frame, java.util.List<SortKey> order) {
        int n = o.rows.length;
        this.o = o;
        this.exclude = frame.exclude();
        start = new int[n];
        end = new int[n];
        RangeKey key = frame.unit() == WindowFunction.Unit.RANGE && order.size() == 1 ? new RangeKey(b, order.get(0), o)
                : null;
        PeerGroups groups = frame.unit() == WindowFunction.Unit.GROUPS ? new PeerGroups(o) : null;
        for (int i = 0; i < n; i++) {
            int ps = o.partStart[i];
            int pe = o.partEnd[i];
            int s = switch (frame.unit()) {
                case ROWS -> rowsBound(frame.lower(), i, ps, pe, true);
                case RANGE -> rangeBound(frame.lower(), i, o, key, true);
                case GROUPS -> groups.bound(frame.lower(), i, true);
            };
            int e = switch (frame.unit()) {
                case ROWS -> rowsBound(frame.upper(), i, ps, pe, false);
                case RANGE -> rangeBound(frame.upper(), i, o, key, false);
                case GROUPS -> groups.bound(frame.upper(), i, false);
            };
            start[i] = Math.max(ps, Math.min(pe, s));
            end[i] = Math.max(ps, Math.min(pe, e));
        }
    }

    /**
     * The frame of position {@code i} less its excluded rows: up to three non-empty ranges of positions, in order,
     * written to {@code into} as start, end pairs (it holds six); returns their count.
     */
    int pieces(int i, int[] into) {
        int s = start[i];
        int e = end[i];
        if (exclude == WindowFunction.Exclusion.NO_OTHERS) {
            into[0] = s;
            into[1] = e;
            return s < e ? 1 : 0;
        }
        // the positions kept: before the first excluded range, between the two, after the second
        int x1;
        int x2;
        int x3;
        int x4;
        switch (exclude) {
            case CURRENT_ROW -> {
                x1 = i;
                x2 = x3 = x4 = i + 1;
            }
            case GROUP -> {
                x1 = o.peerStart[i];
                x2 = x3 = x4 = o.peerEnd[i];
            }
            default -> { // TIES: the peers before the row and after it
                x1 = o.peerStart[i];
                x2 = i;
                x3 = i + 1;
                x4 = o.peerEnd[i];
            }
        }
        int k = 0;
        k = piece(into, k, s, Math.min(e, x1));
        k = piece(into, k, Math.max(s, x2), Math.min(e, x3));
        return piece(into, k, Math.max(s, x4), e);
    }

    private static int piece(int[] into, int k, int from, int to) {
        if (from >= to) {
            return k;
        }
        into[2 * k] = from;
        into[2 * k + 1] = to;
        return k + 1;
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

    /** The peer groups of a window order, numbered across its partitions, for GROUPS bounds. */
    private static final class PeerGroups {
        private final WindowOrder o;
        /** Each position's group. */
        private final int[] group;
        /** Each group's first position. */
        private final int[] first;
        private final int count;

        PeerGroups(WindowOrder o) {
            this.o = o;
            int n = o.rows.length;
            group = new int[n];
            int[] starts = new int[n];
            int g = -1;
            for (int i = 0; i < n; i++) {
                if (o.peerStart[i] == i) {
                    starts[++g] = i;
                }
                group[i] = g;
            }
            count = g + 1;
            first = starts;
        }

        /** A GROUPS bound: the first position of the frame ({@code lower}) or the position after its last. */
        int bound(Bound bd, int i, boolean lower) {
            int ps = o.partStart[i];
            int pe = o.partEnd[i];
            long target = switch (bd.kind()) {
                case UNBOUNDED_PRECEDING -> Long.MIN_VALUE;
                case UNBOUNDED_FOLLOWING -> Long.MAX_VALUE;
                case CURRENT_ROW -> group[i];
                // an offset past every group reaches the partition's end (no overflow beyond an int's range)
                case PRECEDING -> group[i] - Math.min((Long) bd.offset(), Integer.MAX_VALUE);
                case FOLLOWING -> group[i] + Math.min((Long) bd.offset(), Integer.MAX_VALUE);
            };
            if (target < group[ps]) {
                return ps;
            }
            if (target > group[pe - 1]) {
                return pe;
            }
            int t = (int) target;
            return lower ? first[t] : t + 1 < count ? first[t + 1] : o.rows.length;
        }
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
