package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggCall;
import io.tessera.plan.AggFunction;
import io.tessera.plan.Sink;
import io.tessera.variant.CudaVariantSpace;

import java.util.ArrayList;
import java.util.List;

/**
 * What AGGREGATE and GROUP_AGGREGATE share: each aggregate's accumulator type, the parameters of the result arrays,
 * identities, the per-row update of a value (plain in a thread's own accumulator, or an atomic on a shared one) and
 * the atomic merge of a partial value into the global one.
 */
final class AggCode {

    private AggCode() {
    }

    /**
     * Each call's accumulator: a 64-bit integer or a double (null for counts), and a count of its own where not every
     * row counts: with a FILTER clause, or an argument that can be NULL in kernel k ({@link DeviceNulls}), whose NULLs
     * an aggregate skips (the host makes a value over no counted row NULL, a COUNT 0).
     */
    static List<SinkLayout.Agg> accumulators(KernelBuilder k, List<AggCall> calls) {
        List<SinkLayout.Agg> aggs = new ArrayList<>();
        for (AggCall a : calls) {
            String unsupported = CudaCapabilities.aggReason(a);
            if (unsupported != null) {
                throw new IllegalStateException(unsupported + ": the capability check excludes it");
            }
            CType vt = switch (a.function()) {
                case COUNT_STAR, COUNT -> null;
                default -> CType.stored(a.arg().type()) == CType.DOUBLE ? CType.DOUBLE : CType.LONG;
            };
            aggs.add(new SinkLayout.Agg(a.function(), vt, a.filter() != null || a.arg() != null && k.mayBeNull(a.arg())));
        }
        return aggs;
    }

    /**
     * The sink's opening: its comment, the loads of every column it reads, and the result arrays' parameters (rows
     * per group, then each aggregate's value and own count).
     */
    static void open(KernelBuilder k, String comment, List<SinkLayout.Agg> aggs) {
        String in = KernelBuilder.IN;
        k.body.append(in).append("// ").append(KernelBuilder.comment(comment)).append('\n');
        k.load(Sink.exprs(k.p.sink()), in);
        k.params.add(new KernelParam(KernelParam.Kind.GROUP_ROWS, -1, "g_rows", "unsigned long long* __restrict__"));
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                k.params.add(new KernelParam(KernelParam.Kind.AGG_VALUE, a, "g_v" + a, s.valueType().c + "* __restrict__"));
            }
            if (s.ownCount()) {
                k.params.add(new KernelParam(KernelParam.Kind.AGG_COUNT, a, "g_n" + a, "unsigned long long* __restrict__"));
            }
        }
    }

    /** {@code acc} combined with {@code x} in a thread's own accumulator: min, max, or a (checked) sum. */
    static String accumulate(SinkLayout.Agg s, String acc, String x) {
        return switch (s.function()) {
            case MIN -> acc + " = " + x + " < " + acc + " ? " + x + " : " + acc + ";";
            case MAX -> acc + " = " + x + " > " + acc + " ? " + x + " : " + acc + ";";
            default -> s.valueType() == CType.DOUBLE ? acc + " += " + x + ";"
                    : acc + " = tessera::q::AddChecked(" + acc + ", " + x + ", err);";
        };
    }

    /** The value an accumulator starts from: 0 for sums, the largest value for MIN, the smallest for MAX. */
    static String identity(SinkLayout.Agg s) {
        boolean dbl = s.valueType() == CType.DOUBLE;
        return switch (s.function()) {
            case MIN -> dbl ? "__longlong_as_double(0x7ff0000000000000LL)" : "9223372036854775807LL";
            case MAX -> dbl ? "__longlong_as_double((long long)0xfff0000000000000ULL)" : "(-9223372036854775807LL - 1)";
            default -> dbl ? "0.0" : "0LL";
        };
    }

    /** Combines a partial value into a global one with the aggregate's atomic. */
    static String merge(SinkLayout.Agg s, String target, String value) {
        boolean dbl = s.valueType() == CType.DOUBLE;
        return switch (s.function()) {
            case MIN -> (dbl ? "tessera::q::AtomicMinDouble(" : "tessera::q::AtomicMin64(") + target + ", " + value + ");";
            case MAX -> (dbl ? "tessera::q::AtomicMaxDouble(" : "tessera::q::AtomicMax64(") + target + ", " + value + ");";
            default -> dbl ? "tessera::q::AtomicAddDouble(" + target + ", " + value + ");"
                    : "tessera::q::AtomicAddChecked(" + target + ", " + value + ", err);";
        };
    }

    /**
     * The condition for a row to count in an aggregate that does not count every row: its FILTER clause holds, and
     * its argument is not NULL; null when every row counts.
     */
    static String guard(KernelBuilder k, AggCall call) {
        String filter = call.filter() == null ? null : k.gen.condition(call.filter());
        String value = call.arg() == null || !k.mayBeNull(call.arg()) ? null : "!" + k.gen.gen(call.arg()).isNull();
        if (filter == null || value == null) {
            return filter == null ? value : filter;
        }
        return "(" + filter + " && " + value + ")";
    }

    /** The aggregate's argument for item i, as its accumulator's type. */
    static String value(KernelBuilder k, AggCall call, SinkLayout.Agg s) {
        CValue x = k.gen.gen(call.arg());
        return s.valueType() == CType.DOUBLE ? "(double)" + x.v() : "(long long)" + x.v();
    }

    /**
     * Per-row updates of group {@code grp} with atomics: its row count, and each aggregate's value (and count, when
     * filtered), in the arrays {@code rows}, {@code v<a>}, {@code n<a>}.
     */
    static void atomicUpdates(KernelBuilder k, List<AggCall> calls, List<SinkLayout.Agg> aggs, String in, String grp,
                              String rows, String v, String n) {
        StringBuilder body = k.body;
        body.append(in).append("tessera::q::AtomicAddCount(&").append(rows).append('[').append(grp).append("], 1u);\n");
        for (int a = 0; a < aggs.size(); a++) {
            AggCall call = calls.get(a);
            SinkLayout.Agg s = aggs.get(a);
            String guard = guard(k, call);
            String pad = in;
            if (guard != null) {
                body.append(in).append("if (").append(guard).append(") {\n");
                pad = in + "    ";
                body.append(pad).append("tessera::q::AtomicAddCount(&").append(n).append(a).append('[').append(grp).append("], 1ull);\n");
            }
            if (s.valueType() != null) {
                String target = "&" + v + a + "[" + grp + "]";
                CValue arg = call.arg() == null ? null : k.gen.gen(call.arg());
                if (v.equals("s_v") && arg != null && arg.type() == CType.INT && s.valueType() == CType.LONG
                        && s.function() != AggFunction.MIN && s.function() != AggFunction.MAX
                        && CudaVariantSpace.narrowRowCounts(k.p)) {
                    // a block's sum of 32-bit values in shared memory: two native 32-bit atomics at most, where a
                    // 64-bit one is a compare-and-swap loop; fewer than 2^31 rows of 32 bits cannot overflow 64 bits
                    body.append(pad).append("tessera::q::SharedAddInt(").append(target).append(", ").append(arg.v()).append(");\n");
                } else {
                    body.append(pad).append(merge(s, target, value(k, call, s))).append('\n');
                }
            }
            if (guard != null) {
                body.append(in).append("}\n");
            }
        }
    }
}
