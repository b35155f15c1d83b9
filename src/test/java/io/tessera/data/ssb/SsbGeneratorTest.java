package io.tessera.data.ssb;

import io.tessera.data.Progress;
import io.tessera.storage.Column;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TypeKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Generates SF 1 once (and SF 0.1) and checks sizes, domains, keys and derived columns against SSB.md. */
class SsbGeneratorTest {

    @TempDir
    static Path tmp;
    static Database sf1;
    static Database sf01;

    @BeforeAll
    static void generate() {
        sf1 = Database.openOrCreate(tmp.resolve("sf1"));
        new SsbGenerator(1, SsbGenerator.DEFAULT_SEED).generate(sf1, Progress.silent());
        sf01 = Database.openOrCreate(tmp.resolve("sf01"));
        new SsbGenerator(0.1, SsbGenerator.DEFAULT_SEED).generate(sf01, Progress.silent());
    }

    @AfterAll
    static void close() {
        sf1.close();
        sf01.close();
    }

    @Test
    void rowCountsAtSf1AndSf01() {
        assertCounts(sf1, 1, 30_000, 2_000, 200_000);
        assertCounts(sf01, 0.1, 3_000, 200, 200_000);
    }

    private static void assertCounts(Database db, double sf, long customers, long suppliers, long parts) {
        assertEquals(2556, db.table("ddate").rowCount());
        assertEquals(customers, db.table("customer").rowCount());
        assertEquals(suppliers, db.table("supplier").rowCount());
        assertEquals(parts, db.table("part").rowCount());
        long lines = db.table("lineorder").rowCount();
        double expected = 6_000_000 * sf;
        // 1,500,000 x SF orders of 1..7 lines: standard deviation of the line count is 2 x sqrt(orders)
        assertTrue(Math.abs(lines - expected) < 0.005 * expected, "lineorder has " + lines + " rows at SF " + sf);
        assertEquals(1_500_000 * sf, distinctOrders(db.table("lineorder")), 0.0);
    }

    private static long distinctOrders(Table lo) {
        Column k = lo.column("lo_orderkey");
        long n = 0;
        int prev = 0;
        for (long r = 0; r < lo.rowCount(); r++) {
            int v = k.getInt(r);
            if (v != prev) {
                assertEquals(prev + 1, v, "order keys ascend without gaps");
                n++;
                prev = v;
            }
        }
        return n;
    }

    @Test
    void partCountGrowsWithLog2OfScale() {
        assertEquals(200_000, new SsbGenerator(0.01, 1).parts());
        assertEquals(200_000, new SsbGenerator(1, 1).parts());
        assertEquals(400_000, new SsbGenerator(2, 1).parts());
        assertEquals(800_000, new SsbGenerator(10, 1).parts());
        assertEquals(1_400_000, new SsbGenerator(100, 1).parts());
        assertEquals(150_000, new SsbGenerator(0.1, 1).orders());
    }

    @Test
    void columnTypesFollowTheSchema() {
        for (TableSchema s : SsbSchema.ALL) {
            Table t = sf1.table(s.name());
            for (Column c : t.columns()) {
                assertFalse(c.schema().nullable(), c.name());
                assertFalse(c.hasNulls(), c.name());
                assertTrue(c.type().kind() == TypeKind.INTEGER || c.type().kind() == TypeKind.VARCHAR, c.name());
            }
        }
        assertEquals(TypeKind.INTEGER, sf1.table("ddate").column("d_year").type().kind());
        assertEquals(TypeKind.INTEGER, sf1.table("lineorder").column("lo_orderdate").type().kind());
        assertEquals(TypeKind.VARCHAR, sf1.table("ddate").column("d_yearmonth").type().kind());
    }

    // ------------------------------------------------------------------ domains the queries filter on

    @Test
    void dateDomains() {
        Table d = sf1.table("ddate");
        assertIntRange(d, "d_year", 1992, 1998, 7);
        assertIntRange(d, "d_yearmonthnum", 199201, 199812, 84);
        assertIntRange(d, "d_weeknuminyear", 1, 53, 53);
        assertIntRange(d, "d_monthnuminyear", 1, 12, 12);
        assertIntRange(d, "d_daynuminweek", 1, 7, 7);
        assertIntRange(d, "d_daynuminmonth", 1, 31, 31);
        assertIntRange(d, "d_daynuminyear", 1, 366, 366);
        Set<String> yearmonths = strings(d, "d_yearmonth");
        assertEquals(84, yearmonths.size());
        assertTrue(yearmonths.contains("Dec1997") && yearmonths.contains("Jan1992"), yearmonths.toString());
        for (String ym : yearmonths) {
            assertTrue(ym.matches("(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)199[2-8]"), ym);
        }
        assertEquals(Set.of("Christmas", "Summer", "Winter", "Spring", "Fall"), strings(d, "d_sellingseason"));
        assertEquals(7, strings(d, "d_dayofweek").size());
        // every row consistent with its key
        for (long r = 0; r < d.rowCount(); r++) {
            int key = d.column("d_datekey").getInt(r);
            LocalDate date = LocalDate.of(key / 10000, key / 100 % 100, key % 100);
            assertEquals(LocalDate.of(1992, 1, 1).plusDays(r), date);
            assertEquals(date.getYear(), d.column("d_year").getInt(r));
            assertEquals(key / 100, d.column("d_yearmonthnum").getInt(r));
            assertEquals(date.getDayOfYear(), d.column("d_daynuminyear").getInt(r));
        }
        // Q1.3 needs week 6 of 1994 to be seven days
        int week6 = 0;
        for (long r = 0; r < d.rowCount(); r++) {
            if (d.column("d_year").getInt(r) == 1994 && d.column("d_weeknuminyear").getInt(r) == 6) {
                week6++;
            }
        }
        assertEquals(7, week6);
    }

    @Test
    void lineorderDomains() {
        Table lo = sf1.table("lineorder");
        assertIntRange(lo, "lo_discount", 0, 10, 11);
        assertIntRange(lo, "lo_quantity", 1, 50, 50);
        assertIntRange(lo, "lo_tax", 0, 8, 9);
        assertIntRange(lo, "lo_linenumber", 1, 7, 7);
        assertIntRange(lo, "lo_shippriority", 0, 0, 1);
        assertEquals(19920101L, lo.column("lo_orderdate").stats().minLong());
        assertEquals(19980802L, lo.column("lo_orderdate").stats().maxLong());
        assertEquals(Set.of("1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECI", "5-LOW"), strings(lo, "lo_orderpriority"));
        assertEquals(Set.of("REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"), strings(lo, "lo_shipmode"));
        // uniform: each discount value near 1/11 of the rows
        long[] perDiscount = new long[11];
        Column disc = lo.column("lo_discount");
        for (long r = 0; r < lo.rowCount(); r++) {
            perDiscount[disc.getInt(r)]++;
        }
        for (long n : perDiscount) {
            assertEquals(1.0 / 11, n / (double) lo.rowCount(), 0.002);
        }
    }

    @Test
    void partDomains() {
        Table p = sf1.table("part");
        assertEquals(Set.of("MFGR#1", "MFGR#2", "MFGR#3", "MFGR#4", "MFGR#5"), strings(p, "p_mfgr"));
        Set<String> categories = strings(p, "p_category");
        assertEquals(25, categories.size());
        Set<String> brands = strings(p, "p_brand1");
        assertEquals(1000, brands.size());
        assertTrue(brands.containsAll(List.of("MFGR#2221", "MFGR#2228", "MFGR#2239", "MFGR#1101", "MFGR#5540")));
        assertIntRange(p, "p_size", 1, 50, 50);
        assertEquals(92, strings(p, "p_color").size());
        assertEquals(150, strings(p, "p_type").size());
        assertEquals(40, strings(p, "p_container").size());
        Pattern brand = Pattern.compile("MFGR#[1-5][1-5](0[1-9]|[1-3][0-9]|40)");
        for (long r = 0; r < p.rowCount(); r++) {
            String m = p.column("p_mfgr").getString(r);
            String c = p.column("p_category").getString(r);
            String b = p.column("p_brand1").getString(r);
            assertTrue(c.startsWith(m) && c.length() == m.length() + 1, c + " of " + m);
            assertTrue(b.startsWith(c) && brand.matcher(b).matches(), b + " of " + c);
            assertEquals(r + 1, p.column("p_partkey").getInt(r));
        }
    }

    @Test
    void geographyOfCustomersAndSuppliers() {
        Map<String, String> nationRegion = new HashMap<>();
        for (int n = 0; n < SsbText.NATIONS.length; n++) {
            nationRegion.put(SsbText.NATIONS[n], SsbText.REGIONS[SsbText.NATION_REGION[n]]);
        }
        assertEquals("AMERICA", nationRegion.get("UNITED STATES"));
        assertEquals("EUROPE", nationRegion.get("UNITED KINGDOM"));
        assertEquals("MIDDLE EAST", nationRegion.get("SAUDI ARABIA"));
        assertEquals("ASIA", nationRegion.get("CHINA"));
        for (String prefix : List.of("c_", "s_")) {
            Table t = sf1.table(prefix.equals("c_") ? "customer" : "supplier");
            assertEquals(Set.of("AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"), strings(t, prefix + "region"));
            assertEquals(nationRegion.keySet(), strings(t, prefix + "nation"));
            Set<String> cities = strings(t, prefix + "city");
            assertTrue(cities.containsAll(List.of("UNITED KI1", "UNITED KI5", "UNITED ST0", "ALGERIA  9")), cities.toString());
            if (prefix.equals("c_")) {
                assertEquals(250, cities.size());
            }
            for (long r = 0; r < t.rowCount(); r++) {
                String city = t.column(prefix + "city").getString(r);
                String nation = t.column(prefix + "nation").getString(r);
                String region = t.column(prefix + "region").getString(r);
                assertEquals(10, city.length(), city);
                String n9 = nation.length() >= 9 ? nation.substring(0, 9) : (nation + "         ").substring(0, 9);
                assertEquals(n9, city.substring(0, 9));
                assertTrue(Character.isDigit(city.charAt(9)), city);
                assertEquals(nationRegion.get(nation), region, nation);
                assertEquals(r + 1, t.column(prefix + (prefix.equals("c_") ? "custkey" : "suppkey")).getInt(r));
                String phone = t.column(prefix + "phone").getString(r);
                int nationKey = List.of(SsbText.NATIONS).indexOf(nation);
                assertTrue(phone.matches((nationKey + 10) + "-\\d{3}-\\d{3}-\\d{4}"), phone);
            }
        }
        Table c = sf1.table("customer");
        assertEquals("Customer#000000001", c.column("c_name").getString(0));
        assertEquals("Supplier#000002000", sf1.table("supplier").column("s_name").getString(1999));
        assertEquals(Set.of("AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY"), strings(c, "c_mktsegment"));
    }

    // ------------------------------------------------------------------ keys and derived columns

    @Test
    void everyForeignKeyResolves() {
        Table lo = sf1.table("lineorder");
        Set<Integer> dateKeys = new HashSet<>();
        Table d = sf1.table("ddate");
        for (long r = 0; r < d.rowCount(); r++) {
            dateKeys.add(d.column("d_datekey").getInt(r));
        }
        assertFkRange(lo, "lo_custkey", sf1.table("customer"), "c_custkey");
        assertFkRange(lo, "lo_partkey", sf1.table("part"), "p_partkey");
        assertFkRange(lo, "lo_suppkey", sf1.table("supplier"), "s_suppkey");
        Column od = lo.column("lo_orderdate");
        for (long r = 0; r < lo.rowCount(); r++) {
            int k = od.getInt(r);
            if (!dateKeys.contains(k)) {
                throw new AssertionError("lo_orderdate " + k + " at row " + r + " is no d_datekey");
            }
        }
    }

    /** Dimension keys are exactly 1..N (checked in the domain tests), so a key resolves iff it lies in 1..N. */
    private static void assertFkRange(Table fact, String fk, Table dim, String pk) {
        Column k = dim.column(pk);
        assertEquals(1, k.stats().minLong());
        assertEquals(dim.rowCount(), k.stats().maxLong());
        assertEquals(dim.rowCount(), distinctCount(k, dim.rowCount()), pk + " is unique");
        Column f = fact.column(fk);
        assertTrue(f.stats().minLong() >= 1 && f.stats().maxLong() <= dim.rowCount(), fk);
        assertTrue(f.stats().maxLong() > dim.rowCount() * 0.999, fk + " spans its dimension");
    }

    private static long distinctCount(Column c, long rows) {
        Set<Integer> s = new HashSet<>();
        for (long r = 0; r < rows; r++) {
            s.add(c.getInt(r));
        }
        return s.size();
    }

    @Test
    void derivedColumnsFollowTheirFormulas() {
        Table lo = sf1.table("lineorder");
        Column ok = lo.column("lo_orderkey");
        Column ln = lo.column("lo_linenumber");
        Column pk = lo.column("lo_partkey");
        Column qty = lo.column("lo_quantity");
        Column ext = lo.column("lo_extendedprice");
        Column disc = lo.column("lo_discount");
        Column tax = lo.column("lo_tax");
        Column rev = lo.column("lo_revenue");
        Column cost = lo.column("lo_supplycost");
        Column total = lo.column("lo_ordtotalprice");
        Column od = lo.column("lo_orderdate");
        Column cd = lo.column("lo_commitdate");
        Map<Integer, Long> dayOf = new HashMap<>();
        for (LocalDate x = LocalDate.of(1992, 1, 1); x.getYear() < 1999; x = x.plusDays(1)) {
            dayOf.put(SsbGenerator.dateKey(x), x.toEpochDay());
        }
        long orderStart = 0;
        long orderSum = 0;
        for (long r = 0; r < lo.rowCount(); r++) {
            int part = pk.getInt(r);
            long price = 90000 + ((part / 10) % 20001) + 100L * (part % 1000);
            assertEquals(qty.getInt(r) * price, ext.getInt(r), "lo_extendedprice");
            assertEquals(ext.getInt(r) * (100L - disc.getInt(r)) / 100, rev.getInt(r), "lo_revenue");
            assertEquals(6 * price / 10, cost.getInt(r), "lo_supplycost");
            long lag = dayOf.get(cd.getInt(r)) - dayOf.get(od.getInt(r));
            assertTrue(lag >= 30 && lag <= 90, "commit lag " + lag);
            assertEquals(r - orderStart + 1, ln.getInt(r), "line numbers count from 1 in each order");
            orderSum += (long) ext.getInt(r) * (100 - disc.getInt(r)) * (100 + tax.getInt(r)) / 10_000;
            boolean last = r + 1 == lo.rowCount() || ok.getInt(r + 1) != ok.getInt(r);
            if (last) {
                for (long q = orderStart; q <= r; q++) {
                    assertEquals(orderSum, total.getInt(q), "lo_ordtotalprice of order " + ok.getInt(r));
                    assertEquals(od.getInt(orderStart), od.getInt(q), "one order date per order");
                }
                orderStart = r + 1;
                orderSum = 0;
            }
        }
        assertTrue(ChronoUnit.DAYS.between(LocalDate.of(1992, 1, 1), LocalDate.of(1998, 8, 2)) + 1
                == SsbGenerator.ORDER_DATE_DAYS);
    }

    @Test
    void q11AndQ21FiltersHaveTheSpecifiedSelectivity() {
        Table lo = sf1.table("lineorder");
        // Q1.1: d_year = 1993 and lo_discount between 1 and 3 and lo_quantity < 25 -> about 0.019
        long q11 = 0;
        Column od = lo.column("lo_orderdate");
        Column disc = lo.column("lo_discount");
        Column qty = lo.column("lo_quantity");
        for (long r = 0; r < lo.rowCount(); r++) {
            int y = od.getInt(r) / 10000;
            int dsc = disc.getInt(r);
            if (y == 1993 && dsc >= 1 && dsc <= 3 && qty.getInt(r) < 25) {
                q11++;
            }
        }
        double expected11 = 365.0 / SsbGenerator.ORDER_DATE_DAYS * 3 / 11 * 24 / 50;
        assertEquals(expected11, q11 / (double) lo.rowCount(), expected11 * 0.05);
        // Q2.1: p_category = 'MFGR#12' and s_region = 'AMERICA' -> 1/25 x 1/5
        Table p = sf1.table("part");
        Table s = sf1.table("supplier");
        boolean[] partOk = new boolean[(int) p.rowCount() + 1];
        for (long r = 0; r < p.rowCount(); r++) {
            partOk[(int) r + 1] = p.column("p_category").getString(r).equals("MFGR#12");
        }
        boolean[] suppOk = new boolean[(int) s.rowCount() + 1];
        for (long r = 0; r < s.rowCount(); r++) {
            suppOk[(int) r + 1] = s.column("s_region").getString(r).equals("AMERICA");
        }
        long q21 = 0;
        for (long r = 0; r < lo.rowCount(); r++) {
            if (partOk[lo.column("lo_partkey").getInt(r)] && suppOk[lo.column("lo_suppkey").getInt(r)]) {
                q21++;
            }
        }
        assertEquals(1.0 / 125, q21 / (double) lo.rowCount(), 0.0015);
    }

    // ------------------------------------------------------------------ determinism

    @Test
    void sameSeedGivesSameDataOnAnyThreadCount() {
        Map<String, Long> one = checksums(0.05, 7, 1, "a");
        Map<String, Long> many = checksums(0.05, 7, 4, "b");
        assertEquals(one, many);
        Map<String, Long> other = checksums(0.05, 8, 2, "c");
        assertNotEquals(one.get("lineorder.lo_custkey"), other.get("lineorder.lo_custkey"));
        assertNotEquals(one.get("customer.c_address"), other.get("customer.c_address"));
        assertEquals(one.get("ddate.d_datekey"), other.get("ddate.d_datekey"), "the date table has no randomness");
    }

    private static Map<String, Long> checksums(double sf, long seed, int threads, String dir) {
        Map<String, Long> sums = new LinkedHashMap<>();
        try (Database db = Database.openOrCreate(tmp.resolve("det-" + dir))) {
            new SsbGenerator(sf, seed).generate(db, Progress.silent(), threads);
            for (Table t : db.tables()) {
                for (Column c : t.columns()) {
                    long h = t.rowCount();
                    for (long r = 0; r < t.rowCount(); r++) {
                        long v = c.type().kind() == TypeKind.VARCHAR ? c.getString(r).hashCode() : c.getInt(r);
                        h = h * 0x9E3779B97F4A7C15L + v;
                    }
                    sums.put(t.name() + "." + c.name(), h);
                }
            }
        }
        return sums;
    }

    // ------------------------------------------------------------------ helpers

    private static void assertIntRange(Table t, String column, int min, int max, int distinct) {
        Column c = t.column(column);
        assertEquals(min, c.stats().minLong(), column + " min");
        assertEquals(max, c.stats().maxLong(), column + " max");
        Set<Integer> seen = new TreeSet<>();
        for (long r = 0; r < t.rowCount() && seen.size() <= distinct; r++) {
            seen.add(c.getInt(r));
        }
        assertEquals(distinct, seen.size(), column + " distinct values " + seen);
    }

    private static Set<String> strings(Table t, String column) {
        Column c = t.column(column);
        Set<String> s = new TreeSet<>();
        for (int i = 0; i < c.dictionary().size(); i++) {
            s.add(c.dictionary().value(i));
        }
        return s;
    }
}
