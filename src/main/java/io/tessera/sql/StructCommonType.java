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
 * with the same names in the same order keep Calcite's common type; unnamed structs ({@code row(1, 2)}) are matched
 * by position there, and beside structs of one set of names take those names. LISTs and MAPs of such structs (and
 * structs of those) have the list or map of their parts' common type.
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
        RelDataType lists = lists(f, types, common, bySpelling);
        if (lists != null) {
            return lists;
        }
        List<RelDataType> structs = new ArrayList<>();
        boolean nullable = false;
        for (RelDataType t : types) {
            if (t.getSqlTypeName() == SqlTypeName.NULL) {
                nullable = true;
                continue;
            }
            // a struct value's kind, or a relation row's: row(2)'s, and a CAST's to a STRUCT type (of a NULL, as a
            // set operation's NULL beside a struct becomes), which beside a struct value are values too
            if (!t.isStruct()) {
                return null;
            }
            structs.add(t);
            nullable |= t.isNullable();
        }
        if (structs.stream().noneMatch(t -> t.getStructKind() == StructKind.PEEK_FIELDS_NO_EXPAND)) {
            return null; // relation rows (a set operation's), or only row(...)s: Calcite's
        }
        if (structs.size() > 1 && structs.stream().anyMatch(StructCommonType::unnamed)) {
            return besideUnnamed(f, structs, nullable, common);
        }
        if (structs.size() < 2 || structs.stream().map(t -> bySpelling ? t.getFieldNames() : names(t)).distinct()
                .count() == 1) {
            return null;
        }
        FieldsByName byName = FieldsByName.of(structs);
        Map<String, String> spelling = byName.spelling();
        Map<String, List<RelDataType>> fieldTypes = byName.types();
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

    /**
     * The fields of some structs by name, case folded, in the order they first appear: the first spelling of each
     * name, and the types its fields have in the structs that have it.
     */
    record FieldsByName(Map<String, String> spelling, Map<String, List<RelDataType>> types) {

        static FieldsByName of(List<RelDataType> structs) {
            Map<String, String> spelling = new LinkedHashMap<>();
            Map<String, List<RelDataType>> types = new LinkedHashMap<>();
            for (RelDataType s : structs) {
                for (RelDataTypeField field : s.getFieldList()) {
                    String key = field.getName().toLowerCase(Locale.ROOT);
                    spelling.putIfAbsent(key, field.getName());
                    types.computeIfAbsent(key, k -> new ArrayList<>()).add(field.getType());
                }
            }
            return new FieldsByName(spelling, types);
        }
    }

    /**
     * Unnamed structs ({@code row(2)}) beside structs of one set of names, all of as many fields: those names, each
     * field the common type of the values at its position, as DuckDB's ({@code STRUCT(a INTEGER)} for {@code row(2)}
     * beside {@code {'a': 1}}); null (Calcite's common type by position, or its error) where all are unnamed, the named
     * ones' names differ or the numbers of fields do.
     */
    private static RelDataType besideUnnamed(RelDataTypeFactory f, List<RelDataType> structs, boolean nullable,
                                             Function<List<RelDataType>, RelDataType> common) {
        List<RelDataType> named = structs.stream().filter(t -> !unnamed(t)).toList();
        int count = structs.get(0).getFieldCount();
        if (named.isEmpty() || named.stream().map(StructCommonType::names).distinct().count() > 1
                || structs.stream().anyMatch(t -> t.getFieldCount() != count)) {
            return null;
        }
        List<RelDataType> fields = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int at = i;
            RelDataType t = common.apply(structs.stream().map(s -> s.getFieldList().get(at).getType()).toList());
            if (t == null) {
                return null;
            }
            fields.add(t);
        }
        return f.createTypeWithNullability(f.createStructType(StructKind.PEEK_FIELDS_NO_EXPAND, fields,
                named.get(0).getFieldNames()), nullable);
    }

    /**
     * LISTs (or MAPs; NULLs aside) whose elements (values) have such a common type ({@code [{'a': 1}]} beside
     * {@code [{'b': 2}]}: a STRUCT(a INTEGER, b INTEGER)[]), to any depth; null where they are not all lists or all
     * maps, or hold no struct, or their parts have no common type. Every STRUCT inside is taken as a struct value's,
     * whatever kind Calcite gave it (a list literal's elements are typed by Calcite's common type, of a relation
     * row's kind, which {@link #of} leaves to Calcite).
     */
    private static RelDataType lists(RelDataTypeFactory f, List<RelDataType> types,
                                     Function<List<RelDataType>, RelDataType> common, boolean bySpelling) {
        List<RelDataType> present = types.stream().filter(t -> t.getSqlTypeName() != SqlTypeName.NULL).toList();
        if (present.size() < 2) {
            return null;
        }
        SqlTypeName kind = present.get(0).getSqlTypeName();
        if (kind != SqlTypeName.ARRAY && kind != SqlTypeName.MAP
                || present.stream().anyMatch(t -> t.getSqlTypeName() != kind)
                || present.stream().noneMatch(StructCommonType::structInside)) {
            return null;
        }
        boolean nullable = present.size() < types.size() || present.stream().anyMatch(RelDataType::isNullable);
        List<RelDataType> parts = present.stream().map(t -> asValue(f, kind == SqlTypeName.MAP ? t.getValueType()
                : t.getComponentType())).toList();
        RelDataType part = of(f, parts, common, bySpelling);
        if (part == null) {
            // the same names at this level: Calcite's common type of the parts, which meets the structs inside here
            part = common.apply(parts);
        }
        if (part == null) {
            return null;
        }
        if (kind == SqlTypeName.ARRAY) {
            return f.createTypeWithNullability(f.createArrayType(part, -1), nullable);
        }
        RelDataType key = common.apply(present.stream().map(RelDataType::getKeyType).toList());
        return key == null ? null : f.createTypeWithNullability(f.createMapType(key, part), nullable);
    }

    /**
     * Whether two types have the same field names, spelt alike, in the same order at every place (a NULL's type has
     * every name); their other parts aside.
     */
    static boolean sameNames(RelDataType a, RelDataType b) {
        return sameNames(a, b, false);
    }

    /** As {@link #sameNames}, names that differ only in case taken as the same where {@code anyCase}. */
    static boolean sameNames(RelDataType a, RelDataType b, boolean anyCase) {
        if (a.getSqlTypeName() == SqlTypeName.NULL || b.getSqlTypeName() == SqlTypeName.NULL) {
            return true;
        }
        if (a.isStruct() || b.isStruct()) {
            if (!a.isStruct() || !b.isStruct()
                    || !(anyCase ? names(a).equals(names(b)) : a.getFieldNames().equals(b.getFieldNames()))) {
                return false;
            }
            for (int i = 0; i < a.getFieldCount(); i++) {
                if (!sameNames(a.getFieldList().get(i).getType(), b.getFieldList().get(i).getType(), anyCase)) {
                    return false;
                }
            }
            return true;
        }
        if (a.getSqlTypeName() == SqlTypeName.ARRAY && b.getSqlTypeName() == SqlTypeName.ARRAY) {
            return sameNames(a.getComponentType(), b.getComponentType(), anyCase);
        }
        if (a.getSqlTypeName() == SqlTypeName.MAP && b.getSqlTypeName() == SqlTypeName.MAP) {
            return sameNames(a.getValueType(), b.getValueType(), anyCase);
        }
        return true;
    }

    /**
     * Whether each of {@code types} (NULLs aside) either has the names of {@code common} or names that differ from them
     * otherwise than in case, with no unnamed struct and no MAP inside: what a cast by name ({@link NestedCasts#CAST})
     * makes of the common type (a cast whose names differ only in case keeps the source's).
     */
    static boolean castsByName(List<RelDataType> types, RelDataType common) {
        for (RelDataType t : types) {
            if (t.getSqlTypeName() == SqlTypeName.NULL) {
                continue;
            }
            if (!sameNames(t, common) && sameNames(t, common, true)) {
                return false;
            }
        }
        return true;
    }

    private static boolean holdsUnnamedOrMap(RelDataType t) {
        return switch (t.getSqlTypeName()) {
            case ROW -> unnamed(t) || t.getFieldList().stream().anyMatch(f -> holdsUnnamedOrMap(f.getType()));
            case ARRAY -> holdsUnnamedOrMap(t.getComponentType());
            case MAP -> true;
            default -> false;
        };
    }

    /** Whether {@code t} is or holds a STRUCT (in a list, a map's value or a struct's field). */
    static boolean structInside(RelDataType t) {
        return switch (t.getSqlTypeName()) {
            case ROW -> true;
            case ARRAY -> structInside(t.getComponentType());
            case MAP -> structInside(t.getValueType());
            default -> false;
        };
    }

    /**
     * {@code t} with every STRUCT in it (itself, in a list, a map's value or a field) of a struct value's kind
     * ({@link StructKind#PEEK_FIELDS_NO_EXPAND}).
     */
    static RelDataType asValue(RelDataTypeFactory f, RelDataType t) {
        RelDataType v = switch (t.getSqlTypeName()) {
            case ROW -> f.createStructType(StructKind.PEEK_FIELDS_NO_EXPAND,
                    t.getFieldList().stream().map(x -> asValue(f, x.getType())).toList(), t.getFieldNames());
            case ARRAY -> structInside(t) ? f.createArrayType(asValue(f, t.getComponentType()), -1) : t;
            case MAP -> structInside(t) ? f.createMapType(t.getKeyType(), asValue(f, t.getValueType())) : t;
            default -> t;
        };
        return v == t ? t : f.createTypeWithNullability(v, t.isNullable());
    }

    private static List<String> names(RelDataType struct) {
        return struct.getFieldNames().stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
    }

    /**
     * Whether a struct is unnamed ({@code row(1, 2)}): its names empty, or Calcite's EXPR$0, EXPR$1, ... (as
     * plan.Types reads them).
     */
    static boolean unnamed(RelDataType struct) {
        List<String> names = struct.getFieldNames();
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).isEmpty() || names.get(i).equals("EXPR$" + i)) {
                return true;
            }
        }
        return false;
    }
}
