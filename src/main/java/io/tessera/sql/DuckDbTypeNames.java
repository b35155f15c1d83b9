package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCollectionTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlMapTypeNameSpec;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlRowTypeNameSpec;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlUserDefinedTypeNameSpec;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * DuckDB's names of types (its {@code duckdb_types()} aliases) in a CAST, {@code ::}, TRY_CAST or a column of CREATE
 * TABLE as Calcite's types, which Calcite's grammar reads as names of user types it does not have ({@code INT8},
 * {@code STRING}, {@code FLOAT4}, {@code BYTEA}, ...), also inside a LIST, STRUCT or MAP type. A DuckDB type Tessera
 * does not have ({@code HUGEINT}, {@code UBIGINT}, ...) is an error naming it and its position. TIMESTAMPTZ and
 * INTERVAL are left to {@link TemporalLiterals} and {@link IntervalTypeName}.
 */
final class DuckDbTypeNames {

    /** DuckDB's aliases of the types Tessera has, by upper-case name. */
    private static final Map<String, SqlTypeName> ALIASES = Map.ofEntries(
            Map.entry("INT8", SqlTypeName.BIGINT), Map.entry("INT64", SqlTypeName.BIGINT),
            Map.entry("LONG", SqlTypeName.BIGINT), Map.entry("OID", SqlTypeName.BIGINT),
            Map.entry("INT4", SqlTypeName.INTEGER), Map.entry("INT32", SqlTypeName.INTEGER),
            Map.entry("SIGNED", SqlTypeName.INTEGER), Map.entry("INTEGRAL", SqlTypeName.INTEGER),
            Map.entry("INT2", SqlTypeName.SMALLINT), Map.entry("INT16", SqlTypeName.SMALLINT),
            Map.entry("SHORT", SqlTypeName.SMALLINT), Map.entry("INT1", SqlTypeName.TINYINT),
            Map.entry("BOOL", SqlTypeName.BOOLEAN), Map.entry("LOGICAL", SqlTypeName.BOOLEAN),
            Map.entry("STRING", SqlTypeName.VARCHAR), Map.entry("TEXT", SqlTypeName.VARCHAR),
            Map.entry("BPCHAR", SqlTypeName.VARCHAR), Map.entry("NVARCHAR", SqlTypeName.VARCHAR),
            Map.entry("FLOAT4", SqlTypeName.REAL), Map.entry("FLOAT8", SqlTypeName.DOUBLE),
            Map.entry("DATETIME", SqlTypeName.TIMESTAMP), Map.entry("TIMESTAMP_US", SqlTypeName.TIMESTAMP),
            // bytes of any length (Calcite's BINARY would be one byte, padded)
            Map.entry("BLOB", SqlTypeName.VARBINARY), Map.entry("BYTEA", SqlTypeName.VARBINARY),
            Map.entry("BINARY", SqlTypeName.VARBINARY), Map.entry("VARBINARY", SqlTypeName.VARBINARY),
            Map.entry("UUID", SqlTypeName.UUID), Map.entry("GUID", SqlTypeName.UUID));

    /** DuckDB's types that Tessera does not have, by each of their upper-case names: DuckDB's name of the type. */
    private static final Map<String, String> UNSUPPORTED = Map.ofEntries(
            Map.entry("HUGEINT", "HUGEINT"), Map.entry("INT128", "HUGEINT"),
            Map.entry("UHUGEINT", "UHUGEINT"), Map.entry("UINT128", "UHUGEINT"),
            Map.entry("UBIGINT", "UBIGINT"), Map.entry("UINT64", "UBIGINT"),
            Map.entry("UINTEGER", "UINTEGER"), Map.entry("UINT32", "UINTEGER"),
            Map.entry("USMALLINT", "USMALLINT"), Map.entry("UINT16", "USMALLINT"),
            Map.entry("UTINYINT", "UTINYINT"), Map.entry("UINT8", "UTINYINT"),
            Map.entry("BIGNUM", "BIGNUM"), Map.entry("VARINT", "BIGNUM"),
            Map.entry("BIT", "BIT"), Map.entry("BITSTRING", "BIT"),
            Map.entry("TIMETZ", "TIME WITH TIME ZONE"), Map.entry("TIME_NS", "TIME_NS"),
            Map.entry("TIMESTAMP_S", "TIMESTAMP_S"), Map.entry("TIMESTAMP_MS", "TIMESTAMP_MS"),
            Map.entry("TIMESTAMP_NS", "TIMESTAMP_NS"), Map.entry("TIMESTAMPTZ_NS", "TIMESTAMPTZ_NS"),
            Map.entry("ENUM", "ENUM"), Map.entry("UNION", "UNION"), Map.entry("JSON", "JSON"),
            Map.entry("GEOMETRY", "GEOMETRY"), Map.entry("VARIANT", "VARIANT"));

    /**
     * The type names Tessera reads besides {@link #ALIASES}' (Calcite's own, and those other rewrites take), for the
     * names an unknown type's error suggests.
     */
    private static final List<String> NAMES = List.of("BIGINT", "INTEGER", "INT", "SMALLINT", "TINYINT", "BOOLEAN",
            "DOUBLE", "REAL", "FLOAT", "DECIMAL", "NUMERIC", "DEC", "VARCHAR", "CHAR", "DATE", "TIME", "TIMESTAMP",
            "TIMESTAMPTZ", "INTERVAL", "BLOB", "UUID", "STRUCT", "MAP");

    /** Names Calcite reads as user types that {@link TemporalLiterals} and {@link IntervalTypeName} rewrite. */
    private static final List<String> LEFT_TO_OTHERS = List.of("TIMESTAMPTZ", "INTERVAL");

    /** DuckDB's DECIMAL without a precision: DECIMAL(18,3). */
    static final int PLAIN_DECIMAL_PRECISION = 18;
    static final int PLAIN_DECIMAL_SCALE = 3;

    private DuckDbTypeNames() {
    }

    /**
     * Every type name of a statement's tree rewritten (a view's query, which {@link TemporalLiterals} does not
     * rewrite when it is expanded).
     */
    static SqlNode rewriteAll(SqlNode parsed) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlDataTypeSpec type) {
                return rewrite(type);
            }
        });
        return r == null ? parsed : r;
    }

    /** The type Calcite is to see for {@code type}: itself where it names no DuckDB alias, also not inside. */
    static SqlDataTypeSpec rewrite(SqlDataTypeSpec type) {
        SqlTypeNameSpec name = rewrite(type.getTypeNameSpec());
        return name == type.getTypeNameSpec() ? type
                : new SqlDataTypeSpec(name, null, type.getNullable(), type.getParserPosition());
    }

    private static SqlTypeNameSpec rewrite(SqlTypeNameSpec name) {
        SqlParserPos pos = name.getParserPos();
        return switch (name) {
            case SqlCollectionTypeNameSpec list -> {
                SqlTypeNameSpec element = rewrite(list.getElementTypeName());
                yield element == list.getElementTypeName() ? name
                        : new SqlCollectionTypeNameSpec(element, SqlTypeName.ARRAY, pos);
            }
            case SqlRowTypeNameSpec row -> {
                List<SqlDataTypeSpec> fields = new ArrayList<>();
                boolean changed = false;
                for (SqlDataTypeSpec field : row.getFieldTypes()) {
                    SqlDataTypeSpec f = rewrite(field);
                    changed |= f != field;
                    fields.add(f);
                }
                yield changed ? new SqlRowTypeNameSpec(pos, row.getFieldNames(), fields) : name;
            }
            case SqlMapTypeNameSpec map -> {
                SqlDataTypeSpec key = rewrite(map.getKeyType());
                SqlDataTypeSpec value = rewrite(map.getValType());
                yield key == map.getKeyType() && value == map.getValType() ? name
                        : new SqlMapTypeNameSpec(key, value, pos);
            }
            // Calcite's BINARY(n) pads to n bytes; DuckDB's BINARY is a BLOB
            case SqlBasicTypeNameSpec b when b.getTypeName().getSimple().equalsIgnoreCase("BINARY")
                    || b.getTypeName().getSimple().equalsIgnoreCase("VARBINARY") ->
                    new SqlBasicTypeNameSpec(SqlTypeName.VARBINARY, pos);
            // DuckDB's CHAR, CHAR(n) and VARCHAR(n) are VARCHAR: a length is neither kept nor padded to
            case SqlBasicTypeNameSpec b when isSizedText(b) ->
                    new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, pos);
            // DuckDB's DECIMAL (NUMERIC, DEC) without precision is DECIMAL(18,3); Calcite's would have no fraction
            case SqlBasicTypeNameSpec b when SqlTypeName.get(b.getTypeName().getSimple().toUpperCase(Locale.ROOT))
                    == SqlTypeName.DECIMAL && b.getPrecision() < 0 ->
                    new SqlBasicTypeNameSpec(SqlTypeName.DECIMAL, PLAIN_DECIMAL_PRECISION, PLAIN_DECIMAL_SCALE, pos);
            case SqlUserDefinedTypeNameSpec u -> named(u.getTypeName(), name);
            default -> name;
        };
    }

    /** Whether a type is Calcite's CHAR (of one character where no length is given) or a VARCHAR with a length. */
    private static boolean isSizedText(SqlBasicTypeNameSpec b) {
        SqlTypeName t = SqlTypeName.get(b.getTypeName().getSimple().toUpperCase(Locale.ROOT));
        return t == SqlTypeName.CHAR || t == SqlTypeName.VARCHAR && b.getPrecision() >= 0;
    }

    /** A user type's name as Calcite's type, or {@code name} itself where it is no DuckDB type. */
    private static SqlTypeNameSpec named(SqlIdentifier id, SqlTypeNameSpec name) {
        if (!id.isSimple()) {
            return name;
        }
        String upper = id.getSimple().toUpperCase(Locale.ROOT);
        SqlTypeName to = ALIASES.get(upper);
        if (to != null) {
            return new SqlBasicTypeNameSpec(to, name.getParserPos());
        }
        String missing = UNSUPPORTED.get(upper);
        if (missing != null) {
            throw new SqlError("type " + (missing.equals(upper) ? missing : upper + " (" + missing + ")")
                    + " is not supported" + SupportCheck.at(name.getParserPos()));
        }
        if (!LEFT_TO_OTHERS.contains(upper)) {
            throw unknown(id.getSimple(), name.getParserPos());
        }
        return name;
    }

    /**
     * The error for a type name no one knows, as DuckDB words it: the name, its position and the known names
     * closest to it (within about half its letters, so that a short name gets a hint as in DuckDB).
     */
    private static SqlError unknown(String written, SqlParserPos pos) {
        List<String> known = new ArrayList<>(NAMES);
        for (String alias : ALIASES.keySet()) {
            known.add(alias);
        }
        List<String> lower = new ArrayList<>();
        for (String k : known) {
            lower.add(k.toLowerCase(Locale.ROOT));
        }
        List<String> close = DidYouMean.closest(written, lower, Math.max(2, written.length() / 2));
        StringBuilder hint = new StringBuilder();
        for (int i = 0; i < close.size(); i++) {
            hint.append(i == 0 ? "; did you mean " : i == close.size() - 1 ? " or " : ", ").append(close.get(i));
        }
        return new SqlError("Type with name " + written + " does not exist" + SupportCheck.at(pos)
                + (hint.isEmpty() ? "" : hint + "?"));
    }

    /**
     * Fails for the first type name of {@code type} (also inside a LIST, STRUCT or MAP) that is neither Calcite's,
     * nor DuckDB's, nor left to another rewrite: an error of its own, where {@link ColumnTypes} words one about a
     * DuckDB type Tessera lacks.
     */
    static void requireKnown(SqlDataTypeSpec type) {
        requireKnown(type.getTypeNameSpec());
    }

    private static void requireKnown(SqlTypeNameSpec name) {
        switch (name) {
            case SqlCollectionTypeNameSpec list -> requireKnown(list.getElementTypeName());
            case SqlRowTypeNameSpec row -> row.getFieldTypes().forEach(DuckDbTypeNames::requireKnown);
            case SqlMapTypeNameSpec map -> {
                requireKnown(map.getKeyType());
                requireKnown(map.getValType());
            }
            case SqlUserDefinedTypeNameSpec u when u.getTypeName().isSimple() -> {
                String upper = u.getTypeName().getSimple().toUpperCase(Locale.ROOT);
                if (!ALIASES.containsKey(upper) && !UNSUPPORTED.containsKey(upper) && !LEFT_TO_OTHERS.contains(upper)) {
                    throw unknown(u.getTypeName().getSimple(), u.getParserPos());
                }
            }
            default -> {
            }
        }
    }
}
