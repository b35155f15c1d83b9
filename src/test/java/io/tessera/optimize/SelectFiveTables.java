package io.tessera.optimize;

import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The tables and queries of SQLite's select5.test shape, for {@link ManyRelationJoinTest} and the timing harness
 * {@code exec.ManyJoinTimes}: tables t1..t64 of ten rows, each with a key {@code aN} (1 to 10), a column {@code bN}
 * holding a permutation of those values and a label {@code xN}; queries joining t1..tN on a chain or a star of
 * equalities, the tables and the equalities listed in a random order, as select5 lists them.
 */
public final class SelectFiveTables {

    public static final int TABLES = 64;
    public static final int ROWS = 10;

    private SelectFiveTables() {
    }

    /** Writes the tables into the database at {@code dir}; returns each table's column b by row (index 1..64). */
    public static int[][] build(Path dir) {
        int[][] b = new int[TABLES + 1][ROWS];
        Random rnd = new Random(5);
        try (Database db = Database.openOrCreate(dir)) {
            for (int t = 1; t <= TABLES; t++) {
                List<Integer> perm = new ArrayList<>();
                for (int v = 1; v <= ROWS; v++) {
                    perm.add(v);
                }
                Collections.shuffle(perm, rnd);
                TableSchema s = TableSchema.parse("t" + t, "a" + t + " INTEGER NOT NULL, b" + t + " INTEGER, x" + t + " VARCHAR");
                RowBatch batch = new RowBatch(s, ROWS);
                for (int r = 0; r < ROWS; r++) {
                    b[t][r] = perm.get(r);
                    batch.column(0).appendInt(r + 1);
                    batch.column(1).appendInt(perm.get(r));
                    batch.column(2).appendString(label(t, r));
                }
                try (TableWriter w = db.replace(s)) {
                    w.write(batch);
                    w.commit();
                }
            }
        }
        return b;
    }

    /** The label x of a table's row (0-based). */
    public static String label(int table, int row) {
        return "t" + table + "r" + (row + 1);
    }

    /**
     * A chain (a1 = b2, a2 = b3, ...) or a star (a1 = b2, a1 = b3, ...) over t1..tN with a filter on the middle
     * table, {@code n / 2}, selecting the labels of t1, that table and tN.
     */
    public static String query(int n, boolean star) {
        int mid = n / 2;
        Random rnd = new Random(n * 31L + (star ? "star" : "chain").hashCode());
        List<String> from = new ArrayList<>();
        List<String> where = new ArrayList<>();
        for (int t = 1; t <= n; t++) {
            from.add("t" + t);
            if (t > 1) {
                // select5 writes either side first
                String l = "a" + (star ? 1 : t - 1);
                String r = "b" + t;
                where.add(rnd.nextBoolean() ? l + " = " + r : r + " = " + l);
            }
        }
        where.add("a" + mid + " < 7");
        Collections.shuffle(from, rnd);
        Collections.shuffle(where, rnd);
        return "SELECT x1, x" + mid + ", x" + n + " FROM " + String.join(", ", from) + " WHERE "
                + String.join(" AND ", where);
    }
}
