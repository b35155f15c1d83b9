package io.tessera.data.ssb;

import io.tessera.data.ChunkPipeline;
import io.tessera.data.Progress;
import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.Month;
import java.time.format.TextStyle;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Generates the Star Schema Benchmark at a scale factor, with the tables, columns and value domains of
 * the SSB design notes (SSB.md), so that every SSB query has the selectivity the specification gives it. It does not
 * reproduce the reference generator's random sequence; it is deterministic for a seed: every table is cut into
 * chunks of a fixed number of rows (orders, for lineorder), each chunk draws from its own random stream seeded
 * from (seed, table, chunk), and chunks take their places in order ({@link ChunkPipeline}), so the data does not
 * depend on the number of threads.
 */
public final class SsbGenerator {

    public static final long DEFAULT_SEED = 19920101L;

    /** Orders per lineorder chunk (about 4 lines each). */
    static final int ORDERS_PER_CHUNK = 50_000;
    /** Rows per chunk of the dimension tables. */
    static final int DIMENSION_ROWS_PER_CHUNK = 100_000;

    /** SSB's date table: 2,556 days from 1992-01-01, as the reference generator makes it. */
    public static final int DATE_DAYS = 2556;
    static final LocalDate FIRST_DATE = LocalDate.of(1992, 1, 1);
    static final LocalDate LAST_ORDER_DATE = LocalDate.of(1998, 8, 2);
    /** Days an order date can be (1992-01-01 .. 1998-08-02). */
    static final int ORDER_DATE_DAYS = (int) (LAST_ORDER_DATE.toEpochDay() - FIRST_DATE.toEpochDay()) + 1;
    static final int MIN_COMMIT_LAG = 30;
    static final int MAX_COMMIT_LAG = 90;

    /** yyyymmdd of day i after 1992-01-01, far enough for the latest commit date. */
    private static final int[] DATE_KEYS = new int[Math.max(DATE_DAYS, ORDER_DATE_DAYS + MAX_COMMIT_LAG)];

    static {
        for (int i = 0; i < DATE_KEYS.length; i++) {
            DATE_KEYS[i] = dateKey(FIRST_DATE.plusDays(i));
        }
    }

    private static final int TABLE_LINEORDER = 1;
    private static final int TABLE_CUSTOMER = 2;
    private static final int TABLE_SUPPLIER = 3;
    private static final int TABLE_PART = 4;

    private final double scaleFactor;
    private final long seed;

    public SsbGenerator(double scaleFactor, long seed) {
        if (!(scaleFactor > 0) || Double.isInfinite(scaleFactor)) {
            throw new IllegalArgumentException("scale factor must be a positive number, got " + scaleFactor);
        }
        if (1_500_000.0 * scaleFactor > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("scale factor " + scaleFactor + " is too large (order keys are INTEGER)");
        }
        this.scaleFactor = scaleFactor;
        this.seed = seed;
    }

    public double scaleFactor() {
        return scaleFactor;
    }

    public long seed() {
        return seed;
    }

    private static long scaled(long base, double sf) {
        return Math.max(1, Math.round(base * sf));
    }

    public long orders() {
        return scaled(1_500_000, scaleFactor);
    }

    public long customers() {
        return scaled(30_000, scaleFactor);
    }

    public long suppliers() {
        return scaled(2_000, scaleFactor);
    }

    /** 200,000 x floor(1 + log2 SF), and 200,000 for SF <= 1. */
    public long parts() {
        if (scaleFactor <= 1) {
            return 200_000;
        }
        return 200_000L * (long) Math.floor(1 + Math.log(scaleFactor) / Math.log(2));
    }

    /** Generates every table with one thread per core; returns the row count of each table. */
    public Map<String, Long> generate(Database db, Progress progress) {
        return generate(db, progress, Runtime.getRuntime().availableProcessors());
    }

    /** Generates every table on {@code threads} threads; the data is the same for any thread count. */
    public Map<String, Long> generate(Database db, Progress progress, int threads) {
        return ChunkPipeline.run(db, jobs(), threads, 2 * Math.max(1, threads), progress);
    }

    /** The five tables in the order they are made. */
    List<ChunkPipeline.TableJob> jobs() {
        int chunks = (int) ((orders() + ORDERS_PER_CHUNK - 1) / ORDERS_PER_CHUNK);
        return List.of(
                new ChunkPipeline.TableJob(SsbSchema.DDATE, 1, DATE_DAYS, c -> ddate()),
                dimension(SsbSchema.CUSTOMER, customers(), this::customerChunk),
                dimension(SsbSchema.SUPPLIER, suppliers(), this::supplierChunk),
                dimension(SsbSchema.PART, parts(), this::partChunk),
                new ChunkPipeline.TableJob(SsbSchema.LINEORDER, chunks, orders() * 4, this::lineorderChunk));
    }

    private interface RangeChunk {
        RowBatch generate(int chunk, long firstRow, long endRow);
    }

    private static ChunkPipeline.TableJob dimension(TableSchema schema, long total, RangeChunk gen) {
        int chunks = (int) ((total + DIMENSION_ROWS_PER_CHUNK - 1) / DIMENSION_ROWS_PER_CHUNK);
        return new ChunkPipeline.TableJob(schema, chunks, total, c -> {
            long first = (long) c * DIMENSION_ROWS_PER_CHUNK + 1;
            return gen.generate(c, first, Math.min(total + 1, first + DIMENSION_ROWS_PER_CHUNK));
        });
    }

    /** The random stream of one chunk of one table. */
    private SplittableRandom random(int table, int chunk) {
        long h = seed * 0x9E3779B97F4A7C15L + table * 0xC2B2AE3D27D4EB4FL + chunk * 0x165667B19E3779F9L;
        return new SplittableRandom(mix(h));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }

    static int dateKey(LocalDate d) {
        return d.getYear() * 10000 + d.getMonthValue() * 100 + d.getDayOfMonth();
    }

    /** Retail price of a part in cents (TPC-H's formula). */
    static int retailPriceCents(long partkey) {
        return (int) (90000 + ((partkey / 10) % 20001) + 100 * (partkey % 1000));
    }

    // ---------------------------------------------------------------- lineorder

    private RowBatch lineorderChunk(int chunk) {
        long firstOrder = (long) chunk * ORDERS_PER_CHUNK + 1;
        long endOrder = Math.min(orders() + 1, firstOrder + ORDERS_PER_CHUNK);
        int nOrders = (int) (endOrder - firstOrder);
        RowBatch b = new RowBatch(SsbSchema.LINEORDER, nOrders * 4 + nOrders / 2);
        ColumnBuilder orderkey = b.column(0);
        ColumnBuilder linenumber = b.column(1);
        ColumnBuilder custkey = b.column(2);
        ColumnBuilder partkey = b.column(3);
        ColumnBuilder suppkey = b.column(4);
        ColumnBuilder orderdate = b.column(5);
        ColumnBuilder orderpriority = b.column(6);
        ColumnBuilder shippriority = b.column(7);
        ColumnBuilder quantity = b.column(8);
        ColumnBuilder extendedprice = b.column(9);
        ColumnBuilder ordtotalprice = b.column(10);
        ColumnBuilder discount = b.column(11);
        ColumnBuilder revenue = b.column(12);
        ColumnBuilder supplycost = b.column(13);
        ColumnBuilder tax = b.column(14);
        ColumnBuilder commitdate = b.column(15);
        ColumnBuilder shipmode = b.column(16);

        // the two string columns draw from short lists: register them in sorted order, append codes per row
        int[] priorityCodes = codes(orderpriority, SsbText.PRIORITIES);
        int[] modeCodes = codes(shipmode, SsbText.SHIP_MODES);
        SplittableRandom r = random(TABLE_LINEORDER, chunk);
        int customers = (int) customers();
        int parts = (int) parts();
        int suppliers = (int) suppliers();
        for (long o = firstOrder; o < endOrder; o++) {
            int lines = 1 + r.nextInt(7);
            int cust = 1 + r.nextInt(customers);
            int day = r.nextInt(ORDER_DATE_DAYS);
            int odate = DATE_KEYS[day];
            int priority = priorityCodes[r.nextInt(priorityCodes.length)];
            long total = 0;
            for (int l = 1; l <= lines; l++) {
                int part = 1 + r.nextInt(parts);
                int supp = 1 + r.nextInt(suppliers);
                int qty = 1 + r.nextInt(50);
                int disc = r.nextInt(11);
                int tx = r.nextInt(9);
                int price = retailPriceCents(part);
                int ext = qty * price;
                int commit = DATE_KEYS[day + MIN_COMMIT_LAG + r.nextInt(MAX_COMMIT_LAG - MIN_COMMIT_LAG + 1)];
                int mode = modeCodes[r.nextInt(modeCodes.length)];
                total += (long) ext * (100 - disc) * (100 + tx) / 10_000;

                orderkey.appendInt((int) o);
                linenumber.appendInt(l);
                custkey.appendInt(cust);
                partkey.appendInt(part);
                suppkey.appendInt(supp);
                orderdate.appendInt(odate);
                orderpriority.appendCode(priority);
                shippriority.appendInt(0);
                quantity.appendInt(qty);
                extendedprice.appendInt(ext);
                discount.appendInt(disc);
                revenue.appendInt((int) ((long) ext * (100 - disc) / 100));
                supplycost.appendInt(6 * price / 10);
                tax.appendInt(tx);
                commitdate.appendInt(commit);
                shipmode.appendCode(mode);
            }
            int t = (int) total;
            for (int l = 0; l < lines; l++) {
                ordtotalprice.appendInt(t);
            }
        }
        return b;
    }

    /** Local codes of {@code values} (index i -> code of values[i]), registered in sorted order. */
    private static int[] codes(ColumnBuilder b, String[] values) {
        String[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        for (String v : sorted) {
            b.localCode(v);
        }
        int[] codes = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            codes[i] = b.localCode(values[i]);
        }
        return codes;
    }

    // ---------------------------------------------------------------- dimensions

    private RowBatch customerChunk(int chunk, long first, long end) {
        int n = (int) (end - first);
        RowBatch b = new RowBatch(SsbSchema.CUSTOMER, n);
        SplittableRandom r = random(TABLE_CUSTOMER, chunk);
        for (long k = first; k < end; k++) {
            int city = r.nextInt(SsbText.CITIES.length);
            int nation = city / 10;
            b.column(0).appendInt((int) k);
            b.column(1).appendString(SsbText.padded("Customer#", k, 9));
            b.column(2).appendString(SsbText.address(r));
            b.column(3).appendString(SsbText.CITIES[city]);
            b.column(4).appendString(SsbText.NATIONS[nation]);
            b.column(5).appendString(SsbText.REGIONS[SsbText.NATION_REGION[nation]]);
            b.column(6).appendString(SsbText.phone(r, nation));
            b.column(7).appendString(SsbText.SEGMENTS[r.nextInt(SsbText.SEGMENTS.length)]);
        }
        return b;
    }

    private RowBatch supplierChunk(int chunk, long first, long end) {
        int n = (int) (end - first);
        RowBatch b = new RowBatch(SsbSchema.SUPPLIER, n);
        SplittableRandom r = random(TABLE_SUPPLIER, chunk);
        for (long k = first; k < end; k++) {
            int city = r.nextInt(SsbText.CITIES.length);
            int nation = city / 10;
            b.column(0).appendInt((int) k);
            b.column(1).appendString(SsbText.padded("Supplier#", k, 9));
            b.column(2).appendString(SsbText.address(r));
            b.column(3).appendString(SsbText.CITIES[city]);
            b.column(4).appendString(SsbText.NATIONS[nation]);
            b.column(5).appendString(SsbText.REGIONS[SsbText.NATION_REGION[nation]]);
            b.column(6).appendString(SsbText.phone(r, nation));
        }
        return b;
    }

    private RowBatch partChunk(int chunk, long first, long end) {
        int n = (int) (end - first);
        RowBatch b = new RowBatch(SsbSchema.PART, n);
        SplittableRandom r = random(TABLE_PART, chunk);
        String[] colors = SsbText.COLORS;
        for (long k = first; k < end; k++) {
            int c1 = r.nextInt(colors.length);
            int c2 = r.nextInt(colors.length - 1);
            if (c2 >= c1) {
                c2++; // two different color words
            }
            int mfgr = r.nextInt(5);
            int category = mfgr * 5 + r.nextInt(5);
            int brand = category * 40 + r.nextInt(40);
            b.column(0).appendInt((int) k);
            b.column(1).appendString(colors[c1] + ' ' + colors[c2]);
            b.column(2).appendString(SsbText.MFGRS[mfgr]);
            b.column(3).appendString(SsbText.CATEGORIES[category]);
            b.column(4).appendString(SsbText.BRANDS[brand]);
            b.column(5).appendString(colors[r.nextInt(colors.length)]);
            b.column(6).appendString(SsbText.TYPES[r.nextInt(SsbText.TYPES.length)]);
            b.column(7).appendInt(1 + r.nextInt(50));
            b.column(8).appendString(SsbText.CONTAINERS[r.nextInt(SsbText.CONTAINERS.length)]);
        }
        return b;
    }

    /** Fixed holidays (month, day) flagged in d_holidayfl. */
    private static final int[][] HOLIDAYS = {{1, 1}, {2, 14}, {5, 31}, {7, 4}, {9, 7}, {10, 31}, {11, 11}, {11, 26},
            {12, 24}, {12, 25}, {12, 31}};

    static RowBatch ddate() {
        RowBatch b = new RowBatch(SsbSchema.DDATE, DATE_DAYS);
        for (int i = 0; i < DATE_DAYS; i++) {
            LocalDate d = FIRST_DATE.plusDays(i);
            Month m = d.getMonth();
            DayOfWeek dow = d.getDayOfWeek();
            String monthName = m.getDisplayName(TextStyle.FULL, Locale.ENGLISH);
            int dayInWeek = dow.getValue() % 7 + 1; // Sunday = 1 .. Saturday = 7
            int jan1 = LocalDate.of(d.getYear(), 1, 1).getDayOfWeek().getValue() % 7; // Sunday = 0
            int week = (d.getDayOfYear() - 1 + jan1) / 7 + 1; // weeks start on Sunday: 1 .. 53
            boolean holiday = false;
            for (int[] h : HOLIDAYS) {
                holiday |= h[0] == d.getMonthValue() && h[1] == d.getDayOfMonth();
            }
            b.column(0).appendInt(dateKey(d));
            b.column(1).appendString(monthName + " " + d.getDayOfMonth() + ", " + d.getYear());
            b.column(2).appendString(dow.getDisplayName(TextStyle.FULL, Locale.ENGLISH));
            b.column(3).appendString(monthName);
            b.column(4).appendInt(d.getYear());
            b.column(5).appendInt(d.getYear() * 100 + d.getMonthValue());
            b.column(6).appendString(m.getDisplayName(TextStyle.SHORT, Locale.ENGLISH) + d.getYear());
            b.column(7).appendInt(dayInWeek);
            b.column(8).appendInt(d.getDayOfMonth());
            b.column(9).appendInt(d.getDayOfYear());
            b.column(10).appendInt(d.getMonthValue());
            b.column(11).appendInt(week);
            b.column(12).appendString(season(d.getMonthValue()));
            b.column(13).appendInt(dow == DayOfWeek.SATURDAY ? 1 : 0);
            b.column(14).appendInt(d.getDayOfMonth() == d.lengthOfMonth() ? 1 : 0);
            b.column(15).appendInt(holiday ? 1 : 0);
            b.column(16).appendInt(dow != DayOfWeek.SATURDAY && dow != DayOfWeek.SUNDAY ? 1 : 0);
        }
        return b;
    }

    private static String season(int month) {
        return switch (month) {
            case 12 -> "Christmas";
            case 1, 2 -> "Winter";
            case 3, 4, 5 -> "Spring";
            case 6, 7, 8 -> "Summer";
            default -> "Fall";
        };
    }
}
