package io.tessera.difftest;

import io.tessera.api.QueryResult;
import io.tessera.storage.TypeKind;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One ternary logic partitioning check: a query {@code q} and the same query restricted by a random predicate
 * {@code p}, by {@code NOT (p)} and by {@code (p) IS NULL}. Every row satisfies exactly one of the three, so the
 * partitions together give q's answer: their rows as a multiset (also run as one UNION ALL query), their distinct
 * rows for SELECT DISTINCT, and for aggregates the partial aggregates combined (counts and sums added, NULL sums
 * skipped, the least MIN and the greatest MAX), per group for GROUP BY.
 */
public final class TlpCheck implements MetamorphicCheck {

    enum Kind { ROWS, UNION_ALL, DISTINCT, AGGREGATE, GROUP_BY }

    enum Agg { COUNT_STAR, COUNT, SUM, MIN, MAX }

    private final long seed;
    private final Kind kind;
    private final String original;
    private final List<String> partitions;
    private final int keys;
    private final List<Agg> aggs;

    private TlpCheck(long seed, Kind kind, String original, List<String> partitions, int keys, List<Agg> aggs) {
        this.seed = seed;
        this.kind = kind;
        this.original = original;
        this.partitions = partitions;
        this.keys = keys;
        this.aggs = aggs;
    }

    /** Checks whose seeds differ only in the last two bits share their query q (whose answer is then reused). */
    static final int SHARED = 4;

    public static TlpCheck generate(RandomSchema schema, long seed) {
        Random rnd = new Random(Math.floorDiv(seed, SHARED));
        MetamorphicSource src = MetamorphicSource.random(schema, rnd);
        Kind kind = Kind.values()[rnd.nextInt(Kind.values().length)];
        List<String> select = new ArrayList<>();
        List<Agg> aggs = new ArrayList<>();
        int keys = 0;
        String groupBy = "";
        switch (kind) {
            case ROWS, UNION_ALL, DISTINCT -> {
                int n = 1 + rnd.nextInt(3);
                for (int i = 0; i < n; i++) {
                    select.add(pick(src.scope(), rnd).sql());
                }
            }
            case AGGREGATE, GROUP_BY -> {
                if (kind == Kind.GROUP_BY) {
                    keys = 1 + rnd.nextInt(2);
                    List<String> g = new ArrayList<>();
                    for (int i = 0; i < keys; i++) {
                        String k = pick(src.scope(), rnd).sql();
                        if (!g.contains(k)) {
                            g.add(k);
                        }
                    }
                    keys = g.size();
                    select.addAll(g);
                    groupBy = " GROUP BY " + String.join(", ", g);
                }
                int n = 1 + rnd.nextInt(4);
                for (int i = 0; i < n; i++) {
                    Agg a = Agg.values()[rnd.nextInt(Agg.values().length)];
                    String call = aggregate(a, src.scope(), rnd);
                    aggs.add(call.startsWith("COUNT(") ? (call.equals("COUNT(*)") ? Agg.COUNT_STAR : Agg.COUNT) : a);
                    select.add(call);
                }
            }
        }
        String p = new RandomPredicate(new Random(seed), src.scope()).predicate(2);
        List<String> preds = List.of(p, "NOT (" + p + ")", "(" + p + ") IS NULL");
        String head = "SELECT " + (kind == Kind.DISTINCT ? "DISTINCT " : "") + String.join(", ", select);
        String q = head + src.where(null) + groupBy;
        List<String> parts = new ArrayList<>();
        for (String pr : preds) {
            parts.add(head + src.where(pr) + groupBy);
        }
        if (kind == Kind.UNION_ALL) {
            parts = List.of(String.join(" UNION ALL ", parts));
        }
        return new TlpCheck(seed, kind, q, List.copyOf(parts), keys, List.copyOf(aggs));
    }

    private static String aggregate(Agg a, List<RandomPredicate.Ref> scope, Random rnd) {
        List<RandomPredicate.Ref> numeric = scope.stream().filter(r -> RandomPredicate.numeric(r.kind())).toList();
        List<RandomPredicate.Ref> ordered = scope.stream().filter(r -> r.kind() != TypeKind.BOOLEAN).toList();
        return switch (a) {
            case COUNT_STAR -> "COUNT(*)";
            case COUNT -> "COUNT(" + pick(scope, rnd).sql() + ")";
            case SUM -> numeric.isEmpty() ? "COUNT(*)" : "SUM(" + pick(numeric, rnd).sql() + ")";
            case MIN -> "MIN(" + pick(ordered, rnd).sql() + ")";
            case MAX -> "MAX(" + pick(ordered, rnd).sql() + ")";
        };
    }

    private static <T> T pick(List<T> xs, Random rnd) {
        return xs.get(rnd.nextInt(xs.size()));
    }

    @Override
    public long seed() {
        return seed;
    }

    @Override
    public String name() {
        return "TLP " + kind;
    }

    @Override
    public List<String> queries() {
        List<String> all = new ArrayList<>();
        all.add(original);
        all.addAll(partitions);
        return all;
    }

    @Override
    public String verify(Function<String, QueryResult> engine) {
        QueryResult whole = engine.apply(original);
        List<Object[]> combined = new ArrayList<>();
        for (String part : partitions) {
            combined.addAll(engine.apply(part).rows());
        }
        List<Object[]> actual = switch (kind) {
            case ROWS, UNION_ALL -> combined;
            case DISTINCT -> distinct(combined);
            case AGGREGATE, GROUP_BY -> combine(combined, whole.columns().size());
        };
        int width = whole.columns().size();
        return new ResultComparator().compare(OrderBySpec.UNORDERED, width, whole.rows(), width, actual);
    }

    private static List<Object[]> distinct(List<Object[]> rows) {
        List<Object[]> sorted = new ArrayList<>(rows);
        sorted.sort(ResultComparator.CANONICAL);
        List<Object[]> out = new ArrayList<>();
        for (Object[] r : sorted) {
            if (out.isEmpty() || ResultComparator.CANONICAL.compare(out.get(out.size() - 1), r) != 0) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * The partial aggregates of the partitions combined per group. Without GROUP BY each partition has one row
     * (an empty partition's COUNT is 0 and its SUM, MIN and MAX NULL), and so has the result.
     */
    private List<Object[]> combine(List<Object[]> rows, int width) {
        Comparator<Object[]> byKey = (x, y) -> {
            for (int i = 0; i < keys; i++) {
                int c = ResultComparator.compareValues(x[i], y[i]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
        Map<Object[], Object[]> groups = new TreeMap<>(byKey);
        for (Object[] r : rows) {
            Object[] acc = groups.get(r);
            if (acc == null) {
                groups.put(r, r.clone());
                continue;
            }
            for (int i = keys; i < width; i++) {
                acc[i] = combine(aggs.get(i - keys), acc[i], r[i]);
            }
        }
        return new ArrayList<>(groups.values());
    }

    private static Object combine(Agg a, Object x, Object y) {
        if (x == null) {
            return y;
        }
        if (y == null) {
            return x;
        }
        return switch (a) {
            case COUNT_STAR, COUNT -> ((Number) x).longValue() + ((Number) y).longValue();
            case SUM -> x instanceof Double || y instanceof Double || x instanceof Float || y instanceof Float
                    ? (Object) (((Number) x).doubleValue() + ((Number) y).doubleValue())
                    : decimal(x).add(decimal(y));
            case MIN -> ResultComparator.compareValues(x, y) <= 0 ? x : y;
            case MAX -> ResultComparator.compareValues(x, y) >= 0 ? x : y;
        };
    }

    private static BigDecimal decimal(Object v) {
        return v instanceof BigDecimal b ? b : new BigDecimal(v.toString());
    }
}
