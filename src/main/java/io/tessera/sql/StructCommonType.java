package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rel.type.StructKind;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * DuckDB's common type of STRUCTs whose field names differ (in name, number or order): the fields of all of them by
 * name (case-insensitive, spelt as first met), in the order they are first met, each of its values' common type and
 * nullable where a struct lacks it. {@code {'a': 1}} beside {@code {'b': 2}} (a UNION, a CASE, COALESCE, a list, a
 * comparison) is a STRUCT(a INTEGER, b INTEGER), each struct cast to it by name (its missing fields NULL). Structs
 * with the same names in the same order keep Calcite's common type; an unnamed struct ({@code row(1, 2)}) is matched
 * by position there.
 */
final class StructCommonType {

    private StructCommonType() {
    }

    /**
     * The common type, or null where the types are not all named structs (NULLs aside) with names that differ, or a
     * field has no common type.
     */
    static RelDataType of(RelDataTypeFactory f, List<RelDataType> types, Function<List<RelDataType>, RelDataType> common) {
        return of(f, types, common, false);
    }

    /**
     * As {@link #of}, also where the names differ only in their spelling ({@code {'a': 1}} beside {@code {'A': 2}}:
     * STRUCT(a INTEGER), spelt as first met), for a CASE, whose common type DuckDB makes from its ELSE first.
     */
    static RelDataType spelt(RelDataTypeFactory f, List<RelDataType> types,
                             Function<List<RelDataType>, RelDataType> common) {
        return of(f, types, common, true);
    }

    private static RelDataType of(RelDataTypeFactory f, List<RelDataType> types,
                                  Function<List<RelDataType>, RelDataType> common, boolean bySpelling) {
        List<RelDataType> structs = new ArrayList<>();
        boolean nullable = false;
        for (RelDataType t : types) {
            if (t.getSqlTypeName() == SqlTypeName.NULL) {
                nullable = true;
                continue;
            }
            if (!t.isStruct() || t.getStructKind() != StructKind.PEEK_FIELDS_NO_EXPAND || unnamed(t)) {
                return null;
            }
            structs.add(t);
            nullable |= t.isNullable();
        }
        if (structs.size() < 2 || structs.stream().map(t -> bySpelling ? t.getFieldNames() : names(t)).distinct()
                .count() == 1) {
            return null;
        }
        Map<String, String> spelling = new LinkedHashMap<>();
        Map<String, List<RelDataType>> fieldTypes = new LinkedHashMap<>();
        for (RelDataType s : structs) {
            for (RelDataTypeField field : s.getFieldList()) {
                String key = field.getName().toLowerCase(Locale.ROOT);
                spelling.putIfAbsent(key, field.getName());
                fieldTypes.computeIfAbsent(key, k -> new ArrayList<>()).add(field.getType());
            }
        }
        List<String> names = new ArrayList<>();
        List<RelDataType> fields = new ArrayList<>();
        for (Map.Entry<String, List<RelDataType>> e : fieldTypes.entrySet()) {
            List<RelDataType> parts = e.getValue();
            RelDataType t = parts.size() == 1 ? parts.get(0) : common.apply(parts);
            if (t == null) {
                return null;
            }
            names.add(spelling.get(e.getKey()));
            fields.add(parts.size() < structs.size() ? f.createTypeWithNullability(t, true) : t);
        }
        return f.createTypeWithNullability(f.createStructType(StructKind.PEEK_FIELDS_NO_EXPAND, fields, names),
                nullable);
    }

    private static List<String> names(RelDataType struct) {
        return struct.getFieldNames().stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
    }

    private static boolean unnamed(RelDataType struct) {
        return struct.getFieldNames().stream().anyMatch(String::isEmpty);
    }
}
