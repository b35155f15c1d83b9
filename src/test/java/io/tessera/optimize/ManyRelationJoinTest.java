package io.tessera.optimize;

import io.tessera.Tessera;
import io.tessera.api.QueryResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Joins of 20, 25 and 64 ten-row tables on equalities, the shape of SQLite's select5.test: tables t1..t64, each with
 * a key {@code aN} (1 to 10), a column {@code bN} holding a permutation of those values and a label {@code xN}; the
 * tables and the equalities listed in a random order, as select5 lists them. A region of more relations than a join
 * graph holds is ordered in parts. The expected rows are computed here by following the equalities through the
 * data, so the labels of the first, a middle and the last table must come out in the right combinations.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ManyRelationJoinTest {

    private static final int ROWS = SelectFiveTables.ROWS;

    /** Per table (index 1..64), its column b by row: row r has a = r + 1. */
    private int[][] b;
    private Tessera tessera;

    @BeforeAll
    void tables(@TempDir Path dir) {
        b = SelectFiveTables.build(dir);
        tessera = Tessera.open(dir);
    }

    @AfterAll
    void close() {
        if (tessera != null) {
            tessera.close();
        }
    }

    /** A chain (a1 = b2, a2 = b3, ...) or a star (a1 = b2, a1 = b3, ...) over t1..tN, a filter on a middle table. */
    @ParameterizedTest
    @CsvSource({"20, chain", "25, chain", "64, chain", "20, star", "25, star", "64, star"})
    void joinAnswersRight(int n, String shape) {
        boolean star = shape.equals("star");
        int mid = n / 2;
        String sql = SelectFiveTables.query(n, star);

        List<String> expected = expected(n, star, mid);
        assertFalse(expected.isEmpty());
        QueryResult result = tessera.query(sql);
        List<String> actual = new ArrayList<>();
        for (Object[] row : result.rows()) {
            actual.add(row[0] + " " + row[1] + " " + row[2]);
        }
        Collections.sort(actual);
        assertEquals(expected, actual, sql);
    }

    /**
     * Follows the equalities from each row of t1: table t's row is the one whose b equals a of its parent (t-1 in a
     * chain, t1 in a star); b is a permutation, so there is exactly one.
     */
    private List<String> expected(int n, boolean star, int mid) {
        List<String> out = new ArrayList<>();
        for (int r1 = 0; r1 < ROWS; r1++) {
            int[] rowOf = new int[n + 1];
            rowOf[1] = r1;
            for (int t = 2; t <= n; t++) {
                int parentA = rowOf[star ? 1 : t - 1] + 1;
                rowOf[t] = rowWithB(t, parentA);
            }
            if (rowOf[mid] + 1 < 7) {
                out.add(SelectFiveTables.label(1, rowOf[1]) + " " + SelectFiveTables.label(mid, rowOf[mid]) + " "
                        + SelectFiveTables.label(n, rowOf[n]));
            }
        }
        Collections.sort(out);
        return out;
    }

    private int rowWithB(int table, int value) {
        for (int r = 0; r < ROWS; r++) {
            if (b[table][r] == value) {
                return r;
            }
        }
        throw new IllegalStateException("b" + table + " is a permutation of 1.." + ROWS);
    }
}
