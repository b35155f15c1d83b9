package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOperator;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlValidator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * DuckDB binds a chain of UNIONs, or of UNION ALLs ({@code a UNION ALL b UNION ALL c}), as one set operation: every
 * branch is cast to the common type of all. An unnamed struct ({@code row(2)}) is cast to a struct by position and
 * cannot be cast to one of another number of fields, so {@code SELECT {'a': 1} UNION ALL SELECT row(2) UNION ALL
 * SELECT {'b': 3}} is refused there (the common type is STRUCT(a INTEGER, b INTEGER)), where the validator, which
 * types the chain a pair at a time, would take row(2) as {@code {'a': 2}}. This check, on the validated statement,
 * refuses it as DuckDB does.
 */
final class UnionChains {

    private UnionChains() {
    }

    static void check(SqlNode validated, SqlValidator validator) {
        validated.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (!(call.getOperator() instanceof SqlSetOperator op) || call.getKind() != SqlKind.UNION) {
                    return super.visit(call);
                }
                List<SqlNode> branches = branches(call, op);
                checkChain(call, op, branches, validator);
                for (SqlNode b : branches) {
                    b.accept(this);
                }
                return null;
            }
        });
    }

    /** The branches of the chain {@code top} ends: its left operands while they are the same operation, in order. */
    private static List<SqlNode> branches(SqlCall top, SqlSetOperator op) {
        List<SqlNode> rights = new ArrayList<>();
        SqlNode left = top;
        while (left instanceof SqlCall c && c.getOperator() == op) {
            rights.add(0, c.operand(1));
            left = c.operand(0);
        }
        List<SqlNode> all = new ArrayList<>();
        all.add(left);
        all.addAll(rights);
        return all;
    }

    private static void checkChain(SqlCall top, SqlSetOperator op, List<SqlNode> branches, SqlValidator validator) {
        RelDataType common = validator.getValidatedNodeTypeIfKnown(top);
        if (common == null) {
            return;
        }
        for (SqlNode branch : branches) {
            RelDataType row = validator.getValidatedNodeTypeIfKnown(branch);
            for (int i = 0; i < common.getFieldCount(); i++) {
                SqlNode column = column(branch, i);
                RelDataType type = column == null ? null : validator.getValidatedNodeTypeIfKnown(column);
                if (type == null && row != null && i < row.getFieldCount()) {
                    type = row.getFieldList().get(i).getType();
                }
                RelDataType target = common.getFieldList().get(i).getType();
                Misfit misfit = type == null ? null : misfit(type, target);
                if (misfit != null) {
                    int fields = misfit.row().getFieldCount();
                    SqlNode at = column != null ? column : branch;
                    throw new SqlError("type mismatch in " + op.getName() + ": an unnamed STRUCT of " + fields
                            + " field" + (fields == 1 ? "" : "s") + SupportCheck.at(at.getParserPosition())
                            + " cannot be cast to " + NestedCommonType.name(misfit.into())
                            + ", the common type of all the branches of a chain of " + op.getName()
                            + " (STRUCTs of different size)");
                }
            }
        }
    }

    /** The expression of a SELECT branch's column {@code i} (its alias aside), or null. */
    private static SqlNode column(SqlNode branch, int i) {
        if (!(branch instanceof SqlSelect select) || i >= select.getSelectList().size()) {
            return null;
        }
        SqlNode item = select.getSelectList().get(i);
        if (item instanceof SqlCall c && c.getKind() == SqlKind.AS) {
            item = c.operand(0);
        }
        return item;
    }

    /** An unnamed struct of a branch and the struct of another size that the common type has in its place. */
    private record Misfit(RelDataType row, RelDataType into) {
    }

    /**
     * The unnamed struct in {@code type} (itself, an element, a value or a field at any depth) whose place in
     * {@code target} holds a struct of another number of fields, or null.
     */
    private static Misfit misfit(RelDataType type, RelDataType target) {
        if (type.isStruct() && target.isStruct()) {
            boolean unnamed = StructCommonType.unnamed(type);
            if (unnamed && type.getFieldCount() != target.getFieldCount()) {
                return new Misfit(type, target);
            }
            for (int i = 0; i < type.getFieldCount(); i++) {
                RelDataTypeField field = type.getFieldList().get(i);
                RelDataTypeField into = unnamed ? target.getFieldList().get(i) : byName(target, field.getName());
                Misfit found = into == null ? null : misfit(field.getType(), into.getType());
                if (found != null) {
                    return found;
                }
            }
            return null;
        }
        if (type.getSqlTypeName() == SqlTypeName.ARRAY && target.getSqlTypeName() == SqlTypeName.ARRAY) {
            return misfit(type.getComponentType(), target.getComponentType());
        }
        if (type.getSqlTypeName() == SqlTypeName.MAP && target.getSqlTypeName() == SqlTypeName.MAP) {
            Misfit key = misfit(type.getKeyType(), target.getKeyType());
            return key != null ? key : misfit(type.getValueType(), target.getValueType());
        }
        return null;
    }

    private static RelDataTypeField byName(RelDataType struct, String name) {
        for (RelDataTypeField f : struct.getFieldList()) {
            if (f.getName().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        return null;
    }
}
