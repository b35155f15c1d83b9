package io.tessera.optimize;

import io.tessera.storage.Column;
import io.tessera.storage.TypeKind;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Whether a stored integer column's values ascend with the row number, as far as evenly spaced rows show: a table
 * written in the order of a key (TPC-H's lineitem and orders by their order key). Rows read in that order look up a
 * perfect join table's slots in ascending order, so the lookups stream through memory however large the table is
 * (the join order's cost, and the order of a pipeline's operations), and a grouping by it sees each group's rows
 * together. Only a guess, used for costs and defaults, never for an answer.
 */
public final class AscendingValues {

    /** Rows read to decide. */
    static final int SAMPLED_ROWS = 1024;

    private static final Map<Column, Boolean> SEEN = Collections.synchronizedMap(new WeakHashMap<>());

    private AscendingValues() {
    }

    /** Whether the column's values ascend with the row number (sampled once per column). */
    public static boolean ascends(Column c) {
        return SEEN.computeIfAbsent(c, AscendingValues::sampled);
    }

    private static boolean sampled(Column c) {
        TypeKind kind = c.type().kind();
        long n = c.rowCount();
        if (n < 2 || c.hasNulls() || !(kind.isInt64() || kind == TypeKind.INTEGER || kind == TypeKind.DATE)) {
            return false;
        }
        int k = (int) Math.min(SAMPLED_ROWS, n);
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < k; i++) {
            long row = (n - 1) * i / (k - 1);
            long v = kind.isInt64() ? c.getLong(row) : c.getInt(row);
            if (v < previous) {
                return false;
            }
            previous = v;
        }
        return true;
    }
}
