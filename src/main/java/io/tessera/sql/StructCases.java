package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import java.util.ArrayList;
import java.util.List;

/**
 * A CASE of STRUCTs whose fields differ (in name, number, order or spelling, at the top or in a struct inside) typed
 * as DuckDB types it: the common type of its ELSE first, then its THENs in order ({@code STRUCT(c, a, b)} for THEN
 * {@code {'a': 1}}, THEN {@code {'b': 2}}, ELSE {@code {'c': 3}}), where Calcite's common type takes the THENs first.
 * Each branch of another type is cast to it by name ({@link NestedCasts#CAST}) before Calcite types the CASE, which
 * then finds one type. LISTs of such STRUCTs likewise, by their elements' common type. COALESCE keeps the order of
 * its arguments, as DuckDB's does.
 */
final class StructCases {
    private StructCases() {
    }

    /** Casts the branches of {@code call} where the ELSE-first common type differs from Calcite's. */
    static void typeFromElse(SqlValidator validator, SqlValidatorScope scope, SqlCase call) {
        if (TemporalText.fromCoalesce(call)) {
            return;
        }
        List<SqlNode> values = new ArrayList<>(call.getThenOperands());
        values.add(call.getElseOperand());
        List<RelDataType> types = new ArrayList<>();
        int lists = 0;
        for (SqlNode v : values) {
            RelDataType t = validator.deriveType(scope, v);
            boolean listOfStructs = t.getSqlTypeName() == SqlTypeName.ARRAY && t.getComponentType().isStruct();
            if (!t.isStruct() && !listOfStructs && t.getSqlTypeName() != SqlTypeName.NULL) {
                return;
            }
            lists += listOfStructs ? 1 : 0;
            types.add(t);
        }
        RelDataTypeFactory f = validator.getTypeFactory();
        List<RelDataType> elseFirst = new ArrayList<>();
        elseFirst.add(types.get(types.size() - 1));
        elseFirst.addAll(types.subList(0, types.size() - 1));
        RelDataType fromThen = f.leastRestrictive(types);
        RelDataType fromElse;
        if (lists > 0) {
            // LISTs of STRUCTs: their elements' common type made the same way, ELSE first (Calcite's, from the THENs,
            // would cast the ELSE's elements to names they lack)
            fromElse = lists == types.stream().filter(t -> t.getSqlTypeName() != SqlTypeName.NULL).count()
                    ? listFromElse(f, elseFirst) : null;
            if (fromElse == null || fromThen != null && same(f, fromElse, fromThen)) {
                return;
            }
        } else {
            fromElse = StructCommonType.spelt(f, elseFirst, f::leastRestrictive);
            if (fromElse == null) {
                fromElse = f.leastRestrictive(elseFirst);
            }
            if (fromElse == null || fromThen == null || same(f, fromElse, fromThen)) {
                return; // no common type (Calcite's error follows), or the order makes none other
            }
        }
        int thens = call.getThenOperands().size();
        for (int i = 0; i < values.size(); i++) {
            RelDataType type = types.get(i);
            if (type.getSqlTypeName() == SqlTypeName.NULL || same(f, type, fromElse)) {
                continue;
            }
            if (spelling(f, type).equals(spelling(f, fromElse))) {
                // a CAST to a type whose names differ only in case keeps the names it has (NestedCasts)
                throw new SqlError("unsupported: a CASE of STRUCTs whose field names differ only in case"
                        + SupportCheck.at(call.getParserPosition()) + " (DuckDB spells them as its ELSE does; CAST"
                        + " each branch to one STRUCT type, or spell the names alike)");
            }
            SqlNode cast = NestedCasts.CAST.createCall(values.get(i).getParserPosition(), values.get(i),
                    IntervalTypeName.specOf(fromElse).withNullable(type.isNullable()));
            if (i < thens) {
                call.getThenOperands().set(i, cast);
            } else {
                call.setOperand(3, cast);
            }
        }
    }

    /**
     * The common type of LISTs of STRUCTs (and NULLs), in the order given: a LIST of their elements' common STRUCT
     * ({@link StructCommonType#spelt}); null where there is none.
     */
    private static RelDataType listFromElse(RelDataTypeFactory f, List<RelDataType> elseFirst) {
        List<RelDataType> elements = new ArrayList<>();
        boolean nullable = false;
        for (RelDataType t : elseFirst) {
            nullable |= t.isNullable() || t.getSqlTypeName() == SqlTypeName.NULL;
            if (t.getSqlTypeName() != SqlTypeName.NULL) {
                // an element's STRUCT as a struct value's (a LIST literal's may be of another struct kind)
                elements.add(StructCommonType.asValue(f, t.getComponentType()));
            }
        }
        RelDataType element = StructCommonType.spelt(f, elements, f::leastRestrictive);
        if (element == null) {
            element = f.leastRestrictive(elements);
        }
        return element == null ? null : f.createTypeWithNullability(f.createArrayType(element, -1), nullable);
    }

    /** The type's text with its names in lower case: equal for types that differ only in their names' case. */
    private static String spelling(RelDataTypeFactory f, RelDataType t) {
        return f.createTypeWithNullability(t, true).getFullTypeString().toLowerCase(java.util.Locale.ROOT);
    }

    private static boolean same(RelDataTypeFactory f, RelDataType a, RelDataType b) {
        return f.createTypeWithNullability(a, true).equals(f.createTypeWithNullability(b, true));
    }
}
