package io.tessera.optimize;

import io.tessera.storage.Column;
import io.tessera.storage.Table;

import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.WeakHashMap;
import java.util.function.Supplier;

/**
 * A uniform sample of a stored table's rows, on which the planner evaluates filters to estimate how many rows pass
 * them (conjuncts that are correlated, such as {@code l_commitdate < l_receiptdate} or Q19's disjunctions, are
 * estimated as they are, not as a product of independent guesses). The rows are chosen by stratified sampling: one
 * row at a seeded random position inside each of {@link #SIZE} equal stretches of the table, so the sample is the
 * same for the same table generation and is read in ascending order. Values are read from the memory-mapped columns
 * only when a filter needs them, and kept per column: numbers (DECIMAL scaled, DATE as days) as {@link Double},
 * VARCHAR as {@link String}, BOOLEAN as {@link Boolean}, NULL as null.
 */
final class TableSample {

    /** Rows in a sample (all rows of a smaller table). */
    static final int SIZE = 2048;

    private static final Map<Table, TableSample> SAMPLES = Collections.synchronizedMap(new WeakHashMap<>());

    /** Conjuncts' answers kept per sample, the least recently used dropped beyond this (each is a boolean per row). */
    private static final int MAX_TRUTHS = 64;
    /** Kept for a conjunct that the sample cannot evaluate. */
    private static final boolean[] UNSUPPORTED = new boolean[0];

    /**
     * Weakly held: {@link #SAMPLES} holds its keys weakly, and a sample that held its table strongly would keep every
     * replaced generation of a table (and its sample) for the life of the process. Whoever asks for a sample's values
     * is planning over that table and holds it.
     */
    private final WeakReference<Table> table;
    private final long[] rows;
    private final Object[][] values;
    /**
     * Per conjunct, by its text over the table's columns: which sampled rows it holds for. Every prepare of a query
     * estimates the same conjuncts again, and the optimizer's rules rebuild each filter several times per prepare.
     */
    private final Map<String, boolean[]> truths = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, boolean[]> eldest) {
            return size() > MAX_TRUTHS;
        }
    };

    private TableSample(Table table) {
        this.table = new WeakReference<>(table);
        long n = table.rowCount();
        int k = (int) Math.min(SIZE, n);
        rows = new long[k];
        SplittableRandom random = new SplittableRandom(table.name().hashCode() * 31L + n);
        for (int i = 0; i < k; i++) {
            long from = n * i / k;
            long to = n * (i + 1) / k;
            rows[i] = k == n ? i : from + random.nextLong(Math.max(1, to - from));
        }
        values = new Object[table.columns().size()][];
    }

    /** The sample of {@code table}, made once per table generation. */
    static TableSample of(Table table) {
        return SAMPLES.computeIfAbsent(table, TableSample::new);
    }

    int size() {
        return rows.length;
    }

    /**
     * Per sampled row, whether the conjunct whose text over the table's columns is {@code key} holds: kept from an
     * earlier call, else {@code evaluate}d (null: the sample cannot evaluate it), whose answer must not be changed.
     */
    boolean[] truth(String key, Supplier<boolean[]> evaluate) {
        boolean[] t;
        synchronized (this) {
            t = truths.get(key);
        }
        if (t == null) {
            boolean[] made = evaluate.get();
            t = made == null ? UNSUPPORTED : made;
            synchronized (this) {
                truths.put(key, t);
            }
        }
        return t == UNSUPPORTED ? null : t;
    }

    /** The sampled values of column {@code c}, in sample order. */
    synchronized Object[] column(int c) {
        Object[] v = values[c];
        if (v == null) {
            Table t = table.get();
            if (t == null) {
                throw new IllegalStateException("the sampled table is no longer open");
            }
            Column col = t.column(c);
            v = new Object[rows.length];
            for (int i = 0; i < rows.length; i++) {
                v[i] = value(col, rows[i]);
            }
            values[c] = v;
        }
        return v;
    }

    private static Object value(Column col, long row) {
        if (col.isNull(row)) {
            return null;
        }
        return switch (col.type().kind()) {
            case INTEGER, DATE -> (double) col.getInt(row);
            case BIGINT, TIMESTAMP, TIMESTAMP_TZ, TIME -> (double) col.getLong(row);
            case DECIMAL -> col.getLong(row) / Math.pow(10, col.type().scale());
            case DOUBLE -> col.getDouble(row);
            case BOOLEAN -> col.getBoolean(row);
            case VARCHAR -> col.getString(row);
        };
    }
}
