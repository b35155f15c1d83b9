package io.tessera.exec;

import io.tessera.Tessera;
import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.api.RowSink;
import io.tessera.api.TableSlice;
import io.tessera.sql.SqlError;
import io.tessera.storage.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A query over a slice of a table reads exactly the slice's rows; slices that tile a table add up to it. */
class TableSliceTest {

    private static final int ROWS = 1000;

    @TempDir
    Path dir;

    private void writeTable() {
        Object[][] rows = new Object[ROWS][];
        for (int i = 0; i < ROWS; i++) {
            // nulls every 7th row so that the validity bitmap's words matter at the slice boundaries
            rows[i] = new Object[] {i, i % 7 == 0 ? null : "s" + (i % 13), BigDecimal.valueOf(i, 2),
                    i % 7 == 0 ? null : (long) i * 3};
        }
        TinyTables.write(dir, "t", "id INTEGER NOT NULL, tag VARCHAR, price DECIMAL(10,2) NOT NULL, v BIGINT", rows);
    }

    private static List<Object[]> run(Tessera t, String sql, TableSlice slice) {
        List<Object[]> out = new ArrayList<>();
        t.query(sql, new QueryCancel(), new RowSink() {
            @Override
            public void start(List<ResultColumn> columns) {
            }

            @Override
            public void rows(List<Object[]> batch) {
                out.addAll(batch);
            }
        }, slice);
        return out;
    }

    @Test
    void slicesReadTheirRowsAndTileTheTable() {
        writeTable();
        try (Tessera t = Tessera.open(dir)) {
            int generation = t.database().table("t").generation();
            long[][] parts = {{0, 320}, {320, 640}, {640, 1000}};
            long count = 0;
            long sumV = 0;
            for (long[] p : parts) {
                String sql = "select count(*), count(v), sum(v), min(id), max(id), sum(price), count(distinct tag) from t";
                Object[] row = run(t, sql, new TableSlice("t", p[0], p[1], generation)).get(0);
                long expectNonNull = 0;
                long expectSum = 0;
                BigDecimal expectPrice = BigDecimal.ZERO.setScale(2);
                for (long i = p[0]; i < p[1]; i++) {
                    if (i % 7 != 0) {
                        expectNonNull++;
                        expectSum += i * 3;
                    }
                    expectPrice = expectPrice.add(BigDecimal.valueOf(i, 2));
                }
                assertEquals(p[1] - p[0], ((Number) row[0]).longValue());
                assertEquals(expectNonNull, ((Number) row[1]).longValue());
                assertEquals(expectSum, ((Number) row[2]).longValue());
                assertEquals((int) p[0], ((Number) row[3]).intValue());
                assertEquals((int) p[1] - 1, ((Number) row[4]).intValue());
                assertEquals(0, expectPrice.compareTo((BigDecimal) row[5]));
                assertEquals(13L, ((Number) row[6]).longValue());
                count += ((Number) row[0]).longValue();
                sumV += ((Number) row[2]).longValue();
            }
            QueryResult whole = t.query("select count(*), sum(v) from t");
            assertEquals(((Number) whole.get(0, 0)).longValue(), count);
            assertEquals(((Number) whole.get(0, 1)).longValue(), sumV);
            // row values, nulls included, come from the slice's own rows
            List<Object[]> rows = run(t, "select id, tag from t where id < 400 order by id", new TableSlice("t", 320, 640, -1));
            assertEquals(80, rows.size());
            for (int i = 0; i < rows.size(); i++) {
                int id = 320 + i;
                assertEquals(id, rows.get(i)[0]);
                assertEquals(id % 7 == 0 ? null : "s" + (id % 13), rows.get(i)[1]);
            }
            // a slice of one table leaves the others (and a self join's other side) whole only where not named
            assertEquals(0L, ((Number) run(t, "select count(*) from t where id >= 640", new TableSlice("t", 0, 640, -1))
                    .get(0)[0]).longValue());
        }
    }

    @Test
    void parametersAreBoundInASlicedQuery() {
        writeTable();
        try (Tessera t = Tessera.open(dir)) {
            List<Object[]> rows = new ArrayList<>();
            t.query("select count(*) from t where tag = ? and id >= ?", io.tessera.sql.Parameters.of(List.of("s1' or ''='", 0)),
                    new QueryCancel(), new RowSink() {
                        @Override
                        public void start(List<ResultColumn> columns) {
                        }

                        @Override
                        public void rows(List<Object[]> batch) {
                            rows.addAll(batch);
                        }
                    }, new TableSlice("t", 0, 640, -1));
            assertEquals(0L, ((Number) rows.get(0)[0]).longValue());
            long expected = 0;
            for (int i = 0; i < 640; i++) {
                expected += i % 7 != 0 && i % 13 == 1 ? 1 : 0;
            }
            rows.clear();
            t.query("select count(*) from t where tag = ?", io.tessera.sql.Parameters.of(List.of("s1")), new QueryCancel(),
                    new RowSink() {
                        @Override
                        public void start(List<ResultColumn> columns) {
                        }

                        @Override
                        public void rows(List<Object[]> batch) {
                            rows.addAll(batch);
                        }
                    }, new TableSlice("t", 0, 640, -1));
            assertEquals(expected, ((Number) rows.get(0)[0]).longValue());
        }
    }

    @Test
    void refusesWhatCannotBeASlice() {
        writeTable();
        try (Tessera t = Tessera.open(dir)) {
            SqlError misaligned = assertThrows(SqlError.class, () -> run(t, "select count(*) from t", new TableSlice("t", 10, 100, -1)));
            assertTrue(misaligned.getMessage().contains("multiple of " + Table.SLICE_ALIGNMENT), misaligned.getMessage());
            SqlError beyond = assertThrows(SqlError.class, () -> run(t, "select count(*) from t", new TableSlice("t", 0, 2000, -1)));
            assertTrue(beyond.getMessage().contains("not within table t"), beyond.getMessage());
            SqlError stale = assertThrows(SqlError.class, () -> run(t, "select count(*) from t", new TableSlice("t", 0, 64, 999)));
            assertTrue(stale.getMessage().contains("was written since"), stale.getMessage());
            SqlError write = assertThrows(SqlError.class, () -> run(t, "delete from t", new TableSlice("t", 0, 64, -1)));
            assertTrue(write.getMessage().contains("only a query"), write.getMessage());
            SqlError missing = assertThrows(SqlError.class, () -> run(t, "select 1", new TableSlice("nope", 0, 64, -1)));
            assertTrue(missing.getMessage().contains("no table nope"), missing.getMessage());
        }
    }
}
