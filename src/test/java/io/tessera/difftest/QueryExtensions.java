package io.tessera.difftest;

import io.tessera.storage.TypeKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The {@link QueryConstruct}s of a {@link RandomQueryGenerator} query: each method returns null, and draws no
 * random number, when none of its constructs is on, so a generator without them emits the same queries as before
 * they existed. The answers must not depend on anything SQL leaves open: window functions that depend on the order
 * of ties (ROW_NUMBER, LAG, running frames) order by the fact's unique key, and only without outer joins (which
 * make it NULL); window ORDER BY names NULLS FIRST/LAST; scalar subqueries return at most one row; SUBSTRING starts
 * at 1 or later.
 */
final class QueryExtensions {

    private final RandomQueryGenerator g;
    private final Random rnd;

    QueryExtensions(RandomQueryGenerator g) {
        this.g = g;
        this.rnd = g.rnd();
    }

    private List<QueryConstruct> on(QueryConstruct... cs) {
        List<QueryConstruct> out = new ArrayList<>();
        for (QueryConstruct c : cs) {
            if (g.on(c)) {
                out.add(c);
            }
        }
        return out;
    }

    private <T> T pick(List<T> xs) {
        return xs.get(rnd.nextInt(xs.size()));
    }

    // ---------------------------------------------------------------- FROM and set operations

    /** How a dimension joins: {@code JOIN}, or an outer join when one is on. */
    String joinKind() {
        List<QueryConstruct> cs = on(QueryConstruct.LEFT_JOIN, QueryConstruct.RIGHT_JOIN, QueryConstruct.FULL_JOIN);
        if (cs.isEmpty() || rnd.nextInt(100) >= 40) {
            return "JOIN";
        }
        return switch (pick(cs)) {
            case LEFT_JOIN -> "LEFT JOIN";
            case RIGHT_JOIN -> "RIGHT JOIN";
            default -> "FULL JOIN";
        };
    }

    /** A set operation joining the query with a second one, or null. */
    String setOperation() {
        List<QueryConstruct> cs = on(QueryConstruct.UNION, QueryConstruct.INTERSECT, QueryConstruct.EXCEPT);
        if (cs.isEmpty() || rnd.nextInt(100) >= 50) {
            return null;
        }
        String all = rnd.nextBoolean() ? " ALL" : "";
        return switch (pick(cs)) {
            case UNION -> "UNION" + all;
            case INTERSECT -> "INTERSECT" + all;
            default -> "EXCEPT" + all;
        };
    }

    // ---------------------------------------------------------------- select list

    /** One more output of a plain query: a window function, a scalar subquery or a string function; or null. */
    String selectItem() {
        List<QueryConstruct> cs = on(QueryConstruct.WINDOW, QueryConstruct.SCALAR_SUBQUERY,
                QueryConstruct.STRING_FUNCTION);
        if (cs.isEmpty() || rnd.nextInt(100) >= 60) {
            return null;
        }
        return switch (pick(cs)) {
            case WINDOW -> window();
            case SCALAR_SUBQUERY -> scalarSubquery();
            default -> stringFunction();
        };
    }

    private String window() {
        StarSchema.ColumnInfo key = g.column(TypeKind.VARCHAR, TypeKind.BOOLEAN, TypeKind.INTEGER, TypeKind.DATE);
        String partition = rnd.nextInt(5) == 0 ? "" : "PARTITION BY " + g.ref(key);
        StarSchema.ColumnInfo by = g.column(TypeKind.INTEGER, TypeKind.DATE, TypeKind.DECIMAL, TypeKind.VARCHAR);
        String order = "ORDER BY " + g.ref(by) + direction();
        String sep = partition.isEmpty() ? "" : " ";
        RandomQueryGenerator.Expr summed = g.numericExpr();
        String numeric = summed.sql();
        boolean unique = !g.outer();
        int p = rnd.nextInt(unique ? 12 : 7);
        // a DOUBLE sum's last bits depend on the order it adds in, which differs from engine to engine: a set
        // operation comparing such rows exactly would keep or drop them by those bits
        g.inexactWindow |= p == 5 || (p == 2 || p == 6 || p >= 11) && summed.kind() == TypeKind.DOUBLE;
        String unq = "ORDER BY f.f_id" + direction();
        return switch (p) {
            case 0 -> "RANK() OVER (" + partition + sep + order + ")";
            case 1 -> "DENSE_RANK() OVER (" + partition + sep + order + ")";
            case 2 -> "SUM(" + numeric + ") OVER (" + partition + ")";
            case 3 -> "COUNT(*) OVER (" + partition + sep + order + ")";
            case 4 -> (rnd.nextBoolean() ? "MIN(" : "MAX(") + g.ref(by) + ") OVER (" + partition + ")";
            case 5 -> "AVG(CAST(" + numeric + " AS DOUBLE)) OVER (" + partition + ")";
            case 6 -> "SUM(" + numeric + ") OVER (" + partition + sep + order + ")";
            case 7 -> "ROW_NUMBER() OVER (" + partition + sep + unq + ")";
            case 8 -> (rnd.nextBoolean() ? "LAG(" : "LEAD(") + g.ref(by) + ", " + (1 + rnd.nextInt(2)) + ") OVER ("
                    + partition + sep + unq + ")";
            case 9 -> (rnd.nextBoolean() ? "FIRST_VALUE(" : "LAST_VALUE(") + g.ref(by) + ") OVER (" + partition + sep
                    + unq + " ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)";
            case 10 -> "NTILE(" + (2 + rnd.nextInt(4)) + ") OVER (" + partition + sep + unq + ")";
            default -> "SUM(" + numeric + ") OVER (" + partition + sep + unq + " ROWS BETWEEN "
                    + (1 + rnd.nextInt(3)) + " PRECEDING AND CURRENT ROW)";
        };
    }

    private String direction() {
        return (rnd.nextBoolean() ? " ASC" : " DESC") + (rnd.nextBoolean() ? " NULLS FIRST" : " NULLS LAST");
    }

    /** An aggregate subquery (at most one row), correlated with the fact table or not. */
    private String scalarSubquery() {
        return switch (rnd.nextInt(5)) {
            case 0 -> "(SELECT MAX(p2.p_price) FROM product p2 WHERE " + simple("product", "p2") + ")";
            case 1 -> "(SELECT COUNT(*) FROM sales f2 WHERE f2.f_prodkey = f.f_prodkey AND " + simple("sales", "f2")
                    + ")";
            case 2 -> "(SELECT MIN(c2.c_name) FROM customer c2 WHERE c2.c_custkey = f.f_custkey)";
            // one row per key: a single-row join without an aggregate
            case 3 -> "(SELECT p2.p_name FROM product p2 WHERE p2.p_prodkey = f.f_prodkey)";
            default -> "(SELECT SUM(st2.st_area) FROM store st2 WHERE st2.st_area < f.f_qty * 400)";
        };
    }

    private String stringFunction() {
        StarSchema.ColumnInfo c = g.column(TypeKind.VARCHAR);
        String x = g.ref(c);
        return switch (rnd.nextInt(11)) {
            case 0 -> "SUBSTRING(" + x + " FROM " + (1 + rnd.nextInt(4)) + " FOR " + rnd.nextInt(6) + ")";
            case 1 -> "SUBSTRING(" + x + " FROM " + (1 + rnd.nextInt(4)) + ")";
            case 2 -> "CHAR_LENGTH(" + x + ")";
            case 3 -> "TRIM(" + x + ")";
            case 4 -> "TRIM(" + g.pick("LEADING", "TRAILING", "BOTH") + " '" + g.pick("C", "s", "o", "e") + "' FROM "
                    + x + ")";
            case 5 -> "REPLACE(" + x + ", '" + g.pick("o", "e", "#", " ") + "', '" + g.pick("", "0", "--") + "')";
            case 6 -> "CONCAT(" + x + ", '/', " + g.ref(g.column(TypeKind.VARCHAR)) + ")";
            case 7 -> "POSITION('" + g.pick("o", "e", "a", "st") + "' IN " + x + ")";
            case 8 -> g.pick("LPAD(", "RPAD(") + x + ", " + (3 + rnd.nextInt(12)) + ", '" + g.pick("*", ".", "ab")
                    + "')";
            case 9 -> "UPPER(SUBSTRING(" + x + " FROM 2 FOR 3))";
            default -> g.pick("LTRIM(", "RTRIM(") + "REPLACE(" + x + ", '" + g.pick("a", "e") + "', ' '))";
        };
    }

    // ---------------------------------------------------------------- predicates

    /** A predicate with a subquery or a string function, or null. */
    String atom() {
        List<QueryConstruct> cs = on(QueryConstruct.SCALAR_SUBQUERY, QueryConstruct.EXISTS_SUBQUERY,
                QueryConstruct.IN_SUBQUERY, QueryConstruct.STRING_FUNCTION);
        if (cs.isEmpty() || rnd.nextInt(100) >= 25) {
            return null;
        }
        QueryConstruct chosen = pick(cs);
        return switch (chosen) {
            case SCALAR_SUBQUERY -> switch (rnd.nextInt(4)) {
                case 0 -> "f.f_qty > (SELECT AVG(CAST(f2.f_qty AS DOUBLE)) FROM sales f2 WHERE "
                        + simple("sales", "f2") + ")";
                case 1 -> "f.f_price >= (SELECT MAX(p2.p_price) FROM product p2 WHERE p2.p_prodkey = f.f_prodkey)";
                case 2 -> "f.f_qty * 10 < (SELECT COUNT(*) FROM sales f2 WHERE f2.f_custkey = f.f_custkey)";
                default -> "(SELECT c2.c_region FROM customer c2 WHERE c2.c_custkey = f.f_custkey) "
                        + g.pick("=", "<>", "<") + " " + literal("customer", "c_region");
            };
            case EXISTS_SUBQUERY -> (rnd.nextInt(3) == 0 ? "NOT " : "") + switch (rnd.nextInt(4)) {
                case 0 -> "EXISTS (SELECT 1 FROM product p2 WHERE p2.p_prodkey = f.f_prodkey AND "
                        + simple("product", "p2") + ")";
                case 1 -> "EXISTS (SELECT 1 FROM customer c2 WHERE c2.c_custkey = f.f_custkey AND "
                        + simple("customer", "c2") + ")";
                // correlated by a non-equality only
                case 2 -> "EXISTS (SELECT 1 FROM store st2 WHERE st2.st_area < f.f_qty * " + (10 + rnd.nextInt(300))
                        + " AND " + simple("store", "st2") + ")";
                default -> "EXISTS (SELECT 1 FROM store st2 WHERE " + simple("store", "st2") + ")";
            };
            case IN_SUBQUERY -> switch (rnd.nextInt(5)) {
                case 0 -> "f.f_custkey " + not() + "IN (SELECT c2.c_custkey FROM customer c2 WHERE "
                        + simple("customer", "c2") + ")";
                // NOT IN over a nullable column and a subquery that may hold NULLs
                case 1 -> "f.f_storekey " + not() + "IN (SELECT st2.st_storekey FROM store st2 WHERE "
                        + simple("store", "st2") + ")";
                case 2 -> "f.f_note " + not() + "IN (SELECT p2.p_category FROM product p2 WHERE "
                        + simple("product", "p2") + ")";
                case 3 -> "f.f_qty " + not() + "IN (SELECT p2.p_size FROM product p2 WHERE p2.p_prodkey = f.f_prodkey)";
                // a mark join: IN inside OR
                default -> "(f.f_qty < " + rnd.nextInt(20) + " OR f.f_prodkey IN (SELECT p2.p_prodkey FROM product p2"
                        + " WHERE " + simple("product", "p2") + "))";
            };
            default -> {
                StarSchema.ColumnInfo c = g.column(TypeKind.VARCHAR);
                String x = g.ref(c);
                String s = (String) g.sample(c);
                yield switch (rnd.nextInt(4)) {
                    case 0 -> "CHAR_LENGTH(" + x + ") " + g.pick("<", ">", "=") + " " + s.length();
                    case 1 -> "SUBSTRING(" + x + " FROM 1 FOR 2) = "
                            + RandomQueryGenerator.literal(s.substring(0, Math.min(2, s.length())));
                    case 2 -> "POSITION('" + g.pick("o", "e", "a") + "' IN " + x + ") > " + rnd.nextInt(3);
                    default -> "TRIM(" + x + ") = " + RandomQueryGenerator.literal(s.trim());
                };
            }
        };
    }

    private String not() {
        return rnd.nextInt(3) == 0 ? "NOT " : "";
    }

    /** A comparison of one column of {@code table} (as {@code alias}) with one of its values, or IS NULL. */
    private String simple(String table, String alias) {
        StarSchema.TableInfo t = g.schema().table(table);
        List<StarSchema.ColumnInfo> cs = t.columns().stream()
                .filter(c -> !c.samples().isEmpty() && c.kind() != TypeKind.BOOLEAN && c.kind() != TypeKind.DOUBLE)
                .toList();
        StarSchema.ColumnInfo c = pick(cs);
        if (c.nullable() && rnd.nextInt(5) == 0) {
            return alias + "." + c.name() + (rnd.nextBoolean() ? " IS NULL" : " IS NOT NULL");
        }
        return alias + "." + c.name() + " " + g.pick("=", "<>", "<", ">", "<=", ">=") + " "
                + RandomQueryGenerator.literal(c.samples().get(rnd.nextInt(c.samples().size())));
    }

    private String literal(String table, String column) {
        StarSchema.ColumnInfo c = g.schema().table(table).columns().stream()
                .filter(x -> x.name().equals(column)).findFirst().orElseThrow();
        return RandomQueryGenerator.literal(c.samples().get(rnd.nextInt(c.samples().size())));
    }

    // ---------------------------------------------------------------- aggregates

    /** An aggregate of DISTINCT values, or null. */
    String aggregate() {
        if (!g.on(QueryConstruct.DISTINCT_AGGREGATE) || rnd.nextInt(100) >= 30) {
            return null;
        }
        StarSchema.ColumnInfo c = g.column(TypeKind.INTEGER, TypeKind.DECIMAL, TypeKind.BIGINT);
        return switch (rnd.nextInt(4)) {
            case 0 -> "SUM(DISTINCT " + g.ref(c) + ")";
            case 1 -> "AVG(DISTINCT CAST(" + g.ref(c) + " AS DOUBLE))";
            case 2 -> "COUNT(DISTINCT " + g.ref(c) + ")";
            default -> "SUM(DISTINCT " + g.ref(g.column(TypeKind.INTEGER)) + " * 2)";
        };
    }
}
