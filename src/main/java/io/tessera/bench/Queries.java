package io.tessera.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The benchmark query texts kept as resources under {@code io/tessera/queries/<suite>/<name>.sql}: the 13 SSB
 * queries ({@code q1.1} .. {@code q4.3}) and the 22 TPC-H queries ({@code q1} .. {@code q22}) with the validation
 * substitution parameters. Texts carry no trailing semicolon. TPC-H's Q11 depends on the scale factor (its FRACTION
 * is 0.0001 / SF): the text holds SF 1's, and {@link #all(String, double)} gives it for another scale.
 */
public final class Queries {

    /** One named query of a suite. */
    public record Query(String suite, String name, String sql) {
    }

    public static final String SSB = "ssb";
    public static final String TPCH = "tpch";

    private static final List<String> SSB_NAMES = List.of(
            "q1.1", "q1.2", "q1.3", "q2.1", "q2.2", "q2.3", "q3.1", "q3.2", "q3.3", "q3.4", "q4.1", "q4.2", "q4.3");
    private static final List<String> TPCH_NAMES = List.of(
            "q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10", "q11", "q12", "q13", "q14", "q15", "q16", "q17",
            "q18", "q19", "q20", "q21", "q22");

    private Queries() {
    }

    /** Names of a suite's queries, in benchmark order. */
    public static List<String> names(String suite) {
        return switch (suite.toLowerCase(Locale.ROOT)) {
            case SSB -> SSB_NAMES;
            case TPCH -> TPCH_NAMES;
            default -> throw new IllegalArgumentException("unknown query suite '" + suite + "' (ssb, tpch)");
        };
    }

    /** The text of one query, e.g. {@code sql("ssb", "q2.1")}; a name may also be written {@code Q2.1} or {@code 2.1}. */
    public static String sql(String suite, String name) {
        String s = suite.toLowerCase(Locale.ROOT);
        String n = name.toLowerCase(Locale.ROOT);
        if (!n.startsWith("q")) {
            n = "q" + n;
        }
        if (!names(s).contains(n)) {
            throw new IllegalArgumentException("no query " + name + " in suite " + suite + " (" + names(s) + ")");
        }
        String path = "/io/tessera/queries/" + s + "/" + n + ".sql";
        try (InputStream in = Queries.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("query resource " + path + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read query resource " + path + ": " + e.getMessage(), e);
        }
    }

    /** Every query of a suite, in benchmark order. */
    public static List<Query> all(String suite) {
        List<Query> out = new ArrayList<>();
        for (String n : names(suite)) {
            out.add(new Query(suite.toLowerCase(Locale.ROOT), n, sql(suite, n)));
        }
        return out;
    }

    /** Every query of a suite as the substitution parameters of scale factor {@code sf} make it ({@link #atScale}). */
    public static List<Query> all(String suite, double sf) {
        return all(suite).stream().map(q -> atScale(q, sf)).toList();
    }

    /**
     * The TPC-H scale factor of a database's data: its {@code supplier} table has 10,000 rows per SF (1 where there
     * is no such table).
     */
    public static double tpchScale(io.tessera.storage.Database db) {
        return db.hasTable("supplier") ? Math.max(1, db.table("supplier").rowCount()) / 10_000.0 : 1;
    }

    /** The text of Q11 at SF 1: its FRACTION. */
    private static final String Q11_FRACTION = "sum(ps_supplycost * ps_availqty) * 0.0001";

    /**
     * The query at scale factor {@code sf}: TPC-H's Q11 with FRACTION = 0.0001 / SF (exact where the quotient ends,
     * else to four significant digits, so that the literal stays a small DECIMAL); every other query as it is.
     */
    public static Query atScale(Query q, double sf) {
        if (!(sf > 0) || Double.isInfinite(sf)) {
            throw new IllegalArgumentException("scale factor " + sf + " is not a positive number");
        }
        if (!q.suite().equals(TPCH) || !q.name().equals("q11")) {
            return q;
        }
        if (!q.sql().contains(Q11_FRACTION)) {
            throw new IllegalStateException("TPC-H Q11's text has no FRACTION of SF 1 ('" + Q11_FRACTION + "')");
        }
        return new Query(q.suite(), q.name(), q.sql().replace(Q11_FRACTION,
                Q11_FRACTION.substring(0, Q11_FRACTION.length() - "0.0001".length()) + q11Fraction(sf)));
    }

    /** TPC-H's FRACTION of Q11 at scale factor {@code sf}, as the text of a decimal literal. */
    static String q11Fraction(double sf) {
        java.math.BigDecimal base = new java.math.BigDecimal("0.0001");
        java.math.BigDecimal scale = java.math.BigDecimal.valueOf(sf);
        java.math.BigDecimal f;
        try {
            f = base.divide(scale);
        } catch (ArithmeticException endless) {
            f = base.divide(scale, new java.math.MathContext(4));
        }
        return f.stripTrailingZeros().toPlainString();
    }

    public static List<Query> ssb() {
        return all(SSB);
    }

    public static List<Query> tpch() {
        return all(TPCH);
    }
}
