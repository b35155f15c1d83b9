package io.tessera.difftest;

import io.tessera.api.QueryResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * One non-optimizing reference engine construction (NoREC) check: {@code SELECT COUNT(*) FROM src WHERE p}, which
 * the planner may push into scans and joins, against the same predicate evaluated on every row where nothing can
 * be optimized away: summed as {@code SUM(CASE WHEN p THEN 1 ELSE 0 END)}, counted as
 * {@code COUNT(CASE WHEN p THEN 1 END)}, or projected as {@code (p) IS TRUE} and its TRUE rows counted here.
 *
 * <p>Checks whose seeds differ only in their last two bits share the source and one reference query that
 * evaluates all their predicates, one per column (the runner reuses its answer).
 */
public final class NorecCheck implements MetamorphicCheck {

    enum Form { SUM_CASE, COUNT_CASE, PROJECTED }

    static final int SHARED = 4;

    private final long seed;
    private final Form form;
    private final String optimized;
    private final String reference;
    private final int column;

    private NorecCheck(long seed, Form form, String optimized, String reference, int column) {
        this.seed = seed;
        this.form = form;
        this.optimized = optimized;
        this.reference = reference;
        this.column = column;
    }

    public static NorecCheck generate(RandomSchema schema, long seed) {
        long group = Math.floorDiv(seed, SHARED);
        Random rnd = new Random(group);
        MetamorphicSource src = MetamorphicSource.random(schema, rnd);
        Form form = Form.values()[rnd.nextInt(Form.values().length)];
        List<String> items = new ArrayList<>();
        String mine = null;
        for (long s = group * SHARED; s < (group + 1) * SHARED; s++) {
            String p = new RandomPredicate(new Random(s), src.scope()).predicate(3);
            mine = s == seed ? p : mine;
            items.add(switch (form) {
                case SUM_CASE -> "SUM(CASE WHEN " + p + " THEN 1 ELSE 0 END)";
                case COUNT_CASE -> "COUNT(CASE WHEN " + p + " THEN 1 END)";
                case PROJECTED -> "(" + p + ") IS TRUE";
            });
        }
        String reference = "SELECT " + String.join(", ", items) + src.where(null);
        return new NorecCheck(seed, form, "SELECT COUNT(*)" + src.where(mine), reference,
                (int) (seed - group * SHARED));
    }

    @Override
    public long seed() {
        return seed;
    }

    @Override
    public String name() {
        return "NoREC " + form + " (reference column " + (column + 1) + ")";
    }

    @Override
    public List<String> queries() {
        return List.of(optimized, reference);
    }

    @Override
    public String verify(Function<String, QueryResult> engine) {
        long expected = ((Number) engine.apply(optimized).rows().get(0)[0]).longValue();
        QueryResult r = engine.apply(reference);
        long actual = 0;
        if (form == Form.PROJECTED) {
            for (Object[] row : r.rows()) {
                actual += Boolean.TRUE.equals(row[column]) ? 1 : 0;
            }
        } else {
            // SUM over no rows is NULL
            Object v = r.rows().get(0)[column];
            actual = v == null ? 0 : ((Number) v).longValue();
        }
        return expected == actual ? null : "COUNT(*) with the predicate in WHERE is " + expected
                + ", the predicate evaluated on every row counts " + actual;
    }
}
