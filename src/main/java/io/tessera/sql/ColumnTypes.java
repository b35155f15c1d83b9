package io.tessera.sql;

import io.tessera.storage.DataType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlUserDefinedTypeNameSpec;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.Locale;
import java.util.Map;

/** The storage type of a column type that Calcite's DDL grammar parsed. */
final class ColumnTypes {

    /** Type names Calcite reads as user-defined types that {@link DuckDbTypeNames} leaves to other rewrites. */
    private static final Map<String, DataType> ALIASES = Map.of("TIMESTAMPTZ", DataType.TIMESTAMP_TZ,
            "INTERVAL", DataType.INTERVAL);

    /** A DECIMAL without precision, as DuckDB's ({@link DuckDbTypeNames} gives it that precision first). */
    private static final DataType PLAIN_DECIMAL = DataType.decimal(DuckDbTypeNames.PLAIN_DECIMAL_PRECISION,
            DuckDbTypeNames.PLAIN_DECIMAL_SCALE);

    private ColumnTypes() {
    }

    /** The type of {@code spec}; {@code table} names the statement in an error, which also names the position. */
    static DataType of(SqlDataTypeSpec spec, String table) {
        DuckDbTypeNames.requireKnown(spec); // a name no one knows: not "unsupported", but unknown
        SqlTypeNameSpec name;
        try {
            name = DuckDbTypeNames.rewrite(spec).getTypeNameSpec();
        } catch (SqlError missing) {
            name = null; // a DuckDB type Tessera lacks: the error below lists those it stores
        }
        DataType t = name == null ? null : of(name, spec, table);
        if (t == null) {
            throw new SqlError("CREATE TABLE " + table + ": unsupported column type " + spec.getTypeName()
                    + SupportCheck.at(spec.getParserPosition())
                    + " (Tessera stores INTEGER, SMALLINT, TINYINT, BIGINT, DOUBLE, REAL, DECIMAL(p,s), DATE, TIMESTAMP,"
                    + " TIMESTAMP WITH TIME ZONE, TIME, BOOLEAN,"
                    + " INTERVAL, VARCHAR, BLOB and UUID, lists of them: INTEGER[], structs of them:"
                    + " STRUCT(a INTEGER, b VARCHAR), and maps of them: MAP(VARCHAR, INTEGER))");
        }
        return t;
    }

    /** The type of a type name, a list of a scalar type included (null: none Tessera stores). */
    private static DataType of(SqlTypeNameSpec name, SqlDataTypeSpec spec, String table) {
        return switch (name) {
            case SqlBasicTypeNameSpec basic -> basic(basic, table);
            case SqlUserDefinedTypeNameSpec named -> alias(named.getTypeName());
            case IntervalTypeName interval -> DataType.INTERVAL;
            case org.apache.calcite.sql.SqlCollectionTypeNameSpec list
                    when "ARRAY".equals(list.getTypeName().getSimple()) -> {
                DataType element = of(list.getElementTypeName(), spec, table);
                yield element == null ? null : DataType.list(element);
            }
            case org.apache.calcite.sql.SqlRowTypeNameSpec row -> struct(row, spec, table);
            case org.apache.calcite.sql.SqlMapTypeNameSpec map -> {
                DataType key = of(map.getKeyType().getTypeNameSpec(), map.getKeyType(), table);
                DataType value = of(map.getValType().getTypeNameSpec(), map.getValType(), table);
                yield key == null || value == null ? null : DataType.map(key, value);
            }
            default -> null;
        };
    }

    /**
     * The type name of a LIST or STRUCT column type, as the parser would have made it from the type's text (fields by
     * their names, their case kept; an unnamed STRUCT's EXPR$0, EXPR$1, ..., which Calcite's type of row(...) has and
     * plan.Types reads as unnamed again); null where a part has no type name.
     */
    static SqlDataTypeSpec spec(DataType t) {
        SqlTypeNameSpec name = nestedName(t);
        return name == null ? null : new SqlDataTypeSpec(name, SqlParserPos.ZERO);
    }

    private static SqlTypeNameSpec nestedName(DataType t) {
        SqlParserPos pos = SqlParserPos.ZERO;
        if (t.isMap()) {
            SqlTypeNameSpec key = nestedName(t.mapKey());
            SqlTypeNameSpec value = nestedName(t.mapValue());
            return key == null || value == null ? null : new org.apache.calcite.sql.SqlMapTypeNameSpec(
                    new SqlDataTypeSpec(key, pos).withNullable(false), new SqlDataTypeSpec(value, pos)
                    .withNullable(true), pos);
        }
        if (t.isList()) {
            SqlTypeNameSpec element = nestedName(t.element());
            return element == null ? null : new org.apache.calcite.sql.SqlCollectionTypeNameSpec(element,
                    SqlTypeName.ARRAY, pos);
        }
        if (t.isStruct()) {
            java.util.List<SqlIdentifier> names = new java.util.ArrayList<>();
            java.util.List<SqlDataTypeSpec> types = new java.util.ArrayList<>();
            for (io.tessera.storage.StructField f : t.fields()) {
                SqlTypeNameSpec ft = nestedName(f.type());
                if (ft == null) {
                    return null;
                }
                // an unnamed struct's fields as Calcite names those of row(...) (sql.CatalogTable)
                names.add(new SqlIdentifier(f.name().isEmpty() ? "EXPR$" + names.size() : f.name(), pos));
                types.add(new SqlDataTypeSpec(ft, pos));
            }
            return new org.apache.calcite.sql.SqlRowTypeNameSpec(pos, names, types);
        }
        if (t.isInterval()) {
            return new IntervalTypeName(pos);
        }
        return DataChangeQueries.typeSpec(t).getTypeNameSpec();
    }

    /** A STRUCT of the row type's fields, a list or a struct among them (null where one is none Tessera stores). */
    private static DataType struct(org.apache.calcite.sql.SqlRowTypeNameSpec row, SqlDataTypeSpec spec, String table) {
        java.util.List<io.tessera.storage.StructField> fields = new java.util.ArrayList<>();
        for (int i = 0; i < row.getFieldNames().size(); i++) {
            SqlDataTypeSpec field = row.getFieldTypes().get(i);
            DataType t = of(field.getTypeNameSpec(), field, table);
            if (t == null) {
                return null;
            }
            fields.add(new io.tessera.storage.StructField(row.getFieldNames().get(i).getSimple(), t));
        }
        return DataType.struct(fields);
    }

    private static DataType basic(SqlBasicTypeNameSpec spec, String table) {
        SqlTypeName type = SqlTypeName.get(spec.getTypeName().getSimple());
        if (type == null) {
            return null;
        }
        return switch (type) {
            case BOOLEAN -> DataType.BOOLEAN;
            case TINYINT -> DataType.TINYINT;
            case SMALLINT -> DataType.SMALLINT;
            case INTEGER -> DataType.INTEGER;
            case BIGINT -> DataType.BIGINT;
            case REAL, FLOAT -> DataType.REAL;
            case DOUBLE -> DataType.DOUBLE;
            case DATE -> DataType.DATE;
            case TIMESTAMP -> DataType.TIMESTAMP;
            case TIMESTAMP_TZ, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> DataType.TIMESTAMP_TZ;
            case TIME -> DataType.TIME;
            // strings are stored as UTF-8 of any length: a declared length or character set changes nothing
            case CHAR, VARCHAR -> DataType.VARCHAR;
            // bytes of any length, as DuckDB's BLOB
            case BINARY, VARBINARY -> DataType.BLOB;
            case UUID -> DataType.UUID;
            case DECIMAL -> decimal(spec, table);
            default -> null;
        };
    }

    private static DataType decimal(SqlBasicTypeNameSpec spec, String table) {
        if (spec.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED) {
            return PLAIN_DECIMAL;
        }
        int scale = spec.getScale() == RelDataType.SCALE_NOT_SPECIFIED ? 0 : spec.getScale();
        try {
            return DataType.decimal(spec.getPrecision(), scale);
        } catch (IllegalArgumentException e) {
            throw new SqlError("CREATE TABLE " + table + ": " + e.getMessage()
                    + SupportCheck.at(spec.getParserPos()), e);
        }
    }

    private static DataType alias(SqlIdentifier name) {
        return name.isSimple() ? ALIASES.get(name.getSimple().toUpperCase(Locale.ROOT)) : null;
    }
}
