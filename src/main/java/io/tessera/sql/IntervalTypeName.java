package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCollectionTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlRowTypeNameSpec;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.util.Litmus;

import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB's one INTERVAL type as a type name, which Calcite's type grammar lacks: a column's type ({@code a INTERVAL},
 * {@code a INTERVAL[]}), a list's element or a struct's field in a CAST ({@code CAST(x AS INTERVAL[])},
 * {@code x::STRUCT(a INTERVAL)}). It derives the interval type a stored INTERVAL column has. A CAST to INTERVAL
 * alone stays {@link IntervalSyntax}'s reading of text.
 */
public final class IntervalTypeName extends SqlTypeNameSpec {

    /** Calcite's interval type this name derives; null: the one a stored INTERVAL column has. */
    private final RelDataType calciteType;

    public IntervalTypeName(SqlParserPos pos) {
        this(null, pos);
    }

    private IntervalTypeName(RelDataType calciteType, SqlParserPos pos) {
        super(new SqlIdentifier("INTERVAL", pos), pos);
        this.calciteType = calciteType;
    }

    @Override
    public RelDataType deriveType(SqlValidator validator) {
        RelDataTypeFactory f = validator.getTypeFactory();
        return calciteType == null ? TimestampFunctions.intervalType(f, false)
                : f.createTypeWithNullability(calciteType, false);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("INTERVAL");
    }

    /**
     * The type name of {@code t}, each INTERVAL in it (a list's element, a struct's field, at any depth) written as this
     * one, which Calcite's {@link SqlTypeUtil#convertTypeToSpec} cannot write; Calcite's for a type without one. A
     * struct's fields keep their nullability.
     */
    static SqlDataTypeSpec specOf(RelDataType t) {
        if (!holdsInterval(t)) {
            return SqlTypeUtil.convertTypeToSpec(t);
        }
        return new SqlDataTypeSpec(nameOf(t), SqlParserPos.ZERO);
    }

    /** Whether {@code t} is an INTERVAL or a LIST or STRUCT with one inside. */
    public static boolean holdsInterval(RelDataType t) {
        if (IntervalSyntax.isInterval(t)) {
            return true;
        }
        if (t.getComponentType() != null) {
            return holdsInterval(t.getComponentType());
        }
        return t.isStruct() && t.getFieldList().stream().anyMatch(f -> holdsInterval(f.getType()));
    }

    private static SqlTypeNameSpec nameOf(RelDataType t) {
        SqlParserPos pos = SqlParserPos.ZERO;
        if (IntervalSyntax.isInterval(t)) {
            return new IntervalTypeName(t, pos); // Calcite's unit kept (INTERVAL DAY), all one INTERVAL in Tessera
        }
        if (t.getSqlTypeName() == SqlTypeName.ARRAY) {
            return new SqlCollectionTypeNameSpec(nameOf(t.getComponentType()), SqlTypeName.ARRAY, pos);
        }
        if (t.isStruct()) {
            List<SqlIdentifier> names = new ArrayList<>();
            List<SqlDataTypeSpec> types = new ArrayList<>();
            for (RelDataTypeField f : t.getFieldList()) {
                names.add(new SqlIdentifier(f.getName(), pos));
                types.add(new SqlDataTypeSpec(nameOf(f.getType()), pos).withNullable(f.getType().isNullable()));
            }
            return new SqlRowTypeNameSpec(pos, names, types);
        }
        return SqlTypeUtil.convertTypeToSpec(t).getTypeNameSpec();
    }

    @Override
    public boolean equalsDeep(SqlTypeNameSpec spec, Litmus litmus) {
        return spec instanceof IntervalTypeName i && java.util.Objects.equals(i.calciteType, calciteType)
                || litmus.fail("{} != {}", this, spec);
    }
}
