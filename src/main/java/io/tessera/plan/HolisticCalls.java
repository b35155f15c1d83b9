package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.AggregateCall;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The holistic aggregate calls ({@link AggFunction#holistic}) as the planner makes them from Calcite's: MEDIAN is
 * QUANTILE_CONT at 0.5 (of strings and booleans, which have no interpolation, QUANTILE_DISC at 0.5, as DuckDB has
 * it), QUANTILE is QUANTILE_DISC, LISTAGG and GROUP_CONCAT are STRING_AGG (DuckDB's default separator a comma, a
 * value of any type joined as its text), LIST and ARRAY_AGG a STRING_AGG of one-element lists. The fraction and
 * the separator must be constants.
 */
final class HolisticCalls {

    private static final Set<String> NAMES = Set.of("MEDIAN", "QUANTILE_CONT", "QUANTILE_DISC", "QUANTILE", "MODE",
            "STRING_AGG", "LISTAGG", "GROUP_CONCAT", "LIST", "ARRAY_AGG", "ENTROPY", "MAD");

    /** The names of STRING_AGG (Calcite names it LISTAGG where it has an ORDER BY). */
    private static final Set<String> STRING_AGG = Set.of("STRING_AGG", "LISTAGG", "GROUP_CONCAT");
    /** The names of LIST, which may also have an ORDER BY. */
    private static final Set<String> LIST = Set.of("LIST", "ARRAY_AGG");

    private HolisticCalls() {
    }

    /** Whether Calcite's call is one of these functions. */
    static boolean named(AggregateCall call) {
        return NAMES.contains(call.getAggregation().getName().toUpperCase(Locale.ROOT));
    }

    /** The call over its arguments' expressions (the value first). */
    static AggCall of(AggregateCall call, List<Expr> args, Expr filter, DataType type, String name,
                      IntFunction<Expr> field) {
        String fn = call.getAggregation().getName().toUpperCase(Locale.ROOT);
        List<HolisticOptions.OrderKey> order = new ArrayList<>();
        for (RelFieldCollation fc : call.getCollation().getFieldCollations()) {
            if (field.apply(fc.getFieldIndex()).type().isNested()) {
                throw new SqlError("unsupported: ORDER BY a " + (field.apply(fc.getFieldIndex()).type().isList()
                        ? "list" : "struct") + " inside " + fn.toLowerCase(Locale.ROOT) + "(...) (not ordered there yet)");
            }
            order.add(new HolisticOptions.OrderKey(field.apply(fc.getFieldIndex()), fc.getDirection().isDescending(),
                    fc.nullDirection == RelFieldCollation.NullDirection.FIRST));
        }
        if (!order.isEmpty() && !STRING_AGG.contains(fn) && !LIST.contains(fn) && !fn.equals("MODE")) {
            throw new SqlError("unsupported: ORDER BY inside " + fn.toLowerCase(Locale.ROOT) + "(...)");
        }
        Expr arg = args.get(0);
        TypeKind kind = arg.type().kind();
        boolean discreteOnly = kind == TypeKind.VARCHAR || kind == TypeKind.BOOLEAN;
        boolean distinct = call.isDistinct();
        return switch (fn) {
            case "MEDIAN" -> new AggCall(discreteOnly ? AggFunction.QUANTILE_DISC : AggFunction.QUANTILE_CONT, arg,
                    filter, type, true, name, HolisticOptions.plain(distinct));
            case "QUANTILE_CONT" -> {
                if (discreteOnly) {
                    throw new SqlError("unsupported: quantile_cont of " + arg.type() + " (quantile_disc picks one of its values)");
                }
                yield new AggCall(AggFunction.QUANTILE_CONT, arg, filter, type, true, name, fraction(fn, args.get(1), distinct));
            }
            case "QUANTILE_DISC", "QUANTILE" -> new AggCall(AggFunction.QUANTILE_DISC, arg, filter, type, true, name,
                    fraction(fn, args.get(1), distinct));
            case "ENTROPY" -> new AggCall(AggFunction.ENTROPY, arg, filter, type, false, name,
                    HolisticOptions.plain(distinct));
            case "MAD" -> new AggCall(AggFunction.MAD, arg, filter, type, true, name, HolisticOptions.plain(distinct));
            case "MODE" -> new AggCall(AggFunction.MODE, arg, filter, type, true, name,
                    HolisticOptions.plain(distinct, order));
            // each value as the list of itself (never NULL: a NULL is its element), joined with no separator: encoded
            // lists concatenate (storage.ListCodec)
            case "LIST", "ARRAY_AGG" -> new AggCall(AggFunction.STRING_AGG,
                    new Expr.Call(Op.LIST, List.of(arg), type, false, ListFunction.VALUE), filter, type, true, name,
                    new HolisticOptions(0.5, null, "", distinct, order));
            default -> new AggCall(AggFunction.STRING_AGG, TextDateCalls.asText(arg), filter, type, true, name,
                    new HolisticOptions(0.5, null, args.size() > 1 ? separator(fn, args.get(1)) : ",", distinct, order));
        };
    }

    /** A quantile's options: its fraction a constant number in [0, 1] (kept exactly where it is a DECIMAL). */
    private static HolisticOptions fraction(String fn, Expr e, boolean distinct) {
        if (!(e instanceof Expr.Literal lit) || lit.value() == null) {
            throw new SqlError("unsupported: " + fn.toLowerCase(Locale.ROOT) + " with a fraction that is not a constant number");
        }
        BigDecimal exact = switch (lit.type().kind()) {
            case DECIMAL -> BigDecimal.valueOf((Long) lit.value(), lit.type().scale());
            case INTEGER, BIGINT -> BigDecimal.valueOf(((Number) lit.value()).longValue());
            default -> null;
        };
        double f = exact != null ? exact.doubleValue() : ((Number) lit.value()).doubleValue();
        if (!(f >= 0 && f <= 1)) {
            throw new SqlError(fn.toLowerCase(Locale.ROOT) + ": the fraction " + lit + " is not between 0 and 1");
        }
        return new HolisticOptions(f, exact, null, distinct, List.of());
    }

    /** STRING_AGG's separator: a constant string, or NULL (every result NULL, as in DuckDB). */
    private static String separator(String fn, Expr e) {
        if (!(e instanceof Expr.Literal lit)) {
            throw new SqlError("unsupported: " + fn.toLowerCase(Locale.ROOT) + " with a separator that is not a constant");
        }
        return lit.value() == null ? null : lit.value().toString();
    }
}
