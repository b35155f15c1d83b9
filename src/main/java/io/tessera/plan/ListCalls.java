package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The calls that make or read LIST values, lowered to {@link Op#LIST} calls ({@link ListFunction}), a CAST between
 * list types element by element; and the refusal of what lists cannot do yet (a CAST between a list and a scalar
 * other than to text), which would otherwise convert the encoded strings.
 */
final class ListCalls {
    private ListCalls() {
    }

    /** The lowered call, or null when {@code call} is not about lists. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        boolean nullable = call.getType().isNullable();
        SqlKind kind = call.getKind();
        if (name.equals(TryCasts.NAME)) {
            return TryCasts.lower(call, translate);
        }
        if ((kind == SqlKind.CAST || name.equals("TESSERA_CHECKED_CAST")) && Types.of(call.getType()).isText()
                && Types.of(call.getOperands().get(0).getType()).isNested()) {
            return text(translate.apply(call.getOperands().get(0)));
        }
        if (kind == SqlKind.ARRAY_VALUE_CONSTRUCTOR || isListValue(call)) {
            DataType type = Types.of(call.getType());
            List<Expr> args = new ArrayList<>();
            for (RexNode o : call.getOperands()) {
                args.add(as(translate.apply(o), type.element()));
            }
            return new Expr.Call(Op.LIST, args, type, nullable, ListFunction.VALUE);
        }
        if (kind == SqlKind.ITEM || name.equals("LIST_EXTRACT") || name.equals("LIST_ELEMENT")
                || name.equals("ARRAY_EXTRACT")) {
            Expr list = translate.apply(call.getOperands().get(0));
            if (!list.type().isList()) {
                throw new SqlError("unsupported: " + name.toLowerCase(Locale.ROOT) + " of a " + list.type()
                        + " (only a list's elements can be taken by [index])");
            }
            Expr index = translate.apply(call.getOperands().get(1));
            return new Expr.Call(Op.LIST, List.of(list, index), list.type().element(), true, ListFunction.ELEMENT);
        }
        if (name.equals("LEN") || name.equals("ARRAY_LENGTH") || name.equals("CARDINALITY")) {
            Expr list = translate.apply(call.getOperands().get(0));
            if (name.equals("LEN") && !list.type().isNested() && list.type().kind() == TypeKind.VARCHAR) { // a string: LENGTH
                return new Expr.Call(Op.FUNCTION, List.of(list), DataType.BIGINT, list.nullable(), TextFunction.LENGTH);
            }
            return new Expr.Call(Op.LIST, List.of(list), DataType.BIGINT, list.nullable(), ListFunction.LENGTH);
        }
        if (name.equals("RANGE") || name.equals("GENERATE_SERIES")) {
            // range(stop) from 0, range(start, stop) by 1
            List<Expr> args = new ArrayList<>();
            for (RexNode o : call.getOperands()) {
                args.add(as(translate.apply(o), DataType.BIGINT));
            }
            if (args.size() == 1) {
                args.addFirst(new Expr.Literal(0L, DataType.BIGINT));
            }
            if (args.size() == 2) {
                args.add(new Expr.Literal(1L, DataType.BIGINT));
            }
            return new Expr.Call(Op.LIST, args, Types.of(call.getType()), nullable,
                    name.equals("RANGE") ? ListFunction.RANGE : ListFunction.GENERATE_SERIES);
        }
        if (name.equals("FLATTEN")) {
            Expr list = translate.apply(call.getOperands().get(0));
            // the call's own type: flatten([]) is a list, as [] is ([] of [] its elements)
            return new Expr.Call(Op.LIST, List.of(list), Types.of(call.getType()), list.nullable(),
                    ListFunction.FLATTEN);
        }
        if (CONCATS.contains(name) || APPENDS.contains(name) || PREPENDS.contains(name)) {
            return concat(call, name, translate);
        }
        if (name.equals("LIST_INTERSECT") || name.equals("ARRAY_INTERSECT")) {
            return intersect(call, name, translate);
        }
        if (name.equals("LIST_HAS_ANY") || name.equals("ARRAY_HAS_ANY") || name.equals("LIST_HAS_ALL")
                || name.equals("ARRAY_HAS_ALL") || name.equals("LIST_UNIQUE") || name.equals("ARRAY_UNIQUE")) {
            return sets(call, name, translate);
        }
        boolean position = name.equals("LIST_POSITION") || name.equals("LIST_INDEXOF")
                || name.equals("ARRAY_POSITION") || name.equals("ARRAY_INDEXOF");
        if (name.equals("LIST_CONTAINS") || name.equals("LIST_HAS") || name.equals("ARRAY_CONTAINS")
                || name.equals("ARRAY_HAS") || position) {
            if (call.getOperands().get(0).getType().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL) {
                return new Expr.Literal(null, Types.of(call.getType())); // of a NULL that is no list yet: NULL
            }
            Expr elements = translate.apply(call.getOperands().get(0));
            Expr sought = translate.apply(call.getOperands().get(1));
            if (fieldsBeyond(sought.type(), elements.type().element())) {
                // DuckDB compares in the structs' common type, where such a field of the elements is NULL; a cast to
                // the elements' type would drop it
                throw new SqlError("unsupported: " + name.toLowerCase(java.util.Locale.ROOT) + " of a STRUCT "
                        + sought.type() + " with fields the list's elements " + elements.type().element()
                        + " lack (CAST the list and the value to one STRUCT type)");
            }
            Expr[] lookup = lookup(sought, elements, elements.type().element());
            Expr list = lookup[1];
            Expr value = lookup[0];
            if (position) {
                return new Expr.Call(Op.LIST, List.of(list, value), DataType.INTEGER, true, ListFunction.POSITION);
            }
            return new Expr.Call(Op.LIST, List.of(list, value), DataType.BOOLEAN, list.nullable() || value.nullable(),
                    ListFunction.CONTAINS);
        }
        if (kind == SqlKind.CAST && call.getOperands().get(0) instanceof RexCall list
                && (list.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR || isListValue(list))
                && Types.of(call.getType()).isList()) {
            // a list made here as another list type ([1, 2] stored into a BIGINT[], [NULL] into a VARCHAR[], [] as
            // any list): each element converted
            DataType type = Types.of(call.getType());
            List<Expr> args = new ArrayList<>();
            for (RexNode o : list.getOperands()) {
                args.add(as(translate.apply(o), type.element()));
            }
            return new Expr.Call(Op.LIST, args, type, nullable, ListFunction.VALUE);
        }
        if (kind == SqlKind.CAST && Types.of(call.getType()).isList() && call.getOperands().get(0).getType()
                .getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL) {
            // a value of the NULL type (a column of a UNION's branches that are all NULL) as a list: NULL
            return new Expr.Literal(null, Types.of(call.getType()));
        }
        if ((kind == SqlKind.CAST || name.equals("TESSERA_CHECKED_CAST")) && Types.of(call.getType()).isList()
                && Types.of(call.getOperands().get(0).getType()).isList()) {
            return as(translate.apply(call.getOperands().get(0)), Types.of(call.getType()));
        }
        if (call.getOperands().stream().anyMatch(o -> o.getType().getSqlTypeName()
                == org.apache.calcite.sql.type.SqlTypeName.ARRAY)) {
            Expr equal = intervalEquality(call, kind, translate);
            if (equal != null) {
                return equal;
            }
            Expr ordered = orderComparison(call, kind, translate);
            if (ordered != null) {
                return ordered;
            }
            refuse(call, kind);
        }
        return null;
    }

    private static final java.util.Set<String> CONCATS = java.util.Set.of("LIST_CONCAT", "LIST_CAT", "ARRAY_CONCAT",
            "ARRAY_CAT");
    private static final java.util.Set<String> APPENDS = java.util.Set.of("LIST_APPEND", "ARRAY_APPEND");
    private static final java.util.Set<String> PREPENDS = java.util.Set.of("LIST_PREPEND", "ARRAY_PREPEND");

    /**
     * list_concat(l1, l2, ...), list_append(l, x), list_prepend(x, l): each list converted to the call's type (its
     * elements' common type, a struct's fields by name), the value as a list of one, joined by
     * {@link ListFunction#CONCAT}.
     */
    private static Expr concat(RexCall call, String name, Function<RexNode, Expr> translate) {
        DataType type = Types.of(call.getType());
        List<Expr> lists = new ArrayList<>();
        for (int i = 0; i < call.getOperands().size(); i++) {
            Expr arg = translate.apply(call.getOperands().get(i));
            boolean value = APPENDS.contains(name) && i == 1 || PREPENDS.contains(name) && i == 0;
            lists.add(value
                    ? new Expr.Call(Op.LIST, List.of(as(arg, type.element())), type, false, ListFunction.VALUE)
                    : as(arg, type));
        }
        return new Expr.Call(Op.LIST, lists, type, call.getType().isNullable(), ListFunction.CONCAT);
    }

    private static boolean isListValue(RexCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        return name.equals("LIST_VALUE") || name.equals("LIST_PACK");
    }

    /**
     * A {@code <}, {@code <=}, {@code >} or {@code >=} of two lists or two structs as a comparison of their order keys
     * (strings that compare as DuckDB orders the values, {@link #orderKey}); null for any other comparison.
     */
    static Expr orderComparison(RexCall call, SqlKind kind, Function<RexNode, Expr> translate) {
        Op order = switch (kind) {
            case LESS_THAN -> Op.LT;
            case LESS_THAN_OR_EQUAL -> Op.LE;
            case GREATER_THAN -> Op.GT;
            case GREATER_THAN_OR_EQUAL -> Op.GE;
            default -> null;
        };
        if (order == null) {
            return null;
        }
        Expr a = orderKey(translate.apply(call.getOperands().get(0)), call.getOperator().getName());
        Expr b = orderKey(translate.apply(call.getOperands().get(1)), call.getOperator().getName());
        return new Expr.Call(order, List.of(a, b), DataType.BOOLEAN, a.nullable() || b.nullable());
    }

    /**
     * An equality of two lists or structs with an INTERVAL inside ({@code =}, {@code <>}, IS [NOT] DISTINCT FROM) as
     * one of their order keys, in which each interval is its length: DuckDB's equal intervals (1 day, 24 hours) have
     * different codes, which the values' texts would compare. Null for any other call.
     */
    static Expr intervalEquality(RexCall call, SqlKind kind, Function<RexNode, Expr> translate) {
        boolean distinct = kind == SqlKind.IS_DISTINCT_FROM || kind == SqlKind.IS_NOT_DISTINCT_FROM;
        if (!distinct && kind != SqlKind.EQUALS && kind != SqlKind.NOT_EQUALS || call.getOperands().size() != 2) {
            return null;
        }
        Expr a = translate.apply(call.getOperands().get(0));
        Expr b = translate.apply(call.getOperands().get(1));
        if (!a.type().isNested() || !b.type().isNested() || !io.tessera.storage.ListOrder.equalByKey(a.type())
                && !io.tessera.storage.ListOrder.equalByKey(b.type())) {
            return null;
        }
        Expr ka = new Expr.Call(Op.LIST, List.of(a), DataType.VARCHAR, a.nullable(), ListFunction.ORDER_KEY);
        Expr kb = new Expr.Call(Op.LIST, List.of(b), DataType.VARCHAR, b.nullable(), ListFunction.ORDER_KEY);
        return new Expr.Call(RexTranslator.comparison(kind), List.of(ka, kb), DataType.BOOLEAN,
                !distinct && (a.nullable() || b.nullable()));
    }

    /**
     * A CAST of text to a LIST or STRUCT type ({@code '[1 day, 2 hours]'::INTERVAL[]}, {@code CAST(v AS STRUCT(a
     * INTEGER))}): DuckDB's text of the value read when the query runs ({@link ListFunction#FROM_TEXT}); null for any
     * other call. A TIMESTAMP WITH TIME ZONE inside is read on the session's clock where its text has no offset
     * (the zone added by {@link ZonedCalls#inNested}).
     */
    static Expr fromText(RexCall call, Function<RexNode, Expr> translate) {
        boolean cast = call.getKind() == SqlKind.CAST || call.getOperator().getName().equals("TESSERA_CHECKED_CAST");
        if (!cast || !org.apache.calcite.sql.type.SqlTypeUtil.inCharFamily(
                call.getOperands().get(0).getType())) {
            return null;
        }
        DataType to = Types.of(call.getType());
        if (!to.isNested()) {
            return null;
        }
        Expr text = translate.apply(call.getOperands().get(0));
        return new Expr.Call(Op.LIST, List.of(text), to, text.nullable(), ListFunction.FROM_TEXT);
    }

    /**
     * What equal values share, a VARCHAR: a list's or struct's order key, in which an INTERVAL is its length (so for
     * equality only where one is inside); what a group of such values is keyed by.
     */
    static Expr equalityKey(Expr nested) {
        return new Expr.Call(Op.LIST, List.of(nested), DataType.VARCHAR, nested.nullable(), ListFunction.ORDER_KEY);
    }

    /**
     * A list's order key ({@link ListFunction#ORDER_KEY}), a VARCHAR that sorts and compares as DuckDB does the lists
     * (an INTERVAL inside by its length).
     */
    static Expr orderKey(Expr list, String use) {
        if (!list.type().isNested()) {
            throw new SqlError("unsupported: " + use + " over " + list.type() + " values (not a list or struct)");
        }
        return new Expr.Call(Op.LIST, List.of(list), DataType.VARCHAR, list.nullable(), ListFunction.ORDER_KEY);
    }

    /**
     * A list's order key kept to be read back as its list ({@link #fromOrderKey}: MIN and MAX); {@code use} names
     * the aggregate in the refusal of a list whose key does not give it back (an INTERVAL inside).
     */
    static Expr valueOrderKey(Expr list, String use) {
        if (list.type().isNested() && !io.tessera.storage.ListOrder.givesValues(list.type())) {
            throw new SqlError("unsupported: " + use + " over " + list.type() + " values (a value with an INTERVAL"
                    + " inside is ordered by its length, which does not give the value back)");
        }
        return new Expr.Call(Op.LIST, List.of(list), DataType.VARCHAR, list.nullable(), ListFunction.ORDER_KEY);
    }

    /** A list's or a struct's text as DuckDB writes it ({@link ListFunction#TEXT}). */
    static Expr text(Expr nested) {
        return new Expr.Call(Op.LIST, List.of(nested), DataType.VARCHAR, nested.nullable(), ListFunction.TEXT);
    }

    /** Whether a type is of this kind or holds a value of it (a list's element, a struct's field). */
    static boolean mentions(DataType t, io.tessera.storage.TypeKind kind) {
        if (t.isList()) {
            return mentions(t.element(), kind);
        }
        if (t.isStruct()) {
            return t.fields().stream().anyMatch(f -> mentions(f.type(), kind));
        }
        return t.kind() == kind;
    }

    /** The list of an order key ({@link ListFunction#FROM_ORDER_KEY}), typed as {@code list}. */
    static Expr fromOrderKey(Expr key, DataType list) {
        return new Expr.Call(Op.LIST, List.of(key), list, key.nullable(), ListFunction.FROM_ORDER_KEY);
    }

    /** Throws for what lists do not do yet; returns for what they do as strings (=, <>, IS [NOT] DISTINCT, CASE, ...). */
    private static void refuse(RexCall call, SqlKind kind) {
        switch (kind) {
            case CAST -> {
                DataType from = Types.of(call.getOperands().get(0).getType());
                DataType to = Types.of(call.getType());
                if (!from.equals(to)) {
                    throw new SqlError("unsupported: CAST from " + from + " to " + to);
                }
            }
            default -> {
            }
        }
    }

    /** Whether {@code e} is a NULL constant, cast or not (a NULL that VALUES typed by its other rows). */
    static boolean isNull(Expr e) {
        return e instanceof Expr.Literal l && l.value() == null || e instanceof Expr.Call c && c.op() == Op.CAST
                && c.args().size() == 1 && isNull(c.args().get(0));
    }

    /**
     * A value as {@code to} where its Calcite type {@code from} has parts of the NULL type, whose values are all NULL
     * ({@code {'a': NULL}} or {@code [NULL]} beside a struct or list of INTERVALs in a UNION or VALUES, which DuckDB
     * types as the other's): Tessera reads such a part as an INTEGER, which does not cast to every type, so each is a
     * NULL of the target's type; a struct's other fields and a made list's elements converted as {@link #as} does.
     */
    static Expr asFrom(Expr e, org.apache.calcite.rel.type.RelDataType from, DataType to) {
        if (from.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL) {
            return new Expr.Literal(null, to);
        }
        if (e.type().equals(to) || !holdsNullType(from)) {
            return as(e, to);
        }
        if (e.type().isStruct() && to.isStruct()) {
            return StructCalls.byName(e, to, from);
        }
        if (e instanceof Expr.Call c && c.op() == Op.LIST && c.detail() == ListFunction.VALUE && to.isList()) {
            List<Expr> args = new ArrayList<>();
            for (Expr a : c.args()) {
                args.add(asFrom(a, from.getComponentType(), to.element()));
            }
            return new Expr.Call(Op.LIST, args, to, c.nullable(), ListFunction.VALUE);
        }
        return as(e, to);
    }

    /** Whether a Calcite type is the NULL type or a list or struct with one inside. */
    static boolean holdsNullType(org.apache.calcite.rel.type.RelDataType t) {
        if (t.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL) {
            return true;
        }
        if (t.getComponentType() != null) {
            return holdsNullType(t.getComponentType());
        }
        return t.isStruct() && t.getFieldList().stream().anyMatch(f -> holdsNullType(f.getType()));
    }

    /** Whether both are named STRUCTs and {@code value} has a field (by name, in any case) that {@code element} lacks. */
    private static boolean fieldsBeyond(DataType value, DataType element) {
        if (!value.isStruct() || !element.isStruct()) {
            return false;
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (io.tessera.storage.StructField f : element.fields()) {
            names.add(f.name().toLowerCase(java.util.Locale.ROOT));
        }
        return !names.contains("") && value.fields().stream()
                .anyMatch(f -> !f.name().isEmpty() && !names.contains(f.name().toLowerCase(java.util.Locale.ROOT)));
    }

    /**
     * LIST_INTERSECT of two lists, each converted to the call's type (the elements' common type): the distinct
     * elements that are not NULL found in both ({@link ListFunction#INTERSECT}); NULL where the first is NULL, empty
     * where the second is, as DuckDB's.
     */
    private static Expr intersect(RexCall call, String name, Function<RexNode, Expr> translate) {
        DataType type = Types.of(call.getType());
        if (call.getOperands().get(0).getType().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL) {
            return new Expr.Literal(null, type);
        }
        if (io.tessera.storage.ListOrder.equalByKey(type.element())) {
            throw new SqlError("unsupported: " + name.toLowerCase(java.util.Locale.ROOT) + " of a list of "
                    + type.element() + " (elements with an INTERVAL inside)");
        }
        Expr a = as(translate.apply(call.getOperands().get(0)), type);
        Expr b = as(translate.apply(call.getOperands().get(1)), type);
        return new Expr.Call(Op.LIST, List.of(a, b), type, a.nullable(), ListFunction.INTERSECT);
    }

    /**
     * LIST_HAS_ANY and LIST_HAS_ALL of two lists, in their elements' common type (as list_contains finds a value),
     * and LIST_UNIQUE; of a NULL that is no list yet NULL. Elements with an INTERVAL inside, which compare by their
     * lengths, are refused by name.
     */
    private static Expr sets(RexCall call, String name, Function<RexNode, Expr> translate) {
        for (RexNode o : call.getOperands()) {
            if (o.getType().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL) {
                return new Expr.Literal(null, Types.of(call.getType()));
            }
        }
        Expr list = translate.apply(call.getOperands().get(0));
        if (io.tessera.storage.ListOrder.equalByKey(list.type().element())) {
            throw new SqlError("unsupported: " + name.toLowerCase(java.util.Locale.ROOT) + " of a list of "
                    + list.type().element() + " (elements with an INTERVAL inside)");
        }
        if (name.endsWith("UNIQUE")) {
            return new Expr.Call(Op.LIST, List.of(list), DataType.BIGINT, list.nullable(), ListFunction.UNIQUE);
        }
        Expr other = translate.apply(call.getOperands().get(1));
        DataType a = list.type().element();
        DataType b = other.type().element();
        if (!a.equals(b)) {
            DataType wider = widerForLookup(b, a);
            DataType common = wider != null ? wider : widerForLookup(a, b) != null ? widerForLookup(a, b) : a;
            list = as(list, DataType.list(common));
            other = as(other, DataType.list(common));
        }
        return new Expr.Call(Op.LIST, List.of(list, other), DataType.BOOLEAN, list.nullable() || other.nullable(),
                name.endsWith("ANY") ? ListFunction.HAS_ANY : ListFunction.HAS_ALL);
    }

    /**
     * A value looked up among elements of type {@code element} (a list's elements, a map's keys) and those elements,
     * as {@code [value, elements]} in the type they compare in: the value converted to the elements' type where that
     * type holds every value of the value's ({@link #as}), else the elements converted to the wider numeric type, so
     * that 1.5 or 2^32 among INTEGERs finds nothing, as in DuckDB, rather than a rounded neighbour or an overflow.
     */
    static Expr[] lookup(Expr value, Expr elements, DataType element) {
        DataType wider = widerForLookup(value.type(), element);
        if (wider == null) {
            return new Expr[] {as(value, element), elements};
        }
        DataType converted = elements.type().isMap()
                ? DataType.map(wider, elements.type().mapValue()) : DataType.list(wider);
        return new Expr[] {as(value, wider), as(elements, converted)};
    }

    /** The numeric type a value and elements compare in where the elements' type cannot hold the value's, else null. */
    static DataType widerForLookup(DataType value, DataType element) {
        if (!plainNumber(value) || !plainNumber(element) || value.equals(element) || holds(element, value)) {
            return null;
        }
        if (value.kind() == TypeKind.DOUBLE || element.kind() == TypeKind.DOUBLE) {
            return DataType.DOUBLE;
        }
        if (value.kind() == TypeKind.DECIMAL || element.kind() == TypeKind.DECIMAL) {
            int scale = Math.max(value.kind() == TypeKind.DECIMAL ? value.scale() : 0,
                    element.kind() == TypeKind.DECIMAL ? element.scale() : 0);
            return DataType.decimal(DataType.MAX_DECIMAL_PRECISION, scale);
        }
        return DataType.BIGINT;
    }

    private static boolean plainNumber(DataType t) {
        return !t.isNested() && switch (t.kind()) {
            case INTEGER, BIGINT, DECIMAL, DOUBLE -> true;
            default -> false;
        };
    }

    /** Whether type {@code to} holds every value of {@code from} (both numbers): a widening conversion. */
    private static boolean holds(DataType to, DataType from) {
        return switch (to.kind()) {
            case DOUBLE -> true; // as before: a DOUBLE element type takes any number
            case BIGINT -> from.kind() == TypeKind.INTEGER;
            case DECIMAL -> switch (from.kind()) {
                case INTEGER -> to.precision() - to.scale() >= 10;
                case DECIMAL -> to.scale() >= from.scale() && to.precision() - to.scale() >= from.precision() - from.scale();
                default -> false;
            };
            default -> false;
        };
    }

    static Expr as(Expr e, DataType element) {
        if (e.type().equals(element)) {
            return e;
        }
        if (isNull(e)) {
            return new Expr.Literal(null, element);
        }
        if (e.type().isList() && element.isList() && e.type().isMap() != element.isMap()) {
            // a MAP is a list of structs inside, but no cast makes one of the other (DuckDB's has none)
            throw new SqlError("unsupported: CAST from " + e.type() + " to " + element);
        }
        if (e.type().isList() && element.isList()) {
            if (e instanceof Expr.Call c && c.op() == Op.LIST && c.detail() == ListFunction.VALUE) {
                // a list made here as another list type ({'m': []} or {'m': [1]} as a STRUCT(m BIGINT[])): each
                // element converted
                List<Expr> args = new ArrayList<>();
                for (Expr a : c.args()) {
                    args.add(as(a, element.element()));
                }
                return new Expr.Call(Op.LIST, args, element, c.nullable(), ListFunction.VALUE);
            }
            if (e.type().element().isStruct() && element.element().isStruct()
                    && StructCalls.keepsTexts(e.type().element(), element.element())) {
                // a list of structs as another list of STRUCT type: each element's fields moved by name
                return new Expr.Call(Op.LIST, List.of(e), element, e.nullable(), ListFunction.STRUCT_ELEMENTS);
            }
            // each element converted, its scalars as a CAST converts them
            StructCalls.checkCast(e.type(), element);
            return new Expr.Call(Op.LIST, List.of(e), element, e.nullable(), ListFunction.CAST);
        }
        if (e.type().isList()) { // a list where a scalar or a struct is wanted
            throw new SqlError("unsupported: CAST from " + e.type() + " to " + element);
        }
        if (e.type().isStruct() && element.isStruct()) {
            return StructCalls.byName(e, element);
        }
        if (e.type().isStruct() || element.isNested()) { // a scalar is no list: its text is no list's encoding
            throw new SqlError("unsupported: CAST from " + e.type() + " to " + element);
        }
        if (e.type().isInterval() || element.isInterval()) {
            return IntervalCalls.convert(e, element, e.nullable());
        }
        return new Expr.Call(Op.CAST, List.of(e), element, e.nullable());
    }
}
