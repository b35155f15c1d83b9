package io.tessera.spark;

import io.tessera.storage.TableSchema;
import io.tessera.storage.TypeKind;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Spark's pushed predicates as SQL conditions Tessera evaluates exactly as Spark would, each literal a bound {@code ?}
 * parameter: comparisons of a column with a literal of the column's own type (or with another column of the same type), IS [NOT] NULL, IN lists, AND, OR and
 * NOT of those. SQL's three-valued logic is Spark's, so a row passes in Tessera exactly when it would pass in Spark.
 * Anything else (functions, casts, null-safe equality, string patterns, and order comparisons on DOUBLE, where
 * Spark's NaN sorts above every number and SQL's does not compare) gives null: Spark keeps that predicate.
 */
final class PredicateSql {

    private static final Set<String> COMPARISONS = Set.of("=", "<>", "<", "<=", ">", ">=");

    private final TableSchema schema;

    PredicateSql(TableSchema schema) {
        this.schema = schema;
    }

    /**
     * The predicate as a parenthesized SQL condition with a {@code ?} for each literal, or null when Tessera cannot
     * evaluate it as Spark does.
     */
    Condition sql(Predicate p) {
        Expression[] args = p.children();
        switch (p.name()) {
            case "AND", "OR" -> {
                Condition l = sql((Predicate) args[0]);
                Condition r = sql((Predicate) args[1]);
                return l == null || r == null ? null : Condition.join(p.name(), l, r);
            }
            case "NOT" -> {
                Condition inner = sql((Predicate) args[0]);
                return inner == null ? null : new Condition("(NOT " + inner.sql() + ")", inner.values());
            }
            case "IS_NULL", "IS_NOT_NULL" -> {
                String c = column(args[0]);
                return c == null ? null
                        : Condition.of("(" + c + (p.name().equals("IS_NULL") ? " IS NULL)" : " IS NOT NULL)"));
            }
            case "IN" -> {
                return in(args);
            }
            case "ALWAYS_TRUE" -> {
                return Condition.of("(TRUE)");
            }
            case "ALWAYS_FALSE" -> {
                return Condition.of("(FALSE)");
            }
            default -> {
                return COMPARISONS.contains(p.name()) ? comparison(p.name(), args[0], args[1]) : null;
            }
        }
    }

    private Condition comparison(String op, Expression left, Expression right) {
        org.apache.spark.sql.types.DataType lt = type(left);
        org.apache.spark.sql.types.DataType rt = type(right);
        if (lt == null || !lt.equals(rt)) {
            return null;
        }
        if (!op.equals("=") && !op.equals("<>") && isDouble(left, right)) {
            return null;
        }
        List<Object> values = new ArrayList<>();
        String l = operand(left, values);
        String r = operand(right, values);
        return l == null || r == null ? null : new Condition("(" + l + " " + op + " " + r + ")", values);
    }

    private Condition in(Expression[] args) {
        String c = column(args[0]);
        if (c == null || isDouble(args[0], args[0])) {
            return null;
        }
        org.apache.spark.sql.types.DataType t = type(args[0]);
        List<Object> values = new ArrayList<>();
        StringBuilder sb = new StringBuilder("(").append(c).append(" IN (");
        for (int i = 1; i < args.length; i++) {
            if (!(args[i] instanceof Literal<?> lit) || !t.equals(lit.dataType())) {
                return null;
            }
            Object v = SqlText.value(lit.value(), lit.dataType());
            if (v == null) {
                return null; // a NULL in the list, or a value Tessera has not
            }
            values.add(v);
            sb.append(i > 1 ? ", ?" : "?");
        }
        return new Condition(sb.append("))").toString(), values);
    }

    /** A column's quoted name, or {@code ?} with the literal's value added to {@code values}; null: neither. */
    private String operand(Expression e, List<Object> values) {
        if (e instanceof Literal<?> lit) {
            Object v = SqlText.value(lit.value(), lit.dataType());
            if (v == null) {
                return null;
            }
            values.add(v);
            return "?";
        }
        return column(e);
    }

    /** The quoted column an expression references, or null when it is not a plain column of this table. */
    private String column(Expression e) {
        if (!(e instanceof NamedReference ref) || ref.fieldNames().length != 1) {
            return null;
        }
        return SqlText.column(schema, ref.fieldNames()[0]);
    }

    private org.apache.spark.sql.types.DataType type(Expression e) {
        if (e instanceof Literal<?> lit) {
            return lit.dataType();
        }
        if (column(e) == null) {
            return null;
        }
        return SparkTypes.of(schema.column(((NamedReference) e).fieldNames()[0]).type());
    }

    private boolean isDouble(Expression a, Expression b) {
        return kind(a) == TypeKind.DOUBLE || kind(b) == TypeKind.DOUBLE;
    }

    private TypeKind kind(Expression e) {
        if (column(e) == null) {
            return null;
        }
        return schema.column(((NamedReference) e).fieldNames()[0]).type().kind();
    }
}
