package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlUserDefinedTypeNameSpec;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.Locale;

/**
 * DuckDB's names of bytes and UUIDs in a CAST or {@code ::} as Calcite's types: BLOB, BYTEA, BINARY and VARBINARY
 * as VARBINARY of any length (Calcite's BINARY would be one byte, padded), UUID as UUID.
 */
final class BlobUuidTypeNames {

    private BlobUuidTypeNames() {
    }

    /** The type Calcite is to see for {@code type}: itself where it names neither bytes nor a UUID. */
    static SqlDataTypeSpec rewrite(SqlDataTypeSpec type) {
        String name = switch (type.getTypeNameSpec()) {
            case SqlBasicTypeNameSpec b -> b.getTypeName().getSimple();
            case SqlUserDefinedTypeNameSpec u -> u.getTypeName().isSimple() ? u.getTypeName().getSimple() : "";
            default -> "";
        };
        SqlTypeName to = switch (name.toUpperCase(Locale.ROOT)) {
            case "BLOB", "BYTEA", "BINARY", "VARBINARY" -> SqlTypeName.VARBINARY;
            case "UUID" -> SqlTypeName.UUID;
            default -> null;
        };
        if (to == null) {
            return type;
        }
        return new SqlDataTypeSpec(new SqlBasicTypeNameSpec(to, type.getParserPosition()), null, type.getNullable(),
                type.getParserPosition());
    }
}
