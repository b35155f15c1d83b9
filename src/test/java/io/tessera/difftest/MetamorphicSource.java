package io.tessera.difftest;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The FROM part of a metamorphic query over a {@link RandomSchema}: one table, or two (sometimes three) joined on
 * their keys, written as {@code [LEFT] JOIN ... ON} or as a comma join whose key equality is in WHERE. {@link #where}
 * adds a predicate to that WHERE, so a query and its partitions differ only in the predicate.
 *
 * @param from      the FROM clause's text
 * @param joinWhere the comma join's key equalities (null for none)
 * @param scope     every column in scope, as the query names it
 */
public record MetamorphicSource(String from, String joinWhere, List<RandomPredicate.Ref> scope) {

    private static final String[] ALIASES = {"a", "b", "c"};
    /** The outer joins switched on ({@link QueryConstruct}). */
    private static final java.util.Set<QueryConstruct> OUTER = QueryConstruct.enabled();

    public static MetamorphicSource random(RandomSchema schema, Random rnd) {
        List<RandomSchema.Table> tables = new ArrayList<>(schema.tables());
        java.util.Collections.shuffle(tables, rnd);
        int p = rnd.nextInt(100);
        int n = p < 50 ? 1 : p < 90 || tables.size() < 3 ? 2 : 3;
        boolean comma = rnd.nextBoolean();
        StringBuilder from = new StringBuilder();
        List<String> keys = new ArrayList<>();
        List<RandomPredicate.Ref> scope = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RandomSchema.Table t = tables.get(i);
            String alias = ALIASES[i];
            String on = i == 0 ? null : ALIASES[rnd.nextInt(i)] + ".k = " + alias + ".k";
            if (i == 0) {
                from.append(t.name()).append(' ').append(alias);
            } else if (comma) {
                from.append(", ").append(t.name()).append(' ').append(alias);
                keys.add(on);
            } else {
                from.append(' ').append(joinKind(rnd)).append(' ').append(t.name()).append(' ').append(alias)
                        .append(" ON ").append(on);
            }
            for (RandomSchema.Column c : t.columns()) {
                scope.add(new RandomPredicate.Ref(alias + "." + c.name(), c));
            }
        }
        return new MetamorphicSource(from.toString(), keys.isEmpty() ? null : String.join(" AND ", keys),
                List.copyOf(scope));
    }

    /**
     * {@code JOIN}, or an outer join where {@code -Dtessera.difftest.constructs} switches one on: the partitions
     * of TLP and the counts of NoREC hold for the rows an outer join makes too. No random number is drawn without.
     */
    private static String joinKind(Random rnd) {
        List<String> kinds = new ArrayList<>();
        for (QueryConstruct c : List.of(QueryConstruct.LEFT_JOIN, QueryConstruct.RIGHT_JOIN,
                QueryConstruct.FULL_JOIN)) {
            if (OUTER.contains(c)) {
                kinds.add(c.name().replace('_', ' '));
            }
        }
        return kinds.isEmpty() || rnd.nextInt(100) >= 30 ? "JOIN" : kinds.get(rnd.nextInt(kinds.size()));
    }

    /** {@code FROM ... [WHERE keys [AND (predicate)]]}; predicate may be null. */
    public String where(String predicate) {
        StringBuilder sb = new StringBuilder(" FROM ").append(from);
        if (joinWhere != null && predicate != null) {
            sb.append(" WHERE ").append(joinWhere).append(" AND (").append(predicate).append(')');
        } else if (joinWhere != null) {
            sb.append(" WHERE ").append(joinWhere);
        } else if (predicate != null) {
            sb.append(" WHERE ").append(predicate);
        }
        return sb.toString();
    }
}
