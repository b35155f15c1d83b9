package io.tessera.storage;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * TIMESTAMP WITH TIME ZONE values: instants as microseconds since 1970-01-01 00:00:00 UTC. Text as DuckDB writes it in
 * a time zone ({@code 2020-07-01 04:00:00-04}, {@code 2020-07-01 13:30:00.5+05:30}) and reads it (a TIMESTAMP's text,
 * then an offset or a zone's name; without one the time is the given zone's).
 */
public final class ZonedTimestamps {

    /** Zones by the names SQL gave them, resolved once each. */
    private static final Map<String, ZoneId> ZONES = new ConcurrentHashMap<>();

    private ZonedTimestamps() {
    }

    /**
     * The time zone named {@code name}: a region ({@code America/New_York}), {@code UTC}, {@code GMT} or one of
     * Java's short names with an offset rule; an offset alone ({@code +02:00}) is refused, as DuckDB refuses it.
     * Throws IllegalArgumentException naming the text.
     */
    public static ZoneId zone(String name) {
        ZoneId z = ZONES.get(name);
        if (z != null) {
            return z;
        }
        String n = name.strip();
        try {
            if (n.isEmpty() || n.charAt(0) == '+' || n.charAt(0) == '-' || Character.isDigit(n.charAt(0))) {
                throw new DateTimeException(n);
            }
            z = n.equalsIgnoreCase("UTC") || n.equalsIgnoreCase("Z") ? ZoneOffset.UTC
                    : ZoneId.of(caseOfKnown(n), ZoneId.SHORT_IDS);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("unknown time zone '" + name + "'");
        }
        ZONES.put(name, z);
        return z;
    }

    /** {@code n} as Java spells a zone of that name in any case (DuckDB's names ignore case). */
    private static String caseOfKnown(String n) {
        for (String id : ZoneId.getAvailableZoneIds()) {
            if (id.equalsIgnoreCase(n)) {
                return id;
            }
        }
        return n;
    }

    /** The offset of {@code zone} at the instant {@code utcMicros}, in seconds. */
    public static int offsetSeconds(long utcMicros, ZoneId zone) {
        if (zone == ZoneOffset.UTC) {
            return 0;
        }
        Instant at = Instant.ofEpochSecond(Math.floorDiv(utcMicros, Timestamps.MICROS_PER_SECOND));
        return zone.getRules().getOffset(at).getTotalSeconds();
    }

    /** The date and time on a clock of {@code zone} at the instant, as a TIMESTAMP's microseconds. */
    public static long toLocal(long utcMicros, ZoneId zone) {
        return Math.addExact(utcMicros, offsetSeconds(utcMicros, zone) * Timestamps.MICROS_PER_SECOND);
    }

    /**
     * The instant when a clock of {@code zone} shows {@code localMicros}: in a gap (clocks moved forward) the time
     * after it, in an overlap the earlier instant, as java.time resolves them.
     */
    public static long fromLocal(long localMicros, ZoneId zone) {
        if (zone == ZoneOffset.UTC) {
            return localMicros;
        }
        LocalDateTime local = Timestamps.toLocalDateTime(localMicros);
        int offset = local.atZone(zone).getOffset().getTotalSeconds();
        return Math.subtractExact(Timestamps.micros(local), offset * Timestamps.MICROS_PER_SECOND);
    }

    /**
     * Parses a TIMESTAMP WITH TIME ZONE: a TIMESTAMP's text ({@link Timestamps#parseWithOffset}) whose offset names
     * the instant, else followed by a zone's name ({@code 2020-07-01 10:00 Europe/Berlin}), else in {@code zone}.
     * Throws IllegalArgumentException naming the text.
     */
    public static long parse(CharSequence text, ZoneId zone) {
        String s = text.toString().strip();
        int space = s.lastIndexOf(' ');
        if (space > 0 && s.indexOf('/', space) > 0) { // a region's name after the time
            return fromLocal(Timestamps.parse(s.substring(0, space)), zone(s.substring(space + 1)));
        }
        Timestamps.Parsed p;
        try {
            p = Timestamps.parseWithOffset(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid timestamp with time zone '" + text
                    + "' (expected yyyy-mm-dd hh:mm[:ss[.ffffff]][+hh[:mm]])", e);
        }
        return p.offsetSeconds() == Timestamps.NO_OFFSET ? fromLocal(p.micros(), zone) : p.utcMicros();
    }

    /** DuckDB's text of the instant in {@code zone}: {@code 2020-07-01 04:00:00-04}, {@code ...+05:30}. */
    public static String format(long utcMicros, ZoneId zone) {
        int offset = offsetSeconds(utcMicros, zone);
        StringBuilder b = new StringBuilder(32);
        b.append(Timestamps.format(Math.addExact(utcMicros, offset * Timestamps.MICROS_PER_SECOND)));
        appendOffset(b, offset);
        return b.toString();
    }

    /** {@code +hh}, with {@code :mm} and {@code :ss} where they are not zero. */
    static void appendOffset(StringBuilder b, int offsetSeconds) {
        int a = Math.abs(offsetSeconds);
        b.append(offsetSeconds < 0 ? '-' : '+');
        two(b, a / 3600);
        if (a % 3600 != 0) {
            two(b.append(':'), a / 60 % 60);
            if (a % 60 != 0) {
                two(b.append(':'), a % 60);
            }
        }
    }

    private static void two(StringBuilder b, int v) {
        b.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
    }

    /** The instant as the Java value a result holds: its date and time in {@code zone}, with that offset. */
    public static OffsetDateTime valueOf(long utcMicros, ZoneId zone) {
        ZoneOffset offset = ZoneOffset.ofTotalSeconds(offsetSeconds(utcMicros, zone));
        return Timestamps.toLocalDateTime(utcMicros).atOffset(ZoneOffset.UTC).withOffsetSameInstant(offset);
    }

    /** The instant of a Java value (an OffsetDateTime, ZonedDateTime or Instant) as microseconds since epoch. */
    public static long micros(Object v) {
        Instant i = switch (v) {
            case OffsetDateTime t -> t.toInstant();
            case java.time.ZonedDateTime t -> t.toInstant();
            case Instant t -> t;
            default -> throw new IllegalArgumentException("not an instant: " + v.getClass().getName());
        };
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), Timestamps.MICROS_PER_SECOND), i.getNano() / 1000);
    }
}
