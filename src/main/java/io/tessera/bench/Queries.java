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
 * substitution parameters. Texts carry no trailing semicolon.
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

    public static List<Query> ssb() {
        return all(SSB);
    }

    public static List<Query> tpch() {
        return all(TPCH);
    }
}
