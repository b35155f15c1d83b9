package io.tessera.backend.jvm.gen;

import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.lib.TextRuntime;
import io.tessera.plan.Expr;
import io.tessera.plan.TextFunction;

import java.util.ArrayList;
import java.util.List;

/**
 * The string functions ({@link io.tessera.plan.Op#FUNCTION}) and DATE_TRUNC / EXTRACT as Java: each a call of
 * {@link TextRuntime}. A regular expression is a constant of the plan, compiled once in init from the bound string
 * (never source text). A call is made only on non-NULL arguments: where an argument is NULL the result is NULL and
 * the call is not evaluated, so that a NULL's placeholder cannot fail (an empty pad).
 */
final class TextFunctions {

    private static final String TEXT = "io.tessera.backend.jvm.lib.TextRuntime.";
    private static final String DISTANCE = "io.tessera.backend.jvm.lib.StringDistanceRuntime.";
    private static final String FORMATS = "io.tessera.backend.jvm.lib.FormatRuntime.";
    private static final String PATHS = "io.tessera.backend.jvm.lib.PathRuntime.";
    private static final String UNICODE = "io.tessera.backend.jvm.lib.UnicodeRuntime.";
    private static final String JSON = "io.tessera.backend.jvm.lib.JsonRuntime.";

    private final ExprGen.Scope scope;
    private final ExprGen gen;

    TextFunctions(ExprGen.Scope scope, ExprGen gen) {
        this.scope = scope;
        this.gen = gen;
    }

    JExpr call(Expr.Call c) {
        TextFunction f = (TextFunction) c.detail();
        if (f == TextFunction.CONCAT || f == TextFunction.CONCAT_WS) {
            return concat(c, f);
        }
        if (f == TextFunction.FORMAT || f == TextFunction.PRINTF) {
            return formatted(c, f);
        }
        if (f.json()) {
            return json(c, f);
        }
        if (f == TextFunction.RANDOM_UUID) {
            return JExpr.of("io.tessera.backend.jvm.lib.ByteStringRuntime.randomUuid()", "false", ValueKind.STRING);
        }
        if (f == TextFunction.RANDOM_UUID_V7) {
            return JExpr.of("io.tessera.backend.jvm.lib.ByteStringRuntime.randomUuidV7()", "false", ValueKind.STRING);
        }
        List<Expr> args = c.args();
        List<String> v = new ArrayList<>();
        String n = "false";
        for (int i = 0; i < args.size(); i++) {
            if (regex(f) && i == 1) {
                v.add(pattern(args.get(1)));
                continue;
            }
            JExpr x = gen.gen(args.get(i));
            if (f == TextFunction.STRING_SPLIT && i == 1) { // a NULL separator splits nothing
                boolean isNull = args.get(i) instanceof Expr.Literal l && l.value() == null;
                v.add(isNull ? "(String) null"
                        : x.nullable() ? "(" + x.n() + " ? (String) null : " + gen.asString(x) + ")" : gen.asString(x));
                continue;
            }
            n = ExprGen.or(n, x.n());
            if (args.get(i) instanceof Expr.Literal l && l.value() == null) {
                v.add(number(f, i) ? "0L" : "\"\""); // a NULL of whatever type: the call is not evaluated
            } else {
                v.add(x.kind() == ValueKind.CODE || x.kind() == ValueKind.STRING ? gen.asString(x)
                        : x.kind() == ValueKind.BOOL ? x.v() : ExprGen.asLong(x));
            }
        }
        String s = v.get(0);
        // the IR operation by name, then the run-time call
        String call = switch (f) {
            case SUBSTRING -> TEXT + "substring(" + String.join(", ", v) + ")";
            case POSITION -> TEXT + "position(" + s + ", " + v.get(1) + ")";
            case LENGTH -> TEXT + "length(" + s + ")";
            case OCTET_LENGTH -> TEXT + "octetLength(" + s + ")";
            case TRIM, LTRIM, RTRIM -> TEXT + "trim(" + s + ", " + v.get(1) + ", "
                    + (f == TextFunction.LTRIM ? 1 : f == TextFunction.RTRIM ? 2 : 3) + ")";
            case REPLACE -> TEXT + "replace(" + s + ", " + v.get(1) + ", " + v.get(2) + ")";
            case LPAD, RPAD -> TEXT + "pad(" + s + ", " + v.get(1) + ", " + v.get(2) + ", " + (f == TextFunction.LPAD) + ")";
            case LEFT -> TEXT + "left(" + s + ", " + v.get(1) + ")";
            case RIGHT -> TEXT + "right(" + s + ", " + v.get(1) + ")";
            case REPEAT -> TEXT + "repeat(" + s + ", " + v.get(1) + ")";
            case REGEXP_MATCHES -> TEXT + "matchesPart(" + v.get(1) + ", " + s + ")";
            case REGEXP_FULL_MATCH -> TEXT + "matchesWhole(" + v.get(1) + ", " + s + ")";
            case REGEXP_REPLACE, REGEXP_REPLACE_ALL -> TEXT + "regexpReplace(" + v.get(1) + ", " + s + ", " + v.get(2)
                    + ", " + (f == TextFunction.REGEXP_REPLACE_ALL) + ")";
            case LIKE_PATTERN, ILIKE_PATTERN -> TEXT + "like(" + s + ", " + v.get(1) + ", " + (v.size() > 2 ? v.get(2) : "\"\"")
                    + ", " + (f == TextFunction.ILIKE_PATTERN) + ")";
            case ENCODE -> "io.tessera.backend.jvm.lib.ByteStringRuntime.encode(" + s + ")";
            case DECODE -> "io.tessera.backend.jvm.lib.ByteStringRuntime.decode(" + s + ")";
            case STRING_SPLIT -> TEXT + "split(" + s + ", " + v.get(1) + ")";
            case SPLIT_PART -> TEXT + "splitPart(" + s + ", " + v.get(1) + ", " + v.get(2) + ")";
            case STARTS_WITH -> s + ".startsWith(" + v.get(1) + ")";
            case ENDS_WITH -> s + ".endsWith(" + v.get(1) + ")";
            case CONTAINS -> s + ".contains(" + v.get(1) + ")";
            case GLOB -> TEXT + "glob(" + s + ", " + v.get(1) + ")";
            case REGEXP_EXTRACT_ALL -> TEXT + "regexpExtractAll(" + v.get(1) + ", " + s + ", (int) " + v.get(2) + ")";
            case REGEXP_SPLIT -> TEXT + "regexpSplit(" + v.get(1) + ", " + s + ")";
            case UNICODE -> TEXT + "unicode(" + s + ")";
            case STRIP_ACCENTS -> TEXT + "stripAccents(" + s + ")";
            case REGEXP_ESCAPE -> TEXT + "regexpEscape(" + s + ")";
            case URL_ENCODE -> TEXT + "urlEncode(" + s + ")";
            case URL_DECODE -> TEXT + "urlDecode(" + s + ")";
            case TO_BASE64 -> "io.tessera.backend.jvm.lib.ByteStringRuntime.toBase64(" + s + ")";
            case HEX, BIN -> {
                // of a BIGINT its bits; of a BLOB its bytes, of text its UTF-8 bytes (which kind, a literal of code)
                io.tessera.storage.DataType t = args.get(0).type();
                String m = f == TextFunction.HEX ? "hex" : "bin";
                yield t.equals(io.tessera.storage.DataType.BIGINT) ? "io.tessera.backend.jvm.lib.ByteStringRuntime." + m + "(" + s + ")"
                        : "io.tessera.backend.jvm.lib.ByteStringRuntime." + m + "(" + s + ", "
                        + t.equals(io.tessera.storage.DataType.BLOB) + ")";
            }
            case UNHEX -> "io.tessera.backend.jvm.lib.ByteStringRuntime.unhex(" + s + ")";
            case UNBIN -> "io.tessera.backend.jvm.lib.ByteStringRuntime.unbin(" + s + ")";
            case FROM_BASE64 -> "io.tessera.backend.jvm.lib.ByteStringRuntime.fromBase64(" + s + ")";
            case REVERSE -> TEXT + "reverse(" + s + ")";
            case ASCII -> TEXT + "ascii(" + s + ")";
            case CHR -> TEXT + "chr(" + s + ")";
            case MD5 -> TEXT + "md5(" + s + ")";
            case REGEXP_EXTRACT -> TEXT + "regexpExtract(" + v.get(1) + ", " + s + ", (int) " + v.get(2) + ")";
            case LEVENSHTEIN -> DISTANCE + "levenshtein(" + s + ", " + v.get(1) + ")";
            case DAMERAU_LEVENSHTEIN -> DISTANCE + "damerauLevenshtein(" + s + ", " + v.get(1) + ")";
            case HAMMING -> DISTANCE + "hamming(" + s + ", " + v.get(1) + ")";
            case JARO_SIMILARITY -> DISTANCE + "jaro(" + s + ", " + v.get(1) + ")";
            case JARO_WINKLER_SIMILARITY -> DISTANCE + "jaroWinkler(" + s + ", " + v.get(1) + ")";
            case BIT_LENGTH -> DISTANCE + "bitLength(" + s + ")";
            case SHA1 -> DISTANCE + "sha1(" + s + ")";
            case SHA256 -> DISTANCE + "sha256(" + s + ")";
            case TRANSLATE -> DISTANCE + "translate(" + s + ", " + v.get(1) + ", " + v.get(2) + ")";
            case JACCARD -> DISTANCE + "jaccard(" + s + ", " + v.get(1) + ")";
            case FORMAT_BYTES, FORMAT_DECIMAL_BYTES -> FORMATS + "formatBytes(" + s + ", "
                    + (f == TextFunction.FORMAT_BYTES ? 1024 : 1000) + ")";
            case TO_BASE -> FORMATS + "toBase(" + s + ", " + v.get(1) + ", " + v.get(2) + ")";
            case PARSE_PATH -> PATHS + "parsePath(" + s + ", " + v.get(1) + ")";
            case PARSE_DIRNAME -> PATHS + "dirname(" + s + ", " + v.get(1) + ")";
            case PARSE_DIRPATH -> PATHS + "dirpath(" + s + ", " + v.get(1) + ")";
            case PARSE_FILENAME -> PATHS + "filename(" + s + ", " + v.get(1) + ", " + v.get(2) + ")";
            case LENGTH_GRAPHEME -> UNICODE + "lengthGrapheme(" + s + ")";
            case LEFT_GRAPHEME -> UNICODE + "leftGrapheme(" + s + ", " + v.get(1) + ")";
            case RIGHT_GRAPHEME -> UNICODE + "rightGrapheme(" + s + ", " + v.get(1) + ")";
            case SUBSTRING_GRAPHEME -> UNICODE + "substringGrapheme(" + String.join(", ", v) + ")";
            case NFC_NORMALIZE -> UNICODE + "nfcNormalize(" + s + ")";
            case UUID_VERSION -> "io.tessera.backend.jvm.lib.ByteStringRuntime.uuidVersion(" + s + ")";
            case UUID_TIMESTAMP -> "io.tessera.backend.jvm.lib.ByteStringRuntime.uuidTimestamp(" + s + ")";
            case CONCAT, CONCAT_WS, RANDOM_UUID, RANDOM_UUID_V7, FORMAT, PRINTF, JSON_VALID, JSON_EXTRACT,
                 JSON_EXTRACT_STRING, JSON_TYPE, JSON_ARRAY_LENGTH, JSON_KEYS ->
                    throw new IllegalStateException();
        };
        ValueKind k = switch (f) {
            case POSITION, LENGTH, OCTET_LENGTH, LENGTH_GRAPHEME, LEVENSHTEIN, DAMERAU_LEVENSHTEIN, HAMMING, BIT_LENGTH -> ValueKind.LONG;
            case JARO_SIMILARITY, JARO_WINKLER_SIMILARITY, JACCARD -> ValueKind.DOUBLE;
            case REGEXP_MATCHES, REGEXP_FULL_MATCH, LIKE_PATTERN, ILIKE_PATTERN, STARTS_WITH, ENDS_WITH, CONTAINS, GLOB ->
                    ValueKind.BOOL;
            case ASCII, UNICODE, UUID_VERSION -> ValueKind.INT;
            case UUID_TIMESTAMP -> ValueKind.LONG;
            default -> ValueKind.STRING;
        };
        return JExpr.of("/* " + f.name().toLowerCase(java.util.Locale.ROOT) + " */ " + ExprGen.guard(n, call, k), n, k);
    }

    /**
     * The JSON functions: a call of {@code JsonRuntime} on the JSON text and the path (a string, or an integer
     * index as a long); a result that may be null (a path that leads nowhere) is held in a local and is NULL there.
     */
    private JExpr json(Expr.Call c, TextFunction f) {
        List<String> v = new ArrayList<>();
        String n = "false";
        for (Expr a : c.args()) {
            JExpr x = gen.gen(a);
            n = ExprGen.or(n, x.n());
            if (a instanceof Expr.Literal l && l.value() == null) {
                v.add("\"\""); // a NULL of whatever type: the call is not evaluated
            } else {
                v.add(x.kind() == ValueKind.CODE || x.kind() == ValueKind.STRING ? gen.asString(x) : ExprGen.asLong(x));
            }
        }
        String call = JSON + switch (f) {
            case JSON_VALID -> "valid";
            case JSON_EXTRACT -> "extract";
            case JSON_EXTRACT_STRING -> "extractString";
            case JSON_TYPE -> "type";
            case JSON_ARRAY_LENGTH -> "arrayLength";
            case JSON_KEYS -> "keys";
            default -> throw new IllegalStateException();
        } + "(" + String.join(", ", v) + ")";
        String comment = "/* " + f.name().toLowerCase(java.util.Locale.ROOT) + " */ ";
        if (f == TextFunction.JSON_VALID) {
            return JExpr.of(comment + ExprGen.guard(n, call, ValueKind.BOOL), n, ValueKind.BOOL);
        }
        boolean count = f == TextFunction.JSON_ARRAY_LENGTH;
        String r = scope.local("json");
        scope.statement("final " + (count ? "Long " : "String ") + r + " = "
                + (n.equals("false") ? "" : n + " ? null : ") + comment + call + ";");
        return count ? JExpr.of("(" + r + " == null ? 0L : " + r + ".longValue())", "(" + r + " == null)", ValueKind.LONG)
                : JExpr.of("(" + r + " == null ? \"\" : " + r + ")", "(" + r + " == null)", ValueKind.STRING);
    }

    /** Whether argument i of f is a number (a position, a length or a count); the others are strings. */
    private static boolean number(TextFunction f, int i) {
        return switch (f) {
            case SUBSTRING, SUBSTRING_GRAPHEME -> i > 0;
            case LEFT_GRAPHEME, RIGHT_GRAPHEME -> i == 1;
            case LPAD, RPAD, LEFT, RIGHT, REPEAT -> i == 1;
            case SPLIT_PART, REGEXP_EXTRACT, REGEXP_EXTRACT_ALL -> i == 2;
            case CHR, FORMAT_BYTES, FORMAT_DECIMAL_BYTES -> i == 0;
            case TO_BASE -> true;
            default -> false;
        };
    }

    private static boolean regex(TextFunction f) {
        return switch (f) {
            case REGEXP_MATCHES, REGEXP_FULL_MATCH, REGEXP_REPLACE, REGEXP_REPLACE_ALL, REGEXP_EXTRACT,
                 REGEXP_EXTRACT_ALL, REGEXP_SPLIT -> true;
            default -> false;
        };
    }

    /** The compiled pattern of a constant regular expression: a field set once in init from the bound string. */
    private String pattern(Expr regex) {
        String text = (String) ((Expr.Literal) regex).value();
        return scope.field("java.util.regex.Pattern", TEXT + "pattern(" + scope.constantString(text) + ")", "regex");
    }

    /**
     * FORMAT and PRINTF: the format (a value, parsed at run time) and each argument boxed as a Long, a Double or a
     * String, the kinds whose conversions differ; NULL where any argument is.
     */
    private JExpr formatted(Expr.Call c, TextFunction f) {
        List<String> v = new ArrayList<>();
        String n = "false";
        for (int i = 0; i < c.args().size(); i++) {
            Expr a = c.args().get(i);
            JExpr x = gen.gen(a);
            n = ExprGen.or(n, x.n());
            v.add(switch (i == 0 ? io.tessera.storage.TypeKind.VARCHAR : a.type().kind()) {
                case INTEGER, BIGINT -> "Long.valueOf(" + ExprGen.asLong(x) + ")";
                case DOUBLE -> "Double.valueOf(" + x.v() + ")";
                default -> gen.asString(x);
            });
        }
        String call = "io.tessera.backend.jvm.lib.FormatRuntime." + (f == TextFunction.FORMAT ? "format" : "printf")
                + "(" + v.get(0) + ", new Object[] {" + String.join(", ", v.subList(1, v.size())) + "})";
        return JExpr.of("/* " + f.name().toLowerCase(java.util.Locale.ROOT) + " */ "
                + ExprGen.guard(n, call, ValueKind.STRING), n, ValueKind.STRING);
    }

    /** CONCAT skips NULL arguments and is never NULL; CONCAT_WS is NULL only when its separator is. */
    private JExpr concat(Expr.Call c, TextFunction f) {
        List<String> parts = new ArrayList<>();
        String sepNull = "false";
        String sep = "\"\"";
        for (int i = 0; i < c.args().size(); i++) {
            JExpr x = gen.gen(c.args().get(i));
            String s = gen.asString(x);
            if (f == TextFunction.CONCAT_WS && i == 0) {
                sep = s;
                sepNull = x.n();
                continue;
            }
            parts.add(x.nullable() ? "(" + x.n() + " ? null : " + s + ")" : s);
        }
        String call = TEXT + "concatWs(" + sep + (parts.isEmpty() ? "" : ", ") + String.join(", ", parts) + ")";
        return JExpr.of("/* " + f.name().toLowerCase(java.util.Locale.ROOT) + " */ "
                + ExprGen.guard(sepNull, call, ValueKind.STRING), sepNull, ValueKind.STRING);
    }

    /** DATE_TRUNC: the unit is a constant bound at run time. */
    JExpr dateTrunc(Expr.Call c) {
        JExpr a = gen.gen(c.args().get(0));
        String unit = scope.constant(ValueKind.STRING, String.valueOf(c.detail()));
        if (c.type().kind() == io.tessera.storage.TypeKind.TIMESTAMP) {
            return JExpr.of("io.tessera.backend.jvm.lib.TimestampRuntime.trunc(" + unit + ", " + a.v() + ")", a.n(),
                    ValueKind.LONG);
        }
        return JExpr.of(TEXT + "dateTrunc(" + unit + ", " + a.v() + ")", a.n(), ValueKind.INT);
    }

    /** EXTRACT / DATE_PART as DuckDB numbers its units (BIGINT). */
    JExpr extract(Expr.Call c) {
        JExpr a = gen.gen(c.args().get(0));
        String unit = scope.constant(ValueKind.STRING, String.valueOf(c.detail()));
        return JExpr.of(TEXT + "datePart(" + unit + ", " + a.v() + ")", a.n(), ValueKind.LONG);
    }
}
