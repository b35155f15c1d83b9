package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The STRUCT functions as DuckDB names them, typed on Calcite's ROW: {@code STRUCT_PACK('a', 1, 'b', 'x')}, which
 * {@code {'a': 1, 'b': 'x'}} and {@code struct_pack(a := 1, b := 'x')} become (each field's name, a string, before
 * its value), and {@code struct_extract(s, 'a')} (also {@code s.a} and {@code s['a']}, which Calcite types itself);
 * the functions that take a struct apart or make another of it (struct_insert, struct_keys, ...) typed by
 * {@link StructEdits}.
 * What they compute is decided in {@code plan.StructCalls}; none is folded by Calcite.
 */
public final class StructOperators {
    private StructOperators() {
    }

    /** The struct of the name and value operands (never NULL itself; its fields may be). */
    private static RelDataType packType(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        List<String> names = new ArrayList<>();
        List<RelDataType> types = new ArrayList<>();
        for (int i = 0; i + 1 < b.getOperandCount(); i += 2) {
            String name = b.getOperandLiteralValue(i, String.class);
            if (name == null) {
                throw new SqlError("unsupported: a struct field whose name is not a constant string");
            }
            for (String n : names) {
                if (n.equalsIgnoreCase(name)) {
                    throw new SqlError("unsupported: a struct with two fields named " + name);
                }
            }
            // a NULL field keeps the NULL type, which a VALUES row or a column beside it types (an INTEGER alone)
            RelDataType t = b.getOperandType(i + 1);
            if (IntervalSyntax.isInterval(t)) {
                // DuckDB's one INTERVAL type, whatever the constant's unit: {'a': INTERVAL 1 MONTH} compares, unions
                // and is stored beside {'a': INTERVAL 30 DAYS} and a STRUCT(a INTERVAL) column
                t = TimestampFunctions.intervalType(f, true);
            }
            names.add(name);
            types.add(f.createTypeWithNullability(t, true));
        }
        return f.createStructType(org.apache.calcite.rel.type.StructKind.PEEK_FIELDS_NO_EXPAND, types, names);
    }

    /** Names and values: an even number of operands, each name a constant string. */
    private static final SqlOperandTypeChecker PAIRS = new SqlOperandTypeChecker() {
        @Override
        public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
            boolean ok = b.getOperandCount() % 2 == 0;
            for (int i = 0; ok && i < b.getOperandCount(); i += 2) {
                ok = b.isOperandLiteral(i, false) && b.getOperandLiteralValue(i, String.class) != null;
            }
            if (!ok && throwOnFailure) {
                throw new SqlError("unsupported: struct_pack needs name := value for every field");
            }
            return ok;
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.from(2);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return opName + "(name := value, ...)";
        }
    };

    /** A field of the struct named by the second operand, a constant string (case-insensitive, as DuckDB's). */
    private static RelDataType fieldOf(SqlOperatorBinding b) {
        RelDataType struct = b.getOperandType(0);
        if (!struct.isStruct()) {
            throw new SqlError("unsupported: struct_extract of a " + struct + " (not a struct)");
        }
        if (SqlTypeUtil.isIntType(b.getOperandType(1))) {
            // struct_extract(row(1, 'a'), 2): a field by its position, from 1
            Integer at = b.getOperandLiteralValue(1, Integer.class);
            if (at == null || at < 1 || at > struct.getFieldCount()) {
                throw new SqlError("struct_extract: no field " + at + " in " + struct.getFullTypeString());
            }
            return b.getTypeFactory().createTypeWithNullability(struct.getFieldList().get(at - 1).getType(), true);
        }
        String name = b.getOperandLiteralValue(1, String.class);
        for (org.apache.calcite.rel.type.RelDataTypeField f : struct.getFieldList()) {
            if (f.getName().equalsIgnoreCase(name)) {
                return b.getTypeFactory().createTypeWithNullability(f.getType(), true);
            }
        }
        throw new SqlError("struct_extract: no field " + name + " in " + struct.getFullTypeString());
    }

    private static SqlFunction fn(String name, org.apache.calcite.sql.type.SqlReturnTypeInference type,
                                  SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, type, null, operands, SqlFunctionCategory.SYSTEM);
    }

    static final SqlFunction STRUCT_PACK = fn("STRUCT_PACK", StructOperators::packType, PAIRS);
    static final SqlFunction STRUCT_EXTRACT = fn("STRUCT_EXTRACT", StructOperators::fieldOf,
            OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.CHARACTER)
                    .or(OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.INTEGER)));

    static final SqlFunction STRUCT_INSERT = fn("STRUCT_INSERT", b -> StructEdits.edited(b, false),
            StructEdits.STRUCT_AND_PAIRS);
    static final SqlFunction STRUCT_UPDATE = fn("STRUCT_UPDATE", b -> StructEdits.edited(b, true),
            StructEdits.STRUCT_AND_PAIRS);

    private static final Map<String, SqlOperator> FUNCTIONS = Map.ofEntries(
            Map.entry("STRUCT_PACK", STRUCT_PACK),
            Map.entry("STRUCT_EXTRACT", STRUCT_EXTRACT),
            Map.entry("STRUCT_INSERT", STRUCT_INSERT),
            Map.entry("STRUCT_UPDATE", STRUCT_UPDATE),
            Map.entry("STRUCT_EXTRACT_AT", fn("STRUCT_EXTRACT_AT", StructEdits::fieldAt,
                    OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.INTEGER))),
            Map.entry("STRUCT_KEYS", fn("STRUCT_KEYS", StructEdits::keys, OperandTypes.ANY)),
            Map.entry("STRUCT_VALUES", fn("STRUCT_VALUES", StructEdits::values, OperandTypes.ANY)),
            Map.entry("STRUCT_CONCAT", fn("STRUCT_CONCAT", StructEdits::concatenated, OperandTypes.VARIADIC)),
            Map.entry("STRUCT_CONTAINS", fn("STRUCT_CONTAINS", b -> StructEdits.lookup(b, false),
                    OperandTypes.ANY_ANY)),
            Map.entry("STRUCT_HAS", fn("STRUCT_HAS", b -> StructEdits.lookup(b, false), OperandTypes.ANY_ANY)),
            Map.entry("STRUCT_POSITION", fn("STRUCT_POSITION", b -> StructEdits.lookup(b, true), OperandTypes.ANY_ANY)),
            Map.entry("STRUCT_INDEXOF", fn("STRUCT_INDEXOF", b -> StructEdits.lookup(b, true), OperandTypes.ANY_ANY)));

    /** struct_insert(s, a := 1) or struct_update(s, a := 1) ({@code update}): the struct, then names and values. */
    static SqlCall edit(SqlParserPos pos, boolean update, List<SqlNode> structNamesAndValues) {
        return (update ? STRUCT_UPDATE : STRUCT_INSERT).createCall(pos, structNamesAndValues);
    }

    /** The call of {@code {'a': 1, ...}}: names and values alternating. */
    public static SqlCall pack(SqlParserPos pos, List<SqlNode> namesAndValues) {
        return STRUCT_PACK.createCall(pos, namesAndValues);
    }

    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static java.util.Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }

    /** Whether a call of this kind and upper-case name is one of the struct functions (for {@link SupportCheck}). */
    static boolean supports(SqlKind kind, String name) {
        return FUNCTIONS.containsKey(name) || kind == SqlKind.ROW || kind == SqlKind.DOT;
    }

    /** Whether Calcite must leave a constant call of this (upper-case) operator name unfolded. */
    static boolean unfolded(String name) {
        return FUNCTIONS.containsKey(name) || name.equals("ROW");
    }

    /** Upper-case name of the operator of a call, for the checks above. */
    static String name(SqlCall call) {
        return call.getOperator().getName().toUpperCase(Locale.ROOT);
    }
}
