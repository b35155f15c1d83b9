package io.tessera.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StorageRoundTripTest {

    static final TableSchema ALL_TYPES = TableSchema.parse("t", """
            i INTEGER, b BIGINT, d DOUBLE, m DECIMAL(15,2), dt DATE, f BOOLEAN, s VARCHAR, k INTEGER NOT NULL""");

    /** Rows of ALL_TYPES; null marks a NULL. Row 2 is all NULL except k. */
    static final Object[][] ROWS = {
            {7, 9_000_000_000L, 2.5, new BigDecimal("12.34"), LocalDate.of(1995, 3, 17), true, "pear", 1},
            {-3, -1L, -0.125, new BigDecimal("-0.01"), LocalDate.of(1969, 12, 31), false, "apple", 2},
            {null, null, null, null, null, null, null, 3},
            {Integer.MAX_VALUE, Long.MIN_VALUE + 1, 1e300, new BigDecimal("9999999999999.99"),
                    LocalDate.of(2038, 1, 19), true, "zebra é", 4},
            {0, 0L, 0.0, new BigDecimal("0.00"), LocalDate.of(1970, 1, 1), false, "", 5},
            {Integer.MIN_VALUE + 1, 42L, null, new BigDecimal("100.50"), null, null, "apple", 6},
    };

    static void append(RowBatch batch, Object[] row) {
        for (int c = 0; c < row.length; c++) {
            ColumnBuilder b = batch.column(c);
            Object v = row[c];
            if (v == null) {
                b.appendNull();
                continue;
            }
            switch (b.type().kind()) {
                case INTEGER -> b.appendInt((Integer) v);
                case BIGINT -> b.appendLong((Long) v);
                case DOUBLE -> b.appendDouble((Double) v);
                case DECIMAL -> b.appendLong(((BigDecimal) v).movePointRight(b.type().scale()).longValueExact());
                case DATE -> b.appendInt((int) ((LocalDate) v).toEpochDay());
                case BOOLEAN -> b.appendBoolean((Boolean) v);
                case VARCHAR -> b.appendString((String) v);
            }
        }
    }

    @Test
    void everyTypeWithNullsSurvivesCommitAndReopen(@TempDir Path dir) {
        try (Database db = Database.openOrCreate(dir); TableWriter w = db.replace(ALL_TYPES)) {
            RowBatch batch = new RowBatch(ALL_TYPES, 4);
            // two batches, so the writer merges two chunk dictionaries
            for (int r = 0; r < 3; r++) {
                append(batch, ROWS[r]);
            }
            w.write(batch);
            batch.clear();
            for (int r = 3; r < ROWS.length; r++) {
                append(batch, ROWS[r]);
            }
            w.write(batch);
            w.commit();
        }
        try (Database db = Database.open(dir)) {
            Table t = db.table("T");
            assertEquals(ROWS.length, t.rowCount());
            for (int r = 0; r < ROWS.length; r++) {
                for (int c = 0; c < ROWS[r].length; c++) {
                    Object expected = ROWS[r][c];
                    Object actual = t.column(c).getObject(r);
                    assertEquals(expected, actual, "row " + r + " column " + t.column(c).name());
                    assertEquals(expected == null, t.column(c).isNull(r));
                }
            }
            // statistics, in raw form
            assertStats(t.column("i"), 1, (long) (Integer.MIN_VALUE + 1), (long) Integer.MAX_VALUE);
            assertStats(t.column("b"), 1, Long.MIN_VALUE + 1, 9_000_000_000L);
            assertStats(t.column("d"), 2, -0.125, 1e300);
            assertStats(t.column("m"), 1, -1L, 999999999999999L);
            assertStats(t.column("dt"), 2, -1L, LocalDate.of(2038, 1, 19).toEpochDay());
            assertStats(t.column("f"), 2, 0L, 1L);
            assertStats(t.column("s"), 1, "", "zebra é");
            assertStats(t.column("k"), 0, 1L, 6L);
            assertFalse(t.column("k").hasNulls(), "a column without nulls has no validity file");
            assertTrue(t.column("i").hasNulls());
            assertEquals(4, t.column("s").dictionary().size(), "'apple' twice, NULL not in the dictionary");
        }
    }

    private static void assertStats(Column c, long nulls, Object min, Object max) {
        ColumnStats s = c.stats();
        assertEquals(nulls, s.nullCount(), "nulls of " + c.name());
        assertEquals(min, s.min() instanceof Number n && !(min instanceof Double) ? (Object) n.longValue() : s.min(),
                "min of " + c.name());
        assertEquals(max, s.max() instanceof Number n && !(max instanceof Double) ? (Object) n.longValue() : s.max(),
                "max of " + c.name());
    }

    @Test
    void appendMergesDictionariesKeepingCodesInStringOrder(@TempDir Path dir) {
        TableSchema schema = TableSchema.parse("words", "w VARCHAR NOT NULL, n INTEGER NOT NULL");
        List<String> first = List.of("mango", "cherry", "xigua", "cherry");
        List<String> second = List.of("apple", "nectarine", "zucchini", "cherry", "banana");
        try (Database db = Database.openOrCreate(dir)) {
            try (TableWriter w = db.replace(schema)) {
                w.write(batch(schema, first, 0));
                w.commit();
            }
            try (TableWriter w = db.append("words")) {
                w.write(batch(schema, second, first.size()));
                w.commit();
            }
        }
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        try (Database db = Database.open(dir)) {
            Table t = db.table("words");
            assertEquals(all.size(), t.rowCount());
            Column w = t.column("w");
            for (int r = 0; r < all.size(); r++) {
                assertEquals(all.get(r), w.getString(r), "row " + r);
                assertEquals(r, t.column("n").getInt(r));
            }
            String[] sorted = all.stream().distinct().sorted().toArray(String[]::new);
            assertEquals(Arrays.asList(sorted), strings(w.dictionary()));
            for (int a = 0; a < all.size(); a++) {
                for (int b = 0; b < all.size(); b++) {
                    assertEquals(Integer.signum(all.get(a).compareTo(all.get(b))),
                            Integer.signum(Integer.compare(w.getInt(a), w.getInt(b))),
                            "codes of " + all.get(a) + " and " + all.get(b));
                }
            }
            assertEquals("apple", w.stats().min());
            assertEquals("zucchini", w.stats().max());
            assertEquals(8, t.column("n").stats().maxLong());
        }
    }

    /** Every string of {@code d}, in code order. */
    static List<String> strings(Dictionary d) {
        List<String> out = new ArrayList<>();
        for (int c = 0; c < d.size(); c++) {
            out.add(d.value(c));
        }
        return out;
    }

    static RowBatch batch(TableSchema schema, List<String> words, int firstN) {
        RowBatch b = new RowBatch(schema, words.size());
        for (int i = 0; i < words.size(); i++) {
            b.column(0).appendString(words.get(i));
            b.column(1).appendInt(firstN + i);
        }
        return b;
    }

    @Test
    void appendedCodesStoreTheirStrings(@TempDir Path dir) {
        TableSchema schema = TableSchema.parse("c", "s VARCHAR NOT NULL");
        try (Database db = Database.openOrCreate(dir); TableWriter w = db.replace(schema)) {
            RowBatch b = new RowBatch(schema, 4);
            ColumnBuilder s = b.column(0);
            int ship = s.localCode("SHIP");
            int air = s.localCode("AIR");
            assertEquals(ship, s.localCode("SHIP"), "a value keeps its code");
            s.appendCode(air);
            s.appendString("RAIL");
            s.appendCode(ship);
            s.appendCode(air);
            assertEquals(4, b.rowCount());
            assertThrows(IllegalArgumentException.class, () -> s.appendCode(3));
            w.write(b);
            w.commit();
        }
        try (Database db = Database.open(dir)) {
            Column s = db.table("c").column("s");
            assertEquals(List.of("AIR", "RAIL", "SHIP", "AIR"),
                    List.of(s.getString(0), s.getString(1), s.getString(2), s.getString(3)));
            assertEquals(List.of("AIR", "RAIL", "SHIP"), strings(s.dictionary()));
        }
    }

    @Test
    void nullOnlyColumnHasNoRange(@TempDir Path dir) {
        TableSchema schema = TableSchema.parse("n", "x INTEGER, y VARCHAR");
        try (Database db = Database.openOrCreate(dir); TableWriter w = db.replace(schema)) {
            RowBatch b = new RowBatch(schema, 2);
            b.column(0).appendNull();
            b.column(1).appendNull();
            w.write(b);
            w.commit();
        }
        try (Database db = Database.open(dir)) {
            Column x = db.table("n").column("x");
            assertEquals(1, x.stats().nullCount());
            assertFalse(x.stats().hasRange());
            assertNull(db.table("n").column("y").getObject(0));
        }
    }
}
