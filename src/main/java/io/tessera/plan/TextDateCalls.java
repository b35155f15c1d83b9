package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.fun.SqlTrimFunction;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The string and date functions of a Calcite plan as Tessera expressions: {@link Op#FUNCTION} calls (a
 * {@link TextFunction}), ILIKE as a case-insensitive LIKE, SIMILAR TO and the regular expression functions with
 * their pattern checked and bound as a constant (never code), EXTRACT / DATE_PART units and DATE_TRUNC,
 * CURRENT_DATE as the day the query is planned.
 */
final class TextDateCalls {
    private TextDateCalls() {
    }

    /** The expression of a call this class lowers, or null when it is not one. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        boolean nullable = call.getType().isNullable();
        List<RexNode> ops = call.getOperands();
        if (call.getKind() == SqlKind.LIKE && call.getOperator() instanceof SqlLikeOperator lo && !lo.isCaseSensitive()) {
            return null; // ILIKE: RexTranslator.like, which asks caseInsensitive
        }
        if (call.getKind() == SqlKind.SIMILAR) {
            boolean negated = call.getOperator() instanceof SqlLikeOperator lo && lo.isNegated();
            if (ops.size() > 2) {
                throw new SqlError("unsupported: SIMILAR TO with ESCAPE");
            }
            Expr v = translate.apply(ops.get(0));
            Expr m = regexCall(TextFunction.REGEXP_FULL_MATCH, "SIMILAR TO", List.of(v), ops.get(1), null,
                    DataType.BOOLEAN, nullable);
            return negated ? new Expr.Call(Op.NOT, List.of(m), DataType.BOOLEAN, m.nullable()) : m;
        }
        if (call.getKind() == SqlKind.TRIM) {
            SqlTrimFunction.Flag flag = ((RexLiteral) ops.get(0)).getValueAs(SqlTrimFunction.Flag.class);
            TextFunction f = flag == SqlTrimFunction.Flag.LEADING ? TextFunction.LTRIM
                    : flag == SqlTrimFunction.Flag.TRAILING ? TextFunction.RTRIM : TextFunction.TRIM;
            return function(f, List.of(translate.apply(ops.get(2)), translate.apply(ops.get(1))), DataType.VARCHAR,
                    nullable);
        }
        if (call.getKind() == SqlKind.POSITION) {
            if (ops.size() > 2) {
                throw new SqlError("unsupported: POSITION with FROM");
            }
            return function(TextFunction.POSITION, List.of(translate.apply(ops.get(1)), translate.apply(ops.get(0))),
                    Types.of(call.getType()), nullable);
        }
        DataType type = FUNCTIONS.contains(name) ? Types.of(call.getType()) : null;
        switch (name) {
            case "TESSERA_DATE_DIFF" -> {
                // DATE - DATE: days as a BIGINT
                return new Expr.Call(Op.DATE_DIFF_DAYS, List.of(translate.apply(ops.get(0)), translate.apply(ops.get(1))),
                        DataType.BIGINT, nullable);
            }
            case "TESSERA_DATE_ADD" -> {
                // DATE + INTEGER (a DATE - INTEGER arrives as DATE + -INTEGER)
                Expr d = translate.apply(ops.get(0));
                return new Expr.Call(Op.DATE_ADD_DAYS, List.of(d, translate.apply(ops.get(1))), DataType.DATE, nullable);
            }
            case "TESSERA_DATE_PLUS_TIME" -> {
                // DATE + TIME: the date's midnight plus the time's microseconds since midnight (both 64-bit)
                Expr d = translate.apply(ops.get(0));
                Expr midnight = new Expr.Call(Op.CAST, List.of(d), DataType.TIMESTAMP, d.nullable());
                return new Expr.Call(Op.TIMESTAMP_ADD_MICROS, List.of(midnight, translate.apply(ops.get(1))),
                        DataType.TIMESTAMP, nullable);
            }
            case "TYPEOF" -> { // DuckDB's name of the type; the argument is not computed
                return new Expr.Literal(typeName(ops.get(0).getType()), DataType.VARCHAR);
            }
            case "CURRENT_DATE" -> {
                return new Expr.Literal(LocalDate.now(ZoneId.systemDefault()).toEpochDay(), DataType.DATE);
            }
            case "DATE_TRUNC" -> {
                // of a DATE: the day truncated as a DATE, then its midnight (DuckDB's type, a TIMESTAMP)
                Expr d = translate.apply(ops.get(1));
                Expr day = new Expr.Call(Op.DATE_TRUNC, List.of(d), DataType.DATE, nullable, truncUnit(unitText(ops.get(0), name)));
                return type.kind() == TypeKind.TIMESTAMP ? new Expr.Call(Op.CAST, List.of(day), DataType.TIMESTAMP, nullable) : day;
            }
            case "DATE_PART" -> {
                return extract(partUnit(unitText(ops.get(0), name)), translate.apply(ops.get(1)), nullable);
            }
            case "REGEXP_MATCHES", "REGEXP_FULL_MATCH" -> {
                TextFunction f = name.equals("REGEXP_MATCHES") ? TextFunction.REGEXP_MATCHES : TextFunction.REGEXP_FULL_MATCH;
                return regexCall(f, name, List.of(translate.apply(ops.get(0))), ops.get(1), ops.size() > 2 ? ops.get(2) : null,
                        type, nullable);
            }
            case "REGEXP_REPLACE" -> {
                return regexCall(TextFunction.REGEXP_REPLACE, name, List.of(translate.apply(ops.get(0)),
                        translate.apply(ops.get(2))), ops.get(1), ops.size() > 3 ? ops.get(3) : null, type, nullable);
            }
            default -> {
            }
        }
        TextFunction f = switch (name) {
            case "SUBSTRING", "SUBSTR" -> TextFunction.SUBSTRING;
            case "STRPOS", "INSTR" -> TextFunction.POSITION;
            case "LENGTH", "CHAR_LENGTH", "CHARACTER_LENGTH" -> TextFunction.LENGTH;
            case "STRLEN" -> TextFunction.OCTET_LENGTH;
            case "LTRIM" -> TextFunction.LTRIM;
            case "RTRIM" -> TextFunction.RTRIM;
            case "REPLACE" -> TextFunction.REPLACE;
            case "LPAD" -> TextFunction.LPAD;
            case "RPAD" -> TextFunction.RPAD;
            case "LEFT" -> TextFunction.LEFT;
            case "RIGHT" -> TextFunction.RIGHT;
            case "REPEAT" -> TextFunction.REPEAT;
            case "CONCAT" -> TextFunction.CONCAT;
            case "CONCAT_WS" -> TextFunction.CONCAT_WS;
            // a BLOB's characters are its bytes
            case "OCTET_LENGTH" -> TextFunction.LENGTH;
            case "ENCODE" -> TextFunction.ENCODE;
            case "DECODE" -> TextFunction.DECODE;
            case "GEN_RANDOM_UUID", "UUID" -> TextFunction.RANDOM_UUID;
            default -> null;
        };
        if (f == null) {
            return null;
        }
        List<Expr> args = new ArrayList<>();
        for (RexNode o : ops) {
            Expr a = translate.apply(o);
            if (f == TextFunction.CONCAT || f == TextFunction.CONCAT_WS) {
                a = asText(a);
            }
            args.add(a);
        }
        if ((f == TextFunction.LTRIM || f == TextFunction.RTRIM) && args.size() == 1) {
            args.add(new Expr.Literal(" ", DataType.VARCHAR));
        }
        return function(f, args, type, nullable);
    }

    private static final java.util.Set<String> FUNCTIONS = java.util.Set.of("CURRENT_DATE", "TESSERA_DATE_DIFF", "TESSERA_DATE_ADD", "TESSERA_DATE_PLUS_TIME", "DATE_TRUNC", "DATE_PART",
            "REGEXP_MATCHES", "REGEXP_FULL_MATCH", "REGEXP_REPLACE", "SUBSTRING", "SUBSTR", "STRPOS", "INSTR", "LENGTH",
            "CHAR_LENGTH", "CHARACTER_LENGTH", "STRLEN", "LTRIM", "RTRIM", "REPLACE", "LPAD", "RPAD",
            "LEFT", "RIGHT", "REPEAT", "CONCAT", "CONCAT_WS", "OCTET_LENGTH", "ENCODE", "DECODE", "GEN_RANDOM_UUID", "UUID");

    private static Expr function(TextFunction f, List<Expr> args, DataType type, boolean nullable) {
        return new Expr.Call(Op.FUNCTION, args, type, nullable, f);
    }

    /** A value as VARCHAR (CONCAT takes any type, as DuckDB's does, through the checked CAST). */
    static Expr asText(Expr a) {
        if (a.type().isText() || a.type().isUuid()) {
            return a;
        }
        if (a instanceof Expr.Literal l && l.value() == null) {
            return new Expr.Literal(null, DataType.VARCHAR);
        }
        return new Expr.Call(Op.CAST, List.of(a), DataType.VARCHAR, a.nullable());
    }

    /**
     * LIKE or ILIKE whose pattern is a value of the row (a column, a computed string): the pattern is translated
     * while running; the escape, where there is one, must be a constant.
     */
    static Expr likeValue(RexCall call, Expr value, Expr pattern, boolean negated) {
        boolean insensitive = call.getOperator() instanceof SqlLikeOperator lo && !lo.isCaseSensitive();
        List<Expr> args = new ArrayList<>(List.of(value, pattern));
        if (call.getOperands().size() > 2) {
            if (!(call.getOperands().get(2) instanceof RexLiteral e) || e.isNull() || e.getValueAs(String.class).length() > 1) {
                throw new SqlError("invalid LIKE escape: it must be one constant character, or empty");
            }
            args.add(new Expr.Literal(e.getValueAs(String.class), DataType.VARCHAR));
        }
        Expr like = new Expr.Call(Op.FUNCTION, args, DataType.BOOLEAN, value.nullable() || pattern.nullable(),
                insensitive ? TextFunction.ILIKE_PATTERN : TextFunction.LIKE_PATTERN);
        return negated ? new Expr.Call(Op.NOT, List.of(like), DataType.BOOLEAN, like.nullable()) : like;
    }

    // ---- regular expressions ----

    /**
     * A call that matches a constant pattern: the pattern and the options become one Java regular expression (the
     * options as inline flags), compiled here once so that an invalid pattern fails while planning; it runs bound as
     * a string constant. A NULL pattern gives NULL.
     */
    static Expr regexCall(TextFunction f, String what, List<Expr> args, RexNode pattern, RexNode options,
                                  DataType type, boolean nullable) {
        if (!(pattern instanceof RexLiteral p)) {
            throw new SqlError("unsupported: " + what + " with a pattern that is not a constant string");
        }
        if (options != null && !(options instanceof RexLiteral)) {
            throw new SqlError("unsupported: " + what + " with options that are not a constant string");
        }
        String opts = options == null ? "" : ((RexLiteral) options).getValueAs(String.class);
        if (p.isNull() || options != null && opts == null) {
            return new Expr.Literal(null, type);
        }
        boolean insensitive = false;
        boolean dotAll = true;
        boolean literal = false;
        boolean global = false;
        for (char c : opts.toCharArray()) {
            switch (c) {
                case 'i' -> insensitive = true;
                case 'c' -> insensitive = false;
                case 's' -> dotAll = true;
                case 'm', 'n', 'p' -> dotAll = false;
                case 'l' -> literal = true;
                case 'g' -> global = true;
                default -> throw new SqlError("unrecognized option '" + c + "' of " + what);
            }
        }
        if (global && f != TextFunction.REGEXP_REPLACE) {
            throw new SqlError("the option 'g' (replace every match) is only valid for REGEXP_REPLACE");
        }
        String body = p.getValueAs(String.class);
        String regex = (insensitive ? "(?iu)" : "") + (dotAll ? "(?s)" : "(?m)") + (literal ? Pattern.quote(body) : body);
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new SqlError("invalid regular expression '" + body + "' in " + what + ": " + e.getDescription());
        }
        List<Expr> all = new ArrayList<>();
        all.add(args.get(0));
        all.add(new Expr.Literal(regex, DataType.VARCHAR));
        all.addAll(args.subList(1, args.size()));
        TextFunction fn = global ? TextFunction.REGEXP_REPLACE_ALL : f;
        return new Expr.Call(Op.FUNCTION, all, type, nullable, fn);
    }

    // ---- dates ----

    /** EXTRACT and DATE_PART of a DATE, by a unit as {@link #partUnit} names it. */
    static Expr extract(String unit, Expr arg, boolean nullable) {
        if (arg.type().kind() != TypeKind.DATE) {
            throw new SqlError("unsupported: EXTRACT from " + arg.type());
        }
        return new Expr.Call(Op.EXTRACT, List.of(arg), DataType.BIGINT, nullable, unit);
    }

    /**
     * Calcite's EXTRACT units that a DATE has, by the names the run time takes. (EPOCH is not one: DuckDB gives it as
     * a DOUBLE where Calcite types EXTRACT as BIGINT.)
     */
    static String extractUnit(String calciteUnit) {
        return switch (calciteUnit) {
            case "YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "DOW", "ISODOW", "DOY", "ISOYEAR", "DECADE", "CENTURY",
                 "MILLENNIUM" -> calciteUnit;
            default -> throw new SqlError("unsupported: EXTRACT(" + calciteUnit + ") of a DATE");
        };
    }

    private static String unitText(RexNode unit, String what) {
        if (!(unit instanceof RexLiteral lit) || lit.isNull()) {
            throw new SqlError("unsupported: " + what + " with a unit that is not a constant string");
        }
        return lit.getValueAs(String.class).strip().toLowerCase(Locale.ROOT);
    }

    /** DATE_PART's unit names (DuckDB's spellings and plurals) as EXTRACT's. */
    static String partUnit(String u) {
        return switch (u) {
            case "year", "years", "y", "yr", "yrs" -> "YEAR";
            case "quarter", "quarters" -> "QUARTER";
            case "month", "months", "mon", "mons" -> "MONTH";
            case "week", "weeks", "w", "weekofyear" -> "WEEK";
            case "day", "days", "d", "dayofmonth" -> "DAY";
            case "dow", "dayofweek", "weekday" -> "DOW";
            case "isodow" -> "ISODOW";
            case "doy", "dayofyear" -> "DOY";
            case "isoyear" -> "ISOYEAR";
            case "yearweek" -> "YEARWEEK";
            case "decade", "decades", "dec" -> "DECADE";
            case "century", "centuries", "c", "cent" -> "CENTURY";
            case "millennium", "millennia", "mil", "millenium" -> "MILLENNIUM";
            case "era" -> "ERA";
            default -> throw new SqlError("unsupported: DATE_PART('" + u + "') of a DATE");
        };
    }

    /** DATE_TRUNC's units; a unit below a day leaves a DATE as it is. */
    static String truncUnit(String u) {
        return switch (u) {
            case "millennium", "millennia", "mil" -> "MILLENNIUM";
            case "century", "centuries", "c", "cent" -> "CENTURY";
            case "decade", "decades", "dec" -> "DECADE";
            case "year", "years", "y", "yr", "yrs" -> "YEAR";
            case "quarter", "quarters" -> "QUARTER";
            case "month", "months", "mon", "mons" -> "MONTH";
            case "week", "weeks", "w" -> "WEEK";
            case "day", "days", "d", "hour", "hours", "h", "minute", "minutes", "m", "min", "second", "seconds", "s",
                 "sec", "millisecond", "milliseconds", "ms", "microsecond", "microseconds", "us" -> "DAY";
            default -> throw new SqlError("unsupported: DATE_TRUNC('" + u + "')");
        };
    }

    /**
     * DuckDB's name of a type: a NULL constant's type, alone or as a list's element or a struct's field ({@code []},
     * {@code {'a': NULL}}), is {@code "NULL"}; every other type its own name.
     */
    /** DuckDB's name of a type, {@code "NULL"} where Calcite's NULL type is (map{1: NULL}'s value type). */
    static String typeName(org.apache.calcite.rel.type.RelDataType t) {
        if (t.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL) {
            return "\"NULL\"";
        }
        if (!mentionsNull(t)) {
            return Types.of(t).toString();
        }
        if (t.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.MAP) {
            return "MAP(" + typeName(t.getKeyType()) + ", " + typeName(t.getValueType()) + ")";
        }
        if (t.getComponentType() != null) {
            return typeName(t.getComponentType()) + "[]";
        }
        return DataType.structTypeName(Types.fieldNames(t),
                t.getFieldList().stream().map(f -> typeName(f.getType())).toList());
    }

    private static boolean mentionsNull(org.apache.calcite.rel.type.RelDataType t) {
        if (t.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL) {
            return true;
        }
        if (t.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.MAP) {
            return mentionsNull(t.getKeyType()) || mentionsNull(t.getValueType());
        }
        if (t.getComponentType() != null) {
            return mentionsNull(t.getComponentType());
        }
        return t.isStruct() && t.getFieldList().stream().anyMatch(f -> mentionsNull(f.getType()));
    }
}
