package io.tessera.difftest;

import io.tessera.storage.TypeKind;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random boolean expressions over the columns in scope of a {@link RandomSchema} query: comparisons with
 * constants and with other columns (across numeric types too), BETWEEN (also with its bounds reversed), IN lists
 * (sometimes holding NULL), LIKE, IS [NOT] NULL, boolean columns, COALESCE, integer and DECIMAL arithmetic, CASE,
 * and AND/OR/NOT over them. Constants mostly come from the column's own values, so predicates select some rows,
 * and every predicate can be NULL where its columns are. It stays clear of what legitimately differs or fails:
 * no division, constants of at most three decimals (see {@link ExcludedConstruct}).
 */
public final class RandomPredicate {

    /** A column as the query names it ({@code a.c1}). */
    public record Ref(String sql, RandomSchema.Column column) {
        public TypeKind kind() {
            return column.kind();
        }
    }

    private final Random rnd;
    private final List<Ref> scope;

    public RandomPredicate(Random rnd, List<Ref> scope) {
        this.rnd = rnd;
        this.scope = scope;
    }

    /** A predicate of nesting depth at most {@code depth}. */
    public String predicate(int depth) {
        int p = rnd.nextInt(100);
        if (depth > 0 && p < 25) {
            return "(" + predicate(depth - 1) + (rnd.nextBoolean() ? " AND " : " OR ") + predicate(depth - 1) + ")";
        }
        if (depth > 0 && p < 33) {
            return "NOT (" + predicate(depth - 1) + ")";
        }
        if (depth > 0 && p < 37) {
            return "CASE WHEN " + predicate(depth - 1) + " THEN " + predicate(depth - 1) + " ELSE "
                    + predicate(depth - 1) + " END";
        }
        return atom();
    }

    private String atom() {
        Ref c = any();
        switch (rnd.nextInt(14)) {
            case 0, 1, 2 -> {
                return c.sql() + " " + op() + " " + constant(c);
            }
            case 3 -> {
                Ref d = comparable(c);
                return d == null ? c.sql() + " IS NULL" : c.sql() + " " + op() + " " + d.sql();
            }
            case 4 -> {
                if (c.kind() == TypeKind.BOOLEAN) {
                    return c.sql() + (rnd.nextBoolean() ? " IS TRUE" : " IS NOT FALSE");
                }
                String a = constant(c);
                String b = constant(c);
                return c.sql() + (rnd.nextInt(4) == 0 ? " NOT" : "") + " BETWEEN " + a + " AND " + b;
            }
            case 5 -> {
                if (c.kind() == TypeKind.DOUBLE || c.kind() == TypeKind.BOOLEAN) {
                    return c.sql() + " IS NOT NULL";
                }
                int n = 1 + rnd.nextInt(4);
                List<String> vals = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    String v = rnd.nextInt(8) == 0 ? "NULL" : constant(c);
                    if (!vals.contains(v)) {
                        vals.add(v);
                    }
                }
                if (vals.equals(List.of("NULL"))) {
                    vals.add(constant(c));
                }
                return c.sql() + (rnd.nextInt(3) == 0 ? " NOT" : "") + " IN (" + String.join(", ", vals) + ")";
            }
            case 6 -> {
                Ref s = of(TypeKind.VARCHAR);
                if (s == null) {
                    return c.sql() + " IS NULL";
                }
                return s.sql() + (rnd.nextInt(3) == 0 ? " NOT" : "") + " LIKE " + RandomQueryGenerator.literal(
                        pattern((String) sample(s)));
            }
            case 7 -> {
                return c.sql() + (rnd.nextBoolean() ? " IS NULL" : " IS NOT NULL");
            }
            case 8 -> {
                Ref b = of(TypeKind.BOOLEAN);
                if (b == null) {
                    return c.sql() + " IS NOT NULL";
                }
                return switch (rnd.nextInt(3)) {
                    case 0 -> b.sql();
                    case 1 -> "NOT " + b.sql();
                    default -> b.sql() + " = " + (rnd.nextBoolean() ? "TRUE" : "FALSE");
                };
            }
            case 9 -> {
                if (!exactNumeric(c.kind())) {
                    return c.sql() + " " + op() + " " + constant(c);
                }
                return "COALESCE(" + c.sql() + ", " + constant(c) + ") " + op() + " " + constant(c);
            }
            case 10 -> {
                if (!exactNumeric(c.kind())) {
                    return c.sql() + " IS NULL";
                }
                // small factors and terms: no overflow on the generated values
                String term = rnd.nextBoolean() ? " * " + (1 + rnd.nextInt(3)) : " " + (rnd.nextBoolean() ? "+" : "-")
                        + " " + (1 + rnd.nextInt(9));
                return c.sql() + term + " " + op() + " " + constant(c);
            }
            case 11 -> {
                // a CASE that yields a value, compared
                String then = constant(c);
                String other = rnd.nextBoolean() ? c.sql() : "NULL";
                return "CASE WHEN " + predicate(0) + " THEN " + then + " ELSE " + other + " END " + op() + " "
                        + constant(c);
            }
            case 12 -> {
                // a comparison with NULL is NULL whatever the value
                return c.sql() + " " + op() + " NULL";
            }
            default -> {
                return c.sql() + " " + op() + " " + constant(c);
            }
        }
    }

    /** A constant for comparing with {@code c}: one of its values mostly, sometimes another of its type's. */
    public String constant(Ref c) {
        Object v = rnd.nextInt(5) == 0 ? RandomSchema.value(c.column().type(), rnd) : sample(c);
        if (c.kind() == TypeKind.DOUBLE && v instanceof Double d && (d.isNaN() || d.isInfinite())) {
            return "CAST('" + (d.isNaN() ? "NaN" : d > 0 ? "Infinity" : "-Infinity") + "' AS DOUBLE)";
        }
        if (v instanceof BigDecimal b && b.scale() == 0 && rnd.nextInt(3) == 0) {
            // an integer column against a DECIMAL constant and back
            return b.toPlainString() + ".5";
        }
        if (v instanceof Integer i && rnd.nextInt(6) == 0) {
            return i + ".5";
        }
        return RandomQueryGenerator.literal(v);
    }

    private Object sample(Ref c) {
        List<Object> vs = c.column().values();
        return vs.get(rnd.nextInt(vs.size()));
    }

    private String pattern(String s) {
        return switch (rnd.nextInt(5)) {
            case 0 -> s.substring(0, Math.min(s.length(), 1)) + "%";
            case 1 -> "%" + s.substring(Math.max(0, s.length() - 1));
            case 2 -> "_" + s.substring(Math.min(1, s.length())) + "%";
            case 3 -> s;
            default -> "%";
        };
    }

    private String op() {
        String[] ops = {"=", "<>", "<", ">", "<=", ">="};
        return ops[rnd.nextInt(ops.length)];
    }

    private Ref any() {
        return scope.get(rnd.nextInt(scope.size()));
    }

    private Ref of(TypeKind k) {
        List<Ref> c = scope.stream().filter(r -> r.kind() == k).toList();
        return c.isEmpty() ? null : c.get(rnd.nextInt(c.size()));
    }

    /** Another column comparable with {@code c}: any numeric one for a number, else one of its kind. */
    private Ref comparable(Ref c) {
        List<Ref> cands = scope.stream().filter(r -> r != c && (r.kind() == c.kind()
                || numeric(r.kind()) && numeric(c.kind()))).toList();
        return cands.isEmpty() ? null : cands.get(rnd.nextInt(cands.size()));
    }

    static boolean numeric(TypeKind k) {
        return k == TypeKind.INTEGER || k == TypeKind.BIGINT || k == TypeKind.DECIMAL || k == TypeKind.DOUBLE;
    }

    static boolean exactNumeric(TypeKind k) {
        return k == TypeKind.INTEGER || k == TypeKind.BIGINT || k == TypeKind.DECIMAL;
    }
}
