package io.tessera.bench;

import io.tessera.api.QueryResult;
import io.tessera.difftest.StarSchemaBuilder;
import io.tessera.storage.Column;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DuckDbPeerTest {

    /** Every value of every column, NULLs included, arrives in DuckDB with the same type and value. */
    @Test
    void copiesEveryValueWithItsType(@TempDir Path dir) {
        StarSchemaBuilder.build(dir, 11, 5_000);
        try (Database db = Database.open(dir); DuckDbPeer peer = DuckDbPeer.inMemory(db)) {
            assertSameValues(db, peer);
        }
    }

    /** The file copy goes through Parquet files: every value arrives with its type, and no staging file is left. */
    @Test
    void copiesEveryValueThroughParquetIntoTheFileCopy(@TempDir Path dir) throws java.io.IOException {
        StarSchemaBuilder.build(dir, 11, 5_000);
        assertTrue(DuckDbPeer.parquetWriterPresent());
        try (Database db = Database.open(dir); DuckDbPeer peer = DuckDbPeer.open(db)) {
            assertSameValues(db, peer);
        }
        try (var files = Files.list(dir.resolve(".duckdb"))) {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().endsWith(".parquet")));
        }
    }

    private static void assertSameValues(Database db, DuckDbPeer peer) {
        for (Table t : db.tables()) {
            String key = t.column(0).name();
            QueryResult r = peer.query("select * from " + t.name() + " order by " + key);
            assertEquals(t.rowCount(), r.rowCount(), t.name());
            for (int c = 0; c < t.columns().size(); c++) {
                Column col = t.column(c);
                assertEquals(col.type(), r.columns().get(c).type(), t.name() + "." + col.name());
                long nulls = 0;
                for (int row = 0; row < t.rowCount(); row++) {
                    Object expected = col.getObject(row);
                    assertEquals(expected, r.get(row, c), t.name() + "." + col.name() + " row " + row);
                    nulls += expected == null ? 1 : 0;
                }
                if (col.schema().nullable() && !col.name().endsWith("key")) {
                    double rate = nulls / (double) t.rowCount();
                    assertTrue(rate > 0.03 && rate < 0.2, t.name() + "." + col.name() + " null rate " + rate);
                }
            }
        }
        // foreign keys: mostly resolve, some dangle, some NULL
        long total = (Long) peer.query("select count(*) from sales").get(0, 0);
        long resolved = (Long) peer.query("select count(*) from sales join customer on f_custkey = c_custkey")
                .get(0, 0);
        long nullKeys = (Long) peer.query("select count(*) from sales where f_custkey is null").get(0, 0);
        assertTrue(resolved > total * 0.85 && resolved < total, "resolved " + resolved + " of " + total);
        assertTrue(nullKeys > 0 && resolved + nullKeys < total);
    }

    @Test
    void normalizesDuckDbKinds(@TempDir Path dir) {
        try (Database db = Database.openOrCreate(dir); DuckDbPeer peer = DuckDbPeer.inMemory(db)) {
            QueryResult r = peer.query("select sum(x) as s, cast(1 as smallint) as sm, cast(2 as tinyint) as ti, "
                    + "cast(1.5 as float) as f, date '1998-12-01' as d, cast(12.30 as decimal(30,2)) as dec, "
                    + "cast(170141183460469231731687303715884105727 as hugeint) as big, true as b "
                    + "from (values (1), (2)) t(x)");
            Object[] row = r.rows().get(0);
            assertEquals(3L, row[0]);
            assertEquals(1, row[1]);
            assertEquals(2, row[2]);
            assertEquals(1.5f, row[3]); // a FLOAT as Tessera's REAL gives it
            assertEquals(LocalDate.of(1998, 12, 1), row[4]);
            assertEquals(new BigDecimal("12.30"), row[5]);
            assertInstanceOf(BigInteger.class, row[6]);
            assertEquals(Boolean.TRUE, row[7]);
            assertEquals(DataType.BIGINT, r.columns().get(0).type());
            assertEquals(DataType.decimal(18, 2), r.columns().get(5).type());
            assertEquals(DataType.DATE, r.columns().get(4).type());
            assertEquals(DataType.REAL, r.columns().get(3).type());
        }
    }

    /** The file copy is made once, reused while the tables are unchanged, and remade after a write. */
    @Test
    void keepsAFileCopyUntilTheTablesChange(@TempDir Path dir) {
        StarSchemaBuilder.build(dir, 3, 2_000);
        try (Database db = Database.open(dir)) {
            try (DuckDbPeer p = DuckDbPeer.open(db)) {
                assertFalse(p.reused());
                assertEquals(2_000L, p.query("select count(*) from sales").get(0, 0));
            }
            assertTrue(Files.isRegularFile(dir.resolve(".duckdb/peer.duckdb")));
            try (DuckDbPeer p = DuckDbPeer.open(db)) {
                assertTrue(p.reused());
                assertEquals(2_000L, p.query("select count(*) from sales").get(0, 0));
            }
            TableSchema s = TableSchema.parse("extra", "a INTEGER");
            try (TableWriter w = db.replace(s)) {
                var b = new io.tessera.storage.RowBatch(s, 2);
                b.column(0).appendInt(1);
                b.column(0).appendNull();
                w.write(b);
                w.commit();
            }
            try (DuckDbPeer p = DuckDbPeer.open(db)) {
                assertFalse(p.reused());
                QueryResult r = p.query("select a from extra order by a nulls last");
                assertEquals(List.of(1), List.of(r.get(0, 0)));
                assertEquals(null, r.get(1, 0));
            }
        }
        // a reopened database with the same tables reuses the copy
        try (Database db = Database.open(dir); DuckDbPeer p = DuckDbPeer.open(db)) {
            assertTrue(p.reused());
        }
    }
}
