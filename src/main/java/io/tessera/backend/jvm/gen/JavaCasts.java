package io.tessera.backend.jvm.gen;

import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.lib.Runtime;
import io.tessera.backend.lower.Cast;
import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;

/**
 * CAST (and implicit widening) as Java: the shared lowering's {@link Cast} decides the conversion, its range check
 * and rounding; this class prints it, with the runtime's checked conversions ({@link Runtime}) where a value can fail.
 * A NULL's placeholder never reaches a conversion that could fail on it ({@link ExprGen#guard}).
 */
final class JavaCasts {

    private static final String TIME = "io.tessera.backend.jvm.lib.TimestampRuntime.";

    private final ExprGen.Scope scope;
    private final ExprGen gen;

    JavaCasts(ExprGen.Scope scope, ExprGen gen) {
        this.scope = scope;
        this.gen = gen;
    }

    /**
     * Converts a value of SQL type {@code from} to SQL type {@code to} (CAST, and implicit widening), by the rules of
     * {@link Cast}: every value that can fall outside the target's range is checked, failing with the value and type.
     */
    JExpr convert(JExpr x, DataType from, DataType to) {
        if (from.equals(to)) {
            return x;
        }
        Cast cast = ExprGen.lowered(() -> Cast.of(from, to));
        String n = x.n();
        switch (to.kind()) {
            case DOUBLE -> {
                String v = switch (cast.conversion()) {
                    case PARSE -> "io.tessera.backend.jvm.lib.Runtime." + (to.isReal() ? "parseReal(" : "parseDouble(")
                            + gen.asString(x) + ")";
                    case FROM_BOOLEAN -> "(" + x.v() + " ? 1.0d : 0.0d)";
                    default -> to.isReal() ? toReal(x, from) : ExprGen.toDouble(x, from);
                };
                return JExpr.of(ExprGen.guard(n, v, ValueKind.DOUBLE), n, ValueKind.DOUBLE);
            }
            case INTEGER, BIGINT -> {
                String range = cast.min() + "L, " + cast.max() + "L, " + scope.constant(ValueKind.STRING, to.toString());
                String lv = switch (cast.conversion()) {
                    case ROUND -> cast.rounding() == java.math.RoundingMode.HALF_EVEN
                            ? ExprGen.RUNTIME + "doubleToLong(" + x.v() + ", " + range + ")"
                            : ExprGen.RUNTIME + "decimalToLong(" + x.v() + ", " + -cast.shift() + ", " + range + ")";
                    case FROM_BOOLEAN -> "(" + x.v() + " ? 1L : 0L)";
                    case PARSE -> ExprGen.RUNTIME + "parseLong(" + gen.asString(x) + ", " + range + ")";
                    case CHECK_RANGE -> ExprGen.RUNTIME + "checkRange(" + ExprGen.asLong(x) + ", " + range + ")";
                    default -> null; // a widening: nothing to check
                };
                if (lv == null) {
                    if (to.kind() == TypeKind.INTEGER) {
                        return x.kind() == ValueKind.INT ? x : JExpr.of(ExprGen.guard(n, "((int) " + x.v() + ")", ValueKind.INT), n, ValueKind.INT);
                    }
                    return JExpr.of(ExprGen.asLong(x), n, ValueKind.LONG);
                }
                if (to.kind() == TypeKind.INTEGER) {
                    return JExpr.of(ExprGen.guard(n, "((int) " + lv + ")", ValueKind.INT), n, ValueKind.INT);
                }
                return JExpr.of(ExprGen.guard(n, lv, ValueKind.LONG), n, ValueKind.LONG);
            }
            case DECIMAL -> {
                int p = to.precision();
                int s = to.scale();
                String type = scope.constant(ValueKind.STRING, to.toString());
                String lv = switch (cast.conversion()) {
                    case PARSE -> ExprGen.RUNTIME + "parseDecimal(" + gen.asString(x) + ", " + p + ", " + s + ")";
                    case RESCALE -> ExprGen.rescaled(ExprGen.asLong(x), cast.shift());
                    default -> switch (from.kind()) { // RESCALE_CHECKED
                        case DOUBLE -> ExprGen.RUNTIME + "doubleToDecimal(" + x.v() + ", " + p + ", " + s + ", " + type + ")";
                        case DECIMAL -> ExprGen.RUNTIME + "decimalToDecimal(" + x.v() + ", " + from.scale() + ", " + p + ", " + s + ", " + type + ")";
                        default -> ExprGen.RUNTIME + "longToDecimal(" + ExprGen.asLong(x) + ", " + p + ", " + s + ", " + type + ")";
                    };
                };
                return JExpr.of(ExprGen.guard(n, lv, ValueKind.LONG), n, ValueKind.LONG);
            }
            case DATE -> {
                if (cast.conversion() == Cast.Conversion.MICROS_TO_DAYS) {
                    return JExpr.of(TIME + "days(" + x.v() + ")", n, ValueKind.INT);
                }
                // PARSE
                return JExpr.of(ExprGen.guard(n, "io.tessera.backend.jvm.lib.Runtime.parseDate(" + gen.asString(x) + ")", ValueKind.INT), n, ValueKind.INT);
            }
            case TIMESTAMP -> {
                if (cast.conversion() == Cast.Conversion.DAYS_TO_MICROS) {
                    return JExpr.of(TIME + "ofDays(" + x.v() + ")", n, ValueKind.LONG);
                }
                // PARSE
                return JExpr.of(ExprGen.guard(n, TIME + "parse(" + gen.asString(x) + ")", ValueKind.LONG), n, ValueKind.LONG);
            }
            case TIME -> {
                if (cast.conversion() == Cast.Conversion.MICROS_TO_TIME) {
                    return JExpr.of(TIME + "timeOfDay(" + x.v() + ")", n, ValueKind.LONG);
                }
                // PARSE
                return JExpr.of(ExprGen.guard(n, TIME + "parseTime(" + gen.asString(x) + ")", ValueKind.LONG), n, ValueKind.LONG);
            }
            case BOOLEAN -> {
                if (cast.conversion() == Cast.Conversion.PARSE) {
                    return JExpr.of(ExprGen.guard(n, "io.tessera.storage.Values.parseBoolean(" + gen.asString(x) + ")", ValueKind.BOOL), n, ValueKind.BOOL);
                }
                return JExpr.of("(" + x.v() + " != 0)", n, ValueKind.BOOL); // NONZERO
            }
            case VARCHAR -> {
                if (to.isBlob() || to.isUuid() || from.isBlob()) {
                    // text read as bytes or a UUID, bytes written as DuckDB's text (Cast allows no other)
                    String f = to.isBlob() ? "parse" : to.isUuid() ? "parseUuid" : "format";
                    String sv = "io.tessera.backend.jvm.lib.ByteStringRuntime." + f + "(" + gen.asString(x) + ")";
                    return JExpr.of(ExprGen.guard(n, sv, ValueKind.STRING), n, ValueKind.STRING);
                }
                if (x.kind() == ValueKind.CODE || x.kind() == ValueKind.STRING) {
                    return x; // text, or a UUID's text
                }
                String sv = switch (from.kind()) {
                    case DECIMAL -> "io.tessera.backend.jvm.lib.Runtime.decimalToString(" + x.v() + ", " + from.scale() + ")";
                    case DOUBLE -> from.isReal() ? "io.tessera.storage.Floats.format(" + x.v() + ")"
                            : "io.tessera.backend.jvm.lib.Runtime.doubleToString(" + x.v() + ")";
                    case DATE -> "io.tessera.backend.jvm.lib.Runtime.dateToString(" + x.v() + ")";
                    case TIMESTAMP -> TIME + "format(" + x.v() + ")";
                    case TIME -> TIME + "formatTime(" + x.v() + ")";
                    default -> "String.valueOf(" + x.v() + ")";
                };
                return JExpr.of(ExprGen.guard(n, sv, ValueKind.STRING), n, ValueKind.STRING);
            }
            default -> throw new SqlError("unsupported: CAST to " + to);
        }
    }

    /**
     * A number as a REAL: an integer rounded to float at once (a BIGINT through a double could round twice), a
     * DOUBLE checked against float's range, a DECIMAL through its double.
     */
    private static String toReal(JExpr x, DataType from) {
        return switch (from.kind()) {
            case INTEGER, BIGINT -> "((double) (float) " + x.v() + ")";
            case DOUBLE -> "io.tessera.storage.Floats.converted(" + x.v() + ")";
            default -> "io.tessera.storage.Floats.round(" + ExprGen.toDouble(x, from) + ")";
        };
    }
}
