package io.tessera.backend.jvm.lib;

import io.tessera.storage.Timestamps;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A strftime / strptime format as DuckDB reads one: literal text and specifiers ({@code %Y %y %m %d %j %H %I %M %S
 * %f %g %p %a %A %b %B %h %w %u %%}, and {@code %-m %-d %-H %-I %-M %-S %-j} without padding); the weeks of the year
 * {@code %U %W} and the ISO week and year {@code %V %G} in strftime only. A format is a value
 * of the query (a constant or a column), read into its parts once and kept; never code.
 */
public final class TimestampFormat {

    private static final int CACHE_LIMIT = 256;
    private static final ConcurrentHashMap<String, TimestampFormat> CACHE = new ConcurrentHashMap<>();

    /** One part: a literal (spec 0) or a specifier letter, unpadded or not. */
    private record Part(char spec, boolean unpadded, String literal) {
    }

    private final String text;
    private final List<Part> parts;

    private TimestampFormat(String text) {
        this.text = text;
        List<Part> ps = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '%') {
                lit.append(c);
                continue;
            }
            boolean unpadded = i + 1 < text.length() && text.charAt(i + 1) == '-';
            int at = i + (unpadded ? 2 : 1);
            if (at >= text.length()) {
                throw new IllegalArgumentException("format '" + text + "' ends in the middle of a specifier");
            }
            char spec = text.charAt(at);
            if ("YymdjHIMSfgpaAbBhwuUWVG%".indexOf(spec) < 0 || unpadded && "mdjHIMS".indexOf(spec) < 0) {
                throw new IllegalArgumentException("unsupported specifier %" + (unpadded ? "-" : "") + spec
                        + " in format '" + text + "'");
            }
            if (spec == '%') {
                lit.append('%');
            } else {
                if (!lit.isEmpty()) {
                    ps.add(new Part((char) 0, false, lit.toString()));
                    lit.setLength(0);
                }
                ps.add(new Part(spec, unpadded, null));
            }
            i = at;
        }
        if (!lit.isEmpty()) {
            ps.add(new Part((char) 0, false, lit.toString()));
        }
        this.parts = List.copyOf(ps);
    }

    /** The format of this text, read once. */
    public static TimestampFormat of(String text) {
        TimestampFormat f = CACHE.get(text);
        if (f == null) {
            f = new TimestampFormat(text);
            if (CACHE.size() >= CACHE_LIMIT) {
                CACHE.clear();
            }
            CACHE.put(text, f);
        }
        return f;
    }

    /** The text of a timestamp in this format. */
    public String format(long micros) {
        LocalDateTime t = Timestamps.toLocalDateTime(micros);
        long fraction = Math.floorMod(micros, Timestamps.MICROS_PER_SECOND);
        StringBuilder b = new StringBuilder();
        for (Part p : parts) {
            switch (p.spec) {
                case 0 -> b.append(p.literal);
                case 'Y' -> b.append(t.getYear());
                case 'y' -> pad(b, Math.floorMod(t.getYear(), 100), 2, false);
                case 'm' -> pad(b, t.getMonthValue(), 2, p.unpadded);
                case 'd' -> pad(b, t.getDayOfMonth(), 2, p.unpadded);
                case 'j' -> pad(b, t.getDayOfYear(), 3, p.unpadded);
                case 'H' -> pad(b, t.getHour(), 2, p.unpadded);
                case 'I' -> pad(b, (t.getHour() + 11) % 12 + 1, 2, p.unpadded);
                case 'M' -> pad(b, t.getMinute(), 2, p.unpadded);
                case 'S' -> pad(b, t.getSecond(), 2, p.unpadded);
                case 'f' -> pad(b, fraction, 6, false);
                case 'g' -> pad(b, fraction / 1000, 3, false);
                case 'p' -> b.append(t.getHour() < 12 ? "AM" : "PM");
                case 'a' -> b.append(t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
                case 'A' -> b.append(t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
                case 'b', 'h' -> b.append(t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
                case 'B' -> b.append(t.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
                case 'w' -> b.append(t.getDayOfWeek().getValue() % 7);
                case 'u' -> b.append(t.getDayOfWeek().getValue());
                // weeks of the year: from the first Sunday (%U) or Monday (%W), the days before it week 0
                case 'U' -> pad(b, (t.getDayOfYear() + 6 - t.getDayOfWeek().getValue() % 7) / 7, 2, false);
                case 'W' -> pad(b, (t.getDayOfYear() + 6 - (t.getDayOfWeek().getValue() + 6) % 7) / 7, 2, false);
                case 'V' -> pad(b, t.get(java.time.temporal.IsoFields.WEEK_OF_WEEK_BASED_YEAR), 2, false);
                case 'G' -> b.append(t.get(java.time.temporal.IsoFields.WEEK_BASED_YEAR));
                default -> throw new IllegalStateException("specifier " + p.spec);
            }
        }
        return b.toString();
    }

    private static void pad(StringBuilder b, long v, int width, boolean unpadded) {
        String s = Long.toString(v);
        if (!unpadded) {
            b.repeat('0', Math.max(0, width - s.length()));
        }
        b.append(s);
    }

    /**
     * The timestamp this format reads from {@code s}: numbers of up to their field's width (a year of up to 4
     * digits, a fraction of up to 6), names of months and days in English, any case; a space in the format takes
     * any run of white space. Fails naming the text and the format.
     */
    public long parse(String s) {
        for (Part p : parts) {
            if ("UWVG".indexOf(p.spec) >= 0) {
                throw new IllegalArgumentException("strptime does not read the week specifier %" + p.spec
                        + " (format '" + text + "')");
            }
        }
        int year = 1970;
        int month = 1;
        int day = 1;
        int dayOfYear = -1;
        int hour = 0;
        int minute = 0;
        int second = 0;
        long fraction = 0;
        int pm = -1;
        int[] pos = {0};
        try {
            for (Part p : parts) {
                switch (p.spec) {
                    case 0 -> literal(s, pos, p.literal);
                    case 'Y' -> year = number(s, pos, 4);
                    case 'y' -> {
                        int y = number(s, pos, 2);
                        year = y < 69 ? 2000 + y : 1900 + y;
                    }
                    case 'm' -> month = number(s, pos, 2);
                    case 'd' -> day = number(s, pos, 2);
                    case 'j' -> dayOfYear = number(s, pos, 3);
                    case 'H', 'I' -> hour = number(s, pos, 2);
                    case 'M' -> minute = number(s, pos, 2);
                    case 'S' -> second = number(s, pos, 2);
                    case 'f', 'g' -> {
                        int start = pos[0];
                        long v = number(s, pos, p.spec == 'f' ? 6 : 3);
                        for (int d = pos[0] - start; d < 6; d++) {
                            v *= 10;
                        }
                        fraction = v;
                    }
                    case 'p' -> {
                        String w = s.substring(pos[0], Math.min(s.length(), pos[0] + 2)).toUpperCase(Locale.ROOT);
                        if (!w.equals("AM") && !w.equals("PM")) {
                            throw new IllegalArgumentException();
                        }
                        pm = w.equals("PM") ? 1 : 0;
                        pos[0] += 2;
                    }
                    case 'b', 'h', 'B' -> month = name(s, pos, true);
                    case 'a', 'A' -> name(s, pos, false);
                    case 'w', 'u' -> number(s, pos, 1);
                    default -> throw new IllegalStateException("specifier " + p.spec);
                }
            }
            if (pos[0] != s.length()) {
                throw new IllegalArgumentException();
            }
            if (pm >= 0) {
                if (hour < 1 || hour > 12) {
                    throw new IllegalArgumentException();
                }
                hour = hour % 12 + (pm == 1 ? 12 : 0);
            }
            LocalDate date = dayOfYear > 0 ? LocalDate.ofYearDay(year, dayOfYear) : LocalDate.of(year, month, day);
            if (hour > 23 || minute > 59 || second > 59) {
                throw new IllegalArgumentException();
            }
            long time = hour * Timestamps.MICROS_PER_HOUR + minute * Timestamps.MICROS_PER_MINUTE
                    + second * Timestamps.MICROS_PER_SECOND + fraction;
            return Timestamps.ofDays(date.toEpochDay()) + time;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("could not parse '" + s + "' according to format '" + text + "'");
        }
    }

    private static void literal(String s, int[] pos, String lit) {
        for (int i = 0; i < lit.length(); i++) {
            char c = lit.charAt(i);
            if (Character.isWhitespace(c)) {
                while (pos[0] < s.length() && Character.isWhitespace(s.charAt(pos[0]))) {
                    pos[0]++;
                }
            } else if (pos[0] < s.length() && s.charAt(pos[0]) == c) {
                pos[0]++;
            } else {
                throw new IllegalArgumentException();
            }
        }
    }

    private static int number(String s, int[] pos, int maxDigits) {
        int start = pos[0];
        int v = 0;
        while (pos[0] < s.length() && pos[0] - start < maxDigits && Character.isDigit(s.charAt(pos[0]))) {
            v = v * 10 + (s.charAt(pos[0]++) - '0');
        }
        if (pos[0] == start) {
            throw new IllegalArgumentException();
        }
        return v;
    }

    /** A month's (1 to 12) or a day's name, full or its first three letters. */
    private static int name(String s, int[] pos, boolean month) {
        int n = month ? 12 : 7;
        for (int i = 1; i <= n; i++) {
            String full = month ? java.time.Month.of(i).getDisplayName(TextStyle.FULL, Locale.ENGLISH)
                    : java.time.DayOfWeek.of(i).getDisplayName(TextStyle.FULL, Locale.ENGLISH);
            for (String w : List.of(full, full.substring(0, 3))) {
                if (s.regionMatches(true, pos[0], w, 0, w.length())) {
                    pos[0] += w.length();
                    return i;
                }
            }
        }
        throw new IllegalArgumentException();
    }
}
