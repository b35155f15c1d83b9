package io.tessera.backend.cuda.exec;

import io.tessera.backend.GroupRows;
import io.tessera.backend.host.RelationPart;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.ValueKind;
import io.tessera.backend.cuda.gen.CType;
import io.tessera.backend.cuda.gen.CodeDictionaries;
import io.tessera.backend.cuda.gen.SinkLayout;
import io.tessera.plan.AggCall;
import io.tessera.plan.ColumnInfo;
import io.tessera.plan.Expr;
import io.tessera.plan.Pipeline;
import io.tessera.plan.Sink;

import java.util.Arrays;
import java.util.List;

/**
 * The groups an aggregation kernel left on the device, as host arrays over its non-empty slots, and the result
 * rows made from them. The device's arrays come back either whole (small tables; {@link #compact} then picks the
 * non-empty slots on the host) or compacted on the device and gathered into one buffer ({@link Packing}); both
 * end in {@link #rows}, with no group table in between.
 */
final class GpuGroups {

    private GpuGroups() {
    }

    /**
     * The non-empty slots of a device group table: entry i is slot {@code slot[i]} of the device's table with
     * {@code rows[i]} rows; aggregate a's value bits are {@code vals[a][i]} (vals[a] null when it has no value) and
     * its count {@code cnts[a][i]} (cnts[a] null when it counts the group's rows); for agg=shared the group's key
     * words are {@code keys[i * keyWidth ...]} (keys null for the dense modes, whose slot gives the key).
     */
    record Slots(int count, long[] slot, long[] rows, long[][] vals, long[][] cnts, long[] keys) {

        /** Entries {@code at[from]}, ..., {@code at[from + n - 1]}, in that order. */
        Slots pick(long[] at, int from, int n) {
            long[] s = new long[n];
            long[] r = new long[n];
            long[][] v = new long[vals.length][];
            long[][] c = new long[cnts.length][];
            for (int a = 0; a < vals.length; a++) {
                v[a] = vals[a] == null ? null : new long[n];
                c[a] = cnts[a] == null ? null : new long[n];
            }
            int width = keys == null || count == 0 ? 0 : keys.length / count;
            long[] k = keys == null ? null : new long[n * width];
            for (int i = 0; i < n; i++) {
                int e = (int) at[from + i];
                s[i] = slot[e];
                r[i] = rows[e];
                for (int a = 0; a < vals.length; a++) {
                    if (v[a] != null) {
                        v[a][i] = vals[a][e];
                    }
                    if (c[a] != null) {
                        c[a][i] = cnts[a][e];
                    }
                }
                if (k != null) {
                    System.arraycopy(keys, e * width, k, i * width, width);
                }
            }
            return new Slots(n, s, r, v, c, k);
        }
    }

    /**
     * The rows the groups become: per result column its kind and (CODE) dictionary key, keys first
     * ({@code keys} of them), then each aggregate's final value as {@link GroupRows.Final} computes it.
     */
    record RowLayout(ValueKind[] kinds, String[] dictionaries, GroupRows.Final[] aggs, int keys) {

        /** The layout of a GPU aggregation's rows: the plan's columns, the device's accumulation types. */
        static RowLayout of(Pipeline p, SinkLayout.Aggregate a, List<ColumnInfo> cols) {
            List<Expr> keys = p.sink() instanceof Sink.GroupAggregate ga ? ga.keys() : List.of();
            List<AggCall> calls = p.sink() instanceof Sink.GroupAggregate ga ? ga.aggs() : ((Sink.Aggregate) p.sink()).aggs();
            int nk = keys.size();
            ValueKind[] kinds = new ValueKind[cols.size()];
            String[] dicts = new String[cols.size()];
            for (int c = 0; c < kinds.length; c++) {
                kinds[c] = ValueKind.stored(cols.get(c).type());
                Expr source = c < nk ? keys.get(c) : calls.get(c - nk).arg();
                if (source != null && kinds[c] == ValueKind.CODE) {
                    dicts[c] = CodeDictionaries.of(source); // a column's, a string function's codes, or null
                }
            }
            GroupRows.Final[] aggs = new GroupRows.Final[calls.size()];
            for (int i = 0; i < aggs.length; i++) {
                AggCall call = calls.get(i);
                boolean dbl = a.aggs().get(i).valueType() == CType.DOUBLE;
                aggs[i] = GroupRows.Final.of(call.function(), dbl, call.arg() == null ? null : call.arg().type());
            }
            return new RowLayout(kinds, dicts, aggs, nk);
        }
    }

    /**
     * Where the device's compaction gathers the arrays of {@code n} non-empty slots in one buffer of {@code words}
     * 64-bit words: the row counts at word 0, then per aggregate its values at {@code valueAt[a]} and its own counts
     * at {@code countAt[a]} (-1 where it has none), n words each, then {@code keyWidth} key words per slot at
     * {@code keysAt} (keyWidth 0: no keys, the dense modes).
     */
    record Packing(int n, long[] valueAt, long[] countAt, long keysAt, int keyWidth, long words) {

        static Packing of(int n, boolean[] hasValue, boolean[] hasCount, int keyWidth) {
            long[] valueAt = new long[hasValue.length];
            long[] countAt = new long[hasValue.length];
            long words = n;
            for (int a = 0; a < hasValue.length; a++) {
                valueAt[a] = hasValue[a] ? words : -1;
                words += hasValue[a] ? n : 0;
                countAt[a] = hasCount[a] ? words : -1;
                words += hasCount[a] ? n : 0;
            }
            long keysAt = words;
            words += (long) n * keyWidth;
            return new Packing(n, valueAt, countAt, keysAt, keyWidth, words);
        }

        /** The same layout for {@code entries} entries. */
        Packing resized(int entries) {
            boolean[] hasValue = new boolean[valueAt.length];
            boolean[] hasCount = new boolean[valueAt.length];
            for (int a = 0; a < valueAt.length; a++) {
                hasValue[a] = valueAt[a] >= 0;
                hasCount[a] = countAt[a] >= 0;
            }
            return of(entries, hasValue, hasCount, keyWidth);
        }

        /** The slots from their indices and the buffer's {@link #words} words, read back. */
        Slots unpack(long[] slot, long[] packed) {
            return unpack(slot, packed, n);
        }

        /** As {@link #unpack(long[], long[])}, the first {@code entries} of the {@code n} this lays out. */
        Slots unpack(long[] slot, long[] packed, int entries) {
            long[][] vals = new long[valueAt.length][];
            long[][] cnts = new long[valueAt.length][];
            for (int a = 0; a < valueAt.length; a++) {
                vals[a] = valueAt[a] >= 0 ? range(packed, valueAt[a], entries) : null;
                cnts[a] = countAt[a] >= 0 ? range(packed, countAt[a], entries) : null;
            }
            return new Slots(entries, slot, range(packed, 0, entries), vals, cnts,
                    keyWidth > 0 ? range(packed, keysAt, (long) entries * keyWidth) : null);
        }

        private static long[] range(long[] packed, long from, long length) {
            return Arrays.copyOfRange(packed, (int) from, (int) (from + length));
        }
    }

    /**
     * The non-empty slots of whole device arrays, in slot order, as the device's compaction leaves them: slots with
     * rows, and with a state array (agg=shared) only those whose state is 2 (holds a group). {@code cnts[a]} null:
     * aggregate a counts the rows; {@code keys}: keyWidth words per slot, or null.
     */
    static Slots compact(long[] rows, int[] state, long[][] vals, long[][] cnts, long[] keys, int keyWidth) {
        int n = 0;
        for (int s = 0; s < rows.length; s++) {
            if (used(rows, state, s)) {
                n++;
            }
        }
        long[] at = new long[n];
        long[] slotNumbers = new long[rows.length];
        n = 0;
        for (int s = 0; s < rows.length; s++) {
            slotNumbers[s] = s;
            if (used(rows, state, s)) {
                at[n++] = s;
            }
        }
        // keyWidth words per slot: pick reads the width off the key array's length
        assert keys == null || keys.length == (long) rows.length * keyWidth;
        return new Slots(rows.length, slotNumbers, rows, vals, cnts, keys).pick(at, 0, n);
    }

    private static boolean used(long[] rows, int[] state, int s) {
        return rows[s] != 0 && (state == null || state[s] == 2);
    }

    /**
     * The result rows of the device's groups {@code g} of an aggregation whose device layout is {@code a}, in the
     * order of their slots: the key of a dense slot decoded from its index ({@code a.mins()}, {@code a.sizes()},
     * the last key varying fastest; keys on the GPU are never NULL), a shared slot's key from its key words; then
     * every aggregate's final value. Work and memory in proportion to the groups, none to the table's slots.
     */
    static RelationPart rows(RowLayout t, SinkLayout.Aggregate a, Slots g) {
        int n = g.count();
        int nk = t.keys();
        RelationPart part = RelationPart.allocate(t.kinds(), t.dictionaries(), n);
        RowBuffer out = part.rows();
        for (int i = 0; i < n; i++) {
            if (g.keys() != null) {
                for (int k = 0; k < nk; k++) {
                    out.setRaw(k, i, g.keys()[i * a.keyWidth() + k]);
                }
            } else {
                long rest = g.slot()[i];
                for (int k = nk - 1; k >= 0; k--) {
                    out.setRaw(k, i, a.mins()[k] + rest % a.sizes()[k]);
                    rest /= a.sizes()[k];
                }
            }
        }
        GroupRows.aggregates(t.aggs(), accumulated(g), n, out, nk);
        return part;
    }

    /** Entry i of the device's groups as what it accumulated: its own count (else its rows), its value bits. */
    private static GroupRows.Accumulated accumulated(Slots g) {
        return new GroupRows.Accumulated() {
            @Override
            public long count(int a, int i) {
                long[] c = g.cnts()[a];
                return (c == null ? g.rows() : c)[i];
            }

            @Override
            public long longValue(int a, int i) {
                long[] v = g.vals()[a];
                return v == null ? 0 : v[i];
            }

            @Override
            public double doubleValue(int a, int i) {
                long[] v = g.vals()[a];
                return v == null ? 0 : Double.longBitsToDouble(v[i]);
            }

            @Override
            public long distinctCount(int a, int i) {
                throw new IllegalStateException("COUNT(DISTINCT) has no GPU code");
            }
        };
    }
}
