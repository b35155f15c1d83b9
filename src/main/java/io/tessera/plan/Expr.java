package io.tessera.plan;

import io.tessera.storage.DataType;

import java.util.List;

/**
 * A typed, backend-independent expression over the values a pipeline has at hand (its {@link Slot}s).
 * Literals hold raw values: Long for INTEGER, BIGINT, DATE (days), TIMESTAMP, TIMESTAMP WITH TIME ZONE (UTC), TIME
 * (microseconds) and DECIMAL (unscaled), Double, Boolean,
 * String; null for a typed NULL.
 */
public sealed interface Expr permits Expr.Ref, Expr.Literal, Expr.Call {

    /** Every slot an expression reads, in order of first use, added to {@code out} (each once). */
    static void slots(Expr e, java.util.List<Slot> out) {
        switch (e) {
            case Ref r -> {
                if (!out.contains(r.slot())) {
                    out.add(r.slot());
                }
            }
            case Literal l -> {
            }
            case Call c -> {
                for (Expr a : c.args()) {
                    slots(a, out);
                }
            }
        }
    }


    DataType type();

    boolean nullable();

    /** A value the pipeline loads: a column of its source, or a payload column of a matched build row. */
    record Ref(Slot slot) implements Expr {
        @Override
        public DataType type() {
            return slot.type();
        }

        @Override
        public boolean nullable() {
            return slot.nullable();
        }

        @Override
        public String toString() {
            return slot.toString();
        }
    }

    record Literal(Object value, DataType type) implements Expr {
        @Override
        public boolean nullable() {
            return value == null;
        }

        @Override
        public String toString() {
            if (value == null) {
                return "NULL";
            }
            if (type.isInterval()) {
                return "INTERVAL '" + io.tessera.storage.Interval.decode(value.toString()) + "'";
            }
            return switch (type.kind()) {
                case VARCHAR -> "'" + value.toString().replace("'", "''") + "'";
                case DECIMAL -> io.tessera.storage.Values.formatDecimal((Long) value, type.scale());
                case DATE -> "DATE '" + io.tessera.storage.Values.dateOf(((Number) value).intValue()) + "'";
                case TIMESTAMP -> "TIMESTAMP '" + io.tessera.storage.Timestamps.format(((Number) value).longValue()) + "'";
                case TIME -> "TIME '" + io.tessera.storage.Timestamps.formatTime(((Number) value).longValue()) + "'";
                case TIMESTAMP_TZ -> "TIMESTAMPTZ '" + io.tessera.storage.ZonedTimestamps.format(
                        ((Number) value).longValue(), java.time.ZoneOffset.UTC) + "'";
                default -> value.toString();
            };
        }
    }

    /** An operation; {@code detail} holds what the operator needs beyond its arguments (LIKE pattern, EXTRACT unit). */
    record Call(Op op, List<Expr> args, DataType type, boolean nullable, Object detail) implements Expr {
        public Call {
            args = List.copyOf(args);
        }

        public Call(Op op, List<Expr> args, DataType type, boolean nullable) {
            this(op, args, type, nullable, null);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(op.name().toLowerCase(java.util.Locale.ROOT)).append('(');
            for (int i = 0; i < args.size(); i++) {
                sb.append(i > 0 ? ", " : "").append(args.get(i));
            }
            if (detail != null) {
                sb.append(args.isEmpty() ? "" : ", ").append(detail instanceof String s ? "'" + s + "'" : detail);
            }
            return sb.append(')').toString();
        }
    }
}
