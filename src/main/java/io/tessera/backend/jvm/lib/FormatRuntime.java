package io.tessera.backend.jvm.lib;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * DuckDB's FORMAT ({@code {}} placeholders, as the fmt library reads them) and PRINTF (C's conversions). A format
 * is a value read at run time, parsed once into {@link FormatPiece}s and kept in a small cache; arguments arrive as
 * Longs (integers), Doubles (floating and decimal numbers) or Strings (all else), which decide the conversions each
 * may take, as in DuckDB. Errors carry DuckDB's message, then the function and the format.
 */
public final class FormatRuntime {

    /** Formats parsed, by function and text; cleared when full (a format from a column may take many values). */
    private static final Map<String, List<FormatPiece>> CACHE = new ConcurrentHashMap<>();
    private static final int CACHE_LIMIT = 256;

    private FormatRuntime() {
    }

    public static String format(String fmt, Object... args) {
        return render("format", fmt, args);
    }

    public static String printf(String fmt, Object... args) {
        return render("printf", fmt, args);
    }

    private static final String[] BINARY_UNITS = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
    private static final String[] DECIMAL_UNITS = {"bytes", "kB", "MB", "GB", "TB", "PB"};

    /**
     * FORMAT_BYTES (unit 1024) and formatReadableDecimalSize (unit 1000), as DuckDB writes them: the largest unit
     * the count reaches with one digit after the point, truncated; a negative count as its magnitude after a minus.
     */
    public static String formatBytes(long bytes, int unit) {
        if (bytes < 0) {
            // the magnitude of -2^63 as an unsigned long
            return "-" + formatUnsigned(-bytes, unit);
        }
        return formatUnsigned(bytes, unit);
    }

    private static String formatUnsigned(long bytes, int unit) {
        long[] parts = new long[BINARY_UNITS.length];
        parts[0] = bytes;
        for (int i = 1; i < parts.length; i++) {
            parts[i] = Long.divideUnsigned(parts[i - 1], unit);
            parts[i - 1] = Long.remainderUnsigned(parts[i - 1], unit);
        }
        for (int i = parts.length - 1; i >= 1; i--) {
            if (parts[i] != 0) {
                return parts[i] + "." + (parts[i - 1] * 10 / unit) + " "
                        + (unit == 1024 ? BINARY_UNITS : DECIMAL_UNITS)[i];
            }
        }
        return Long.toUnsignedString(bytes) + (bytes == 1 ? " byte" : " bytes");
    }

    /** TO_BASE: the digits of n (not negative) in a radix from 2 to 36, upper case, zeros before to minLength. */
    public static String toBase(long n, long radix, long minLength) {
        if (n < 0) {
            throw new IllegalArgumentException("'to_base' number must be greater than or equal to 0");
        }
        if (radix < 2 || radix > 36) {
            throw new IllegalArgumentException("'to_base' radix must be between 2 and 36");
        }
        if (minLength < 0 || minLength > 64) {
            throw new IllegalArgumentException("'to_base' min_length must be between 0 and 64");
        }
        String digits = Long.toString(n, (int) radix).toUpperCase(Locale.ROOT);
        return digits.length() >= minLength ? digits : "0".repeat((int) minLength - digits.length()) + digits;
    }

    private static String render(String function, String fmt, Object[] args) {
        try {
            List<FormatPiece> pieces = parsed(function, fmt);
            StringBuilder out = new StringBuilder();
            for (FormatPiece p : pieces) {
                p.append(out, args);
            }
            return out.toString();
        } catch (java.util.IllegalFormatException e) { // a C spec Java cannot write, as "%-05d"
            throw new IllegalArgumentException("invalid format string in " + function + "('" + fmt + "')");
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IllegalArgumentException(e.getMessage() + " in " + function + "('" + fmt + "')");
        }
    }

    private static List<FormatPiece> parsed(String function, String fmt) {
        String key = function + "\u0000" + fmt;
        List<FormatPiece> p = CACHE.get(key);
        if (p == null) {
            p = function.equals("format") ? BraceFormat.parse(fmt) : PrintfFormat.parse(fmt);
            if (CACHE.size() >= CACHE_LIMIT) {
                CACHE.clear();
            }
            CACHE.put(key, p);
        }
        return p;
    }

    /** DuckDB's name of an argument's kind in its messages. */
    static String kind(Object arg) {
        return arg instanceof Long ? "int" : arg instanceof Double ? "float" : "string";
    }

    static Object argument(Object[] args, int index) {
        if (index >= args.length) {
            throw new IllegalArgumentException("Argument index \"" + index + "\" out of range");
        }
        return args[index];
    }

    static IllegalArgumentException badType(char type, Object arg) {
        return new IllegalArgumentException("Invalid type specifier \"" + type + "\" for formatting a value of type "
                + kind(arg));
    }

    /**
     * A double for a fixed-point conversion: its exact binary value rounded half to even at the precision, as C
     * rounds (-0.125 to two places is -0.12, where Java's own rounding gives -0.13).
     */
    static Object exact(double v, int precision) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return v;
        }
        return new java.math.BigDecimal(v).setScale(precision, java.math.RoundingMode.HALF_EVEN);
    }

    /** C's %g: %e or %f by the exponent, trailing zeros removed. */
    static String general(double v, int precision, String flags, boolean upper) {
        int p = precision == 0 ? 1 : precision;
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return String.format(Locale.ROOT, "%" + flags + "f", v);
        }
        String e = String.format(Locale.ROOT, "%." + (p - 1) + "e", v);
        int exp = Integer.parseInt(e.substring(e.indexOf('e') + 1));
        String s = exp < -4 || exp >= p ? e : String.format(Locale.ROOT, "%." + (p - 1 - exp) + "f", v);
        int mark = s.indexOf('e');
        String mantissa = mark < 0 ? s : s.substring(0, mark);
        if (mantissa.contains(".")) {
            mantissa = mantissa.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        s = mantissa + (mark < 0 ? "" : s.substring(mark));
        if (flags.contains("+") && v >= 0) {
            s = "+" + s;
        }
        return upper ? s.toUpperCase(Locale.ROOT) : s;
    }
}
