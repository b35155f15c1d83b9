package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.ValueKind;
import io.tessera.plan.AggFunction;
import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Merging a dense array into a hash table, as a block-by-block run that changed agg does at its end. */
class GroupTableMergeTest {

    static final AggSpec[] AGGS = {
            new AggSpec(AggFunction.SUM, ValueKind.LONG, DataType.BIGINT, DataType.BIGINT),
            new AggSpec(AggFunction.COUNT_STAR, ValueKind.LONG, null, DataType.BIGINT),
            new AggSpec(AggFunction.MIN, ValueKind.LONG, DataType.BIGINT, DataType.BIGINT),
    };

    /** Adds a row (key a in 10..12 or NULL, key b in 0..1) with value v to a dense array, as dense code does. */
    static void addDense(DenseGroupTable d, Long a, long b, long v) {
        int ia = a == null ? 3 : (int) (a - 10);
        int g = ia * 3 + (int) b;
        add(d, g, v);
        d.rows[g]++;
    }

    /** Adds the same row to a hash table, keys encoded as hash variants encode them (NULL: 0 and a mask bit). */
    static void addHash(HashGroupTable h, Long a, long b, long v) {
        h.scratch[0] = a == null ? 0 : a;
        h.scratch[1] = b;
        h.scratch[2] = a == null ? 1 : 0;
        add(h, h.findN(), v);
    }

    static void add(GroupTable t, int g, long v) {
        t.lvals[0][g] += v;
        t.counts[0][g]++;
        t.counts[1][g]++;
        t.lvals[2][g] = t.counts[2][g] == 0 ? v : Math.min(t.lvals[2][g], v);
        t.counts[2][g]++;
    }

    /** Key "a|b" (a NULL as "null") to sum, count and min. */
    static Map<String, List<Long>> groups(HashGroupTable h) {
        Map<String, List<Long>> out = new HashMap<>();
        for (int g = 0; g < h.groups; g++) {
            String key = (h.isNullKey(g, 0) ? "null" : Long.toString(h.keys[3 * g])) + "|" + h.keys[3 * g + 1];
            out.put(key, List.of(h.lvals[0][g], h.counts[1][g], h.lvals[2][g]));
        }
        return out;
    }

    @Test
    void aDenseArrayMergesIntoAHashTableGroupByGroup() {
        // key a: range 10..12 plus a NULL slot (4 slots); key b: 0..1 plus its NULL slot (3 slots)
        DenseGroupTable dense = new DenseGroupTable(AGGS, new long[] {10, 0}, new long[] {4, 3});
        HashGroupTable hash = new HashGroupTable(AGGS, 3, true, false, 16);
        HashGroupTable all = new HashGroupTable(AGGS, 3, true, false, 16);
        Object[][] rows = {{10L, 0L, 5L}, {null, 1L, 7L}, {12L, 1L, -3L}, {10L, 0L, 2L}, {null, 1L, 1L}, {11L, 0L, 9L}};
        for (int r = 0; r < rows.length; r++) {
            Long a = (Long) rows[r][0];
            long b = (Long) rows[r][1];
            long v = (Long) rows[r][2];
            if (r % 2 == 0) {
                addDense(dense, a, b, v);
            } else {
                addHash(hash, a, b, v);
            }
            addHash(all, a, b, v);
        }
        hash.mergeFrom(dense);
        assertEquals(groups(all), groups(hash));
        assertEquals(List.of(8L, 2L, 1L), groups(hash).get("null|1"));
        assertEquals(List.of(7L, 2L, 2L), groups(hash).get("10|0"));
        assertEquals(4, hash.groups);
    }

    @Test
    void theKeysMustHaveTheSameLayout() {
        DenseGroupTable dense = new DenseGroupTable(AGGS, new long[] {10, 0}, new long[] {4, 3});
        assertThrows(IllegalArgumentException.class, () -> new HashGroupTable(AGGS, 2, true, false, 16).mergeFrom(dense));
        DenseGroupTable withNull = new DenseGroupTable(AGGS, new long[] {10}, new long[] {4});
        withNull.rows[3] = 1;
        withNull.counts[1][3] = 1;
        assertThrows(IllegalStateException.class, () -> new HashGroupTable(AGGS, 1, false, false, 16).mergeFrom(withNull));
    }
}
