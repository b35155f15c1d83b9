package io.tessera.difftest;

import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * A small, seeded star schema written through the storage API, for differential tests: a fact table
 * {@code sales} and the dimensions {@code customer}, {@code product} and {@code store}, covering every column
 * type (INTEGER, BIGINT, DOUBLE, DECIMAL(12,2), DATE, BOOLEAN, VARCHAR). Nullable columns hold about 10% NULLs;
 * foreign keys mostly resolve, some dangle (no dimension row) and some are NULL. Strings are ASCII, doubles have
 * two decimals, integers stay small enough that no SUM overflows a 32-bit or 64-bit type.
 */
public final class StarSchemaBuilder {

    public static final int DEFAULT_FACT_ROWS = 20_000;
    public static final int CUSTOMERS = 500;
    public static final int PRODUCTS = 200;
    public static final int STORES = 40;

    private static final String[] REGIONS = {"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"};
    private static final String[] SEGMENTS = {"AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY"};
    private static final String[] CATEGORIES = {"books", "garden", "kitchen", "sports", "toys", "tools", "music"};
    private static final String[] CITIES = {"Aberdeen", "Boston", "Cairo", "Delhi", "Essen", "Fresno", "Geneva",
            "Hanoi", "Izmir", "Jakarta", "Kyoto", "Lima"};
    private static final String[] STATES = {"north", "south", "east", "west", "central"};
    private static final String[] CHANNELS = {"web", "store", "phone", "partner"};
    private static final String[] WORDS = {"fast", "slow", "gift", "bulk", "promo", "repeat", "late", "rush"};
    private static final LocalDate EPOCH = LocalDate.of(1995, 1, 1);

    private final Random rnd;
    private final double nullRate;

    private StarSchemaBuilder(long seed) {
        this.rnd = new Random(seed);
        this.nullRate = 0.10;
    }

    /** Writes the four tables into a new database in {@code dir} and describes them. */
    public static StarSchema build(Path dir, long seed) {
        return build(dir, seed, DEFAULT_FACT_ROWS);
    }

    public static StarSchema build(Path dir, long seed, int factRows) {
        StarSchemaBuilder b = new StarSchemaBuilder(seed);
        List<StarSchema.TableInfo> tables = new ArrayList<>();
        try (Database db = Database.openOrCreate(dir)) {
            tables.add(b.customer(db));
            tables.add(b.product(db));
            tables.add(b.store(db));
            tables.add(b.sales(db, factRows));
        }
        List<StarSchema.TableInfo> ordered = List.of(tables.get(3), tables.get(0), tables.get(1), tables.get(2));
        return new StarSchema(ordered, List.of(
                new StarSchema.ForeignKey("f_custkey", "customer", "c_custkey"),
                new StarSchema.ForeignKey("f_prodkey", "product", "p_prodkey"),
                new StarSchema.ForeignKey("f_storekey", "store", "st_storekey")));
    }

    // ---------------------------------------------------------------- tables

    private StarSchema.TableInfo customer(Database db) {
        TableSchema s = TableSchema.parse("customer", "c_custkey INTEGER NOT NULL, c_name VARCHAR NOT NULL, "
                + "c_region VARCHAR, c_segment VARCHAR NOT NULL, c_balance DECIMAL(12,2), c_since DATE, "
                + "c_active BOOLEAN, c_score DOUBLE, c_visits BIGINT");
        return write(db, s, "c", false, CUSTOMERS, r -> new Object[]{
                r + 1,
                String.format("Customer#%04d", r + 1),
                maybeNull(pick(REGIONS)),
                pick(SEGMENTS),
                maybeNull(decimal(-99_999, 999_999)),
                maybeNull(EPOCH.minusDays(rnd.nextInt(3000))),
                maybeNull(rnd.nextBoolean()),
                maybeNull(twoDecimals(rnd.nextDouble() * 100)),
                maybeNull((long) rnd.nextInt(1_000_000) * 1000L)});
    }

    private StarSchema.TableInfo product(Database db) {
        TableSchema s = TableSchema.parse("product", "p_prodkey INTEGER NOT NULL, p_name VARCHAR NOT NULL, "
                + "p_category VARCHAR, p_brand VARCHAR NOT NULL, p_price DECIMAL(12,2) NOT NULL, p_size INTEGER, "
                + "p_weight DOUBLE, p_launch DATE NOT NULL, p_discontinued BOOLEAN NOT NULL");
        return write(db, s, "p", false, PRODUCTS, r -> new Object[]{
                r + 1,
                pick(WORDS) + " " + pick(CATEGORIES) + " " + (r + 1),
                maybeNull(pick(CATEGORIES)),
                "Brand#" + (1 + rnd.nextInt(5)) + (1 + rnd.nextInt(5)),
                decimal(100, 200_000),
                maybeNull(1 + rnd.nextInt(50)),
                maybeNull(twoDecimals(0.1 + rnd.nextDouble() * 20)),
                EPOCH.minusDays(rnd.nextInt(2000)),
                rnd.nextInt(10) == 0});
    }

    private StarSchema.TableInfo store(Database db) {
        TableSchema s = TableSchema.parse("store", "st_storekey INTEGER NOT NULL, st_city VARCHAR NOT NULL, "
                + "st_state VARCHAR, st_area BIGINT, st_opened DATE, st_open24 BOOLEAN");
        return write(db, s, "st", false, STORES, r -> new Object[]{
                r + 1,
                pick(CITIES),
                maybeNull(pick(STATES)),
                maybeNull(200L + rnd.nextInt(20_000)),
                maybeNull(EPOCH.minusDays(rnd.nextInt(5000))),
                maybeNull(rnd.nextInt(4) == 0)});
    }

    private StarSchema.TableInfo sales(Database db, int rows) {
        TableSchema s = TableSchema.parse("sales", "f_id BIGINT NOT NULL, f_custkey INTEGER, "
                + "f_prodkey INTEGER NOT NULL, f_storekey INTEGER, f_date DATE NOT NULL, f_qty INTEGER NOT NULL, "
                + "f_price DECIMAL(12,2) NOT NULL, f_amount DECIMAL(12,2), f_tax DOUBLE, f_weight DOUBLE NOT NULL, "
                + "f_returned BOOLEAN, f_channel VARCHAR NOT NULL, f_note VARCHAR, f_big BIGINT");
        return write(db, s, "f", true, rows, r -> {
            int qty = 1 + rnd.nextInt(50);
            BigDecimal price = decimal(50, 100_000);
            return new Object[]{
                    (long) r + 1,
                    foreignKey(CUSTOMERS, true),
                    foreignKey(PRODUCTS, false),
                    foreignKey(STORES, true),
                    EPOCH.plusDays(rnd.nextInt(4 * 365)),
                    qty,
                    price,
                    maybeNull(price.multiply(BigDecimal.valueOf(qty))),
                    maybeNull(twoDecimals(rnd.nextDouble() * 50)),
                    twoDecimals(rnd.nextDouble() * 100),
                    maybeNull(rnd.nextInt(8) == 0),
                    pick(CHANNELS),
                    maybeNull(pick(WORDS) + (rnd.nextBoolean() ? " " + pick(WORDS) : "")),
                    maybeNull(rnd.nextLong(-1_000_000_000_000L, 1_000_000_000_000L))};
        });
    }

    // ---------------------------------------------------------------- values

    /** Mostly a valid key; about 4% point past the dimension (dangling); NULL about 4% when allowed. */
    private Integer foreignKey(int dimRows, boolean nullable) {
        int p = rnd.nextInt(100);
        if (nullable && p < 4) {
            return null;
        }
        if (p >= 96) {
            return dimRows + 1 + rnd.nextInt(20);
        }
        return 1 + rnd.nextInt(dimRows);
    }

    private <T> T maybeNull(T v) {
        return rnd.nextDouble() < nullRate ? null : v;
    }

    private String pick(String[] values) {
        return values[rnd.nextInt(values.length)];
    }

    private BigDecimal decimal(int minCents, int maxCents) {
        return BigDecimal.valueOf(minCents + rnd.nextInt(maxCents - minCents), 2);
    }

    private static double twoDecimals(double v) {
        return Math.round(v * 100) / 100.0;
    }

    private StarSchema.TableInfo write(Database db, TableSchema schema, String alias, boolean fact, int rows,
                                       Function<Integer, Object[]> rowMaker) {
        int nc = schema.columns().size();
        List<LinkedHashSet<Object>> samples = new ArrayList<>();
        for (int i = 0; i < nc; i++) {
            samples.add(new LinkedHashSet<>());
        }
        RowBatch batch = new RowBatch(schema, rows);
        for (int r = 0; r < rows; r++) {
            Object[] row = rowMaker.apply(r);
            for (int i = 0; i < nc; i++) {
                append(batch.column(i), row[i]);
                if (row[i] != null && samples.get(i).size() < 24) {
                    samples.get(i).add(row[i]);
                }
            }
        }
        try (TableWriter w = db.replace(schema)) {
            w.write(batch);
            w.commit();
        }
        List<StarSchema.ColumnInfo> cols = new ArrayList<>();
        for (int i = 0; i < nc; i++) {
            ColumnSchema c = schema.columns().get(i);
            cols.add(new StarSchema.ColumnInfo(schema.name(), c.name(), c.type(), c.nullable(),
                    List.copyOf(samples.get(i))));
        }
        return new StarSchema.TableInfo(schema.name(), alias, fact, cols);
    }

    private static void append(ColumnBuilder b, Object v) {
        if (v == null) {
            b.appendNull();
            return;
        }
        DataType t = b.type();
        switch (t.kind()) {
            case INTEGER -> b.appendInt((Integer) v);
            case BIGINT -> b.appendLong((Long) v);
            case DOUBLE -> b.appendDouble((Double) v);
            case DECIMAL -> b.appendLong(((BigDecimal) v).setScale(t.scale()).unscaledValue().longValueExact());
            case DATE -> b.appendInt((int) ((LocalDate) v).toEpochDay());
            case BOOLEAN -> b.appendBoolean((Boolean) v);
            case VARCHAR -> b.appendString((String) v);
        }
    }
}
