package io.tessera.storage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A second Tessera process for the storage tests: {@code append DIR TABLE FIRST COUNT HOLD_MS GO} appends rows
 * {@code FIRST ..} to a table, waiting {@code HOLD_MS} between writing and committing, once file {@code GO}
 * exists; {@code scan DIR PAUSE_MS STOP} opens the database again and again and checks every column of table
 * {@code t} slowly until file {@code STOP} exists.
 * Exit status 0 on success; a failure is printed as one line starting with {@code FAIL}.
 */
public final class StorageTestProcess {

    static final TableSchema SCHEMA = TableSchema.parse("t", "k BIGINT NOT NULL, s VARCHAR NOT NULL, v BIGINT");

    private StorageTestProcess() {
    }

    /** Rows first .. first+count-1: k, s = "s" + k % 97, v = -k or NULL where k % 5 == 0. */
    static RowBatch rows(TableSchema schema, long first, int count) {
        RowBatch b = new RowBatch(schema, count);
        for (long k = first; k < first + count; k++) {
            b.column(0).appendLong(k);
            b.column(1).appendString("s" + (k % 97));
            if (k % 5 == 0) {
                b.column(2).appendNull();
            } else {
                b.column(2).appendLong(-k);
            }
        }
        return b;
    }

    /**
     * Reads every column of {@code t} (each read verifies the file's checksum), pausing before each, and checks
     * that they hold exactly the rows k = 0 .. n-1 for one n; returns n.
     */
    static long checkPrefix(Table t, long pauseMs) throws InterruptedException {
        long n = t.rowCount();
        Thread.sleep(pauseMs);
        long[] ks = new long[(int) n];
        Column k = t.column("k");
        for (long r = 0; r < n; r++) {
            ks[(int) r] = k.getLong(r);
        }
        java.util.Arrays.sort(ks);
        for (int r = 0; r < n; r++) {
            if (ks[r] != r) {
                throw new AssertionError("table " + t.name() + " of " + n + " rows: k " + r + " is " + ks[r]);
            }
        }
        Thread.sleep(pauseMs);
        Column v = t.column("v");
        for (long r = 0; r < n; r++) {
            long kr = k.getLong(r);
            Object want = kr % 5 == 0 ? null : -kr;
            if (!java.util.Objects.equals(want, v.getObject(r))) {
                throw new AssertionError("row " + r + ": v is " + v.getObject(r) + ", want " + want);
            }
        }
        Thread.sleep(pauseMs);
        Column s = t.column("s");
        for (long r = 0; r < n; r++) {
            String want = "s" + (k.getLong(r) % 97);
            if (!want.equals(s.getString(r))) {
                throw new AssertionError("row " + r + ": s is " + s.getString(r) + ", want " + want);
            }
        }
        return n;
    }

    public static void main(String[] args) throws Exception {
        try {
            switch (args[0]) {
                case "append" -> append(Path.of(args[1]), args[2], Long.parseLong(args[3]), Integer.parseInt(args[4]),
                        Long.parseLong(args[5]), Path.of(args[6]));
                case "scan" -> scan(Path.of(args[1]), Long.parseLong(args[2]), Path.of(args[3]));
                default -> throw new IllegalArgumentException(args[0]);
            }
        } catch (Throwable e) {
            System.out.println("FAIL " + e);
            System.out.flush();
            System.exit(3);
        }
        System.exit(0);
    }

    private static void append(Path dir, String table, long first, int count, long holdMs, Path go)
            throws Exception {
        Files.createFile(Path.of(go + ".ready." + ProcessHandle.current().pid()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(go) && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        try (Database db = Database.open(dir); TableWriter w = db.append(table)) {
            w.write(rows(w.schema(), first, count));
            Thread.sleep(holdMs);
            w.commit();
        }
        System.out.println("committed " + table);
    }

    private static void scan(Path dir, long pauseMs, Path stop) throws Exception {
        List<Long> seen = new ArrayList<>();
        while (!Files.exists(stop)) {
            try (Database db = Database.open(dir)) {
                long n = checkPrefix(db.table("t"), pauseMs);
                if (seen.isEmpty() || seen.get(seen.size() - 1) != n) {
                    seen.add(n);
                }
            }
        }
        System.out.println("scanned " + seen);
    }
}
