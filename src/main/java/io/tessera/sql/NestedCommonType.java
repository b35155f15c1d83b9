package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * DuckDB's common type of STRUCTs or LISTs whose fields or elements Calcite finds no common type for, where one of them
 * is text: that part becomes VARCHAR ({@code {'a': INTERVAL 1 DAY}} beside {@code {'a': '2 days'}} in a UNION is a
 * STRUCT(a VARCHAR), the interval written as its text), at any depth; intervals of units Calcite keeps apart (a month,
 * hours) DuckDB's one INTERVAL type. Calcite has no common type of text and another type; types it has one for keep
 * Calcite's.
 */
final class NestedCommonType {
    private NestedCommonType() {
    }

    /** The common type, or null where {@code types} are not all structs or all lists, or a part has none. */
    static RelDataType of(RelDataTypeFactory f, List<RelDataType> types, Function<List<RelDataType>, RelDataType> calcite) {
        if (types.size() < 2 || !types.stream().allMatch(NestedCommonType::nested)) {
            return null;
        }
        return common(f, types, calcite);
    }

    /**
     * Refuses a STRUCT or LIST among {@code values} (of {@code types}: a CASE's results, COALESCE's arguments, a column
     * of VALUES rows) with text in a part where another has a value of another type ({@code {'a': INTERVAL 1 DAY}}
     * beside {@code {'a': 'x'}}), as DuckDB refuses it there; only a set operation makes that part VARCHAR
     * ({@link #of}). {@code construct} names where, in the error.
     */
    static void refuseTextBesideOther(String construct, List<SqlNode> values, List<RelDataType> types) {
        // each new nested type against those seen before: many VALUES rows have few types
        List<RelDataType> seen = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            RelDataType t = types.get(i);
            if (!nested(t) || seen.contains(t)) {
                continue;
            }
            for (RelDataType before : seen) {
                if (textBesideOther(t, before)) {
                    throw new SqlError("Cannot mix values of type " + name(before) + " and " + name(t) + " in "
                            + construct + " - an explicit cast is required"
                            + SupportCheck.at(values.get(i).getParserPosition()));
                }
            }
            seen.add(t);
        }
    }

    /** Whether one of two parts at the same place is text and the other of another type (not NULL), at any depth. */
    private static boolean textBesideOther(RelDataType a, RelDataType b) {
        if (a.getSqlTypeName() == SqlTypeName.NULL || b.getSqlTypeName() == SqlTypeName.NULL) {
            return false;
        }
        if (a.isStruct() && b.isStruct()) {
            if (named(a) && named(b)) {
                // named structs meet by name (StructCommonType): a field the other lacks meets nothing
                for (RelDataTypeField fa : a.getFieldList()) {
                    RelDataTypeField fb = b.getField(fa.getName(), false, false);
                    if (fb != null && textBesideOther(fa.getType(), fb.getType())) {
                        return true;
                    }
                }
                return false;
            }
            if (a.getFieldCount() != b.getFieldCount()) {
                return false;
            }
            for (int i = 0; i < a.getFieldCount(); i++) {
                if (textBesideOther(a.getFieldList().get(i).getType(), b.getFieldList().get(i).getType())) {
                    return true;
                }
            }
            return false;
        }
        if (a.getComponentType() != null && b.getComponentType() != null) {
            return textBesideOther(a.getComponentType(), b.getComponentType());
        }
        return !nested(a) && !nested(b) && SqlTypeUtil.isCharacter(a) != SqlTypeUtil.isCharacter(b);
    }

    /** Whether every field of the struct has a name (an unnamed {@code row(...)}'s are empty). */
    private static boolean named(RelDataType struct) {
        return struct.getFieldNames().stream().noneMatch(String::isEmpty);
    }

    /** DuckDB's name of a type, for an error. */
    static String name(RelDataType t) {
        if (t.isStruct()) {
            List<String> fields = new ArrayList<>();
            t.getFieldList().forEach(f -> fields.add(f.getName() + " " + name(f.getType())));
            return "STRUCT(" + String.join(", ", fields) + ")";
        }
        if (t.getComponentType() != null) {
            return name(t.getComponentType()) + "[]";
        }
        if (IntervalSyntax.isInterval(t)) {
            return "INTERVAL";
        }
        return switch (t.getSqlTypeName()) {
            case CHAR, VARCHAR -> "VARCHAR";
            case VARBINARY, BINARY -> "BLOB";
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_TZ -> "TIMESTAMP WITH TIME ZONE";
            case DECIMAL -> "DECIMAL(" + t.getPrecision() + "," + t.getScale() + ")";
            default -> t.getSqlTypeName().getName();
        };
    }

    private static boolean nested(RelDataType t) {
        return t.isStruct() || t.getSqlTypeName() == SqlTypeName.ARRAY;
    }

    private static RelDataType common(RelDataTypeFactory f, List<RelDataType> types,
                                      Function<List<RelDataType>, RelDataType> calcite) {
        boolean nullable = types.stream().anyMatch(RelDataType::isNullable);
        RelDataType first = types.get(0);
        if (types.stream().allMatch(RelDataType::isStruct)) {
            int n = first.getFieldCount();
            if (types.stream().anyMatch(t -> t.getFieldCount() != n)) {
                return null;
            }
            List<RelDataType> fields = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                RelDataType c = common(f, types.stream().map(t -> t.getFieldList().get(k).getType()).toList(), calcite);
                if (c == null) {
                    return null;
                }
                fields.add(c);
            }
            return f.createTypeWithNullability(f.createStructType(first.getStructKind(), fields,
                    first.getFieldNames()), nullable);
        }
        if (types.stream().allMatch(t -> t.getSqlTypeName() == SqlTypeName.ARRAY)) {
            RelDataType e = common(f, types.stream().map(RelDataType::getComponentType).toList(), calcite);
            return e == null ? null : f.createTypeWithNullability(f.createArrayType(e, -1), nullable);
        }
        RelDataType c = calcite.apply(types);
        if (c != null || types.stream().anyMatch(NestedCommonType::nested)) {
            return c;
        }
        if (types.stream().allMatch(t -> IntervalSyntax.isInterval(t) || t.getSqlTypeName() == SqlTypeName.NULL)) {
            // intervals of other units (1 MONTH, 2 HOURS): DuckDB's one INTERVAL type
            return TimestampFunctions.intervalType(f, nullable);
        }
        if (types.stream().noneMatch(SqlTypeUtil::isCharacter)) {
            return null;
        }
        return f.createTypeWithNullability(f.createSqlType(SqlTypeName.VARCHAR), nullable);
    }
}
