package io.tessera.difftest;

import io.tessera.Tessera;
import io.tessera.optimize.EstimateSkew;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Runs generated join queries under several estimate skews (none, every table 1000 times too small, 1000 times too
 * large, and a random factor between those per table), each compared with DuckDB, and records the plans the skews
 * led to: the skews exist to make the optimizer pick other join orders and build sides, and only an answer that
 * stays right under every one of them shows that no order is wrong.
 */
final class JoinOrderRuns {

    /** A skew with the name a failure reports. */
    record Skew(String name, EstimateSkew skew) {
    }

    /** The skews one query runs under; the random one drawn from the query's seed. */
    static List<Skew> skews(long seed) {
        Random rnd = new Random(seed ^ 0x5DEECE66DL);
        Map<String, Double> factors = new LinkedHashMap<>();
        for (String t : List.of("lineitem", "orders", "customer", "supplier", "part", "partsupp", "nation", "region")) {
            factors.put(t, Math.pow(10, -3 + 6 * rnd.nextDouble()));
        }
        return List.of(new Skew("none", EstimateSkew.NONE), new Skew("all x1e-3", t -> 1e-3),
                new Skew("all x1e3", t -> 1e3), new Skew("per table " + rounded(factors), t -> factors.getOrDefault(t, 1.0)));
    }

    private static String rounded(Map<String, Double> factors) {
        StringBuilder sb = new StringBuilder("{");
        factors.forEach((t, f) -> sb.append(sb.length() > 1 ? ", " : "").append(t).append('=')
                .append(String.format(java.util.Locale.ROOT, "%.3g", f)));
        return sb.append('}').toString();
    }

    /** What a corpus's runs found: the failures, and per query the distinct plans its skews gave. */
    record Outcome(List<String> failures, List<Integer> distinctPlans) {
        int queriesWithSeveralPlans() {
            return (int) distinctPlans.stream().filter(n -> n > 1).count();
        }

        int totalPlans() {
            return distinctPlans.stream().mapToInt(Integer::intValue).sum();
        }
    }

    private JoinOrderRuns() {
    }

    /**
     * Each query under every skew: the original text under the first two, the shuffled text (relations and
     * conjuncts in another order, the same query) under the others.
     */
    static Outcome run(Tessera tessera, DifferentialHarness harness, List<TpchJoinQueryGenerator.Generated> queries) {
        List<String> failures = new ArrayList<>();
        List<Integer> distinct = new ArrayList<>();
        try {
            for (TpchJoinQueryGenerator.Generated q : queries) {
                List<Skew> skews = skews(q.seed());
                Set<String> plans = new HashSet<>();
                for (int i = 0; i < skews.size(); i++) {
                    Skew s = skews.get(i);
                    String sql = i < 2 ? q.sql() : q.shuffled();
                    tessera.engine().skewEstimates(s.skew());
                    try {
                        plans.add(planShape(tessera, sql));
                    } catch (RuntimeException | AssertionError e) {
                        failures.add("seed " + q.seed() + ", skew " + s.name() + ": planning failed: " + e + "\nSQL: " + sql);
                        continue;
                    }
                    DifferentialHarness.Failure f = harness.run(sql, q.seed());
                    if (f != null) {
                        failures.add("skew " + s.name() + ":\n" + f.message());
                    }
                }
                distinct.add(plans.size());
            }
        } finally {
            tessera.engine().skewEstimates(EstimateSkew.NONE);
        }
        return new Outcome(failures, distinct);
    }

    /** The pipelines of a query's plan without their row estimates: join order, build sides and keys. */
    static String planShape(Tessera tessera, String sql) {
        return tessera.engine().plan(sql).explain().replaceAll(" +~[\\d,]+ rows", "");
    }

    /** An AssertionError listing how many runs failed and the first few in full, or nothing. */
    static void assertNoFailures(Outcome o, int queries) {
        if (o.failures().isEmpty()) {
            return;
        }
        StringBuilder sb = new StringBuilder(o.failures().size() + " runs of " + queries + " queries failed");
        for (int i = 0; i < Math.min(5, o.failures().size()); i++) {
            sb.append("\n\n--- failure ").append(i + 1).append(" ---\n").append(o.failures().get(i));
        }
        throw new AssertionError(sb.toString());
    }
}
