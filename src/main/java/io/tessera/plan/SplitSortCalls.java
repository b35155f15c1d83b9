package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * DuckDB's splitting, prefix, character and digest functions as {@link TextFunction} calls, REGEXP_EXTRACT with its
 * pattern a bound constant, CONTAINS of a list as LIST_CONTAINS, and the functions that reorder a list as
 * {@link ListFunction} calls (their names in {@code sql.SplitSortFunctions}).
 */
final class SplitSortCalls {
    private SplitSortCalls() {
    }

    /** The lowered call, or null when it is none of these. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        boolean nullable = call.getType().isNullable();
        List<RexNode> ops = call.getOperands();
        TextFunction f = switch (name) {
            case "STRING_SPLIT", "STR_SPLIT", "STRING_TO_ARRAY" -> TextFunction.STRING_SPLIT;
            case "SPLIT_PART" -> TextFunction.SPLIT_PART;
            case "STARTS_WITH" -> TextFunction.STARTS_WITH;
            case "TESSERA_GLOB" -> TextFunction.GLOB;
            case "ENDS_WITH" -> TextFunction.ENDS_WITH;
            case "CONTAINS" -> TextFunction.CONTAINS;
            case "REVERSE" -> TextFunction.REVERSE;
            case "ASCII" -> TextFunction.ASCII;
            case "CHR" -> TextFunction.CHR;
            case "MD5" -> TextFunction.MD5;
            case "REGEXP_EXTRACT" -> TextFunction.REGEXP_EXTRACT;
            case "REGEXP_EXTRACT_ALL" -> TextFunction.REGEXP_EXTRACT_ALL;
            case "STRING_SPLIT_REGEX", "STR_SPLIT_REGEX", "REGEXP_SPLIT_TO_ARRAY" -> TextFunction.REGEXP_SPLIT;
            case "UNICODE", "ORD" -> TextFunction.UNICODE;
            case "STRIP_ACCENTS" -> TextFunction.STRIP_ACCENTS;
            case "REGEXP_ESCAPE" -> TextFunction.REGEXP_ESCAPE;
            case "URL_ENCODE" -> TextFunction.URL_ENCODE;
            case "URL_DECODE" -> TextFunction.URL_DECODE;
            case "TO_BASE64", "BASE64" -> TextFunction.TO_BASE64;
            case "FROM_BASE64" -> TextFunction.FROM_BASE64;
            case "HEX", "TO_HEX" -> TextFunction.HEX;
            case "BIN", "TO_BINARY" -> TextFunction.BIN;
            case "UNHEX", "FROM_HEX" -> TextFunction.UNHEX;
            case "UNBIN", "FROM_BINARY" -> TextFunction.UNBIN;
            default -> null;
        };
        if (f == null) {
            return list(call, name, translate);
        }
        DataType type = Types.of(call.getType());
        if (f == TextFunction.REGEXP_EXTRACT || f == TextFunction.REGEXP_EXTRACT_ALL) {
            return regexpExtract(call, translate, type, nullable, f);
        }
        if (f == TextFunction.REGEXP_SPLIT) {
            return TextDateCalls.regexCall(f, name.toLowerCase(Locale.ROOT), List.of(translate.apply(ops.get(0))),
                    ops.get(1), null, type, nullable);
        }
        List<Expr> args = new ArrayList<>();
        for (RexNode o : ops) {
            args.add(translate.apply(o));
        }
        if (f == TextFunction.CONTAINS && args.get(0).type().isList()) {
            Expr value = ListCalls.as(args.get(1), args.get(0).type().element());
            return new Expr.Call(Op.LIST, List.of(args.get(0), value), DataType.BOOLEAN, nullable, ListFunction.CONTAINS);
        }
        if ((f == TextFunction.HEX || f == TextFunction.BIN) && !args.get(0).type().isNested()
                && (args.get(0).type().kind() == io.tessera.storage.TypeKind.INTEGER
                || args.get(0).type().kind() == io.tessera.storage.TypeKind.BIGINT)) {
            // an integer's 64 bits, whatever its width, as DuckDB's
            Expr a = args.get(0);
            args.set(0, a.type().equals(DataType.BIGINT) ? a : new Expr.Call(Op.CAST, List.of(a), DataType.BIGINT,
                    a.nullable()));
        }
        if (f == TextFunction.TO_BASE64 && args.get(0) instanceof Expr.Literal l && l.value() == null) {
            return new Expr.Literal(null, type);
        }
        if (f == TextFunction.TO_BASE64 && !args.get(0).type().equals(DataType.BLOB)) {
            // text read as a BLOB first, as DuckDB casts it
            args.set(0, new Expr.Call(Op.CAST, List.of(args.get(0)), DataType.BLOB, args.get(0).nullable()));
        }
        if (f == TextFunction.STRING_SPLIT) {
            // a NULL separator leaves the string whole: NULL only where the string is
            nullable = args.get(0).nullable();
        }
        return new Expr.Call(Op.FUNCTION, args, type, nullable, f);
    }

    /** REGEXP_EXTRACT(s, pattern [, group]): the pattern and the group constants, checked while planning. */
    private static Expr regexpExtract(RexCall call, Function<RexNode, Expr> translate, DataType type, boolean nullable,
                                      TextFunction f) {
        List<RexNode> ops = call.getOperands();
        long group = 0;
        if (ops.size() > 2) {
            if (!(ops.get(2) instanceof RexLiteral g) || g.isNull()) {
                throw new SqlError("unsupported: regexp_extract with a group that is not a constant integer");
            }
            group = g.getValueAs(Long.class);
            if (group < 0 || group > 9) {
                throw new SqlError("regexp_extract: the group index must be between 0 and 9, not " + group);
            }
        }
        return TextDateCalls.regexCall(f, f.name().toLowerCase(Locale.ROOT),
                List.of(translate.apply(ops.get(0)), new Expr.Literal(group, DataType.BIGINT)), ops.get(1), null, type,
                nullable);
    }

    /** The list functions that reorder a list, or null for any other call. */
    private static Expr list(RexCall call, String name, Function<RexNode, Expr> translate) {
        ListFunction f = switch (name) {
            case "LIST_SORT", "ARRAY_SORT" -> ListFunction.SORT;
            case "LIST_REVERSE_SORT", "ARRAY_REVERSE_SORT" -> ListFunction.REVERSE_SORT;
            case "LIST_DISTINCT", "ARRAY_DISTINCT" -> ListFunction.DISTINCT;
            case "LIST_REVERSE", "ARRAY_REVERSE" -> ListFunction.REVERSE;
            default -> null;
        };
        if (f == null) {
            return null;
        }
        Expr list = translate.apply(call.getOperands().get(0));
        if (!list.type().isList()) {
            throw new SqlError("unsupported: " + name.toLowerCase(Locale.ROOT) + " of a " + list.type() + " (not a list)");
        }
        if ((f == ListFunction.SORT || f == ListFunction.REVERSE_SORT)
                && !io.tessera.storage.ListOrder.givesValues(list.type())) {
            throw new SqlError("unsupported: " + name.toLowerCase(Locale.ROOT) + " over " + list.type()
                    + " values (the sorted elements hold intervals, which are ordered by length but not given back"
                    + " in order)");
        }
        if (f == ListFunction.SORT || f == ListFunction.REVERSE_SORT) {
            return sort(call, name.toLowerCase(Locale.ROOT), list, f == ListFunction.REVERSE_SORT);
        }
        return new Expr.Call(Op.LIST, List.of(list), list.type(), list.nullable(), f);
    }

    /**
     * list_sort(l [, order [, nulls]]) and list_reverse_sort(l [, nulls]): the orders constant strings, as DuckDB
     * wants them, read while planning (NULLs last unless 'NULLS FIRST'); a NULL order gives NULL. The NULL order is
     * a BOOLEAN constant argument of the call, whether NULLs come first.
     */
    static Expr sort(RexCall call, String name, Expr list, boolean descending) {
        List<RexNode> ops = call.getOperands();
        boolean nullsFirst = false;
        for (int i = 1; i < ops.size(); i++) {
            boolean nullOrder = descending || i == 2;
            if (!(ops.get(i) instanceof RexLiteral lit)) {
                throw new SqlError("unsupported: " + name + " with a " + (nullOrder ? "NULL order" : "sort order")
                        + " that is not a constant string");
            }
            if (lit.isNull()) {
                return new Expr.Literal(null, list.type());
            }
            String v = lit.getValueAs(String.class).strip().toUpperCase(Locale.ROOT);
            if (nullOrder) {
                nullsFirst = switch (v) {
                    case "NULLS FIRST", "NULLS_FIRST" -> true;
                    case "NULLS LAST", "NULLS_LAST" -> false;
                    default -> throw new SqlError(name + ": unrecognized NULL order '" + lit.getValueAs(String.class)
                            + "' (NULLS FIRST or NULLS LAST)");
                };
            } else {
                descending = switch (v) {
                    case "ASC", "ASCENDING" -> false;
                    case "DESC", "DESCENDING" -> true;
                    default -> throw new SqlError(name + ": unrecognized sort order '" + lit.getValueAs(String.class)
                            + "' (ASC or DESC)");
                };
            }
        }
        return new Expr.Call(Op.LIST, List.of(list, new Expr.Literal(nullsFirst, DataType.BOOLEAN)), list.type(),
                list.nullable(), descending ? ListFunction.REVERSE_SORT : ListFunction.SORT);
    }
}
