package io.tessera.difftest;

import io.tessera.storage.TypeKind;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Seeded, reproducible random SQL over the {@link StarSchemaBuilder} star schema. Each query comes from its own
 * seed ({@link #querySeed}), so a failing query is regenerated from that one number.
 *
 * <p>Queries have random filters (comparisons, BETWEEN, IN, LIKE, IS [NOT] NULL, AND/OR/NOT, CASE, arithmetic,
 * CAST), 0 to 3 inner equi-joins along the foreign keys, GROUP BY with SUM, COUNT, COUNT(*), COUNT(DISTINCT), AVG,
 * MIN, MAX, SUM and AVG of DISTINCT values, standard deviations and variances, MIN and MAX of computed strings
 * and of conditions, FILTER, sometimes HAVING, and ORDER BY with LIMIT/OFFSET. They stay clear of constructs whose answers
 * legitimately differ between engines: no integer division (only DOUBLE divided by a constant), AVG only of
 * DOUBLE (its argument is cast), no cast of a fractional value to an integer (engines round or truncate), every
 * ORDER BY names NULLS FIRST/LAST, a LIMIT comes with an ORDER BY of every output column, strings are ASCII.
 */
public final class RandomQueryGenerator {

    /** A generated query and the seed it was generated from. */
    public record Generated(long seed, String sql) {
    }

    record Expr(String sql, TypeKind kind) {
    }

    private final StarSchema schema;
    private final Set<QueryConstruct> constructs;
    private Random rnd;
    private List<StarSchema.TableInfo> scope;
    /** Whether the query has an outer join: then the fact key f_id may be NULL and no longer orders rows. */
    private boolean outer;
    /** Whether the select list holds a window SUM or AVG of DOUBLE values (then no set operation compares rows). */
    boolean inexactWindow;

    /** A generator of the constructs {@code -Dtessera.difftest.constructs} switches on ({@link QueryConstruct}). */
    public RandomQueryGenerator(StarSchema schema) {
        this(schema, QueryConstruct.enabled());
    }

    /** A generator that adds exactly {@code constructs} to its base queries. */
    public RandomQueryGenerator(StarSchema schema, Set<QueryConstruct> constructs) {
        this.schema = schema;
        this.constructs = Set.copyOf(constructs);
    }

    public Set<QueryConstruct> constructs() {
        return constructs;
    }

    boolean on(QueryConstruct c) {
        return constructs.contains(c);
    }

    Random rnd() {
        return rnd;
    }

    List<StarSchema.TableInfo> scope() {
        return scope;
    }

    StarSchema schema() {
        return schema;
    }

    boolean outer() {
        return outer;
    }

    /** The seed of the {@code index}-th query of a run. */
    public static long querySeed(long runSeed, int index) {
        return runSeed * 1_000_003L + index;
    }

    /** {@code count} queries of run {@code runSeed}. */
    public List<Generated> generate(long runSeed, int count) {
        List<Generated> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long s = querySeed(runSeed, i);
            out.add(new Generated(s, generate(s)));
        }
        return out;
    }

    /** The query of one seed (the same text for the same seed and schema). */
    public String generate(long seed) {
        rnd = new Random(seed);
        scope = new ArrayList<>();
        outer = false;
        inexactWindow = false;
        QueryExtensions ext = new QueryExtensions(this);
        StarSchema.TableInfo fact = schema.fact();
        scope.add(fact);
        List<StarSchema.ForeignKey> fks = new ArrayList<>(schema.foreignKeys());
        java.util.Collections.shuffle(fks, rnd);
        int p = rnd.nextInt(100);
        int joins = p < 20 ? 0 : p < 55 ? 1 : p < 85 ? 2 : 3;
        List<StarSchema.ForeignKey> used = fks.subList(0, Math.min(joins, fks.size()));
        for (StarSchema.ForeignKey fk : used) {
            scope.add(schema.table(fk.dimTable()));
        }

        StringBuilder from = new StringBuilder();
        List<String> joinPredicates = new ArrayList<>();
        boolean explicitJoins = rnd.nextBoolean();
        from.append(fact.name()).append(' ').append(fact.alias());
        for (StarSchema.ForeignKey fk : used) {
            StarSchema.TableInfo d = schema.table(fk.dimTable());
            String on = fact.alias() + "." + fk.factColumn() + " = " + d.alias() + "." + fk.dimColumn();
            if (explicitJoins) {
                String kind = ext.joinKind();
                outer |= !kind.equals("JOIN");
                from.append(" ").append(kind).append(" ").append(d.name()).append(' ').append(d.alias()).append(" ON ").append(on);
            } else {
                from.append(", ").append(d.name()).append(' ').append(d.alias());
                joinPredicates.add(on);
            }
        }
        List<String> where = new ArrayList<>(joinPredicates);
        if (rnd.nextInt(100) < 80) {
            where.add(predicate(2));
        }

        List<String> select = new ArrayList<>();
        List<String> groupBy = new ArrayList<>();
        String having = null;
        boolean aggregate = rnd.nextInt(100) < 65;
        if (aggregate) {
            int keys = rnd.nextInt(4);
            for (int i = 0; i < keys; i++) {
                Expr k = groupKey();
                if (!groupBy.contains(k.sql)) {
                    groupBy.add(k.sql);
                }
            }
            List<String> items = new ArrayList<>(groupBy);
            int aggs = 1 + rnd.nextInt(3);
            for (int i = 0; i < aggs; i++) {
                items.add(aggregateCall());
            }
            java.util.Collections.shuffle(items, rnd);
            select.addAll(items);
            if (!groupBy.isEmpty() && rnd.nextInt(100) < 25) {
                having = havingPredicate();
            }
        } else {
            int n = 1 + rnd.nextInt(5);
            for (int i = 0; i < n; i++) {
                select.add(scalar(rnd.nextInt(3)).sql);
            }
            String extra = ext.selectItem();
            if (extra != null) {
                select.add(rnd.nextInt(select.size() + 1), extra);
            }
        }

        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < select.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(select.get(i)).append(" AS c").append(i);
        }
        String head = sql.toString();
        sql.append(" FROM ").append(from);
        if (!where.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", where));
        }
        if (!groupBy.isEmpty()) {
            sql.append(" GROUP BY ").append(String.join(", ", groupBy));
        }
        if (having != null) {
            sql.append(" HAVING ").append(having);
        }
        String setOp = aggregate ? null : ext.setOperation();
        if (inexactWindow) {
            setOp = null; // drawn all the same, so that the seeds' other queries stay as they were
        }
        if (setOp != null) {
            // the same select list over the same FROM with another predicate: both sides have the same types
            sql.append(' ').append(setOp).append(' ').append(head).append(" FROM ")
                    .append(from);
            List<String> where2 = new ArrayList<>(joinPredicates);
            where2.add(predicate(2));
            sql.append(" WHERE ").append(String.join(" AND ", where2));
            if (!groupBy.isEmpty()) {
                sql.append(" GROUP BY ").append(String.join(", ", groupBy));
            }
        }
        int o = rnd.nextInt(100);
        if (o < 30) {
            // LIMIT: order by every output column, so the answer is one set of rows
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < select.size(); i++) {
                order.add(i);
            }
            java.util.Collections.shuffle(order, rnd);
            sql.append(" ORDER BY ");
            for (int i = 0; i < order.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append("c").append(order.get(i)).append(direction());
            }
            sql.append(" LIMIT ").append(1 + rnd.nextInt(20));
            if (rnd.nextBoolean()) {
                sql.append(" OFFSET ").append(rnd.nextInt(10));
            }
        } else if (o < 60) {
            int n = 1 + rnd.nextInt(select.size());
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < select.size(); i++) {
                order.add(i);
            }
            java.util.Collections.shuffle(order, rnd);
            sql.append(" ORDER BY ");
            for (int i = 0; i < n; i++) {
                sql.append(i == 0 ? "" : ", ").append("c").append(order.get(i)).append(direction());
            }
        }
        return sql.toString();
    }

    private String direction() {
        return (rnd.nextBoolean() ? " ASC" : " DESC") + (rnd.nextBoolean() ? " NULLS FIRST" : " NULLS LAST");
    }

    // ---------------------------------------------------------------- columns and literals

    StarSchema.ColumnInfo column(TypeKind... kinds) {
        List<StarSchema.ColumnInfo> cands = new ArrayList<>();
        for (StarSchema.TableInfo t : scope) {
            for (StarSchema.ColumnInfo c : t.columns()) {
                for (TypeKind k : kinds) {
                    if (c.kind() == k && !c.samples().isEmpty()) {
                        cands.add(c);
                    }
                }
            }
        }
        return cands.isEmpty() ? null : cands.get(rnd.nextInt(cands.size()));
    }

    String ref(StarSchema.ColumnInfo c) {
        return schema.table(c.table()).alias() + "." + c.name();
    }

    Object sample(StarSchema.ColumnInfo c) {
        return c.samples().get(rnd.nextInt(c.samples().size()));
    }

    static String literal(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof String s) {
            return "'" + s.replace("'", "''") + "'";
        }
        if (v instanceof LocalDate d) {
            return "DATE '" + d + "'";
        }
        if (v instanceof Boolean b) {
            return b ? "TRUE" : "FALSE";
        }
        if (v instanceof BigDecimal b) {
            return b.toPlainString();
        }
        if (v instanceof Double d) {
            return BigDecimal.valueOf(d).toPlainString();
        }
        return v.toString();
    }

    private boolean numeric(TypeKind k) {
        return k == TypeKind.INTEGER || k == TypeKind.BIGINT || k == TypeKind.DOUBLE || k == TypeKind.DECIMAL;
    }

    // ---------------------------------------------------------------- predicates

    String predicate(int depth) {
        int p = rnd.nextInt(100);
        if (depth > 0 && p < 30) {
            String op = rnd.nextBoolean() ? " AND " : " OR ";
            return "(" + predicate(depth - 1) + op + predicate(depth - 1) + ")";
        }
        if (depth > 0 && p < 36) {
            return "NOT (" + predicate(depth - 1) + ")";
        }
        return atom();
    }

    private String atom() {
        String extra = new QueryExtensions(this).atom();
        if (extra != null) {
            return extra;
        }
        int p = rnd.nextInt(13);
        switch (p) {
            case 0, 1 -> {
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER, TypeKind.BIGINT, TypeKind.DECIMAL, TypeKind.DOUBLE,
                        TypeKind.DATE, TypeKind.VARCHAR);
                String op = c.kind() == TypeKind.DOUBLE ? pick("<", ">", "<=", ">=")
                        : pick("=", "<>", "<", ">", "<=", ">=");
                return ref(c) + " " + op + " " + literal(sample(c));
            }
            case 2 -> {
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER, TypeKind.BIGINT, TypeKind.DECIMAL, TypeKind.DOUBLE,
                        TypeKind.DATE, TypeKind.VARCHAR);
                Object a = sample(c);
                Object b = sample(c);
                if (ResultComparator.compareValues(a, b) > 0) {
                    Object t = a;
                    a = b;
                    b = t;
                }
                return ref(c) + (rnd.nextInt(4) == 0 ? " NOT" : "") + " BETWEEN " + literal(a) + " AND " + literal(b);
            }
            case 3 -> {
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER, TypeKind.BIGINT, TypeKind.VARCHAR, TypeKind.DATE,
                        TypeKind.DECIMAL);
                int n = 1 + rnd.nextInt(4);
                List<String> vals = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    String l = literal(sample(c));
                    if (!vals.contains(l)) {
                        vals.add(l);
                    }
                }
                return ref(c) + (rnd.nextInt(4) == 0 ? " NOT" : "") + " IN (" + String.join(", ", vals) + ")";
            }
            case 4 -> {
                StarSchema.ColumnInfo c = column(TypeKind.VARCHAR);
                String s = (String) sample(c);
                String pattern = switch (rnd.nextInt(4)) {
                    case 0 -> s.substring(0, Math.min(s.length(), 1 + rnd.nextInt(3))) + "%";
                    case 1 -> "%" + s.substring(Math.max(0, s.length() - 2));
                    case 2 -> "%" + s.substring(s.length() / 2, Math.min(s.length(), s.length() / 2 + 2)) + "%";
                    default -> "_" + s.substring(Math.min(1, s.length()), Math.min(s.length(), 3)) + "%";
                };
                return ref(c) + (rnd.nextInt(4) == 0 ? " NOT" : "") + " LIKE " + literal(pattern);
            }
            case 5 -> {
                List<StarSchema.ColumnInfo> nullable = new ArrayList<>();
                for (StarSchema.TableInfo t : scope) {
                    for (StarSchema.ColumnInfo c : t.columns()) {
                        if (c.nullable()) {
                            nullable.add(c);
                        }
                    }
                }
                StarSchema.ColumnInfo c = nullable.get(rnd.nextInt(nullable.size()));
                return ref(c) + (rnd.nextBoolean() ? " IS NULL" : " IS NOT NULL");
            }
            case 6 -> {
                StarSchema.ColumnInfo c = column(TypeKind.BOOLEAN);
                return switch (rnd.nextInt(3)) {
                    case 0 -> ref(c);
                    case 1 -> "NOT " + ref(c);
                    default -> ref(c) + " = " + literal(rnd.nextBoolean());
                };
            }
            case 7 -> {
                // arithmetic on integers
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER);
                return ref(c) + " * " + (1 + rnd.nextInt(3)) + " + " + rnd.nextInt(10) + " " + pick("<", ">", "<=", ">=")
                        + " " + literal(sample(c));
            }
            case 8 -> {
                // arithmetic on DOUBLE, through CAST
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER, TypeKind.DECIMAL, TypeKind.DOUBLE);
                return "CAST(" + ref(c) + " AS DOUBLE) * 1.5 " + pick("<", ">") + " " + literal(sample(c));
            }
            case 9 -> {
                // CASE
                return "CASE WHEN " + atomSimple() + " THEN 1 ELSE 0 END = " + rnd.nextInt(2);
            }
            case 10 -> {
                // two columns of one kind
                TypeKind k = pick(TypeKind.INTEGER, TypeKind.DATE, TypeKind.DECIMAL, TypeKind.VARCHAR);
                StarSchema.ColumnInfo a = column(k);
                StarSchema.ColumnInfo b = column(k);
                return ref(a) + " " + pick("=", "<>", "<", ">", "<=", ">=") + " " + ref(b);
            }
            case 11 -> {
                StarSchema.ColumnInfo c = column(TypeKind.DECIMAL);
                StarSchema.ColumnInfo d = column(TypeKind.DECIMAL);
                return ref(c) + " + " + ref(d) + " " + pick("<", ">", "<=", ">=") + " " + literal(sample(c));
            }
            default -> {
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER, TypeKind.DECIMAL, TypeKind.BIGINT);
                return "COALESCE(" + ref(c) + ", " + zero(c.kind()) + ") " + pick("<", ">", "=", "<>") + " "
                        + literal(sample(c));
            }
        }
    }

    /** A comparison or null test, for inside CASE. */
    String atomSimple() {
        StarSchema.ColumnInfo c = column(TypeKind.INTEGER, TypeKind.DECIMAL, TypeKind.VARCHAR, TypeKind.DATE);
        if (c.nullable() && rnd.nextInt(4) == 0) {
            return ref(c) + " IS NULL";
        }
        return ref(c) + " " + pick("=", "<", ">", "<=", ">=") + " " + literal(sample(c));
    }

    private static String zero(TypeKind k) {
        return switch (k) {
            case DECIMAL -> "0.00";
            case DOUBLE -> "0.0";
            default -> "0";
        };
    }

    // ---------------------------------------------------------------- expressions

    /** A grouping key: a column of a discrete kind or a simple expression over one. */
    private Expr groupKey() {
        int p = rnd.nextInt(10);
        if (p == 0) {
            StarSchema.ColumnInfo c = column(TypeKind.DATE);
            return new Expr("EXTRACT(YEAR FROM " + ref(c) + ")", TypeKind.BIGINT);
        }
        if (p == 1) {
            return new Expr("CASE WHEN " + atomSimple() + " THEN 'yes' ELSE 'no' END", TypeKind.VARCHAR);
        }
        StarSchema.ColumnInfo c = column(TypeKind.VARCHAR, TypeKind.BOOLEAN, TypeKind.INTEGER, TypeKind.DATE);
        if (c.name().equals("f_id") || c.name().endsWith("_name")) {
            c = column(TypeKind.VARCHAR);
        }
        return new Expr(ref(c), c.kind());
    }

    /** An aggregate call. */
    private String aggregateCall() {
        String extra = new QueryExtensions(this).aggregate();
        if (extra != null) {
            return extra;
        }
        int p = rnd.nextInt(100);
        if (p < 30) {
            return "SUM(" + numericExpr().sql + ")";
        }
        if (p < 45) {
            return "COUNT(*)";
        }
        if (p < 55) {
            return "COUNT(" + ref(column(TypeKind.INTEGER, TypeKind.VARCHAR, TypeKind.DECIMAL, TypeKind.DOUBLE,
                    TypeKind.DATE, TypeKind.BOOLEAN, TypeKind.BIGINT)) + ")";
        }
        if (p < 65) {
            return "COUNT(DISTINCT " + ref(column(TypeKind.INTEGER, TypeKind.VARCHAR, TypeKind.DATE)) + ")";
        }
        if (p < 75) {
            return "AVG(CAST(" + numericExpr().sql + " AS DOUBLE))";
        }
        if (p >= 90) {
            return moreAggregates();
        }
        StarSchema.ColumnInfo c = column(TypeKind.INTEGER, TypeKind.BIGINT, TypeKind.DECIMAL, TypeKind.DOUBLE,
                TypeKind.DATE, TypeKind.VARCHAR);
        return (rnd.nextBoolean() ? "MIN(" : "MAX(") + ref(c) + ")";
    }

    /** SUM and AVG of DISTINCT values, a standard deviation or variance, MIN and MAX of computed strings and conditions, FILTER. */
    private String moreAggregates() {
        StarSchema.ColumnInfo n = column(TypeKind.INTEGER, TypeKind.DECIMAL);
        // DISTINCT only where the construct is on, so that switching it off keeps it out
        int first = on(QueryConstruct.DISTINCT_AGGREGATE) ? 0 : 2;
        return switch (first + rnd.nextInt(7 - first)) {
            case 0 -> "SUM(DISTINCT " + ref(n) + ")";
            case 1 -> "AVG(DISTINCT " + ref(n) + ")";
            case 2 -> pick("STDDEV_SAMP(", "STDDEV_POP(", "VAR_SAMP(", "VAR_POP(") + ref(n) + ")";
            case 3 -> pick("MIN(", "MAX(") + pick("UPPER(", "LOWER(") + ref(column(TypeKind.VARCHAR)) + "))";
            // BOOL_AND and BOOL_OR as Calcite's standard table and DuckDB both have them: MIN and MAX of a condition
            case 4 -> pick("MIN(", "MAX(") + atomSimple() + ")";
            case 5 -> "COUNT(*) FILTER (WHERE " + atomSimple() + ")";
            default -> "SUM(" + ref(n) + ") FILTER (WHERE " + atomSimple() + ")";
        };
    }

    private String havingPredicate() {
        return switch (rnd.nextInt(3)) {
            case 0 -> "COUNT(*) > " + rnd.nextInt(30);
            case 1 -> {
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER, TypeKind.DECIMAL);
                yield "SUM(" + ref(c) + ") " + pick("<", ">") + " " + literal(sample(c));
            }
            default -> {
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER, TypeKind.DATE, TypeKind.VARCHAR);
                yield "MIN(" + ref(c) + ") " + pick("<", ">", "<=", ">=") + " " + literal(sample(c));
            }
        };
    }

    /** A numeric expression for SUM and AVG (no integer overflow at this data size). */
    Expr numericExpr() {
        int p = rnd.nextInt(8);
        switch (p) {
            case 0 -> {
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER);
                return new Expr(ref(c) + " * " + (1 + rnd.nextInt(4)) + " - " + rnd.nextInt(10), TypeKind.INTEGER);
            }
            case 1 -> {
                StarSchema.ColumnInfo a = column(TypeKind.DECIMAL);
                StarSchema.ColumnInfo b = column(TypeKind.DECIMAL);
                return new Expr(ref(a) + " " + pick("+", "-") + " " + ref(b), TypeKind.DECIMAL);
            }
            case 2 -> {
                StarSchema.ColumnInfo c = column(TypeKind.DOUBLE);
                return new Expr(ref(c) + " * 1.5 + 2.25", TypeKind.DOUBLE);
            }
            case 3 -> {
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER);
                return new Expr("CASE WHEN " + atomSimple() + " THEN " + ref(c) + " ELSE 0 END", TypeKind.INTEGER);
            }
            case 4 -> {
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER, TypeKind.DECIMAL);
                return new Expr("COALESCE(" + ref(c) + ", " + zero(c.kind()) + ")", c.kind());
            }
            default -> {
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER, TypeKind.BIGINT, TypeKind.DECIMAL, TypeKind.DOUBLE);
                return new Expr(ref(c), c.kind());
            }
        }
    }

    /** A scalar output expression of a plain (non-aggregate) query. */
    private Expr scalar(int depth) {
        int p = rnd.nextInt(12);
        switch (p) {
            case 0 -> {
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER);
                return new Expr("CAST(" + ref(c) + " AS " + pick("BIGINT", "DOUBLE", "DECIMAL(12,2)") + ")",
                        TypeKind.BIGINT);
            }
            case 1 -> {
                StarSchema.ColumnInfo c = column(TypeKind.DECIMAL);
                return new Expr("CAST(" + ref(c) + " AS DOUBLE) / 4.0", TypeKind.DOUBLE);
            }
            case 2 -> {
                return numericExpr();
            }
            case 3 -> {
                StarSchema.ColumnInfo c = column(TypeKind.VARCHAR);
                return new Expr(pick("LOWER(", "UPPER(") + ref(c) + ")", TypeKind.VARCHAR);
            }
            case 4 -> {
                StarSchema.ColumnInfo a = column(TypeKind.VARCHAR);
                StarSchema.ColumnInfo b = column(TypeKind.VARCHAR);
                return new Expr(ref(a) + " || '-' || " + ref(b), TypeKind.VARCHAR);
            }
            case 5 -> {
                return new Expr("CASE WHEN " + atomSimple() + " THEN 'yes' WHEN " + atomSimple()
                        + " THEN 'maybe' ELSE 'no' END", TypeKind.VARCHAR);
            }
            case 6 -> {
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER, TypeKind.BIGINT);
                return new Expr("ABS(" + ref(c) + ")", c.kind());
            }
            case 7 -> {
                return new Expr("(" + atom() + ")", TypeKind.BOOLEAN);
            }
            default -> {
                StarSchema.ColumnInfo c = column(TypeKind.INTEGER, TypeKind.BIGINT, TypeKind.DECIMAL, TypeKind.DOUBLE,
                        TypeKind.DATE, TypeKind.VARCHAR, TypeKind.BOOLEAN);
                return new Expr(ref(c), c.kind());
            }
        }
    }

    @SafeVarargs
    final <T> T pick(T... options) {
        return options[rnd.nextInt(options.length)];
    }
}
