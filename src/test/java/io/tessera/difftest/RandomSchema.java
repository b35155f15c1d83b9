package io.tessera.difftest;

import io.tessera.exec.TinyTables;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;

/**
 * A seeded random schema for the metamorphic tests: two or three tables {@code t0, t1, t2}, each with a nullable
 * INTEGER join key {@code k} (few distinct values, so joins multiply rows) and two to six more columns of random
 * types (INTEGER, BIGINT, DECIMAL, DOUBLE, VARCHAR, DATE, BOOLEAN). Values come from small pools, so there are
 * duplicates and ties; each column has its own NULL rate (none, some, most, or all NULL); some tables are empty or
 * have one row. The same seed writes the same tables and gives the same description.
 */
public record RandomSchema(long seed, List<Table> tables) {

    /** A column and the distinct non-null values it holds (for constants that hit data). */
    public record Column(String name, DataType type, boolean nullable, List<Object> values) {
        public TypeKind kind() {
            return type.kind();
        }

        String ddl() {
            return name + " " + type + (nullable ? "" : " NOT NULL");
        }
    }

    public record Table(String name, List<Column> columns, int rows) {
        public Column column(String name) {
            return columns.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
        }
    }

    private static final TypeKind[] KINDS = {TypeKind.INTEGER, TypeKind.BIGINT, TypeKind.DECIMAL, TypeKind.DOUBLE,
            TypeKind.VARCHAR, TypeKind.DATE, TypeKind.BOOLEAN};
    private static final String[] STRINGS = {"", "a", "A", "ab", "abc", "b", "ba", "x_y", "x%y", "zz", "hello",
            "Hello", " a", "a ", "42", "mixed Case"};
    /** Row counts, weighted: an empty table or a single row now and then, mostly tens to hundreds. */
    private static final int[] SIZES = {0, 1, 3, 10, 10, 40, 40, 40, 120, 120, 120, 300, 300};
    static final LocalDate EPOCH = LocalDate.of(2000, 1, 1);

    /** Writes the tables into {@code dir} (a new database) and describes them. */
    public static RandomSchema build(Path dir, long seed) {
        Random rnd = new Random(seed);
        int n = 2 + rnd.nextInt(2);
        List<Table> tables = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            tables.add(table(dir, "t" + t, rnd));
        }
        return new RandomSchema(seed, tables);
    }

    public Table table(String name) {
        return tables.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    /** The CREATE TABLE statements and row counts, for a failure message that lets the schema be rebuilt. */
    public String describe() {
        StringBuilder sb = new StringBuilder("schema seed " + seed + ":");
        for (Table t : tables) {
            sb.append("\n  ").append(t.name()).append(" (");
            for (int i = 0; i < t.columns().size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(t.columns().get(i).ddl());
            }
            sb.append(") ").append(t.rows()).append(" rows");
        }
        return sb.toString();
    }

    private static Table table(Path dir, String name, Random rnd) {
        int rows = SIZES[rnd.nextInt(SIZES.length)];
        List<DataType> types = new ArrayList<>();
        types.add(DataType.INTEGER);
        int extra = 2 + rnd.nextInt(5);
        for (int i = 0; i < extra; i++) {
            types.add(type(KINDS[rnd.nextInt(KINDS.length)], rnd));
        }
        List<Object[]> pools = new ArrayList<>();
        double[] nullRates = new double[types.size()];
        for (int c = 0; c < types.size(); c++) {
            int poolSize = c == 0 ? 3 + rnd.nextInt(8) : 1 + rnd.nextInt(rnd.nextBoolean() ? 6 : 40);
            Object[] pool = new Object[poolSize];
            for (int i = 0; i < poolSize; i++) {
                pool[i] = value(types.get(c), rnd);
            }
            pools.add(pool);
            int r = rnd.nextInt(10);
            nullRates[c] = r < 3 ? 0 : r < 7 ? 0.1 : r < 9 ? 0.5 : 1.0;
        }
        Object[][] data = new Object[rows][types.size()];
        List<LinkedHashSet<Object>> seen = new ArrayList<>();
        for (int c = 0; c < types.size(); c++) {
            seen.add(new LinkedHashSet<>());
        }
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < types.size(); c++) {
                Object v = rnd.nextDouble() < nullRates[c] ? null : pools.get(c)[rnd.nextInt(pools.get(c).length)];
                data[r][c] = v;
                if (v != null) {
                    seen.get(c).add(v);
                }
            }
        }
        List<Column> columns = new ArrayList<>();
        StringBuilder ddl = new StringBuilder();
        for (int c = 0; c < types.size(); c++) {
            String cn = c == 0 ? "k" : "c" + c;
            // a column without NULLs is sometimes declared NOT NULL (the planner uses that)
            boolean nullable = nullRates[c] > 0 || rnd.nextBoolean();
            List<Object> values = new ArrayList<>(seen.get(c));
            if (values.isEmpty()) {
                // constants for a column without values still come from its type
                values.addAll(List.of(pools.get(c)));
            }
            Column col = new Column(cn, types.get(c), nullable, List.copyOf(new LinkedHashSet<>(values)));
            columns.add(col);
            ddl.append(c == 0 ? "" : ", ").append(col.ddl());
        }
        TinyTables.write(dir, name, ddl.toString(), data);
        return new Table(name, columns, rows);
    }

    private static DataType type(TypeKind k, Random rnd) {
        return switch (k) {
            case INTEGER -> DataType.INTEGER;
            case BIGINT -> DataType.BIGINT;
            case DOUBLE -> DataType.DOUBLE;
            case DATE -> DataType.DATE;
            case TIMESTAMP -> DataType.TIMESTAMP;
            case TIMESTAMP_TZ -> DataType.TIMESTAMP_TZ;
            case TIME -> DataType.TIME;
            case BOOLEAN -> DataType.BOOLEAN;
            case VARCHAR -> DataType.VARCHAR;
            case DECIMAL -> switch (rnd.nextInt(3)) {
                case 0 -> DataType.decimal(10, 2);
                case 1 -> DataType.decimal(12, 3);
                default -> DataType.decimal(6, 0);
            };
        };
    }

    /** A random value of a type; integers small enough that no SUM of a few thousand joined rows overflows. */
    static Object value(DataType t, Random rnd) {
        return switch (t.kind()) {
            case INTEGER -> rnd.nextInt(10) == 0 ? rnd.nextInt(2_000_001) - 1_000_000 : rnd.nextInt(41) - 20;
            case BIGINT -> rnd.nextInt(4) == 0 ? rnd.nextLong(-1_000_000_000_000L, 1_000_000_000_000L)
                    : (long) (rnd.nextInt(201) - 100);
            case DECIMAL -> BigDecimal.valueOf(rnd.nextInt(200_001) - 100_000, t.scale())
                    .max(BigDecimal.valueOf(-99_999)).min(BigDecimal.valueOf(99_999));
            case DOUBLE -> doubleValue(rnd);
            case VARCHAR -> STRINGS[rnd.nextInt(STRINGS.length)];
            case DATE -> EPOCH.plusDays(rnd.nextInt(2001) - 1000);
            case TIMESTAMP -> EPOCH.plusDays(rnd.nextInt(2001) - 1000).atStartOfDay().plusSeconds(rnd.nextInt(86_400));
            case TIMESTAMP_TZ -> EPOCH.plusDays(rnd.nextInt(2001) - 1000).atStartOfDay().plusSeconds(rnd.nextInt(86_400))
                    .atOffset(java.time.ZoneOffset.UTC);
            case TIME -> java.time.LocalTime.ofSecondOfDay(rnd.nextInt(86_400));
            case BOOLEAN -> rnd.nextBoolean();
        };
    }

    private static Double doubleValue(Random rnd) {
        int r = rnd.nextInt(15);
        // NaN and the infinities as DuckDB orders and compares them (NaN above every number, equal to itself)
        if (r == 0) {
            return Double.NaN;
        }
        if (r == 1) {
            return rnd.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        }
        if (r == 2) {
            return 0.0;
        }
        // two decimals: sums stay exact enough for a relative tolerance
        return Math.round((rnd.nextDouble() * 200 - 100) * 100) / 100.0;
    }
}
