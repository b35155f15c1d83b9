package io.tessera.difftest;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The SQL constructs {@link RandomQueryGenerator} adds to its base queries, each switched on or off by name. Those
 * the engine runs are on by default (all of them, since the engine runs every one); a construct the engine
 * cannot run yet would be off by default until it can, so that the differential tests stay green. {@code -Dtessera.difftest.constructs=LEFT_JOIN,WINDOW} switches constructs on (besides the
 * default ones), {@code all} switches every one on, {@code none} every one off, and {@code -NAME} one off:
 *
 * <pre>
 * ./mvnw -o -B test -Dtest='RandomQuery*' -Dtessera.difftest.constructs=all
 * ./mvnw -o -B test -Dtest=RandomQueryConstructsDifferentialTest -Dtessera.difftest.constructs=none,INTERSECT
 * </pre>
 */
public enum QueryConstruct {
    /** {@code q UNION q'} (distinct rows). */
    UNION(true),
    /** {@code q INTERSECT q'} and {@code INTERSECT ALL}. */
    INTERSECT(true),
    /** {@code q EXCEPT q'} and {@code EXCEPT ALL}. */
    EXCEPT(true),
    /** {@code LEFT JOIN} of a dimension, on its key. */
    LEFT_JOIN(true),
    /** {@code RIGHT JOIN} of a dimension, on its key. */
    RIGHT_JOIN(true),
    /** {@code FULL JOIN} of a dimension, on its key. */
    FULL_JOIN(true),
    /** Window functions in the select list: ranking, LAG/LEAD, aggregates over partitions and running frames. */
    WINDOW(true),
    /** A scalar subquery (an aggregate, correlated or not) in WHERE or in the select list. */
    SCALAR_SUBQUERY(true),
    /** {@code [NOT] EXISTS (...)}, with equality and non-equality correlation, also inside OR. */
    EXISTS_SUBQUERY(true),
    /** {@code x [NOT] IN (SELECT ...)}, also over a nullable column and inside OR. */
    IN_SUBQUERY(true),
    /** {@code SUM(DISTINCT x)}, {@code AVG(DISTINCT x)} with other aggregates. */
    DISTINCT_AGGREGATE(true),
    /** SUBSTRING, CHAR_LENGTH, TRIM, REPLACE, CONCAT, POSITION, LPAD/RPAD in predicates and the select list. */
    STRING_FUNCTION(true);

    public static final String PROPERTY = "tessera.difftest.constructs";

    private final boolean onByDefault;

    QueryConstruct(boolean onByDefault) {
        this.onByDefault = onByDefault;
    }

    /** The constructs on by default: those the engine runs today. */
    public static Set<QueryConstruct> defaults() {
        Set<QueryConstruct> s = EnumSet.noneOf(QueryConstruct.class);
        for (QueryConstruct c : values()) {
            if (c.onByDefault) {
                s.add(c);
            }
        }
        return s;
    }

    /** The constructs {@link #PROPERTY} switches on. */
    public static Set<QueryConstruct> enabled() {
        return parse(System.getProperty(PROPERTY, ""));
    }

    /** The defaults changed by a comma-separated list of names, {@code all}, {@code none} and {@code -NAME}. */
    public static Set<QueryConstruct> parse(String spec) {
        Set<QueryConstruct> s = defaults();
        for (String part : spec.split(",")) {
            String p = part.trim().toUpperCase(Locale.ROOT);
            if (p.isEmpty()) {
                continue;
            }
            if (p.equals("ALL")) {
                s.addAll(Arrays.asList(values()));
            } else if (p.equals("NONE")) {
                s.clear();
            } else if (p.startsWith("-")) {
                s.remove(valueOf(p.substring(1)));
            } else {
                s.add(valueOf(p));
            }
        }
        return s;
    }
}
