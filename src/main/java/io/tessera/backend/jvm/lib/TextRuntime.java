package io.tessera.backend.jvm.lib;

import io.tessera.backend.lower.StringFunctions;
import io.tessera.backend.lower.Substrings;
import io.tessera.sql.SqlError;

import java.nio.charset.StandardCharsets;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.temporal.IsoFields;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The string and date functions that generated code calls, as DuckDB computes them. A string is a sequence of
 * Unicode code points: lengths, positions and pads count code points, never UTF-16 units, so a character above
 * U+FFFF counts once. Arguments are never NULL here: the generated code decides NULLs before it calls.
 */
public final class TextRuntime {
    private TextRuntime() {
    }

    /** The longest string a function builds: beyond it the call fails instead of exhausting the heap. */
    static final long MAX_RESULT = 1L << 28;

    public static long length(String s) {
        return Substrings.length(s);
    }

    public static long octetLength(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** The UTF-16 index of code point {@code cp} of s (clamped to the string's length). */
    private static int offset(String s, long cp) {
        return Substrings.offset(s, cp);
    }

    /** SUBSTRING(s, start) to the end of s. */
    public static String substring(String s, long start) {
        return substring(s, start, MAX_POSITION);
    }

    /** The largest start or length SUBSTRING takes, as in DuckDB (which fails beyond it). */
    static final long MAX_POSITION = Substrings.MAX_POSITION;

    /** SUBSTRING(s, start, length) by DuckDB's rules ({@link Substrings#of}); a bound beyond the range fails. */
    public static String substring(String s, long start, long length) {
        if (!Substrings.inRange(start)) {
            throw new SqlError("Substring offset outside of supported range (> " + MAX_POSITION + ")");
        }
        if (!Substrings.inRange(length)) {
            throw new SqlError("Substring length outside of supported range (> " + MAX_POSITION + ")");
        }
        return Substrings.of(s, start, length);
    }

    /** The 1-based code point position of the first occurrence of needle in s, 0 when there is none. */
    public static long position(String s, String needle) {
        int i = s.indexOf(needle);
        return i < 0 ? 0 : s.codePointCount(0, i) + 1;
    }

    /** Trims from the left (mode 1), the right (2) or both ends (3) every code point that is one of chars. */
    public static String trim(String s, String chars, int mode) {
        return StringFunctions.trim(s, chars, mode);
    }

    /** UPPER: each code point mapped on its own, as DuckDB maps it ({@link StringFunctions#upper}). */
    public static String upper(String s) {
        return StringFunctions.upper(s);
    }

    /** LOWER: each code point mapped on its own ({@link StringFunctions#lower}). */
    public static String lower(String s) {
        return StringFunctions.lower(s);
    }

    /** Every occurrence of from replaced by to; an empty from changes nothing. */
    public static String replace(String s, String from, String to) {
        if (from.isEmpty()) {
            return s;
        }
        String r = s.replace(from, to);
        checkSize(r.length(), "REPLACE");
        return r;
    }

    /** LPAD and RPAD: s cut to length code points, or padded with pad repeated on the left or the right. */
    public static String pad(String s, long length, String pad, boolean left) {
        String what = left ? "LPAD" : "RPAD";
        if (length <= 0) {
            return "";
        }
        long size = length(s);
        if (size >= length) {
            return s.substring(0, offset(s, length));
        }
        if (pad.isEmpty()) {
            throw new SqlError("Insufficient padding in " + what + ": the pad string is empty");
        }
        checkSize(length * 2, what);
        StringBuilder fill = new StringBuilder();
        int padPoints = pad.codePointCount(0, pad.length());
        for (long k = 0, need = length - size; k < need; k++) {
            fill.appendCodePoint(pad.codePointAt(pad.offsetByCodePoints(0, (int) (k % padPoints))));
        }
        return left ? fill + s : s + fill;
    }

    /** LEFT(s, n): the first n code points; a negative n leaves out the last -n. */
    public static String left(String s, long n) {
        return StringFunctions.left(s, n);
    }

    /** RIGHT(s, n): the last n code points; a negative n leaves out the first -n. */
    public static String right(String s, long n) {
        return StringFunctions.right(s, n);
    }

    public static String repeat(String s, long n) {
        if (n <= 0 || s.isEmpty()) {
            return "";
        }
        checkSize(s.length() * n, "REPEAT");
        return s.repeat((int) n);
    }

    /** CONCAT_WS: the non-NULL (non-null) parts joined by the separator. */
    public static String concatWs(String separator, String... parts) {
        return StringFunctions.concatWs(separator, parts);
    }

    private static void checkSize(long chars, String what) {
        if (chars > MAX_RESULT) {
            throw new SqlError(what + " would make a string of more than " + MAX_RESULT + " characters");
        }
    }

    /** A DOUBLE as CAST to VARCHAR writes it, as DuckDB does ({@link io.tessera.storage.Values#formatDouble}). */
    public static String doubleText(double d) {
        return io.tessera.storage.Values.formatDouble(d);
    }

    /** Patterns of LIKE by (pattern, escape, case): compiled once each; emptied when it grows past its bound. */
    private static final java.util.concurrent.ConcurrentHashMap<String, Pattern> LIKE_PATTERNS =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** DuckDB's GLOB of a string and a pattern ({@link GlobMatch}). */
    public static boolean glob(String s, String pattern) {
        return GlobMatch.matches(s, pattern);
    }

    /** LIKE (or ILIKE) with a pattern that is a value of the row; escape is "" for none. */
    public static boolean like(String s, String pattern, String escape, boolean insensitive) {
        String key = (insensitive ? "i" : "c") + escape.length() + escape + pattern;
        Pattern p = LIKE_PATTERNS.get(key);
        if (p == null) {
            if (LIKE_PATTERNS.size() > 4096) {
                LIKE_PATTERNS.clear();
            }
            String regex = io.tessera.sql.LikePattern.toRegex(pattern, escape.isEmpty() ? null : escape.charAt(0));
            p = Pattern.compile((insensitive ? "(?iu)" : "") + regex, Pattern.DOTALL);
            LIKE_PATTERNS.put(key, p);
        }
        return p.matcher(s).matches();
    }

    // ---- regular expressions ----

    public static Pattern pattern(String regex) {
        return Pattern.compile(regex);
    }

    public static boolean matchesPart(Pattern p, String s) {
        return p.matcher(s).find();
    }

    public static boolean matchesWhole(Pattern p, String s) {
        return p.matcher(s).matches();
    }

    /**
     * The first match (or every one) replaced: in the replacement, {@code \0} to {@code \9} are the match and its
     * groups and {@code \\} is a backslash, as in DuckDB; every other character stands for itself.
     */
    public static String regexpReplace(Pattern p, String s, String replacement, boolean all) {
        Matcher m = p.matcher(s);
        StringBuilder sb = new StringBuilder();
        int last = 0;
        int from = 0;
        while (from <= s.length() && m.find(from)) {
            sb.append(s, last, m.start());
            appendReplacement(sb, m, replacement);
            last = m.end();
            checkSize(sb.length(), "REGEXP_REPLACE");
            if (!all) {
                break;
            }
            if (m.end() > m.start()) {
                from = m.end();
            } else if (m.end() < s.length()) {
                from = m.end() + Character.charCount(s.codePointAt(m.end())); // past an empty match
            } else {
                break;
            }
        }
        sb.append(s, last, s.length());
        return sb.toString();
    }

    private static void appendReplacement(StringBuilder sb, Matcher m, String replacement) {
        for (int i = 0; i < replacement.length(); i++) {
            char c = replacement.charAt(i);
            if (c != '\\' || i + 1 == replacement.length()) {
                sb.append(c);
                continue;
            }
            char d = replacement.charAt(++i);
            if (d >= '0' && d <= '9') {
                int g = d - '0';
                if (g > m.groupCount()) {
                    throw new SqlError("invalid replacement '" + replacement + "': there is no group " + g);
                }
                String v = m.group(g);
                sb.append(v == null ? "" : v);
            } else if (d == '\\') {
                sb.append('\\');
            } else {
                throw new SqlError("invalid replacement '" + replacement + "': \\" + d + " names no group");
            }
        }
    }

    // ---- dates ----

    /** EXTRACT / DATE_PART of a date (days since 1970-01-01), numbered as DuckDB numbers them. */
    public static long datePart(String unit, int days) {
        LocalDate d = LocalDate.ofEpochDay(days);
        int y = d.getYear();
        return switch (unit) {
            case "YEAR" -> y;
            case "QUARTER" -> (d.getMonthValue() - 1) / 3 + 1;
            case "MONTH" -> d.getMonthValue();
            case "DAY" -> d.getDayOfMonth();
            case "DOW" -> d.getDayOfWeek().getValue() % 7; // Sunday 0 .. Saturday 6
            case "ISODOW" -> d.getDayOfWeek().getValue(); // Monday 1 .. Sunday 7
            case "DOY" -> d.getDayOfYear();
            case "WEEK" -> d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
            case "ISOYEAR" -> d.get(IsoFields.WEEK_BASED_YEAR);
            case "YEARWEEK" -> d.get(IsoFields.WEEK_BASED_YEAR) * 100L + d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
            case "DECADE" -> Math.floorDiv(y, 10);
            case "CENTURY" -> y > 0 ? (y - 1) / 100 + 1 : -((-y) / 100 + 1);
            case "MILLENNIUM" -> y > 0 ? (y - 1) / 1000 + 1 : -((-y) / 1000 + 1);
            case "ERA" -> y > 0 ? 1 : 0;
            default -> throw new IllegalArgumentException("EXTRACT " + unit);
        };
    }

    /** DATE_TRUNC of a date to the first day of its unit (WEEK: the Monday on or before it). */
    public static int dateTrunc(String unit, int days) {
        LocalDate d = LocalDate.ofEpochDay(days);
        int y = d.getYear();
        LocalDate r = switch (unit) {
            case "MILLENNIUM" -> LocalDate.of(Math.floorDiv(y, 1000) * 1000, 1, 1);
            case "CENTURY" -> LocalDate.of(Math.floorDiv(y, 100) * 100, 1, 1);
            case "DECADE" -> LocalDate.of(Math.floorDiv(y, 10) * 10, 1, 1);
            case "YEAR" -> LocalDate.of(y, 1, 1);
            case "QUARTER" -> LocalDate.of(y, (d.getMonthValue() - 1) / 3 * 3 + 1, 1);
            case "MONTH" -> d.withDayOfMonth(1);
            case "WEEK" -> d.minusDays(d.getDayOfWeek().getValue() - DayOfWeek.MONDAY.getValue());
            case "DAY" -> d;
            default -> throw new IllegalArgumentException("DATE_TRUNC " + unit);
        };
        return (int) r.toEpochDay();
    }

    // ---- splitting, characters and digests ----

    /**
     * The encoded VARCHAR[] of s split at each separator (string_split): an empty separator splits into code points,
     * a NULL one (null) leaves s whole; an empty s is one empty part.
     */
    public static String split(String s, String separator) {
        return io.tessera.storage.ListCodec.join(parts(s, separator).toArray(new String[0]));
    }

    /** Part n of s split at the separator (1 the first, -1 the last); '' for 0 or beyond the parts. */
    public static String splitPart(String s, String separator, long n) {
        java.util.List<String> parts = parts(s, separator);
        long i = n > 0 ? n - 1 : parts.size() + n;
        return n == 0 || i < 0 || i >= parts.size() ? "" : parts.get((int) i);
    }

    private static java.util.List<String> parts(String s, String separator) {
        java.util.List<String> parts = new java.util.ArrayList<>();
        if (separator == null) {
            parts.add(s);
        } else if (separator.isEmpty()) {
            s.codePoints().forEach(c -> parts.add(Character.toString(c)));
            if (s.isEmpty()) {
                parts.add("");
            }
        } else {
            int from = 0;
            for (int at = s.indexOf(separator); at >= 0; at = s.indexOf(separator, from)) {
                parts.add(s.substring(from, at));
                from = at + separator.length();
            }
            parts.add(s.substring(from));
        }
        return parts;
    }

    /** s with its grapheme clusters (a character and the marks that combine with it) in the reverse order. */
    public static String reverse(String s) {
        java.text.BreakIterator clusters = java.text.BreakIterator.getCharacterInstance(java.util.Locale.ROOT);
        clusters.setText(s);
        StringBuilder sb = new StringBuilder(s.length());
        int end = clusters.last();
        for (int start = clusters.previous(); start != java.text.BreakIterator.DONE; end = start, start = clusters.previous()) {
            sb.append(s, start, end);
        }
        return sb.toString();
    }

    /** The code point of the first character of s, 0 for the empty string. */
    public static int ascii(String s) {
        return s.isEmpty() ? 0 : s.codePointAt(0);
    }

    /** The character of a code point; an error for a number that is none (a surrogate, beyond U+10FFFF). */
    public static String chr(long codePoint) {
        if (codePoint < 0 || codePoint > Character.MAX_CODE_POINT
                || codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE) {
            throw new SqlError("chr: " + codePoint + " is not a Unicode code point");
        }
        return Character.toString((int) codePoint);
    }

    /** The MD5 digest of the UTF-8 bytes of s as 32 lower-case hex digits. */
    public static String md5(String s) {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(digest);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Group {@code group} of the first match of the pattern in s; '' where nothing matches or the group took no part. */
    public static String regexpExtract(Pattern pattern, String s, int group) {
        Matcher m = pattern.matcher(s);
        if (!m.find() || group > m.groupCount()) {
            return "";
        }
        String g = m.group(group);
        return g == null ? "" : g;
    }

    /** Every match's group (0 the whole match; a group that took no part NULL), as a list. */
    public static String regexpExtractAll(Pattern pattern, String s, int group) {
        Matcher m = pattern.matcher(s);
        java.util.List<String> found = new java.util.ArrayList<>();
        while (m.find()) {
            if (group > m.groupCount()) {
                throw new IllegalArgumentException("regexp_extract_all: the pattern has no group " + group);
            }
            found.add(m.group(group));
        }
        return io.tessera.storage.ListCodec.join(found.toArray(new String[0]));
    }

    /** s split at every match of the pattern, empty parts kept, as a list. */
    public static String regexpSplit(Pattern pattern, String s) {
        return io.tessera.storage.ListCodec.join(pattern.split(s, -1));
    }

    /** s with a backslash before each ASCII character but letters, digits and _; other characters kept. */
    public static String regexpEscape(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80 && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')) {
                if (c == 0) {
                    sb.append("\\x00");
                    continue;
                }
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }

    /** The first character's code point; -1 of ''. */
    public static int unicode(String s) {
        return s.isEmpty() ? -1 : s.codePointAt(0);
    }

    /** s with the combining marks of its decomposed letters removed (é as e). */
    public static String stripAccents(String s) {
        String d = java.text.Normalizer.normalize(s, java.text.Normalizer.Form.NFD);
        return d.replaceAll("\\p{M}", "");
    }

    /** Every UTF-8 byte of s as %XX but for ASCII letters, digits and - _ . ~. */
    public static String urlEncode(String s) {
        StringBuilder sb = new StringBuilder();
        for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
                    || c == '.' || c == '~') {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return sb.toString();
    }

    /** Each %XX as its byte, the bytes read as UTF-8; a % not followed by two hex digits stays as it is. */
    public static String urlDecode(String s) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] in = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (int i = 0; i < in.length; i++) {
            int hi = in[i] == '%' && i + 2 < in.length ? Character.digit(in[i + 1], 16) : -1;
            int lo = hi >= 0 ? Character.digit(in[i + 2], 16) : -1;
            if (lo >= 0) {
                out.write(hi << 4 | lo);
                i += 2;
            } else {
                out.write(in[i]);
            }
        }
        String decoded = out.toString(java.nio.charset.StandardCharsets.UTF_8);
        if (decoded.indexOf('\uFFFD') >= 0 && s.indexOf('\uFFFD') < 0) {
            throw new IllegalArgumentException("url_decode: the decoded bytes are not UTF-8: " + s);
        }
        return decoded;
    }
}
