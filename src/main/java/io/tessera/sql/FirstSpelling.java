package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A common type's field names spelt as the first of the typed values spells them, as DuckDB spells them: {@code
 * SELECT {'A': 1} UNION ALL SELECT {'a': 2}} is a STRUCT(A INTEGER), and {@code [{'A': 1}]} beside {@code [{'a': 2}]}
 * a STRUCT(A INTEGER)[]. Calcite's implicit casts widen the types pairwise with the later one first, which kept the
 * last branch's spelling.
 */
final class FirstSpelling {

    private FirstSpelling() {
    }

    /** {@code common} with every field name (at any depth) spelt as the first of {@code types} that has it spells it. */
    static RelDataType of(RelDataTypeFactory f, RelDataType common, List<RelDataType> types) {
        if (common.isStruct()) {
            return struct(f, common, types.stream().filter(RelDataType::isStruct).toList());
        }
        if (common.getSqlTypeName() == SqlTypeName.ARRAY) {
            List<RelDataType> elements = parts(types, SqlTypeName.ARRAY, RelDataType::getComponentType);
            RelDataType element = of(f, common.getComponentType(), elements);
            return element == common.getComponentType() ? common
                    : f.createTypeWithNullability(f.createArrayType(element, -1), common.isNullable());
        }
        if (common.getSqlTypeName() == SqlTypeName.MAP) {
            RelDataType key = of(f, common.getKeyType(), parts(types, SqlTypeName.MAP, RelDataType::getKeyType));
            RelDataType value = of(f, common.getValueType(), parts(types, SqlTypeName.MAP, RelDataType::getValueType));
            return key == common.getKeyType() && value == common.getValueType() ? common
                    : f.createTypeWithNullability(f.createMapType(key, value), common.isNullable());
        }
        return common;
    }

    private static List<RelDataType> parts(List<RelDataType> types, SqlTypeName kind,
                                           java.util.function.Function<RelDataType, RelDataType> part) {
        return types.stream().filter(t -> t.getSqlTypeName() == kind).map(part).toList();
    }

    private static RelDataType struct(RelDataTypeFactory f, RelDataType common, List<RelDataType> structs) {
        StructCommonType.FieldsByName byName = StructCommonType.FieldsByName.of(structs);
        Map<String, String> spelling = byName.spelling();
        Map<String, List<RelDataType>> fieldTypes = byName.types();
        List<String> names = new ArrayList<>();
        List<RelDataType> fields = new ArrayList<>();
        boolean changed = false;
        for (RelDataTypeField field : common.getFieldList()) {
            String key = field.getName().toLowerCase(Locale.ROOT);
            // an unnamed row(...)'s empty names are no spelling of a name
            String name = key.isEmpty() ? field.getName() : spelling.getOrDefault(key, field.getName());
            RelDataType type = of(f, field.getType(), fieldTypes.getOrDefault(key, List.of()));
            changed |= !name.equals(field.getName()) || type != field.getType();
            names.add(name);
            fields.add(type);
        }
        return !changed ? common : f.createTypeWithNullability(
                f.createStructType(common.getStructKind(), fields, names), common.isNullable());
    }
}
