package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * A key looked up in a map ({@code m[k]}, map_extract, element_at, map_contains) of another type than the map's keys,
 * bound as DuckDB binds it: a number among numbers compared in the wider type, a string literal read as the key type
 * (text that is no such value fails; text of a VARCHAR type, {@code '1'::VARCHAR} among them, refused, except by
 * map_contains, which reads a constant one too), a DATE beside TIMESTAMPs compared as TIMESTAMPs, a BOOLEAN beside integers as
 * integers; any other pair is refused naming both types, as DuckDB refuses it, never compared in some other type.
 */
final class MapKeys {
    private MapKeys() {
    }

    /**
     * The key and the map as {@code [key, map]} in the type they compare in (see {@link ListCalls#lookup}); {@code node}
     * is the key as Calcite typed it (a string literal is CHAR), {@code what} the call, for the error.
     */
    static Expr[] lookup(RexNode node, Expr key, Expr map, String what) {
        DataType keys = map.type().mapKey();
        DataType given = key.type();
        if (ListCalls.isNull(key) || given.equals(keys) || numeric(given) && numeric(keys)
                || given.isNested() && keys.isNested()) {
            return ListCalls.lookup(key, map, keys);
        }
        if (node instanceof RexLiteral && SqlTypeUtil.inCharFamily(node.getType()) && (node.getType()
                .getSqlTypeName() == SqlTypeName.CHAR || what.equals("map_contains"))) {
            // '1' among INTEGER keys: the literal read as one; a VARCHAR constant ('1'::VARCHAR, folded to a
            // literal here) is text as a column's, which DuckDB refuses, but for map_contains, which takes it too
            return ListCalls.lookup(key, map, keys);
        }
        if (keys.kind() == TypeKind.TIMESTAMP && given.kind() == TypeKind.DATE || keys.kind() == TypeKind.INTEGER
                && !keys.isNested() && given.kind() == TypeKind.BOOLEAN || keys.kind() == TypeKind.BIGINT
                && given.kind() == TypeKind.BOOLEAN) {
            return new Expr[] {ListCalls.as(key, keys), map}; // the key widened to the keys' type
        }
        if (keys.kind() == TypeKind.DATE && given.kind() == TypeKind.TIMESTAMP
                || keys.kind() == TypeKind.BOOLEAN && (given.kind() == TypeKind.INTEGER
                || given.kind() == TypeKind.BIGINT)) {
            // the keys widened to the key's type: a DATE key equals a TIMESTAMP at its midnight only, TRUE equals 1
            return new Expr[] {key, ListCalls.as(map, DataType.map(given, map.type().mapValue()))};
        }
        throw new SqlError(what + ": a key of type " + TextDateCalls.typeName(node.getType()) + " for a map of type "
                + map.type() + " (its keys are " + keys + "; write a CAST of the key to that type)");
    }

    private static boolean numeric(DataType t) {
        return !t.isNested() && switch (t.kind()) {
            case INTEGER, BIGINT, DECIMAL, DOUBLE -> true;
            default -> false;
        };
    }
}
