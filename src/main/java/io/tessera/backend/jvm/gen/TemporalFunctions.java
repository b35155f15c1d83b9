package io.tessera.backend.jvm.gen;

import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.lib.TimestampRuntime;
import io.tessera.plan.Expr;
import io.tessera.plan.TemporalFunction;

import java.util.ArrayList;
import java.util.List;

/**
 * The functions of TIMESTAMP values ({@link io.tessera.plan.Op#TEMPORAL}) as Java: each a call of
 * {@link TimestampRuntime}. Units and formats are values bound as constants or read from the row, never source text.
 * A call is made only on non-NULL arguments: where an argument is NULL the result is NULL.
 */
final class TemporalFunctions {

    private static final String TIME = "io.tessera.backend.jvm.lib.TimestampRuntime.";
    private static final String INTERVAL = "io.tessera.backend.jvm.lib.IntervalRuntime.";
    private static final String MAKE = "io.tessera.backend.jvm.lib.DateConstructorRuntime.";
    private static final String BUCKET = "io.tessera.backend.jvm.lib.TimeBucketRuntime.";

    private final ExprGen.Scope scope;
    private final ExprGen gen;

    TemporalFunctions(ExprGen.Scope scope, ExprGen gen) {
        this.scope = scope;
        this.gen = gen;
    }

    JExpr call(Expr.Call c) {
        TemporalFunction f = (TemporalFunction) c.detail();
        List<String> v = new ArrayList<>();
        String n = "false";
        for (Expr a : c.args()) {
            JExpr x = gen.gen(a);
            n = ExprGen.or(n, x.n());
            boolean text = x.kind() == ValueKind.CODE || x.kind() == ValueKind.STRING;
            if (a instanceof Expr.Literal l && l.value() == null) {
                v.add(a.type().kind() == io.tessera.storage.TypeKind.VARCHAR ? "\"\"" : "0L");
            } else if (x.kind() == ValueKind.DOUBLE) {
                v.add(x.v()); // seconds of MAKE_TIME, MAKE_TIMESTAMP, TO_TIMESTAMP and INTERVAL_OF_UNIT
            } else {
                v.add(text ? gen.asString(x) : ExprGen.asLong(x));
            }
        }
        String args = String.join(", ", v);
        if (f == TemporalFunction.TRY_STRPTIME) {
            // parsed once into a local: Long.MIN_VALUE, which no TIMESTAMP is, where the text does not match
            String parsed = scope.local("parsed");
            scope.statement("final long " + parsed + " = "
                    + ExprGen.guard(n, TIME + "tryStrptime(" + args + ")", ValueKind.LONG) + ";");
            return JExpr.of(parsed, "(" + n + " || " + parsed + " == Long.MIN_VALUE)", ValueKind.LONG);
        }
        String call = switch (f) {
            case EPOCH -> TIME + "epoch(" + args + ")";
            case EPOCH_MS -> TIME + "epochMs(" + args + ")";
            case EPOCH_US -> "(" + args + ")";
            case STRFTIME -> TIME + "strftime(" + args + ")";
            case STRPTIME -> TIME + "strptime(" + args + ")";
            case TRY_STRPTIME -> throw new IllegalStateException();
            case DATE_DIFF -> TIME + "dateDiff(" + args + ")";
            case DATE_SUB -> TIME + "dateSub(" + args + ")";
            case PART -> TIME + "part(" + args + ")";
            case TO_LOCAL -> TIME + "toLocal(" + args + ")";
            case FROM_LOCAL -> TIME + "fromLocal(" + args + ")";
            case FORMAT_ZONED -> TIME + "formatZoned(" + args + ")";
            case PARSE_ZONED -> TIME + "parseZoned(" + args + ")";
            case INTERVAL_PARSE -> INTERVAL + "parse(" + args + ")";
            case INTERVAL_FORMAT -> INTERVAL + "format(" + args + ")";
            case INTERVAL_KEY -> INTERVAL + "key(" + args + ")";
            case INTERVAL_KEY_DAYS -> INTERVAL + "keyDays(" + args + ")";
            case INTERVAL_KEY_MICROS -> INTERVAL + "keyMicros(" + args + ")";
            case INTERVAL_ADD -> INTERVAL + "add(" + args + ")";
            case INTERVAL_NEGATE -> INTERVAL + "negate(" + args + ")";
            case INTERVAL_TIMES -> INTERVAL + "times(" + args + ")";
            case INTERVAL_PART -> INTERVAL + "part(" + args + ")";
            case INTERVAL_EPOCH -> INTERVAL + "epoch(" + args + ")";
            case INTERVAL_OF_UNIT -> INTERVAL + "ofUnit(" + args + ")";
            case TIMESTAMP_PLUS_INTERVAL -> INTERVAL + "plusTimestamp(" + args + ")";
            case TIMESTAMP_DIFF -> INTERVAL + "between(" + args + ")";
            case AGE -> INTERVAL + "age(" + args + ")";
            case MAKE_DATE -> MAKE + "date(" + args + ")";
            case MAKE_TIME -> MAKE + "time(" + args + ")";
            case MAKE_TIMESTAMP -> MAKE + "timestamp(" + args + ")";
            case FROM_EPOCH_US -> "(" + args + ")";
            case FROM_EPOCH_MS -> MAKE + "fromEpochMs(" + args + ")";
            case TO_TIMESTAMP -> MAKE + "fromEpochSeconds(" + args + ")";
            case LAST_DAY -> MAKE + "lastDay(" + args + ")";
            case TIME_BUCKET -> BUCKET + "bucket(" + args + ")";
            case TIME_BUCKET_OFFSET -> BUCKET + "bucketOffset(" + args + ")";
            case TIME_BUCKET_ORIGIN -> BUCKET + "bucketOrigin(" + args + ")";
            case TIME_BUCKET_ZONE -> BUCKET + "bucketZoned(" + args + ")";
        };
        ValueKind k = switch (f) {
            case EPOCH, INTERVAL_EPOCH -> ValueKind.DOUBLE;
            case STRFTIME, FORMAT_ZONED, INTERVAL_PARSE, INTERVAL_FORMAT, INTERVAL_KEY, INTERVAL_ADD, INTERVAL_NEGATE,
                 INTERVAL_TIMES, INTERVAL_OF_UNIT, TIMESTAMP_DIFF, AGE -> ValueKind.STRING;
            default -> ValueKind.LONG;
        };
        return JExpr.of("/* " + f.name().toLowerCase(java.util.Locale.ROOT) + " */ " + ExprGen.guard(n, call, k), n, k);
    }
}
