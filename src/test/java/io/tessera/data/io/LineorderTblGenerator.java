package io.tessera.data.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Writes a .tbl file shaped like SSB lineorder (17 columns: 15 integers, two short strings, a trailing '|'),
 * for measuring import throughput. Not the SSB generator: values are random in the SSB ranges.
 * Run: {@code java src/test/java/io/tessera/data/io/LineorderTblGenerator.java OUT ROWS}
 */
public final class LineorderTblGenerator {

    /** The matching table definition for {@code tessera create --columns}. */
    public static final String COLUMNS = "lo_orderkey INTEGER NOT NULL, lo_linenumber INTEGER NOT NULL, "
            + "lo_custkey INTEGER NOT NULL, lo_partkey INTEGER NOT NULL, lo_suppkey INTEGER NOT NULL, "
            + "lo_orderdate INTEGER NOT NULL, lo_orderpriority VARCHAR NOT NULL, lo_shippriority INTEGER NOT NULL, "
            + "lo_quantity INTEGER NOT NULL, lo_extendedprice INTEGER NOT NULL, lo_ordtotalprice INTEGER NOT NULL, "
            + "lo_discount INTEGER NOT NULL, lo_revenue INTEGER NOT NULL, lo_supplycost INTEGER NOT NULL, "
            + "lo_tax INTEGER NOT NULL, lo_commitdate INTEGER NOT NULL, lo_shipmode VARCHAR NOT NULL";

    private static final String[] PRIORITIES = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECI", "5-LOW"};
    private static final String[] MODES = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};

    private LineorderTblGenerator() {
    }

    public static void main(String[] args) throws IOException {
        write(Path.of(args[0]), Long.parseLong(args[1]), 42);
    }

    /** Writes {@code rows} rows; returns the file size. */
    public static long write(Path out, long rows, long seed) throws IOException {
        SplittableRandom rnd = new SplittableRandom(seed);
        try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20)) {
            StringBuilder sb = new StringBuilder(256);
            long order = 1;
            int line = 1;
            for (long r = 0; r < rows; r++) {
                if (line > 1 + rnd.nextInt(7)) {
                    order++;
                    line = 1;
                }
                int qty = 1 + rnd.nextInt(50);
                int price = 90000 + rnd.nextInt(10000000);
                int discount = rnd.nextInt(11);
                int date = 19920101 + rnd.nextInt(7) * 10000 + rnd.nextInt(12) * 100 + rnd.nextInt(28);
                sb.setLength(0);
                sb.append(order).append('|').append(line++).append('|')
                        .append(1 + rnd.nextInt(30000)).append('|').append(1 + rnd.nextInt(200000)).append('|')
                        .append(1 + rnd.nextInt(2000)).append('|').append(date).append('|')
                        .append(PRIORITIES[rnd.nextInt(PRIORITIES.length)]).append('|').append(0).append('|')
                        .append(qty).append('|').append(price).append('|').append(price * 3L / 2 % 60000000).append('|')
                        .append(discount).append('|').append((long) price * (100 - discount) / 100).append('|')
                        .append(60000 + rnd.nextInt(60000)).append('|').append(rnd.nextInt(9)).append('|')
                        .append(date + rnd.nextInt(90) % 28).append('|').append(MODES[rnd.nextInt(MODES.length)])
                        .append("|\n");
                os.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
            }
        }
        return Files.size(out);
    }
}
