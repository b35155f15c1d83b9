package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.gen.JExpr;
import io.tessera.backend.ValueKind;
import io.tessera.backend.lower.NanOrder;
import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.plan.AggCall;
import io.tessera.plan.AggFunction;
import io.tessera.plan.HolisticOptions;
import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * The accumulators of aggregate functions, shared by AGGREGATE and GROUP_AGGREGATE: each aggregate's kind of
 * value ({@link AggSpec}), its FILTER guard, and the update of its count and value for one row.
 */
final class Accumulators {
    private Accumulators() {
    }

    static AggSpec spec(PipelineWriter w, AggCall a) {
        ValueKind k = ValueKind.LONG;
        String dict = null;
        DataType argType = a.arg() == null ? DataType.BIGINT : a.arg().type();
        if (a.arg() != null) {
            w.load(a.arg());
            JExpr x = w.gen.gen(a.arg());
            k = x.kind();
            dict = k == ValueKind.CODE ? x.dict() : null;
            if (k == ValueKind.STRING && a.function() != AggFunction.COUNT && a.function() != AggFunction.COUNT_DISTINCT
                    && a.function() != AggFunction.MIN && a.function() != AggFunction.MAX
                    && a.function() != AggFunction.SINGLE_VALUE && a.function() != AggFunction.ANY_VALUE
                    && !a.function().holistic()) {
                throw new SqlError("unsupported: " + a + " of a computed string");
            }
            if (a.function() == AggFunction.STRING_AGG) {
                k = ValueKind.STRING; // joined as Java strings, whether computed or read through a dictionary
                dict = null;
            }
            if (a.function() == AggFunction.STRING_AGG || a.function() == AggFunction.MODE) {
                for (HolisticOptions.OrderKey key : a.options().order()) {
                    w.load(key.key());
                }
            }
        }
        return new AggSpec(a.function(), k, argType, a.type(), dict, a.options());
    }

    static String filterGuard(PipelineWriter w, AggCall call) {
        if (call.filter() == null) {
            return null;
        }
        w.load(call.filter());
        return w.gen.gen(call.filter()).isTrue();
    }

    /**

     * Updates aggregate i for the current row: into locals ({@code local}: AGGREGATE) or into the group's slot
     * {@code grp} of the worker's table.
     */
    static void update(PipelineWriter w, AggCall call, AggSpec s, JExpr x, int i, String cnt, String val, String grp, boolean local) {
        String c = local ? cnt : "t.counts[" + i + "][" + grp + "]";
        String v = local ? val : "t." + (s.stringValue() ? "svals" : s.doubleValue() ? "dvals" : "lvals") + "[" + i + "][" + grp + "]";
        String m2 = local ? secondMoment(val) : "t.d2vals[" + i + "][" + grp + "]";
        if (call.function() == AggFunction.COUNT_STAR) {
            w.line(c + "++;");
            return;
        }
        String notNull = x.nullable() ? "!" + x.n() : null;
        String value = switch (x.kind()) {
            case BOOL -> "(" + x.v() + " ? 1L : 0L)";
            default -> x.v();
        };
        List<String> stmts = new ArrayList<>();
        switch (call.function()) {
            case COUNT -> stmts.add(c + "++;");
            case COUNT_DISTINCT, SUM_DISTINCT, AVG_DISTINCT -> {
                String dv = x.kind() == ValueKind.STRING ? x.v() : x.kind() == ValueKind.DOUBLE
                        ? "io.tessera.backend.jvm.lib.Hashing.doubleKey(" + x.v() + ")" : "(long) " + value;
                stmts.add("t.addDistinct(" + i + ", " + grp + ", " + dv + ");");
                stmts.add(c + "++;");
            }
            case SUM, SUM0, AVG -> {
                stmts.add(s.doubleValue() ? v + " += " + value + ";" : v + " = Math.addExact(" + v + ", " + value + ");");
                stmts.add(c + "++;");
            }
            case MIN, MAX -> {
                if (s.stringValue()) {
                    // strings compare by code point, as their dictionaries order them
                    stmts.add(v + " = io.tessera.backend.jvm.aggregate.GroupTable." + (s.isMin() ? "least" : "greatest") + "(" + v + ", " + value + ");");
                    stmts.add(c + "++;");
                    break;
                }
                // doubles in DuckDB's order, NaN above every number
                String beats = s.doubleValue() ? NanOrder.beats(s.isMin(), value, v) : value + (s.isMin() ? " < " : " > ") + v;
                stmts.add("if (" + c + " == 0 || " + beats + ") " + v + " = " + value + ";");
                stmts.add(c + "++;");
            }
            case QUANTILE_CONT, QUANTILE_DISC, MODE, STRING_AGG, ENTROPY, MAD -> {
                // the group's values are collected; its value is computed when the groups are complete
                String hv = call.function() == AggFunction.STRING_AGG ? w.gen.asString(x) : value;
                String keys = call.options().order().isEmpty() ? "" : ", " + orderKeys(w, call.options().order());
                stmts.add("t.addValue(" + i + ", " + grp + ", " + hv + keys + ");");
                stmts.add(c + "++;");
            }
            case PRODUCT, BIT_AND, BIT_OR, BIT_XOR -> {
                // the first value starts the fold
                String operand = call.function() != AggFunction.PRODUCT ? "(long) " + value
                        : s.argType().kind() == io.tessera.storage.TypeKind.DECIMAL
                        ? "((double) " + value + " / " + Math.pow(10, s.argType().scale()) + ")" // unscaled
                        : "(double) " + value;
                stmts.add(v + " = " + c + " == 0 ? " + operand + " : " + Folds.expression(call.function(), v, operand) + ";");
                stmts.add(c + "++;");
            }
            case SINGLE_VALUE, ANY_VALUE -> {
                stmts.add(v + " = " + value + ";");
                stmts.add(c + "++;");
            }
            case STDDEV_SAMP, STDDEV_POP, VAR_SAMP, VAR_POP -> {
                // Welford's update of the running mean and the sum of squared deviations from it
                String xd = w.name("x");
                String delta = w.name("delta");
                stmts.add("// " + call.function() + ": Welford's running mean and sum of squared deviations");
                stmts.add("final double " + xd + " = (double) " + value + ";");
                stmts.add("final double " + delta + " = " + xd + " - " + v + ";");
                stmts.add(c + "++;");
                stmts.add(v + " += " + delta + " / " + c + ";");
                stmts.add(m2 + " += " + delta + " * (" + xd + " - " + v + ");");
            }
            default -> throw new IllegalStateException();
        }
        boolean block = notNull != null || call.function().statistic();
        if (block) {
            w.line(notNull != null ? "if (" + notNull + ") {" : "{");
            w.indent++;
        }
        for (String st : stmts) {
            w.line(st);
        }
        if (block) {
            w.indent--;
            w.line("}");
        }
    }

    /** STRING_AGG's or MODE's ORDER BY keys of the current row, as an array of boxed values (null: NULL). */
    private static String orderKeys(PipelineWriter w, List<HolisticOptions.OrderKey> order) {
        List<String> boxed = new ArrayList<>();
        for (HolisticOptions.OrderKey key : order) {
            JExpr k = w.gen.gen(key.key());
            String v = switch (k.kind()) {
                case CODE, STRING -> w.gen.asString(k);
                case DOUBLE -> "Double.valueOf(" + k.v() + ")";
                case BOOL -> "Boolean.valueOf(" + k.v() + ")";
                default -> "Long.valueOf((long) " + k.v() + ")";
            };
            boxed.add(k.nullable() ? "(" + k.n() + " ? null : (Object) " + v + ")" : v);
        }
        return "new Object[] {" + String.join(", ", boxed) + "}";
    }

    /** The local holding a statistic's sum of squared deviations beside its mean {@code val} (AGGREGATE). */
    static String secondMoment(String val) {
        return val == null ? null : val + "m2";
    }
}
