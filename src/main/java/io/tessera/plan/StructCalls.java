package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.StructCodec;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The calls that make or read STRUCT values, lowered to the {@link Op#LIST} calls that lists use, since a struct is
 * held as a list of its fields' values ({@link StructCodec}): {@code {'a': 1}}, struct_pack and ROW(...) as
 * {@link ListFunction#VALUE}, {@code s.a}, {@code s['a']} and struct_extract as {@link ListFunction#ELEMENT} at the
 * field's position, {@code <}, {@code <=}, {@code >}, {@code >=} on order keys; a CAST between struct types field by
 * field, by name.
 */
final class StructCalls {
    private StructCalls() {
    }

    /** The lowered call, or null when {@code call} is not about structs. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        SqlKind kind = call.getKind();
        if (name.equals("STRUCT_PACK")) {
            List<RexNode> values = new ArrayList<>();
            for (int i = 1; i < call.getOperands().size(); i += 2) {
                values.add(call.getOperands().get(i));
            }
            return pack(values, Types.of(call.getType()), translate);
        }
        if (kind == SqlKind.ROW) {
            return pack(call.getOperands(), Types.of(call.getType()), translate);
        }
        Expr edited = StructEditCalls.lower(call, name, translate);
        if (edited != null) {
            return edited;
        }
        if (kind == SqlKind.ITEM && isStruct(call.getOperands().get(0)) || name.equals("STRUCT_EXTRACT")) {
            Expr struct = translate.apply(call.getOperands().get(0));
            if (!(call.getOperands().get(1) instanceof RexLiteral key) || key.isNull()) {
                throw new SqlError("unsupported: a struct field named by a value that is not a constant");
            }
            int position = key.getType().getSqlTypeName().getFamily()
                    == org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER
                    ? StructCodec.position(struct.type(), key.getValueAs(String.class))
                    : key.getValueAs(Integer.class);
            return field(struct, position - 1);
        }
        if (kind == SqlKind.CAST && isStruct(call)) {
            DataType to = Types.of(call.getType());
            RexNode from = call.getOperands().get(0);
            if (from instanceof RexCall made && (made.getKind() == SqlKind.ROW
                    || made.getOperator().getName().equalsIgnoreCase("STRUCT_PACK") && sameNames(made, to))) {
                // a struct made here as another struct type ({'a': 1} stored into STRUCT(a BIGINT)): each field
                // converted, by position
                List<RexNode> values = new ArrayList<>();
                boolean pack = made.getKind() != SqlKind.ROW;
                for (int i = pack ? 1 : 0; i < made.getOperands().size(); i += pack ? 2 : 1) {
                    values.add(made.getOperands().get(i));
                }
                if (values.size() != to.fields().size()) {
                    throw new SqlError("unsupported: CAST from " + Types.of(from.getType()) + " to " + to
                            + " (another number of fields)");
                }
                return pack(values, to, translate);
            }
            if (from.getType().getSqlTypeName() == SqlTypeName.NULL) {
                return new Expr.Literal(null, to);
            }
            Expr source = translate.apply(from);
            return source.type().equals(to) ? source : byName(source, to);
        }
        if (call.getOperands().stream().anyMatch(StructCalls::isStruct)) {
            Expr equal = ListCalls.intervalEquality(call, kind, translate);
            if (equal != null) {
                return equal;
            }
            Expr ordered = ListCalls.orderComparison(call, kind, translate);
            if (ordered != null) {
                return ordered;
            }
        }
        return null;
    }

    /** Whether struct_pack's names are the fields of {@code to}, in order. */
    private static boolean sameNames(RexCall pack, DataType to) {
        List<RexNode> ops = pack.getOperands();
        if (ops.size() != 2 * to.fields().size()) {
            return false;
        }
        for (int i = 0; i < to.fields().size(); i++) {
            if (!(ops.get(2 * i) instanceof RexLiteral name)
                    || !to.fields().get(i).name().equalsIgnoreCase(name.getValueAs(String.class))) {
                return false;
            }
        }
        return true;
    }

    /** Field {@code index} (0-based) of a struct: NULL where the struct is, or the field. */
    static Expr field(Expr struct, int index) {
        if (!struct.type().isStruct() || index < 0 || index >= struct.type().fields().size()) {
            throw new SqlError("unsupported: field " + (index + 1) + " of a " + struct.type());
        }
        DataType type = struct.type().fields().get(index).type();
        return new Expr.Call(Op.LIST, List.of(struct, new Expr.Literal((long) index + 1, DataType.BIGINT)), type,
                true, ListFunction.ELEMENT);
    }

    /**
     * A struct as another STRUCT type, as DuckDB casts one: each field of {@code to} the source's field of its name
     * (case-insensitive) converted to its type, NULL where the source has none; at least one name in common. NULL
     * where the source is.
     */
    static Expr byName(Expr source, DataType to) {
        return byName(source, to, null);
    }

    /**
     * The same, each field converted knowing its Calcite type in {@code from}, the source's ({@link ListCalls#asFrom}:
     * a field of the NULL type a NULL of the target field's type); null: converted by its Tessera type alone.
     */
    static Expr byName(Expr source, DataType to, org.apache.calcite.rel.type.RelDataType from) {
        if (!source.type().isStruct()) {
            throw new SqlError("unsupported: CAST from " + source.type() + " to " + to);
        }
        List<Expr> values = new ArrayList<>();
        if (source.type().isUnnamedStruct() && source.type().fields().size() == to.fields().size()) {
            // an unnamed struct's fields by position, as DuckDB casts (1, 'a') to STRUCT(n INTEGER, s VARCHAR)
            for (int i = 0; i < to.fields().size(); i++) {
                values.add(converted(source, i, to.fields().get(i).type(), from));
            }
        } else {
            boolean matched = false;
            for (io.tessera.storage.StructField f : to.fields()) {
                int p = StructCodec.position(source.type(), f.name());
                matched |= p > 0;
                values.add(p == 0 ? new Expr.Literal(null, f.type()) : converted(source, p - 1, f.type(), from));
            }
            if (!matched) {
                throw new SqlError("CAST from " + source.type() + " to " + to + ": a STRUCT to STRUCT cast needs a"
                        + " field name in common");
            }
        }
        Expr packed = new Expr.Call(Op.LIST, values, to, false, ListFunction.VALUE);
        if (!source.nullable()) {
            return packed;
        }
        Expr isNull = new Expr.Call(Op.IS_NULL, List.of(source), DataType.BOOLEAN, false);
        return new Expr.Call(Op.CASE, List.of(isNull, new Expr.Literal(null, to), packed), to, true);
    }

    /** Field {@code index} of {@code source} as {@code type}, by its Calcite type in {@code from} where given. */
    private static Expr converted(Expr source, int index, DataType type, org.apache.calcite.rel.type.RelDataType from) {
        Expr field = fieldOf(source, index);
        return from == null ? ListCalls.as(field, type)
                : ListCalls.asFrom(field, from.getFieldList().get(index).getType(), type);
    }

    /**
     * Whether the cast of STRUCT {@code from} to STRUCT {@code to} (by name) leaves each field it keeps as its encoded
     * text, so that a list's elements can be cast by moving the texts ({@link ListFunction#STRUCT_ELEMENTS}): each
     * field of {@code to} with a source field of its name, of the same type or an integer type it widens. Throws where
     * no name is in common, as the cast of one struct does.
     */
    static boolean keepsTexts(DataType from, DataType to) {
        if (from.isUnnamedStruct()) {
            return false;
        }
        boolean matched = false;
        for (io.tessera.storage.StructField f : to.fields()) {
            int p = StructCodec.position(from, f.name());
            if (p > 0 && !sameText(from.fields().get(p - 1).type(), f.type())) {
                return false;
            }
            matched |= p > 0;
        }
        if (!matched) {
            throw new SqlError("CAST from " + from + " to " + to + ": a STRUCT to STRUCT cast needs a field name in"
                    + " common");
        }
        return true;
    }

    /**
     * Throws where a CAST from nested type {@code from} to {@code to} is refused before any value is read: two
     * structs with no field name in common (an unnamed one of as many fields is taken by position), a list or a
     * struct to or from a scalar; the scalars' conversions are decided where the code is made.
     */
    static void checkCast(DataType from, DataType to) {
        if (from.isList() && to.isList()) {
            checkCast(from.element(), to.element());
        } else if (from.isStruct() && to.isStruct()) {
            boolean byPosition = from.isUnnamedStruct() && from.fields().size() == to.fields().size();
            boolean matched = false;
            for (int i = 0; i < to.fields().size(); i++) {
                io.tessera.storage.StructField f = to.fields().get(i);
                int p = byPosition ? i + 1 : StructCodec.position(from, f.name());
                if (p > 0) {
                    checkCast(from.fields().get(p - 1).type(), f.type());
                    matched = true;
                }
            }
            if (!matched) {
                throw new SqlError("CAST from " + from + " to " + to + ": a STRUCT to STRUCT cast needs a field name"
                        + " in common");
            }
        } else if (from.isNested() || to.isNested()) {
            throw new SqlError("unsupported: CAST from " + from + " to " + to);
        }
    }

    /** Whether every value of {@code from} has the encoded text of the same value of {@code to}. */
    private static boolean sameText(DataType from, DataType to) {
        if (from.isStruct() && to.isStruct()) {
            if (from.fields().size() != to.fields().size()) {
                return false;
            }
            for (int i = 0; i < from.fields().size(); i++) {
                if (!from.fields().get(i).name().equalsIgnoreCase(to.fields().get(i).name())
                        || !sameText(from.fields().get(i).type(), to.fields().get(i).type())) {
                    return false;
                }
            }
            return true;
        }
        if (from.isList() && to.isList()) {
            return sameText(from.element(), to.element());
        }
        boolean integers = integer(from) && integer(to);
        return integers ? DataType.fitsIn(from, to) : from.equals(to);
    }

    private static boolean integer(DataType t) {
        return !t.isNested() && (t.kind() == io.tessera.storage.TypeKind.INTEGER
                || t.kind() == io.tessera.storage.TypeKind.BIGINT);
    }

    /** Field {@code index} of a struct: a struct made here its value ({@code []} stays a list made here), else {@link #field}. */
    private static Expr fieldOf(Expr struct, int index) {
        if (struct instanceof Expr.Call c && c.op() == Op.LIST && c.detail() == ListFunction.VALUE
                && struct.type().isStruct()) {
            return c.args().get(index);
        }
        return field(struct, index);
    }

    /** The struct of these values, each converted to its field's type. */
    private static Expr pack(List<RexNode> values, DataType type, Function<RexNode, Expr> translate) {
        List<Expr> args = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            args.add(ListCalls.as(translate.apply(values.get(i)), type.fields().get(i).type()));
        }
        return new Expr.Call(Op.LIST, args, type, false, ListFunction.VALUE);
    }

    private static boolean isStruct(RexNode n) {
        return n.getType().getSqlTypeName() == SqlTypeName.ROW;
    }
}
