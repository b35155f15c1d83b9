package io.tessera.backend.jvm.lib;

import io.tessera.backend.lower.Cast;
import io.tessera.backend.lower.Scale;
import io.tessera.backend.lower.Unsupported;
import io.tessera.storage.DataType;
import io.tessera.storage.ListCodec;
import io.tessera.storage.StructCodec;
import io.tessera.storage.StructField;
import io.tessera.storage.TypeKind;
import io.tessera.storage.ZonedTimestamps;

import java.time.ZoneId;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A CAST of a LIST or STRUCT value to another LIST or STRUCT type whose values change ({@code CAST(l AS STRUCT(a
 * VARCHAR)[])}), on the encoded texts ({@link ListCodec}): a list element by element, a struct field by field by name
 * (an unnamed struct's by position, NULL where the source has no field of the name), each scalar converted by the
 * rules of a top-level CAST ({@link Cast}) through the same checked conversions as generated code, so a value that
 * does not convert fails naming it (an INTERVAL to and from text, a TIMESTAMP WITH TIME ZONE on the session's clock,
 * as plan.IntervalCalls and plan.ZonedCalls lower those CASTs). NULL elements and fields stay NULL. Built once per
 * query, when the code is made.
 */
public final class NestedCast {

    /** A non-NULL value's text to the target's text (null: NULL). */
    private final UnaryOperator<String> step;

    private NestedCast(UnaryOperator<String> step) {
        this.step = step;
    }

    /** The cast from {@code from} to {@code to}; throws {@link Unsupported} where a part of it has no conversion. */
    public static NestedCast of(DataType from, DataType to) {
        return of(from, to, null);
    }

    /**
     * The cast, a TIMESTAMP WITH TIME ZONE inside converted on the clock of the session's {@code zone} (null: none
     * given, such a conversion refused).
     */
    public static NestedCast of(DataType from, DataType to, ZoneId zone) {
        return new NestedCast(step(from, to, zone, false));
    }

    /**
     * DuckDB's TRY_CAST from {@code from} to {@code to}, applied by {@link #tryApply}: a scalar that does not convert
     * is NULL, and inside a LIST or STRUCT only that element or field is ({@code ['1', 'x']} as INTEGER[] is {@code
     * [1, NULL]}); a MAP whose key does not convert is NULL whole. Text to a LIST, STRUCT or MAP type is read as
     * DuckDB's text of such a value, an element that is no value of its type NULL.
     */
    public static NestedCast tried(DataType from, DataType to, ZoneId zone) {
        if (from.isText() && to.isNested()) {
            ZoneId clock = zone != null ? zone : java.time.ZoneOffset.UTC;
            return new NestedCast(text -> io.tessera.storage.NestedText.parseLenient(text, to, clock));
        }
        return new NestedCast(step(from, to, zone, from.isNested() || to.isNested()));
    }

    /** The encoded value as the target type (called only on non-NULL values). */
    public String apply(String encoded) {
        return step.apply(encoded);
    }

    /** As {@link #apply}, null (NULL) where the conversion fails: TRY_CAST. */
    public String tryApply(String encoded) {
        try {
            return step.apply(encoded);
        } catch (RuntimeException failed) {
            return null;
        }
    }

    /** The conversion; where {@code lenient}, a scalar inside that does not convert is NULL (TRY_CAST's). */
    private static UnaryOperator<String> step(DataType from, DataType to, ZoneId zone, boolean lenient) {
        if (from.equals(to)) {
            return UnaryOperator.identity();
        }
        if (from.isList() && to.isList()) {
            UnaryOperator<String> element = step(from.element(), to.element(), zone, lenient);
            UnaryOperator<String> list = l -> {
                StringBuilder sb = new StringBuilder();
                for (String t : ListCodec.texts(l)) {
                    ListCodec.append(sb, t == null ? null : element.apply(t));
                }
                return sb.toString();
            };
            // a map's keys checked again: where one did not convert (NULL), or two became equal, the map is NULL
            return lenient && to.isMap() ? m -> mapOrNull(list.apply(m), to) : list;
        }
        if (from.isStruct() && to.isStruct()) {
            return struct(from, to, zone, lenient);
        }
        if (from.isNested() || to.isNested()) {
            if (lenient && !(from.isList() && to.isList())) {
                return t -> null; // TRY_CAST of a part of another kind (an INTEGER to a STRUCT): NULL, as DuckDB's
            }
            throw new Unsupported("CAST from " + from + " to " + to);
        }
        UnaryOperator<String> scalar = scalarStep(from, to, zone);
        return lenient ? t -> {
            try {
                return scalar.apply(t);
            } catch (RuntimeException failed) {
                return null;
            }
        } : scalar;
    }

    private static String mapOrNull(String map, DataType type) {
        try {
            io.tessera.storage.MapEntries.check(map, type);
            return map;
        } catch (IllegalArgumentException keys) {
            return null;
        }
    }

    private static UnaryOperator<String> scalarStep(DataType from, DataType to, ZoneId zone) {
        if (from.isInterval() || to.isInterval()) {
            return interval(from, to);
        }
        if (from.kind() == TypeKind.TIMESTAMP_TZ || to.kind() == TypeKind.TIMESTAMP_TZ) {
            return zoned(from, to, zone);
        }
        return scalar(Cast.of(from, to));
    }

    /** Each field of {@code to} the source's field of its name (by position from an unnamed struct), converted. */
    private static UnaryOperator<String> struct(DataType from, DataType to, ZoneId zone, boolean lenient) {
        List<StructField> fields = to.fields();
        int[] at = new int[fields.size()];
        @SuppressWarnings("unchecked")
        UnaryOperator<String>[] steps = new UnaryOperator[fields.size()];
        boolean byPosition = from.isUnnamedStruct() && from.fields().size() == fields.size();
        for (int i = 0; i < at.length; i++) {
            at[i] = byPosition ? i + 1 : StructCodec.position(from, fields.get(i).name());
            steps[i] = at[i] == 0 ? null
                    : step(from.fields().get(at[i] - 1).type(), fields.get(i).type(), zone, lenient);
        }
        return struct -> {
            List<String> texts = ListCodec.texts(struct);
            String[] out = new String[at.length];
            for (int i = 0; i < at.length; i++) {
                String t = at[i] == 0 ? null : texts.get(at[i] - 1);
                out[i] = t == null ? null : steps[i].apply(t);
            }
            return ListCodec.join(out);
        };
    }

    /** An INTERVAL's code to DuckDB's text of it, or text read as an interval, as the top-level CASTs do. */
    private static UnaryOperator<String> interval(DataType from, DataType to) {
        if (from.isInterval() && to.isText()) {
            return IntervalRuntime::format;
        }
        if (to.isInterval() && from.isText()) {
            return IntervalRuntime::parse;
        }
        throw new Unsupported("CAST from " + from + " to " + to);
    }

    /**
     * To or from a TIMESTAMP WITH TIME ZONE as the top-level CASTs convert (plan.ZonedCalls): a TIMESTAMP or DATE is
     * a clock's time in the session's zone, text read and written in it.
     */
    private static UnaryOperator<String> zoned(DataType from, DataType to, ZoneId zone) {
        if (zone == null) {
            throw new Unsupported("CAST from " + from + " to " + to);
        }
        boolean fromZoned = from.kind() == TypeKind.TIMESTAMP_TZ;
        TypeKind other = fromZoned ? to.kind() : from.kind();
        if (fromZoned && to.kind() == TypeKind.TIMESTAMP_TZ) {
            return UnaryOperator.identity();
        }
        if (other == TypeKind.VARCHAR && (fromZoned ? to : from).isText()) {
            return fromZoned ? t -> ZonedTimestamps.format(Long.parseLong(t), zone)
                    : t -> Long.toString(TimestampRuntime.parseZoned(t, zone));
        }
        if (other == TypeKind.TIMESTAMP) {
            return fromZoned ? t -> Long.toString(ZonedTimestamps.toLocal(Long.parseLong(t), zone))
                    : t -> Long.toString(ZonedTimestamps.fromLocal(Long.parseLong(t), zone));
        }
        if (other == TypeKind.DATE) {
            return fromZoned
                    ? t -> Long.toString(TimestampRuntime.days(ZonedTimestamps.toLocal(Long.parseLong(t), zone)))
                    : t -> Long.toString(ZonedTimestamps.fromLocal(TimestampRuntime.ofDays(Integer.parseInt(t)), zone));
        }
        throw new Unsupported("CAST from " + from + " to " + to);
    }

    /** One scalar's canonical text converted as {@code cast} converts its value. */
    private static UnaryOperator<String> scalar(Cast cast) {
        DataType from = cast.from();
        DataType to = cast.to();
        String type = to.toString();
        return switch (cast.conversion()) {
            case IDENTITY, WIDEN -> UnaryOperator.identity();
            case TO_DOUBLE -> {
                long divisor = Scale.doubleDivisor(from);
                yield t -> ListCodec.text(divisor != 0 ? Long.parseLong(t) / (double) divisor : Double.parseDouble(t));
            }
            case FROM_BOOLEAN -> to.kind() == TypeKind.DOUBLE
                    ? t -> Boolean.parseBoolean(t) ? "1.0" : "0.0"
                    : t -> Boolean.parseBoolean(t) ? "1" : "0";
            case NONZERO -> t -> Boolean.toString(Long.parseLong(t) != 0);
            case CHECK_RANGE -> t -> Long.toString(Runtime.checkRange(Long.parseLong(t), cast.min(), cast.max(), type));
            case ROUND -> from.kind() == TypeKind.DOUBLE
                    ? t -> Long.toString(Runtime.doubleToLong(Double.parseDouble(t), cast.min(), cast.max(), type))
                    : t -> Long.toString(Runtime.decimalToLong(Long.parseLong(t), -cast.shift(), cast.min(),
                    cast.max(), type));
            case RESCALE -> t -> Long.toString(Runtime.rescale(Long.parseLong(t), cast.shift()));
            case RESCALE_CHECKED -> switch (from.kind()) {
                case DOUBLE -> t -> Long.toString(Runtime.doubleToDecimal(Double.parseDouble(t), to.precision(),
                        to.scale(), type));
                case DECIMAL -> t -> Long.toString(Runtime.decimalToDecimal(Long.parseLong(t), from.scale(),
                        to.precision(), to.scale(), type));
                default -> t -> Long.toString(Runtime.longToDecimal(Long.parseLong(t), to.precision(), to.scale(),
                        type));
            };
            case PARSE -> parse(to);
            case FORMAT -> format(from);
            case DAYS_TO_MICROS -> t -> Long.toString(TimestampRuntime.ofDays(Integer.parseInt(t)));
            case MICROS_TO_DAYS -> t -> Long.toString(TimestampRuntime.days(Long.parseLong(t)));
            case MICROS_TO_TIME -> t -> Long.toString(TimestampRuntime.timeOfDay(Long.parseLong(t)));
        };
    }

    /** Text read as {@code to}, as a CAST from VARCHAR reads it. */
    private static UnaryOperator<String> parse(DataType to) {
        String type = to.toString();
        return switch (to.kind()) {
            case INTEGER, BIGINT -> t -> Long.toString(Runtime.parseLong(t, to.minValue(), to.maxValue(), type));
            case DOUBLE -> t -> ListCodec.text(Runtime.parseDouble(t));
            case DECIMAL -> t -> Long.toString(Runtime.parseDecimal(t, to.precision(), to.scale()));
            case DATE -> t -> Integer.toString(Runtime.parseDate(t));
            case TIMESTAMP -> t -> Long.toString(TimestampRuntime.parse(t));
            case TIME -> t -> Long.toString(TimestampRuntime.parseTime(t));
            case BOOLEAN -> t -> Boolean.toString(io.tessera.storage.Values.parseBoolean(t));
            case VARCHAR -> to.isBlob() ? ByteStringRuntime::parse : ByteStringRuntime::parseUuid;
            case TIMESTAMP_TZ -> throw new Unsupported("CAST from VARCHAR to " + to);
        };
    }

    /** A value's text as VARCHAR, as a CAST to VARCHAR writes it. */
    private static UnaryOperator<String> format(DataType from) {
        if (from.isBlob()) {
            return ByteStringRuntime::format;
        }
        return switch (from.kind()) {
            case DECIMAL -> t -> Runtime.decimalToString(Long.parseLong(t), from.scale());
            case DOUBLE -> t -> Runtime.doubleToString(Double.parseDouble(t));
            case DATE -> t -> Runtime.dateToString(Integer.parseInt(t));
            case TIMESTAMP -> t -> TimestampRuntime.format(Long.parseLong(t));
            case TIME -> t -> TimestampRuntime.formatTime(Long.parseLong(t));
            case TIMESTAMP_TZ -> throw new Unsupported("CAST from " + from + " to VARCHAR");
            default -> UnaryOperator.identity(); // integers, BOOLEAN (true/false), text and a UUID's text
        };
    }
}
