package io.tessera.difftest;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The random conditions of {@link TpchJoinQueryGenerator}'s queries over TPC-H's columns: filters on one relation
 * (ranges, IN lists, LIKE prefixes, an OR of two of them), conditions across two relations, and EXISTS / IN
 * subqueries correlated with a relation of the outer query.
 */
final class TpchJoinPredicates {

    private static final String[] NATIONS = {"ALGERIA", "ARGENTINA", "BRAZIL", "CANADA", "EGYPT", "ETHIOPIA",
        "FRANCE", "GERMANY", "INDIA", "INDONESIA", "IRAN", "IRAQ", "JAPAN", "JORDAN", "KENYA", "MOROCCO",
        "MOZAMBIQUE", "PERU", "CHINA", "ROMANIA", "SAUDI ARABIA", "VIETNAM", "RUSSIA", "UNITED KINGDOM",
        "UNITED STATES"};
    private static final String[] REGIONS = {"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"};
    private static final String[] SEGMENTS = {"AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY"};
    private static final String[] PRIORITIES = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"};
    private static final String[] SHIPMODES = {"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"};
    private static final String[] TYPE_PREFIXES = {"PROMO", "STANDARD", "ECONOMY", "LARGE", "MEDIUM", "SMALL"};
    private static final String[] CONTAINER_PREFIXES = {"SM", "MED", "LG", "JUMBO", "WRAP"};
    private static final String LETTERS = "abcdefghilmnoprstvy";

    private final Random rnd;

    TpchJoinPredicates(Random rnd) {
        this.rnd = rnd;
    }

    /** A filter on relation {@code r} alone. */
    String filter(TpchJoinQueryGenerator.Rel r) {
        String a = r.alias() + ".";
        return switch (r.table()) {
            case "lineitem" -> switch (rnd.nextInt(6)) {
                case 0 -> a + "l_shipdate BETWEEN " + dateRange();
                case 1 -> a + "l_quantity < " + (10 + rnd.nextInt(40));
                case 2 -> a + "l_shipmode IN " + subset(SHIPMODES, 2 + rnd.nextInt(4));
                case 3 -> a + "l_discount BETWEEN 0.0" + rnd.nextInt(5) + " AND 0.0" + (5 + rnd.nextInt(5));
                case 4 -> "(" + a + "l_shipinstruct LIKE 'DELIVER%' OR " + a + "l_quantity > " + (30 + rnd.nextInt(20)) + ")";
                default -> a + "l_receiptdate > " + a + "l_commitdate";
            };
            case "orders" -> switch (rnd.nextInt(5)) {
                case 0 -> a + "o_orderdate BETWEEN " + dateRange();
                case 1 -> a + "o_totalprice > " + (1000 + rnd.nextInt(200_000));
                case 2 -> a + "o_orderpriority IN " + subset(PRIORITIES, 2 + rnd.nextInt(3));
                case 3 -> "(" + a + "o_orderstatus = 'P' OR " + a + "o_totalprice < " + (20_000 + rnd.nextInt(100_000)) + ")";
                default -> a + "o_clerk LIKE 'Clerk#00000000" + rnd.nextInt(10) + "%'";
            };
            case "customer" -> switch (rnd.nextInt(4)) {
                case 0 -> a + "c_mktsegment IN " + subset(SEGMENTS, 2 + rnd.nextInt(3));
                case 1 -> a + "c_acctbal > " + (rnd.nextInt(8000) - 1000);
                case 2 -> a + "c_phone LIKE '" + (1 + rnd.nextInt(3)) + "%'";
                default -> "(" + a + "c_mktsegment = '" + pick(SEGMENTS) + "' OR " + a + "c_acctbal < "
                        + rnd.nextInt(3000) + ")";
            };
            case "supplier" -> switch (rnd.nextInt(3)) {
                case 0 -> a + "s_acctbal > " + (rnd.nextInt(8000) - 1000);
                case 1 -> a + "s_phone LIKE '" + (1 + rnd.nextInt(3)) + "%'";
                default -> "(" + a + "s_suppkey < " + (1 + rnd.nextInt(60)) + " OR " + a + "s_name LIKE 'Supplier#0000000"
                        + rnd.nextInt(10) + "%')";
            };
            case "part" -> switch (rnd.nextInt(6)) {
                case 0 -> a + "p_size BETWEEN " + (1 + rnd.nextInt(20)) + " AND " + (20 + rnd.nextInt(31));
                case 1 -> a + "p_brand IN " + subset(brands(), 4 + rnd.nextInt(10));
                case 2 -> a + "p_type LIKE '" + pick(TYPE_PREFIXES) + "%'";
                case 3 -> a + "p_name LIKE '" + LETTERS.charAt(rnd.nextInt(LETTERS.length())) + "%'";
                case 4 -> "(" + a + "p_size < " + (2 + rnd.nextInt(10)) + " OR " + a + "p_container LIKE '"
                        + pick(CONTAINER_PREFIXES) + "%')";
                default -> a + "p_retailprice < " + (950 + rnd.nextInt(1100));
            };
            case "partsupp" -> switch (rnd.nextInt(3)) {
                case 0 -> a + "ps_availqty < " + (100 + rnd.nextInt(9900));
                case 1 -> a + "ps_supplycost BETWEEN " + rnd.nextInt(500) + " AND " + (500 + rnd.nextInt(500));
                default -> "(" + a + "ps_availqty > 9000 OR " + a + "ps_supplycost < " + (10 + rnd.nextInt(200)) + ")";
            };
            case "nation" -> switch (rnd.nextInt(3)) {
                case 0 -> a + "n_name IN " + subset(NATIONS, 4 + rnd.nextInt(12));
                case 1 -> a + "n_name LIKE '" + pick(NATIONS).charAt(0) + "%'";
                default -> a + "n_regionkey IN " + subsetNumbers(5, 2 + rnd.nextInt(3));
            };
            default -> switch (rnd.nextInt(2)) {
                case 0 -> a + "r_name IN " + subset(REGIONS, 2 + rnd.nextInt(3));
                default -> a + "r_name LIKE '" + pick(REGIONS).charAt(0) + "%'";
            };
        };
    }

    /** A condition across {@code x} and {@code y} where their tables have one, else null. */
    String across(TpchJoinQueryGenerator.Rel x, TpchJoinQueryGenerator.Rel y) {
        String pair = x.table() + "," + y.table();
        String ax = x.alias() + ".";
        String ay = y.alias() + ".";
        return switch (pair) {
            case "lineitem,orders" -> ax + "l_shipdate < " + ay + "o_orderdate + INTERVAL '" + (20 + rnd.nextInt(100)) + "' DAY";
            case "orders,lineitem" -> ay + "l_shipdate < " + ax + "o_orderdate + INTERVAL '" + (20 + rnd.nextInt(100)) + "' DAY";
            case "customer,supplier" -> ax + "c_acctbal > " + ay + "s_acctbal";
            case "supplier,customer" -> ay + "c_acctbal > " + ax + "s_acctbal";
            case "nation,nation" -> rnd.nextInt(4) > 0 ? ax + "n_name <> " + ay + "n_name"
                    : nationPair(ax, ay);
            case "lineitem,partsupp" -> ax + "l_quantity * 100 < " + ay + "ps_availqty";
            case "partsupp,lineitem" -> ay + "l_quantity * 100 < " + ax + "ps_availqty";
            case "lineitem,part" -> partLine(y.alias(), x.alias());
            case "part,lineitem" -> partLine(x.alias(), y.alias());
            case "orders,customer" -> ax + "o_totalprice > " + ay + "c_acctbal * " + (5 + rnd.nextInt(40));
            case "customer,orders" -> ay + "o_totalprice > " + ax + "c_acctbal * " + (5 + rnd.nextInt(40));
            default -> null;
        };
    }

    /** TPC-H Q7's pair of nations, either way round: an OR across two relations. */
    private String nationPair(String a, String b) {
        String n1 = pick(NATIONS);
        String n2 = pick(NATIONS);
        return "((" + a + "n_name = '" + n1 + "' AND " + b + "n_name = '" + n2 + "') OR (" + a + "n_name = '" + n2
                + "' AND " + b + "n_name = '" + n1 + "'))";
    }

    /** TPC-H Q19's shape: an OR of conjunctions over a part and a lineitem. */
    private String partLine(String p, String l) {
        return "((" + p + ".p_brand = '" + pick(brands()) + "' AND " + l + ".l_quantity < " + (5 + rnd.nextInt(20))
                + ") OR (" + p + ".p_size > " + (20 + rnd.nextInt(30)) + " AND " + l + ".l_quantity > "
                + (20 + rnd.nextInt(25)) + "))";
    }

    /**
     * EXISTS, NOT EXISTS, IN or NOT IN over another table, correlated with {@code r}; null where {@code r}'s table
     * has none. Aliases inside end with {@code id}.
     */
    String subquery(TpchJoinQueryGenerator.Rel r, int id) {
        String a = r.alias() + ".";
        String x = "x" + id;
        boolean not = rnd.nextInt(3) == 0;
        String exists = not ? "NOT EXISTS" : "EXISTS";
        String in = not ? " NOT IN " : " IN ";
        return switch (r.table()) {
            case "orders" -> rnd.nextBoolean()
                    ? exists + " (SELECT * FROM lineitem " + x + " WHERE " + x + ".l_orderkey = " + a + "o_orderkey AND "
                    + x + ".l_commitdate < " + x + ".l_receiptdate AND " + x + ".l_quantity > " + (10 + rnd.nextInt(40)) + ")"
                    : a + "o_custkey" + in + "(SELECT c_custkey FROM customer " + x + " JOIN nation n" + x
                    + " ON " + x + ".c_nationkey = n" + x + ".n_nationkey WHERE n" + x + ".n_regionkey = " + rnd.nextInt(5) + ")";
            case "customer" -> exists + " (SELECT * FROM orders " + x + " WHERE " + x + ".o_custkey = " + a
                    + "c_custkey AND " + x + ".o_totalprice > " + (50_000 + rnd.nextInt(300_000)) + ")";
            case "part" -> rnd.nextBoolean()
                    ? a + "p_partkey" + in + "(SELECT ps_partkey FROM partsupp " + x + " WHERE " + x + ".ps_availqty < "
                    + (100 + rnd.nextInt(3000)) + ")"
                    : exists + " (SELECT * FROM lineitem " + x + " WHERE " + x + ".l_partkey = " + a + "p_partkey AND "
                    + x + ".l_quantity > " + (30 + rnd.nextInt(20)) + ")";
            case "supplier" -> rnd.nextBoolean()
                    ? exists + " (SELECT * FROM partsupp " + x + " WHERE " + x + ".ps_suppkey = " + a + "s_suppkey AND "
                    + x + ".ps_availqty > " + rnd.nextInt(9900) + ")"
                    : a + "s_suppkey" + in + "(SELECT ps_suppkey FROM partsupp " + x + " WHERE " + x + ".ps_supplycost < "
                    + (5 + rnd.nextInt(50)) + ")";
            case "nation" -> a + "n_regionkey" + in + "(SELECT r_regionkey FROM region " + x + " WHERE " + x
                    + ".r_name LIKE '" + pick(REGIONS).charAt(0) + "%')";
            case "lineitem" -> exists + " (SELECT * FROM orders " + x + " WHERE " + x + ".o_orderkey = " + a
                    + "l_orderkey AND " + x + ".o_orderpriority = '" + pick(PRIORITIES) + "')";
            case "partsupp" -> a + "ps_suppkey" + in + "(SELECT s_suppkey FROM supplier " + x + " WHERE " + x
                    + ".s_acctbal > " + rnd.nextInt(8000) + ")";
            default -> null;
        };
    }

    /** A column with few values, to group by. */
    static String groupColumn(String table, Random rnd) {
        String[] cols = switch (table) {
            case "lineitem" -> new String[] {"l_returnflag", "l_shipmode", "l_linestatus"};
            case "orders" -> new String[] {"o_orderpriority", "o_orderstatus"};
            case "customer" -> new String[] {"c_mktsegment", "c_nationkey"};
            case "supplier" -> new String[] {"s_nationkey"};
            case "part" -> new String[] {"p_brand", "p_size", "p_container"};
            case "partsupp" -> new String[] {"ps_suppkey"};
            case "nation" -> new String[] {"n_name", "n_regionkey"};
            default -> new String[] {"r_name"};
        };
        return cols[rnd.nextInt(cols.length)];
    }

    /** A numeric column to sum, or to take the least or greatest of. */
    static String measure(String table, Random rnd) {
        String[] cols = switch (table) {
            case "lineitem" -> new String[] {"l_extendedprice", "l_quantity", "l_orderkey"};
            case "orders" -> new String[] {"o_totalprice", "o_custkey"};
            case "customer" -> new String[] {"c_acctbal", "c_custkey"};
            case "supplier" -> new String[] {"s_acctbal", "s_suppkey"};
            case "part" -> new String[] {"p_retailprice", "p_size"};
            case "partsupp" -> new String[] {"ps_supplycost", "ps_availqty"};
            case "nation" -> new String[] {"n_nationkey"};
            default -> new String[] {"r_regionkey"};
        };
        return cols[rnd.nextInt(cols.length)];
    }

    /** Any column to project: keys, names, prices, dates. */
    static String anyColumn(String table, Random rnd) {
        String[] cols = switch (table) {
            case "lineitem" -> new String[] {"l_orderkey", "l_linenumber", "l_shipdate", "l_extendedprice"};
            case "orders" -> new String[] {"o_orderkey", "o_orderdate", "o_totalprice"};
            case "customer" -> new String[] {"c_custkey", "c_name", "c_acctbal"};
            case "supplier" -> new String[] {"s_suppkey", "s_name"};
            case "part" -> new String[] {"p_partkey", "p_name", "p_type"};
            case "partsupp" -> new String[] {"ps_partkey", "ps_availqty"};
            case "nation" -> new String[] {"n_name", "n_nationkey"};
            default -> new String[] {"r_name"};
        };
        return cols[rnd.nextInt(cols.length)];
    }

    private String dateRange() {
        LocalDate from = LocalDate.of(1992, 1, 1).plusDays(rnd.nextInt(2300));
        LocalDate to = from.plusDays(30 + rnd.nextInt(700));
        return "DATE '" + from + "' AND DATE '" + to + "'";
    }

    private String pick(String[] values) {
        return values[rnd.nextInt(values.length)];
    }

    private String subset(String[] values, int k) {
        List<String> out = new ArrayList<>();
        while (out.size() < Math.min(k, values.length)) {
            String v = "'" + pick(values) + "'";
            if (!out.contains(v)) {
                out.add(v);
            }
        }
        return "(" + String.join(", ", out) + ")";
    }

    private String subsetNumbers(int bound, int k) {
        List<String> out = new ArrayList<>();
        while (out.size() < Math.min(k, bound)) {
            String v = Integer.toString(rnd.nextInt(bound));
            if (!out.contains(v)) {
                out.add(v);
            }
        }
        return "(" + String.join(", ", out) + ")";
    }

    private static String[] brands() {
        String[] b = new String[25];
        for (int i = 0; i < 25; i++) {
            b[i] = "Brand#" + (1 + i / 5) + (1 + i % 5);
        }
        return b;
    }
}
