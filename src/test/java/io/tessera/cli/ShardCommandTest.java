package io.tessera.cli;

import io.tessera.Tessera;
import io.tessera.exec.TinyTables;
import io.tessera.storage.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code tessera shard}: every row lands in exactly one shard; by key, equal keys together in every table. */
class ShardCommandTest {

    @TempDir
    Path dir;

    private Path source() {
        Path db = dir.resolve("db");
        Object[][] orders = new Object[500][];
        for (int i = 0; i < orders.length; i++) {
            orders[i] = new Object[] {i, i % 37 == 0 ? null : i % 23, i % 5 == 0 ? null : "o'" + i, (long) i * 7};
        }
        TinyTables.write(db, "orders", "id INTEGER NOT NULL, cust INTEGER, note VARCHAR, v BIGINT", orders);
        Object[][] customers = new Object[23][];
        for (int i = 0; i < customers.length; i++) {
            customers[i] = new Object[] {i, "c" + i};
        }
        TinyTables.write(db, "customers", "c_id INTEGER NOT NULL, name VARCHAR", customers);
        return db;
    }

    /** The rows of a query over every shard, sorted, as text. */
    private static List<String> union(Path out, int shards, String sql) {
        List<String> rows = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            try (Tessera t = Tessera.open(out.resolve("shard-" + s))) {
                for (Object[] r : t.query(sql).rows()) {
                    rows.add(java.util.Arrays.toString(r));
                }
            }
        }
        rows.sort(null);
        return rows;
    }

    private static List<String> rows(Path db, String sql) {
        try (Tessera t = Tessera.open(db)) {
            List<String> rows = new ArrayList<>();
            for (Object[] r : t.query(sql).rows()) {
                rows.add(java.util.Arrays.toString(r));
            }
            rows.sort(null);
            return rows;
        }
    }

    @Test
    void roundRobinSpreadsEveryRowOnce() {
        Path db = source();
        Path out = dir.resolve("rr");
        assertEquals(0, Main.run("shard", "--db", db.toString(), "--by", "round-robin", "--shards", "3",
                "--out", out.toString()));
        for (String sql : List.of("select * from orders", "select * from customers")) {
            assertEquals(rows(db, sql), union(out, 3, sql), sql);
        }
        for (int s = 0; s < 3; s++) {
            try (Database d = Database.open(out.resolve("shard-" + s))) {
                long n = d.table("orders").rowCount();
                assertTrue(n == 166 || n == 167, "shard " + s + " holds " + n + " of 500 rows");
            }
        }
    }

    @Test
    void byKeyKeepsEqualKeysTogetherAcrossTables() {
        Path db = source();
        Path out = dir.resolve("key");
        assertEquals(0, Main.run("shard", "--db", db.toString(), "--by", "key=cust,c_id", "--shards", "4",
                "--out", out.toString()));
        for (String sql : List.of("select * from orders", "select * from customers")) {
            assertEquals(rows(db, sql), union(out, 4, sql), sql);
        }
        // each customer's orders sit in the shard of the customer: the join within each shard is the whole join
        String join = "select id, name from orders, customers where cust = c_id";
        assertEquals(rows(db, join), union(out, 4, join));
        Map<Object, Integer> shardOfKey = new HashMap<>();
        int used = 0;
        for (int s = 0; s < 4; s++) {
            try (Tessera t = Tessera.open(out.resolve("shard-" + s))) {
                List<Object[]> keys = t.query("select distinct cust from orders where cust is not null").rows();
                used += keys.isEmpty() ? 0 : 1;
                for (Object[] k : keys) {
                    assertEquals(null, shardOfKey.put(k[0], s), "key " + k[0] + " in two shards");
                }
            }
        }
        assertTrue(used > 1, "the keys spread over more than one shard");
    }

    @Test
    void refusesANonEmptyOutputAndAnUnknownRule() throws Exception {
        Path db = source();
        Path out = Files.createDirectories(dir.resolve("busy"));
        Files.writeString(out.resolve("keep.txt"), "mine");
        assertNotEquals(0, Main.run("shard", "--db", db.toString(), "--by", "round-robin", "--shards", "2",
                "--out", out.toString()));
        assertEquals("mine", Files.readString(out.resolve("keep.txt")));
        assertNotEquals(0, Main.run("shard", "--db", db.toString(), "--by", "hash", "--shards", "2",
                "--out", dir.resolve("new").toString()));
    }
}
