package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The calls that make or read MAP values, lowered to {@link Op#LIST} calls ({@link ListFunction}'s MAP_ functions): a
 * map is a list of {@code STRUCT(key, value)} entries, so a map made here is a list of structs whose keys
 * {@link ListFunction#MAP_CHECK} checks when the query runs, and what stores, compares, orders or groups maps is
 * what does so with lists.
 */
final class MapCalls {
    private MapCalls() {
    }

    /** The lowered call, or null when {@code call} is not about maps. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        List<RexNode> ops = call.getOperands();
        boolean nullable = call.getType().isNullable();
        switch (name) {
            case "MAP_PACK" -> {
                DataType type = Types.of(call.getType());
                List<Expr> entries = new ArrayList<>();
                for (int i = 0; i + 1 < ops.size(); i += 2) {
                    Expr k = ListCalls.as(translate.apply(ops.get(i)), type.mapKey());
                    Expr v = ListCalls.as(translate.apply(ops.get(i + 1)), type.mapValue());
                    entries.add(new Expr.Call(Op.LIST, List.of(k, v), type.element(), false, ListFunction.VALUE));
                }
                return checked(new Expr.Call(Op.LIST, entries, DataType.list(type.element()), false,
                        ListFunction.VALUE), type);
            }
            case "MAP" -> {
                DataType type = Types.of(call.getType());
                if (ops.isEmpty()) {
                    return new Expr.Call(Op.LIST, List.of(), type, false, ListFunction.VALUE);
                }
                Expr keys = ListCalls.as(translate.apply(ops.get(0)), DataType.list(type.mapKey()));
                Expr values = ListCalls.as(translate.apply(ops.get(1)), DataType.list(type.mapValue()));
                return new Expr.Call(Op.LIST, List.of(keys, values), type, nullable, ListFunction.MAP_OF_LISTS);
            }
            case "MAP_CONCAT" -> {
                return concat(call, translate);
            }
            case "MAP_FROM_ENTRIES" -> {
                // a list of two-field structs is encoded as the map of their types is: checked, typed as the map
                Expr list = translate.apply(ops.get(0));
                return checked(list, Types.of(call.getType()));
            }
            default -> {
            }
        }
        if (ops.stream().anyMatch(o -> o.getType().getSqlTypeName() == SqlTypeName.MAP)) {
            // compared as the lists of entries they are: <, <=, >, >= by order keys, = and the others with an
            // INTERVAL inside by keys whose intervals are their lengths (where their encodings would differ)
            Expr equal = ListCalls.intervalEquality(call, call.getKind(), translate);
            if (equal != null) {
                return equal;
            }
            Expr ordered = ListCalls.orderComparison(call, call.getKind(), translate);
            if (ordered != null) {
                return ordered;
            }
        }
        if ((name.equals("MAP_KEYS") || name.equals("MAP_VALUES")) && !ops.isEmpty()
                && ops.get(0).getType().getSqlTypeName() == SqlTypeName.NULL) {
            return new Expr.Literal(null, Types.of(call.getType())); // of a NULL: a NULL list
        }
        if (ops.isEmpty() || ops.get(0).getType().getSqlTypeName() != SqlTypeName.MAP) {
            return castToMap(call, translate);
        }
        Expr map = translate.apply(ops.get(0));
        DataType type = map.type();
        if (call.getKind() == SqlKind.ITEM) {
            Expr[] lookup = MapKeys.lookup(ops.get(1), translate.apply(ops.get(1)), map, "m[k]");
            return new Expr.Call(Op.LIST, List.of(lookup[1], lookup[0]), type.mapValue(), true, ListFunction.MAP_GET);
        }
        return switch (name) {
            case "MAP_EXTRACT", "ELEMENT_AT" -> {
                Expr[] lookup = MapKeys.lookup(ops.get(1), translate.apply(ops.get(1)), map,
                        name.toLowerCase(Locale.ROOT));
                yield new Expr.Call(Op.LIST, List.of(lookup[1], lookup[0]), DataType.list(type.mapValue()),
                        map.nullable(), ListFunction.MAP_EXTRACT);
            }
            case "MAP_KEYS" -> new Expr.Call(Op.LIST, List.of(map), DataType.list(type.mapKey()), map.nullable(),
                    ListFunction.MAP_KEYS);
            case "MAP_VALUES" -> new Expr.Call(Op.LIST, List.of(map), DataType.list(type.mapValue()),
                    map.nullable(), ListFunction.MAP_VALUES);
            // the map's own encoding: a list of STRUCT(key, value)
            case "MAP_ENTRIES" -> new Expr.Call(Op.LIST, List.of(map), Types.of(call.getType()), map.nullable(),
                    ListFunction.CODE);
            case "MAP_CONTAINS" -> {
                Expr[] lookup = MapKeys.lookup(ops.get(1), translate.apply(ops.get(1)), map,
                        name.toLowerCase(Locale.ROOT));
                yield new Expr.Call(Op.LIST, List.of(lookup[1], lookup[0]), DataType.BOOLEAN,
                        map.nullable() || lookup[0].nullable(), ListFunction.MAP_CONTAINS);
            }
            default -> castToMap(call, translate);
        };
    }

    /**
     * {@code map_concat(m1, m2, ...)}: maps of one type (DuckDB's message naming the first map's and another's type
     * where they differ, which DuckDB does not cast; an empty {@code map{}} is of any map type); NULL maps add
     * nothing, so a call of one map besides NULLs is that map, and of NULLs alone NULL.
     */
    private static Expr concat(RexCall call, Function<RexNode, Expr> translate) {
        DataType type = Types.of(call.getType());
        String expected = null;
        List<Expr> maps = new ArrayList<>();
        for (RexNode op : call.getOperands()) {
            if (op.getType().getSqlTypeName() == SqlTypeName.NULL) {
                continue;
            }
            if (op.getType().getKeyType().getSqlTypeName() == SqlTypeName.NULL) {
                // map{} or map(): empty, of whatever type the other maps have (as DuckDB types it)
                if (op.getType().isNullable()) {
                    throw new SqlError("unsupported: map_concat of a " + TextDateCalls.typeName(op.getType())
                            + " that may be NULL");
                }
                maps.add(new Expr.Call(Op.LIST, List.of(), type, false, ListFunction.VALUE));
                continue;
            }
            String name = TextDateCalls.typeName(op.getType());
            if (expected == null) {
                expected = name;
            } else if (!expected.equals(name)) {
                throw new SqlError("'value' type of map differs between arguments, expected '" + expected
                        + "', found '" + name + "' instead");
            }
            Expr map = translate.apply(op);
            if (!ListCalls.isNull(map)) {
                maps.add(map);
            }
        }
        if (maps.isEmpty()) {
            return new Expr.Literal(null, type);
        }
        if (maps.size() == 1) {
            return maps.get(0);
        }
        return new Expr.Call(Op.LIST, maps, type, maps.stream().allMatch(Expr::nullable), ListFunction.MAP_CONCAT);
    }

    /**
     * A CAST from one MAP type to another: each entry converted as a list of structs converts it, the keys checked
     * again where their type changes (two keys may become one); null for any other call.
     */
    private static Expr castToMap(RexCall call, Function<RexNode, Expr> translate) {
        boolean cast = call.getKind() == SqlKind.CAST || call.getOperator().getName().equals("TESSERA_CHECKED_CAST");
        if (!cast || call.getType().getSqlTypeName() != SqlTypeName.MAP
                || call.getOperands().get(0).getType().getSqlTypeName() != SqlTypeName.MAP) {
            return null;
        }
        Expr from = translate.apply(call.getOperands().get(0));
        DataType to = Types.of(call.getType());
        Expr converted = ListCalls.as(from, to);
        return from.type().mapKey().equals(to.mapKey()) ? converted : checked(converted, to);
    }

    /** A list of entries as the map {@code type}, its keys checked when the query runs. */
    private static Expr checked(Expr entries, DataType type) {
        if (!type.isMap()) {
            throw new SqlError("unsupported: a MAP of type " + type);
        }
        return new Expr.Call(Op.LIST, List.of(entries), type, entries.nullable(), ListFunction.MAP_CHECK);
    }
}
