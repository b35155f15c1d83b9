package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.StructCodec;
import io.tessera.storage.StructField;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * DuckDB's functions that take a struct apart or make another of it (typed by {@code sql.StructEdits}), lowered to
 * the {@link Op#LIST} calls structs use: struct_insert, struct_update and struct_concat as a new struct of the
 * fields ({@link ListFunction#VALUE}), struct_extract_at as a field, struct_keys as the list of the type's names,
 * struct_values as the same encoding typed as an unnamed struct, and struct_contains and struct_position as
 * list_contains and list_position of the fields.
 */
final class StructEditCalls {
    private StructEditCalls() {
    }

    /** The lowered call, or null when it is none of these. */
    static Expr lower(RexCall call, String name, Function<RexNode, Expr> translate) {
        DataType type = Types.of(call.getType());
        List<RexNode> ops = call.getOperands();
        return switch (name) {
            case "STRUCT_INSERT", "STRUCT_UPDATE" -> {
                Expr struct = translate.apply(ops.get(0));
                List<Expr> values = new ArrayList<>();
                for (int i = 0; i < struct.type().fields().size(); i++) {
                    values.add(StructCalls.field(struct, i));
                }
                for (int i = 1; i + 1 < ops.size(); i += 2) {
                    String field = ((RexLiteral) ops.get(i)).getValueAs(String.class);
                    int at = StructCodec.position(type, field) - 1;
                    Expr value = translate.apply(ops.get(i + 1));
                    if (at < values.size()) {
                        values.set(at, value); // struct_update's field replaced where it stands
                    } else {
                        values.add(value);
                    }
                }
                yield pack(values, type);
            }
            case "STRUCT_CONCAT" -> {
                List<Expr> values = new ArrayList<>();
                for (RexNode o : ops) {
                    Expr struct = translate.apply(o);
                    for (int i = 0; i < struct.type().fields().size(); i++) {
                        values.add(StructCalls.field(struct, i));
                    }
                }
                yield pack(values, type);
            }
            case "STRUCT_EXTRACT_AT" -> {
                Expr struct = translate.apply(ops.get(0));
                yield StructCalls.field(struct, ((RexLiteral) ops.get(1)).getValueAs(Integer.class) - 1);
            }
            case "STRUCT_KEYS" -> {
                Expr struct = translate.apply(ops.get(0));
                List<Expr> names = new ArrayList<>();
                for (StructField f : struct.type().fields()) {
                    names.add(new Expr.Literal(f.name(), DataType.VARCHAR));
                }
                yield unlessNull(struct, new Expr.Call(Op.LIST, names, type, false, ListFunction.VALUE));
            }
            case "STRUCT_VALUES" -> {
                // the fields' encoding as it is, typed as the unnamed struct
                Expr struct = translate.apply(ops.get(0));
                Expr code = new Expr.Call(Op.LIST, List.of(struct), DataType.VARCHAR, struct.nullable(),
                        ListFunction.CODE);
                yield new Expr.Call(Op.LIST, List.of(code), type, struct.nullable(), ListFunction.CODE);
            }
            case "STRUCT_CONTAINS", "STRUCT_HAS", "STRUCT_POSITION", "STRUCT_INDEXOF" ->
                    lookup(name, translate.apply(ops.get(0)), translate.apply(ops.get(1)),
                            name.endsWith("CONTAINS") || name.endsWith("HAS"));
            default -> null;
        };
    }

    private static Expr pack(List<Expr> values, DataType type) {
        List<Expr> args = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            args.add(ListCalls.as(values.get(i), type.fields().get(i).type()));
        }
        return new Expr.Call(Op.LIST, args, type, false, ListFunction.VALUE);
    }

    /** {@code value}, or NULL where {@code struct} is. */
    private static Expr unlessNull(Expr struct, Expr value) {
        if (!struct.nullable()) {
            return value;
        }
        Expr isNull = new Expr.Call(Op.IS_NULL, List.of(struct), DataType.BOOLEAN, false);
        return new Expr.Call(Op.CASE, List.of(isNull, new Expr.Literal(null, value.type()), value), value.type(), true);
    }

    /**
     * A value among an unnamed struct's fields: the fields as a list of their one type (numbers of several types in
     * the widest), looked up as list_contains (NULL fields skipped, a NULL value NULL) or list_position (a NULL value
     * finds the first NULL field) look up; NULL where the struct is.
     */
    private static Expr lookup(String name, Expr struct, Expr sought, boolean contains) {
        DataType element = null;
        for (StructField f : struct.type().fields()) {
            element = element == null ? f.type() : common(element, f.type(), name);
        }
        if (element == null) {
            throw new SqlError("unsupported: " + name.toLowerCase(Locale.ROOT) + " of a struct without fields");
        }
        List<Expr> fields = new ArrayList<>();
        for (int i = 0; i < struct.type().fields().size(); i++) {
            fields.add(ListCalls.as(StructCalls.field(struct, i), element));
        }
        Expr list = new Expr.Call(Op.LIST, fields, DataType.list(element), false, ListFunction.VALUE);
        Expr[] looked = ListCalls.lookup(sought, list, element);
        Expr found = contains
                ? new Expr.Call(Op.LIST, List.of(looked[1], looked[0]), DataType.BOOLEAN, looked[0].nullable(),
                        ListFunction.CONTAINS)
                : new Expr.Call(Op.LIST, List.of(looked[1], looked[0]), DataType.INTEGER, true, ListFunction.POSITION);
        return unlessNull(struct, found);
    }

    /** The type two fields compare in: the same type, or the number type that holds both. */
    private static DataType common(DataType a, DataType b, String name) {
        if (a.equals(b)) {
            return a;
        }
        DataType wider = ListCalls.widerForLookup(a, b);
        if (wider != null) {
            return wider;
        }
        if (ListCalls.widerForLookup(b, a) != null) {
            return b; // a number type b holds every value of a's
        }
        throw new SqlError("unsupported: " + name.toLowerCase(Locale.ROOT) + " over fields of types " + a + " and "
                + b + " (CAST them to one type)");
    }
}
