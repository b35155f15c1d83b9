package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLambda;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * DuckDB's aggregates that are expressions of the aggregates the engine runs, written as those expressions before
 * validation, so that they run wherever those run: in parallel (each worker's counts, sums and Welford moments
 * merged), with FILTER, and as window functions over any frame. Run after ColumnNames, so a result column keeps the
 * name of the call as written.
 * <ul>
 * <li>{@code count_if(c)}: the SUM of 1 for TRUE and 0 for FALSE (NULL over no values, as DuckDB's; DISTINCT kept;
 * a BIGINT where DuckDB's is a HUGEINT);</li>
 * <li>the statistics of pairs {@code f(y, x)} over the rows where neither is NULL: the covariance from three
 * population variances, {@code (var_pop(x + y) - var_pop(x) - var_pop(y)) / 2}, so that large means cancel in
 * Welford's updates rather than in a difference of sums of products; {@code corr}, the {@code regr_} family from it
 * as DuckDB defines them (NaN where DuckDB divides zero by zero, NULL where it returns NULL);</li>
 * <li>{@code kurtosis}, {@code kurtosis_pop} and {@code skewness} from the sums of the first four powers, DuckDB's own
 * formulas;</li>
 * <li>{@code geomean} ({@code geometric_mean}): {@code exp(avg(ln(x)))}, as DuckDB's (0 with a 0, NaN with a negative
 * value);</li>
 * <li>{@code favg}, {@code fsum} ({@code sumkahan}, {@code kahan_sum}): AVG and SUM of the values as DOUBLEs (summed
 * plainly, not compensated);</li>
 * <li>{@code histogram}: a MAP from each value but NULL, keys in order, to its count, from LIST and list functions
 * (a BIGINT count where DuckDB's is a UBIGINT);</li>
 * <li>{@code sem}: the population's standard deviation over the root of the count; {@code weighted_avg}
 * ({@code wavg}): the sum of value times weight over the sum of the weights, of the rows where neither is NULL;
 * {@code count_star()}: COUNT(*);</li>
 * <li>{@code quantile_disc}, {@code quantile_cont} and {@code quantile} with a list of fractions: the list of the
 * quantiles, NULL over no values; {@code approx_quantile}: the exact {@code quantile_disc}, which DuckDB's t-digest
 * approximates (so on larger inputs the two may differ).</li>
 * </ul>
 * DISTINCT is refused where the expression would apply it to something else than the argument (a pair, a power).
 */
final class DerivedAggregates {

    private DerivedAggregates() {
    }

    /** The number of arguments of each function rewritten here. */
    private static final Map<String, Integer> ARITY = Map.ofEntries(
            Map.entry("COUNT_IF", 1), Map.entry("KURTOSIS", 1), Map.entry("KURTOSIS_POP", 1), Map.entry("SKEWNESS", 1),
            Map.entry("GEOMEAN", 1), Map.entry("GEOMETRIC_MEAN", 1), Map.entry("FAVG", 1), Map.entry("FSUM", 1),
            Map.entry("SUMKAHAN", 1), Map.entry("KAHAN_SUM", 1), Map.entry("HISTOGRAM", 1),
            Map.entry("CORR", 2), Map.entry("COVAR_POP", 2), Map.entry("COVAR_SAMP", 2), Map.entry("REGR_SLOPE", 2),
            Map.entry("REGR_INTERCEPT", 2), Map.entry("REGR_R2", 2), Map.entry("REGR_COUNT", 2),
            Map.entry("REGR_AVGX", 2), Map.entry("REGR_AVGY", 2), Map.entry("REGR_SXX", 2), Map.entry("REGR_SYY", 2),
            Map.entry("REGR_SXY", 2), Map.entry("SEM", 1), Map.entry("WEIGHTED_AVG", 2), Map.entry("WAVG", 2),
            Map.entry("COUNT_STAR", 0));

    /**
     * The quantiles rewritten here: APPROX_QUANTILE as the exact QUANTILE_DISC, and any of them with a list of
     * fractions as the list of one quantile per fraction.
     */
    private static final Set<String> QUANTILES = Set.of("QUANTILE_DISC", "QUANTILE_CONT", "QUANTILE",
            "APPROX_QUANTILE");

    /** The functions whose DISTINCT applies to the argument unchanged (a cast, a logarithm, a CASE of it). */
    private static final Set<String> DISTINCT_KEPT = Set.of("COUNT_IF", "GEOMEAN", "GEOMETRIC_MEAN", "FAVG", "FSUM",
            "SUMKAHAN", "KAHAN_SUM", "QUANTILE_DISC", "QUANTILE_CONT", "QUANTILE", "APPROX_QUANTILE");

    static final Set<String> NAMES = names();

    private static Set<String> names() {
        Set<String> all = new java.util.HashSet<>(ARITY.keySet());
        all.add("APPROX_QUANTILE");
        return Set.copyOf(all);
    }

    static SqlNode rewrite(SqlNode parsed) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call.getKind() == SqlKind.OVER && call.operand(0) instanceof SqlCall inner) {
                    SqlNode window = call.operand(1);
                    SqlNode visitedWindow = window == null ? null : window.accept(this);
                    SqlParserPos pos = call.getParserPosition();
                    SqlNode derived = derived(inner, this, true, agg -> SqlStdOperatorTable.OVER.createCall(pos, agg,
                            visitedWindow == null ? null : visitedWindow.clone(visitedWindow.getParserPosition())));
                    if (derived != null) {
                        return derived;
                    }
                }
                SqlNode derived = derived(call, this, false, UnaryOperator.identity());
                return derived != null ? derived : super.visit(call);
            }
        });
        return r == null ? parsed : r;
    }

    /**
     * The expression of {@code call} (an aggregate named here, or its FILTER), each aggregate it uses passed through
     * {@code over} (a window's OVER), or null where the call is none of these.
     */
    private static SqlNode derived(SqlCall call, SqlShuttle inside, boolean windowed, UnaryOperator<SqlNode> over) {
        SqlNode filter = null;
        SqlCall fn = call;
        if (call.getKind() == SqlKind.FILTER && call.operand(0) instanceof SqlCall f) {
            fn = f;
            filter = call.operand(1).accept(inside);
        }
        if (!(fn.getOperator() instanceof SqlUnresolvedFunction)) {
            return null;
        }
        String name = fn.getOperator().getName().toUpperCase(Locale.ROOT);
        Integer arity = ARITY.get(name);
        boolean quantile = QUANTILES.contains(name) && (name.startsWith("APPROX")
                || fn.operandCount() == 2 && fn.operand(1).getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR);
        if (arity == null && !quantile) {
            return null;
        }
        List<SqlNode> args = new ArrayList<>();
        for (SqlNode a : fn.getOperandList()) {
            if (!(a instanceof SqlNodeList)) { // an ORDER BY inside the parentheses changes none of these
                args.add(a.accept(inside));
            }
        }
        String lower = name.toLowerCase(Locale.ROOT);
        SqlParserPos pos = fn.getParserPosition();
        if (quantile) {
            arity = 2;
        }
        if (args.size() != arity) {
            throw new SqlError(lower + " takes " + switch (arity) {
                case 0 -> "no arguments";
                case 1 -> "one argument";
                default -> quantile ? "two arguments (a value and a fraction or a list of fractions)" : "two arguments";
            } + ", not " + args.size() + SupportCheck.at(pos));
        }
        boolean distinct = fn.getFunctionQuantifier() != null
                && fn.getFunctionQuantifier().getValue() == SqlSelectKeyword.DISTINCT;
        if (distinct && !DISTINCT_KEPT.contains(name)) {
            throw SupportCheck.unsupported(lower + "(DISTINCT ...)", pos);
        }
        SqlNode finalFilter = filter;
        Builder b = new Builder(pos, distinct, windowed, agg -> over.apply(finalFilter == null ? agg
                : SqlStdOperatorTable.FILTER.createCall(pos, agg, finalFilter.clone(finalFilter.getParserPosition()))));
        if (quantile) {
            return b.quantiles(name, args.get(0), args.get(1));
        }
        if (arity == 0) {
            return b.wrap.apply(SqlStdOperatorTable.COUNT.createCall(pos, SqlIdentifier.star(pos)));
        }
        return arity == 1 ? b.single(name, args.get(0)) : b.pair(name, args.get(0), args.get(1));
    }

    /** Builds one call's expression: its aggregates (DISTINCT, FILTER and OVER applied) and the arithmetic around. */
    private record Builder(SqlParserPos pos, boolean distinct, boolean windowed, UnaryOperator<SqlNode> wrap) {

        SqlNode single(String name, SqlNode arg) {
            SqlNode x = asDouble(arg);
            return switch (name) {
                // 1 for TRUE, 0 for FALSE, NULL for NULL: DuckDB's count_if is NULL over no values that are not NULL
                case "COUNT_IF" -> agg("SUM", new SqlCase(pos, null,
                        SqlNodeList.of(copy(arg), SqlStdOperatorTable.NOT.createCall(pos, copy(arg))),
                        SqlNodeList.of(SqlLiteral.createExactNumeric("1", pos), SqlLiteral.createExactNumeric("0", pos)),
                        SqlLiteral.createNull(pos)));
                case "FAVG" -> agg("AVG", x);
                case "FSUM", "SUMKAHAN", "KAHAN_SUM" -> agg("SUM", x);
                // LOG2 gives -Infinity and NaN outside its domain, as DuckDB's logarithm does (LN fails there)
                case "GEOMEAN", "GEOMETRIC_MEAN" -> fn("POWER", dbl("2"), agg("AVG", fn("LOG2", x)));
                case "KURTOSIS", "KURTOSIS_POP" -> kurtosis(x, name.equals("KURTOSIS"));
                case "SKEWNESS" -> skewness(x);
                case "HISTOGRAM" -> histogram(arg);
                // the standard error of the mean: the population's standard deviation over the root of the count
                case "SEM" -> fn("SQRT", div(variance(copy(x), false), asDouble(agg("COUNT", copy(x)))));
                default -> throw new IllegalStateException(name);
            };
        }

        /**
         * DuckDB's kurtosis from n and the power sums: NULL over too few rows (sample: 3, population: 1) or no
         * spread; {@code m4 / m2^2 - 3} for the population, bias-corrected for the sample.
         */
        private SqlNode kurtosis(SqlNode x, boolean sample) {
            SqlNode n = asDouble(agg("COUNT", copy(x)));
            SqlNode t = div(dbl("1"), copy(n));
            SqlNode s1 = agg("SUM", copy(x));
            SqlNode s2 = agg("SUM", times(copy(x), copy(x)));
            SqlNode s3 = agg("SUM", times(copy(x), copy(x), copy(x)));
            SqlNode s4 = agg("SUM", times(copy(x), copy(x), copy(x), copy(x)));
            SqlNode spread = minus(copy(s2), times(copy(s1), copy(s1), copy(t)));
            SqlNode m4 = times(copy(t), minus(plus(minus(copy(s4), times(dbl("4"), copy(s3), copy(s1), copy(t))),
                            times(dbl("6"), copy(s2), copy(s1), copy(s1), copy(t), copy(t))),
                    times(dbl("3"), copy(s1), copy(s1), copy(s1), copy(s1), copy(t), copy(t), copy(t))));
            SqlNode m2 = times(copy(t), copy(spread));
            SqlNode ratio = div(m4, times(copy(m2), copy(m2)));
            SqlNode value = sample
                    ? div(times(minus(copy(n), dbl("1")), minus(times(plus(copy(n), dbl("1")), ratio),
                            times(dbl("3"), minus(copy(n), dbl("1"))))),
                            times(minus(copy(n), dbl("2")), minus(copy(n), dbl("3"))))
                    : minus(ratio, dbl("3"));
            return cases(List.of(
                    SqlStdOperatorTable.LESS_THAN_OR_EQUAL.createCall(pos, n, dbl(sample ? "3" : "1")),
                    SqlStdOperatorTable.EQUALS.createCall(pos, spread, dbl("0")),
                    SqlStdOperatorTable.LESS_THAN_OR_EQUAL.createCall(pos, m2, dbl("0"))),
                    List.of(nul(), nul(), nul()), value);
        }

        /** DuckDB's skewness: NULL over fewer than three rows or no spread. */
        private SqlNode skewness(SqlNode x) {
            SqlNode n = asDouble(agg("COUNT", copy(x)));
            SqlNode t = div(dbl("1"), copy(n));
            SqlNode s1 = agg("SUM", copy(x));
            SqlNode s2 = agg("SUM", times(copy(x), copy(x)));
            SqlNode s3 = agg("SUM", times(copy(x), copy(x), copy(x)));
            SqlNode m2 = times(copy(t), minus(copy(s2), times(copy(s1), copy(s1), copy(t))));
            SqlNode p = times(copy(m2), copy(m2), copy(m2));
            SqlNode div = fn("SQRT", copy(p));
            SqlNode bias = div(fn("SQRT", times(copy(n), minus(copy(n), dbl("1")))), minus(copy(n), dbl("2")));
            SqlNode value = div(times(bias, copy(t), plus(minus(copy(s3), times(dbl("3"), copy(s2), copy(s1), copy(t))),
                    times(dbl("2"), copy(s1), copy(s1), copy(s1), copy(t), copy(t)))), copy(div));
            return cases(List.of(
                    SqlStdOperatorTable.LESS_THAN_OR_EQUAL.createCall(pos, n, dbl("2")),
                    SqlStdOperatorTable.LESS_THAN_OR_EQUAL.createCall(pos, p, dbl("0"))),
                    List.of(nul(), nul()), value);
        }

        /** A statistic of the pairs (y, x) where neither is NULL. */
        SqlNode pair(String name, SqlNode yArg, SqlNode xArg) {
            SqlNode y = when(SqlStdOperatorTable.IS_NOT_NULL.createCall(pos, copy(xArg)), asDouble(yArg));
            SqlNode x = when(SqlStdOperatorTable.IS_NOT_NULL.createCall(pos, copy(yArg)), asDouble(xArg));
            SqlNode vx = variance(copy(x), false);
            SqlNode vy = variance(copy(y), false);
            SqlNode cov = div(minus(minus(variance(plus(copy(x), copy(y)), false), copy(vx)), copy(vy)), dbl("2"));
            SqlNode zero = dbl("0");
            return switch (name) {
                case "COVAR_POP" -> cov;
                case "COVAR_SAMP" -> div(minus(minus(variance(plus(copy(x), copy(y)), true), variance(copy(x), true)),
                        variance(copy(y), true)), dbl("2"));
                case "CORR" -> cases(List.of(eq(times(copy(vx), copy(vy)), zero)), List.of(nan()),
                        div(cov, fn("SQRT", times(vx, vy))));
                case "REGR_SLOPE" -> cases(List.of(eq(copy(vx), zero)), List.of(nan()), div(cov, vx));
                case "REGR_INTERCEPT" -> cases(List.of(eq(copy(vx), zero)), List.of(nul()),
                        minus(agg("AVG", y), times(div(cov, copy(vx)), agg("AVG", x))));
                case "REGR_R2" -> cases(List.of(eq(copy(vx), zero), eq(copy(vy), dbl("0"))), List.of(nul(), dbl("1")),
                        div(times(copy(cov), cov), times(vx, vy)));
                case "REGR_COUNT" -> agg("COUNT", x);
                case "REGR_AVGX" -> agg("AVG", x);
                case "REGR_AVGY" -> agg("AVG", y);
                case "REGR_SXX" -> times(vx, agg("COUNT", x));
                case "REGR_SYY" -> times(vy, agg("COUNT", x));
                case "REGR_SXY" -> times(cov, agg("COUNT", x));
                // the values (y) weighted by the weights (x), over the rows where neither is NULL
                case "WEIGHTED_AVG", "WAVG" -> div(agg("SUM", times(copy(y), copy(x))), agg("SUM", copy(x)));
                default -> throw new IllegalStateException(name);
            };
        }

        /**
         * A quantile of the values at a fraction, or at each of a list of fractions (the list of those quantiles,
         * NULL where no value is not NULL, as DuckDB's). APPROX_QUANTILE is the exact QUANTILE_DISC, of which
         * DuckDB's t-digest gives an approximation.
         */
        SqlNode quantiles(String name, SqlNode x, SqlNode fractions) {
            String exact = name.equals("APPROX_QUANTILE") ? "QUANTILE_DISC" : name;
            if (fractions.getKind() != SqlKind.ARRAY_VALUE_CONSTRUCTOR) {
                return wrap.apply(new SqlBasicCall(function(exact), List.of(copy(x), fractions), pos,
                        distinct ? SqlSelectKeyword.DISTINCT.symbol(pos) : null));
            }
            List<SqlNode> each = new ArrayList<>();
            for (SqlNode f : ((SqlCall) fractions).getOperandList()) {
                each.add(wrap.apply(new SqlBasicCall(function(exact), List.of(copy(x), f), pos,
                        distinct ? SqlSelectKeyword.DISTINCT.symbol(pos) : null)));
            }
            if (each.isEmpty()) {
                throw SupportCheck.unsupported(name.toLowerCase(Locale.ROOT) + " with an empty list of fractions", pos);
            }
            SqlNode list = SqlStdOperatorTable.ARRAY_VALUE_CONSTRUCTOR.createCall(pos, each);
            SqlNode some = SqlStdOperatorTable.GREATER_THAN.createCall(pos, agg("COUNT", copy(x)),
                    SqlLiteral.createExactNumeric("0", pos));
            return new SqlCase(pos, null, SqlNodeList.of(some), SqlNodeList.of(list), SqlLiteral.createNull(pos));
        }

        /**
         * The population or sample variance: VAR_POP or VAR_SAMP (Welford's), and in a window, where only COUNT, SUM
         * and AVG run, from the sums of the values and their squares.
         */
        private SqlNode variance(SqlNode x, boolean sample) {
            if (!windowed) {
                return agg(sample ? "VAR_SAMP" : "VAR_POP", x);
            }
            SqlNode n = asDouble(agg("COUNT", copy(x)));
            SqlNode s1 = agg("SUM", copy(x));
            SqlNode spread = minus(agg("SUM", times(copy(x), x)), div(times(s1, copy(s1)), copy(n)));
            return sample ? cases(List.of(SqlStdOperatorTable.GREATER_THAN.createCall(pos, copy(n), dbl("1"))),
                    List.of(div(spread, minus(n, dbl("1")))), nul()) : div(spread, n);
        }

        /**
         * {@code histogram(x)}: the map from each value but NULL, in order, to the number of its rows, from the list
         * of the values: {@code map(k, list_transform(k, v -> len(list_filter(list(x), y -> y = v))))} with {@code k}
         * the sorted distinct values (quadratic in the distinct values of a group, linear in its rows per value),
         * NULL where the group has no value but NULL.
         */
        private SqlNode histogram(SqlNode x) {
            SqlNode keys = fn("LIST_SORT", fn("LIST_DISTINCT", agg("LIST", copy(x))));
            SqlIdentifier key = new SqlIdentifier("histogram_key", pos);
            SqlIdentifier value = new SqlIdentifier("histogram_value", pos);
            SqlNode same = new SqlLambda(pos, SqlNodeList.of(value), eq(value.clone(pos), key.clone(pos)));
            SqlNode count = fn("LEN", fn("LIST_FILTER", agg("LIST", copy(x)), same));
            SqlNode counts = fn("LIST_TRANSFORM", copy(keys), new SqlLambda(pos, SqlNodeList.of(key), count));
            // NULL where no value is not NULL, as DuckDB's (the map of no keys otherwise): the keys NULL there
            SqlNode someKeys = new SqlCase(pos, null, SqlNodeList.of(SqlStdOperatorTable.GREATER_THAN.createCall(pos,
                    agg("COUNT", copy(x)), SqlLiteral.createExactNumeric("0", pos))), SqlNodeList.of(copy(keys)),
                    SqlLiteral.createNull(pos));
            return fn("MAP", someKeys, counts);
        }

        private SqlNode agg(String name, SqlNode arg) {
            SqlLiteral quantifier = distinct ? SqlSelectKeyword.DISTINCT.symbol(pos) : null;
            return wrap.apply(new SqlBasicCall(function(name), List.of(arg), pos, quantifier));
        }

        private SqlNode fn(String name, SqlNode... args) {
            return new SqlBasicCall(function(name), List.of(args), pos);
        }

        private static SqlUnresolvedFunction function(String name) {
            return new SqlUnresolvedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), null, null, null, null,
                    SqlFunctionCategory.USER_DEFINED_FUNCTION);
        }

        private SqlNode asDouble(SqlNode e) {
            return SqlStdOperatorTable.CAST.createCall(pos, copy(e),
                    new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.DOUBLE, pos), pos));
        }

        private SqlNode when(SqlNode condition, SqlNode value) {
            return new SqlCase(pos, null, SqlNodeList.of(condition), SqlNodeList.of(value), nul());
        }

        private SqlNode cases(List<SqlNode> conditions, List<SqlNode> values, SqlNode otherwise) {
            return new SqlCase(pos, null, new SqlNodeList(conditions, pos), new SqlNodeList(values, pos), otherwise);
        }

        private SqlNode eq(SqlNode a, SqlNode b) {
            return SqlStdOperatorTable.EQUALS.createCall(pos, a, b);
        }

        private SqlNode plus(SqlNode a, SqlNode b) {
            return SqlStdOperatorTable.PLUS.createCall(pos, a, b);
        }

        private SqlNode minus(SqlNode a, SqlNode b) {
            return SqlStdOperatorTable.MINUS.createCall(pos, a, b);
        }

        private SqlNode div(SqlNode a, SqlNode b) {
            return SqlStdOperatorTable.DIVIDE.createCall(pos, a, b);
        }

        private SqlNode times(SqlNode... factors) {
            SqlNode product = factors[0];
            for (int i = 1; i < factors.length; i++) {
                product = SqlStdOperatorTable.MULTIPLY.createCall(pos, product, factors[i]);
            }
            return product;
        }

        /** A DOUBLE constant (a non-negative integer). */
        private SqlNode dbl(String value) {
            return asDouble(SqlLiteral.createExactNumeric(value, pos));
        }

        private SqlNode nan() {
            return asDouble(SqlLiteral.createCharString("NaN", pos));
        }

        private SqlNode nul() {
            return asDouble(SqlLiteral.createNull(pos));
        }

        /** Each use of a subtree its own copy: the validator keeps state per node. */
        private static SqlNode copy(SqlNode e) {
            return e.clone(e.getParserPosition());
        }
    }
}
