package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rel.type.StructKind;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The types of DuckDB's functions that take a struct apart or make another of it: struct_insert and struct_update
 * (the struct, then each new field's name, a constant string, before its value), struct_extract_at, struct_keys,
 * struct_values, struct_concat, and the lookups of a value among an unnamed struct's fields (struct_contains,
 * struct_position and their other names). Names are read while planning; what the calls compute is decided in
 * {@code plan.StructCalls}.
 */
final class StructEdits {
    private StructEdits() {
    }

    /** The function's name as DuckDB writes it, and where the call is, for an error. */
    private static String named(SqlOperatorBinding b) {
        String at = b instanceof SqlCallBinding call ? SupportCheck.at(call.getCall().getParserPosition()) : "";
        return b.getOperator().getName().toLowerCase(Locale.ROOT) + at;
    }

    /** The struct operand {@code i}, or an error naming the function. */
    private static RelDataType struct(SqlOperatorBinding b, int i) {
        RelDataType t = b.getOperandType(i);
        if (!t.isStruct()) {
            throw new SqlError(named(b) + ": argument " + (i + 1) + " must be a STRUCT, not " + t.getFullTypeString());
        }
        return t;
    }

    private static RelDataType nullable(RelDataTypeFactory f, RelDataType t) {
        return f.createTypeWithNullability(t, true);
    }

    private static RelDataType named(RelDataTypeFactory f, List<String> names, List<RelDataType> types) {
        return f.createStructType(StructKind.PEEK_FIELDS_NO_EXPAND, types, names);
    }

    /** An unnamed struct (DuckDB's row(...)): the field names Calcite gives a ROW's, as plan.Types reads them. */
    private static RelDataType unnamed(RelDataTypeFactory f, List<RelDataType> types) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            names.add("EXPR$" + i);
        }
        return f.createStructType(types, names);
    }

    /** A struct and then names and values: an odd number of operands, each name a constant string. */
    static final SqlOperandTypeChecker STRUCT_AND_PAIRS = new SqlOperandTypeChecker() {
        @Override
        public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
            if (b.getOperandCount() < 3) {
                throw new SqlError(named(b) + ": nothing to " + (b.getOperator() == StructOperators.STRUCT_UPDATE
                        ? "update" : "insert") + " (name := value after the struct)");
            }
            boolean ok = b.getOperandCount() % 2 == 1;
            for (int i = 1; ok && i < b.getOperandCount(); i += 2) {
                ok = b.isOperandLiteral(i, false) && b.getOperandLiteralValue(i, String.class) != null;
            }
            if (!ok && throwOnFailure) {
                throw new SqlError(named(b) + " needs name := value for every field after the struct");
            }
            return ok;
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.from(1);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return opName + "(struct, name := value, ...)";
        }
    };

    /**
     * struct_insert's struct (new fields after the struct's, a name it has an error) and struct_update's (a field of
     * the name, in any case, replaced where it stands, spelt and typed anew; another added at the end); never NULL,
     * a NULL struct's fields NULL, as DuckDB's.
     */
    static RelDataType edited(SqlOperatorBinding b, boolean update) {
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType struct = struct(b, 0);
        if (StructCommonType.unnamed(struct)) {
            throw new SqlError(named(b) + " of an unnamed struct " + struct.getFullTypeString()
                    + " (its fields have no names)");
        }
        List<String> names = new ArrayList<>(struct.getFieldNames());
        List<RelDataType> types = new ArrayList<>();
        for (RelDataTypeField field : struct.getFieldList()) {
            types.add(nullable(f, field.getType()));
        }
        int before = names.size();
        for (int i = 1; i + 1 < b.getOperandCount(); i += 2) {
            String name = b.getOperandLiteralValue(i, String.class);
            RelDataType type = nullable(f, b.getOperandType(i + 1));
            int at = indexOf(names, name);
            if (at >= 0 && (!update || at >= before)) {
                throw new SqlError(named(b) + ": duplicate struct entry name \"" + name + "\"");
            }
            if (at >= 0) {
                names.set(at, name);
                types.set(at, type);
            } else {
                names.add(name);
                types.add(type);
            }
        }
        return named(f, names, types);
    }

    private static int indexOf(List<String> names, String name) {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** struct_extract_at(s, i): field i from 1, a constant, NULL where the struct is. */
    static RelDataType fieldAt(SqlOperatorBinding b) {
        RelDataType struct = struct(b, 0);
        Integer at = b.isOperandLiteral(1, false) ? b.getOperandLiteralValue(1, Integer.class) : null;
        if (at == null) {
            throw new SqlError("unsupported: " + named(b) + " with an index that is not a constant integer");
        }
        if (at < 1 || at > struct.getFieldCount()) {
            throw new SqlError(named(b) + ": key index " + at + " out of range - expected an index between 1 and "
                    + struct.getFieldCount());
        }
        return nullable(b.getTypeFactory(), struct.getFieldList().get(at - 1).getType());
    }

    /** struct_keys(s): its field names, a VARCHAR[], NULL where the struct is. */
    static RelDataType keys(SqlOperatorBinding b) {
        RelDataType struct = struct(b, 0);
        if (StructCommonType.unnamed(struct)) {
            throw new SqlError(named(b) + " of an unnamed struct " + struct.getFullTypeString()
                    + " (its fields have no names)");
        }
        RelDataTypeFactory f = b.getTypeFactory();
        RelDataType list = f.createArrayType(f.createSqlType(SqlTypeName.VARCHAR), -1);
        return f.createTypeWithNullability(list, struct.isNullable());
    }

    /** struct_values(s): its fields as an unnamed struct, NULL where the struct is. */
    static RelDataType values(SqlOperatorBinding b) {
        RelDataType struct = struct(b, 0);
        RelDataTypeFactory f = b.getTypeFactory();
        List<RelDataType> types = new ArrayList<>();
        for (RelDataTypeField field : struct.getFieldList()) {
            types.add(nullable(f, field.getType()));
        }
        return f.createTypeWithNullability(unnamed(f, types), struct.isNullable());
    }

    /**
     * struct_concat(s1, s2, ...): the fields of all in order, never NULL (a NULL struct's fields NULL); all named, two
     * names equal in any case an error, or all unnamed.
     */
    static RelDataType concatenated(SqlOperatorBinding b) {
        if (b.getOperandCount() == 0) {
            throw new SqlError(named(b) + " needs at least one struct");
        }
        RelDataTypeFactory f = b.getTypeFactory();
        List<String> names = new ArrayList<>();
        List<RelDataType> types = new ArrayList<>();
        boolean unnamed = StructCommonType.unnamed(struct(b, 0));
        for (int i = 0; i < b.getOperandCount(); i++) {
            RelDataType struct = struct(b, i);
            if (StructCommonType.unnamed(struct) != unnamed) {
                throw new SqlError(named(b) + ": cannot concatenate named and unnamed structs");
            }
            for (RelDataTypeField field : struct.getFieldList()) {
                if (!unnamed && indexOf(names, field.getName()) >= 0) {
                    throw new SqlError(named(b) + ": arguments contain case-insensitive duplicate STRUCT entry \""
                            + field.getName() + "\"");
                }
                names.add(field.getName());
                types.add(nullable(f, field.getType()));
            }
        }
        return unnamed ? unnamed(f, types) : named(f, names, types);
    }

    /**
     * struct_contains(s, v) and struct_has (a BOOLEAN), struct_position(s, v) and struct_indexof (the first equal
     * field's position, an INTEGER): of an unnamed struct only, as DuckDB's; the fields and the value of one type.
     */
    static RelDataType lookup(SqlOperatorBinding b, boolean position) {
        RelDataType struct = struct(b, 0);
        if (!StructCommonType.unnamed(struct)) {
            throw new SqlError(named(b) + " can only be used on unnamed structs");
        }
        List<RelDataType> all = new ArrayList<>();
        for (RelDataTypeField field : struct.getFieldList()) {
            all.add(field.getType());
        }
        all.add(b.getOperandType(1));
        if (b.getTypeFactory().leastRestrictive(all) == null) {
            throw new SqlError("unsupported: " + named(b) + " of a value of type " + b.getOperandType(1)
                    + " among fields of types " + all.subList(0, all.size() - 1) + " (no common type)");
        }
        RelDataTypeFactory f = b.getTypeFactory();
        return f.createTypeWithNullability(f.createSqlType(position ? SqlTypeName.INTEGER : SqlTypeName.BOOLEAN),
                true);
    }
}
