package io.tessera.jdbc;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.sql.Parameters;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.sql.CatalogText;
import io.tessera.storage.Table;
import io.tessera.storage.TableIndex;
import io.tessera.storage.TypeKind;
import io.tessera.storage.View;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The catalog half of {@link DatabaseMetaData}: the result sets that describe the database's tables, views, columns
 * and types, with the columns JDBC names for each. A database is one catalog, named as its directory is (as DuckDB
 * names a database after its file), holding one schema, {@code main}, as DuckDB's: every table and view is in it.
 * A catalog or schema argument that names neither matches nothing. Indexes are those CREATE INDEX made
 * (getIndexInfo). What Tessera does not have (keys, procedures, functions, user types, privileges) is an empty
 * result set with the right columns, as tools expect when they connect.
 */
abstract class CatalogMetaData implements DatabaseMetaData {

    final TesseraConnection connection;

    CatalogMetaData(TesseraConnection connection) {
        this.connection = connection;
    }

    /** Result columns from {@code "NAME type, ..."}, type s (VARCHAR), i (INTEGER), l (BIGINT) or b (BOOLEAN). */
    private static List<ResultColumn> columns(String spec) {
        List<ResultColumn> out = new ArrayList<>();
        for (String c : spec.split(",")) {
            String[] nt = c.strip().split(" ");
            DataType type = switch (nt[1]) {
                case "i" -> DataType.INTEGER;
                case "l" -> DataType.BIGINT;
                case "b" -> DataType.BOOLEAN;
                default -> DataType.VARCHAR;
            };
            out.add(new ResultColumn(nt[0], type, true));
        }
        return out;
    }

    private static ResultSet rows(String spec, List<Object[]> rows) {
        return new TesseraResultSet(null, columns(spec), RowSource.of(rows));
    }

    private static ResultSet none(String spec) {
        return rows(spec, List.of());
    }

    /** JDBC's pattern ({@code %}, {@code _}, {@code \} escaping) as a regular expression, ignoring case. */
    static Pattern pattern(String like) {
        if (like == null) {
            return null;
        }
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < like.length(); i++) {
            char c = like.charAt(i);
            if (c == '\\' && i + 1 < like.length()) {
                re.append(Pattern.quote(String.valueOf(like.charAt(++i))));
            } else if (c == '%') {
                re.append(".*");
            } else if (c == '_') {
                re.append('.');
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);
    }

    private static boolean matches(Pattern p, String name) {
        return p == null || p.matcher(name).matches();
    }

    /** The one schema of a database, as DuckDB names its default schema. */
    static final String SCHEMA = "main";

    /**
     * Whether a catalog (null or "": any) and a schema pattern (null or "": any) match the database's one catalog
     * and its schema {@code main}, ignoring case.
     */
    private boolean namespace(String catalog, String schemaPattern) {
        return (catalog == null || catalog.isEmpty() || catalog.equalsIgnoreCase(connection.catalogName()))
                && (schemaPattern == null || schemaPattern.isEmpty() || matches(pattern(schemaPattern), SCHEMA));
    }

    private static final String TABLES = "TABLE_CAT s, TABLE_SCHEM s, TABLE_NAME s, TABLE_TYPE s, REMARKS s, "
            + "TYPE_CAT s, TYPE_SCHEM s, TYPE_NAME s, SELF_REFERENCING_COL_NAME s, REF_GENERATION s";

    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types)
            throws SQLException {
        connection.checkOpen();
        connection.latest();
        List<String> wanted = types == null ? List.of("TABLE", "VIEW")
                : java.util.Arrays.stream(types).map(t -> t.toUpperCase(Locale.ROOT)).toList();
        List<Object[]> rows = new ArrayList<>();
        String cat = connection.catalogName();
        if (namespace(catalog, schemaPattern)) {
            Pattern p = pattern(tableNamePattern);
            if (wanted.contains("TABLE")) {
                for (Table t : connection.tessera().database().tables()) {
                    if (matches(p, t.name())) {
                        rows.add(new Object[] {cat, SCHEMA, t.name(), "TABLE", "", null, null, null, null, null});
                    }
                }
            }
            if (wanted.contains("VIEW")) {
                for (View v : connection.tessera().database().views()) {
                    if (matches(p, v.name())) {
                        rows.add(new Object[] {cat, SCHEMA, v.name(), "VIEW", v.query(), null, null, null, null, null});
                    }
                }
            }
        }
        rows.sort(java.util.Comparator.comparing((Object[] r) -> (String) r[3]).thenComparing(r -> (String) r[2]));
        return rows(TABLES, rows);
    }

    private static final String COLUMNS = "TABLE_CAT s, TABLE_SCHEM s, TABLE_NAME s, COLUMN_NAME s, DATA_TYPE i, "
            + "TYPE_NAME s, COLUMN_SIZE i, BUFFER_LENGTH i, DECIMAL_DIGITS i, NUM_PREC_RADIX i, NULLABLE i, REMARKS s, "
            + "COLUMN_DEF s, SQL_DATA_TYPE i, SQL_DATETIME_SUB i, CHAR_OCTET_LENGTH i, ORDINAL_POSITION i, "
            + "IS_NULLABLE s, SCOPE_CATALOG s, SCOPE_SCHEMA s, SCOPE_TABLE s, SOURCE_DATA_TYPE i, IS_AUTOINCREMENT s, "
            + "IS_GENERATEDCOLUMN s";

    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern,
                                String columnNamePattern) throws SQLException {
        connection.checkOpen();
        connection.latest();
        List<Object[]> rows = new ArrayList<>();
        if (namespace(catalog, schemaPattern)) {
            Pattern tables = pattern(tableNamePattern);
            Pattern cols = pattern(columnNamePattern);
            for (Table t : connection.tessera().database().tables()) {
                if (matches(tables, t.name())) {
                    List<ResultColumn> cs = new ArrayList<>();
                    for (ColumnSchema c : t.schema().columns()) {
                        cs.add(new ResultColumn(c.name(), c.type(), c.nullable()));
                    }
                    addColumns(rows, connection.catalogName(), t.name(), cs, cols,
                            i -> t.schema().columns().get(i).isGenerated());
                }
            }
            for (View v : connection.tessera().database().views()) {
                if (matches(tables, v.name())) {
                    List<ResultColumn> viewColumns = viewColumns(v);
                    if (viewColumns != null) {
                        addColumns(rows, connection.catalogName(), v.name(), viewColumns, cols, i -> false);
                    }
                }
            }
        }
        return rows(COLUMNS, rows);
    }

    /**
     * A view's columns are its query's: planned and run without rows, as the command line's {@code \d} does (the
     * name is the stored view's own, checked by storage's naming rules). Null for a view that no longer plans (a
     * table it reads was dropped): its columns are unknown, and the other views' are still listed.
     */
    private List<ResultColumn> viewColumns(View v) {
        if (v.name().contains("\"")) {
            return null;
        }
        try {
            QueryResult r = connection.tessera().query("SELECT * FROM \"" + v.name() + "\" LIMIT 0",
                    Parameters.NONE, new QueryCancel(), new RowCollector());
            return r.columns();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** {@code generated}: whether the column at an index is a generated column (IS_GENERATEDCOLUMN). */
    private static void addColumns(List<Object[]> rows, String catalog, String table, List<ResultColumn> columns,
                                   Pattern names, java.util.function.IntPredicate generated) {
        for (int i = 0; i < columns.size(); i++) {
            ResultColumn c = columns.get(i);
            if (!matches(names, c.name())) {
                continue;
            }
            DataType t = c.type();
            boolean number = JdbcTypes.isSigned(t);
            rows.add(new Object[] {catalog, SCHEMA, table, c.name(), JdbcTypes.code(t), JdbcTypes.name(t),
                    JdbcTypes.precision(t), null, number ? (Integer) t.scale() : null, number ? 10 : null,
                    c.nullable() ? columnNullable : columnNoNulls, "", null, null, null,
                    t.kind() == TypeKind.VARCHAR ? Integer.MAX_VALUE : null, i + 1, c.nullable() ? "YES" : "NO",
                    null, null, null, null, "NO", generated.test(i) ? "YES" : "NO"});
        }
    }

    @Override
    public ResultSet getSchemas() throws SQLException {
        return getSchemas(null, null);
    }

    @Override
    public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
        connection.checkOpen();
        List<Object[]> rows = new ArrayList<>();
        if (namespace(catalog, schemaPattern)) {
            rows.add(new Object[] {SCHEMA, connection.catalogName()});
        }
        return rows("TABLE_SCHEM s, TABLE_CATALOG s", rows);
    }

    @Override
    public ResultSet getCatalogs() throws SQLException {
        connection.checkOpen();
        return rows("TABLE_CAT s", List.<Object[]>of(new Object[] {connection.catalogName()}));
    }

    @Override
    public ResultSet getTableTypes() throws SQLException {
        connection.checkOpen();
        return rows("TABLE_TYPE s", List.of(new Object[] {"TABLE"}, new Object[] {"VIEW"}));
    }

    @Override
    public ResultSet getTypeInfo() throws SQLException {
        connection.checkOpen();
        List<Object[]> rows = new ArrayList<>();
        for (DataType t : JdbcTypes.ALL) {
            boolean decimal = t.kind() == TypeKind.DECIMAL;
            String quote = t.kind() == TypeKind.VARCHAR ? "'" : t.kind() == TypeKind.DATE ? "DATE '"
                    : t.kind() == TypeKind.TIMESTAMP ? "TIMESTAMP '"
                    : t.kind() == TypeKind.TIMESTAMP_TZ ? "TIMESTAMPTZ '" : t.kind() == TypeKind.TIME ? "TIME '" : null;
            rows.add(new Object[] {JdbcTypes.name(t), JdbcTypes.code(t), JdbcTypes.precision(t), quote,
                    quote == null ? null : "'", decimal ? "precision,scale" : null, (int) typeNullable,
                    t.kind() == TypeKind.VARCHAR, (int) typeSearchable, !JdbcTypes.isSigned(t), decimal, false,
                    JdbcTypes.name(t), 0, decimal ? DataType.MAX_DECIMAL_PRECISION : 0, null, null,
                    JdbcTypes.isSigned(t) ? 10 : null});
        }
        return rows("TYPE_NAME s, DATA_TYPE i, PRECISION i, LITERAL_PREFIX s, LITERAL_SUFFIX s, CREATE_PARAMS s, "
                + "NULLABLE i, CASE_SENSITIVE b, SEARCHABLE i, UNSIGNED_ATTRIBUTE b, FIXED_PREC_SCALE b, "
                + "AUTO_INCREMENT b, LOCAL_TYPE_NAME s, MINIMUM_SCALE i, MAXIMUM_SCALE i, SQL_DATA_TYPE i, "
                + "SQL_DATETIME_SUB i, NUM_PREC_RADIX i", rows);
    }

    // ---- what Tessera does not have: empty, with JDBC's columns

    @Override
    public ResultSet getProcedures(String catalog, String schemaPattern, String procedureNamePattern) {
        return none("PROCEDURE_CAT s, PROCEDURE_SCHEM s, PROCEDURE_NAME s, RESERVED1 s, RESERVED2 s, RESERVED3 s, "
                + "REMARKS s, PROCEDURE_TYPE i, SPECIFIC_NAME s");
    }

    @Override
    public ResultSet getProcedureColumns(String catalog, String schemaPattern, String procedureNamePattern,
                                         String columnNamePattern) {
        return none("PROCEDURE_CAT s, PROCEDURE_SCHEM s, PROCEDURE_NAME s, COLUMN_NAME s, COLUMN_TYPE i, "
                + "DATA_TYPE i, TYPE_NAME s, PRECISION i, LENGTH i, SCALE i, RADIX i, NULLABLE i, REMARKS s, "
                + "COLUMN_DEF s, SQL_DATA_TYPE i, SQL_DATETIME_SUB i, CHAR_OCTET_LENGTH i, ORDINAL_POSITION i, "
                + "IS_NULLABLE s, SPECIFIC_NAME s");
    }

    @Override
    public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern) {
        return none("FUNCTION_CAT s, FUNCTION_SCHEM s, FUNCTION_NAME s, REMARKS s, FUNCTION_TYPE i, SPECIFIC_NAME s");
    }

    @Override
    public ResultSet getFunctionColumns(String catalog, String schemaPattern, String functionNamePattern,
                                        String columnNamePattern) {
        return none("FUNCTION_CAT s, FUNCTION_SCHEM s, FUNCTION_NAME s, COLUMN_NAME s, COLUMN_TYPE i, DATA_TYPE i, "
                + "TYPE_NAME s, PRECISION i, LENGTH i, SCALE i, RADIX i, NULLABLE i, REMARKS s, CHAR_OCTET_LENGTH i, "
                + "ORDINAL_POSITION i, IS_NULLABLE s, SPECIFIC_NAME s");
    }

    @Override
    public ResultSet getUDTs(String catalog, String schemaPattern, String typeNamePattern, int[] types) {
        return none("TYPE_CAT s, TYPE_SCHEM s, TYPE_NAME s, CLASS_NAME s, DATA_TYPE i, REMARKS s, BASE_TYPE i");
    }

    @Override
    public ResultSet getSuperTypes(String catalog, String schemaPattern, String typeNamePattern) {
        return none("TYPE_CAT s, TYPE_SCHEM s, TYPE_NAME s, SUPERTYPE_CAT s, SUPERTYPE_SCHEM s, SUPERTYPE_NAME s");
    }

    @Override
    public ResultSet getSuperTables(String catalog, String schemaPattern, String tableNamePattern) {
        return none("TABLE_CAT s, TABLE_SCHEM s, TABLE_NAME s, SUPERTABLE_NAME s");
    }

    @Override
    public ResultSet getAttributes(String catalog, String schemaPattern, String typeNamePattern,
                                   String attributeNamePattern) {
        return none("TYPE_CAT s, TYPE_SCHEM s, TYPE_NAME s, ATTR_NAME s, DATA_TYPE i, ATTR_TYPE_NAME s, ATTR_SIZE i, "
                + "DECIMAL_DIGITS i, NUM_PREC_RADIX i, NULLABLE i, REMARKS s, ATTR_DEF s, SQL_DATA_TYPE i, "
                + "SQL_DATETIME_SUB i, CHAR_OCTET_LENGTH i, ORDINAL_POSITION i, IS_NULLABLE s, SCOPE_CATALOG s, "
                + "SCOPE_SCHEMA s, SCOPE_TABLE s, SOURCE_DATA_TYPE i");
    }

    private static final String ROW_IDENTIFIER = "SCOPE i, COLUMN_NAME s, DATA_TYPE i, TYPE_NAME s, COLUMN_SIZE i, "
            + "BUFFER_LENGTH i, DECIMAL_DIGITS i, PSEUDO_COLUMN i";

    @Override
    public ResultSet getBestRowIdentifier(String catalog, String schema, String table, int scope, boolean nullable) {
        return none(ROW_IDENTIFIER);
    }

    @Override
    public ResultSet getVersionColumns(String catalog, String schema, String table) {
        return none(ROW_IDENTIFIER);
    }

    @Override
    public ResultSet getColumnPrivileges(String catalog, String schema, String table, String columnNamePattern) {
        return none("TABLE_CAT s, TABLE_SCHEM s, TABLE_NAME s, COLUMN_NAME s, GRANTOR s, GRANTEE s, PRIVILEGE s, "
                + "IS_GRANTABLE s");
    }

    @Override
    public ResultSet getTablePrivileges(String catalog, String schemaPattern, String tableNamePattern) {
        return none("TABLE_CAT s, TABLE_SCHEM s, TABLE_NAME s, GRANTOR s, GRANTEE s, PRIVILEGE s, IS_GRANTABLE s");
    }

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) {
        return none("TABLE_CAT s, TABLE_SCHEM s, TABLE_NAME s, COLUMN_NAME s, KEY_SEQ i, PK_NAME s");
    }

    private static final String KEYS = "PKTABLE_CAT s, PKTABLE_SCHEM s, PKTABLE_NAME s, PKCOLUMN_NAME s, "
            + "FKTABLE_CAT s, FKTABLE_SCHEM s, FKTABLE_NAME s, FKCOLUMN_NAME s, KEY_SEQ i, UPDATE_RULE i, "
            + "DELETE_RULE i, FK_NAME s, PK_NAME s, DEFERRABILITY i";

    @Override
    public ResultSet getImportedKeys(String catalog, String schema, String table) {
        return none(KEYS);
    }

    @Override
    public ResultSet getExportedKeys(String catalog, String schema, String table) {
        return none(KEYS);
    }

    @Override
    public ResultSet getCrossReference(String parentCatalog, String parentSchema, String parentTable,
                                       String foreignCatalog, String foreignSchema, String foreignTable) {
        return none(KEYS);
    }

    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate)
            throws SQLException {
        connection.checkOpen();
        connection.latest();
        List<Object[]> rows = new ArrayList<>();
        boolean anySchema = schema == null || schema.isEmpty() || schema.equalsIgnoreCase(SCHEMA);
        if (anySchema && namespace(catalog, null) && table != null) {
            // JDBC's order: unique indexes first, then by name and column position
            List<Map.Entry<Table, TableIndex>> indexes = new ArrayList<>(CatalogText.indexes(
                    connection.tessera().database().tables().stream().filter(t -> t.name().equalsIgnoreCase(table))
                            .toList()));
            indexes.sort(Comparator.comparing(e -> !e.getValue().unique()));
            for (Map.Entry<Table, TableIndex> e : indexes) {
                TableIndex x = e.getValue();
                if (unique && !x.unique()) {
                    continue;
                }
                for (int i = 0; i < x.columns().size(); i++) {
                    // the column as the table names it; no order kept (DuckDB drops ASC / DESC), nothing counted
                    rows.add(new Object[] {connection.catalogName(), SCHEMA, e.getKey().name(), !x.unique(), null,
                            x.name(), (int) DatabaseMetaData.tableIndexOther, i + 1,
                            e.getKey().schema().column(x.columns().get(i)).name(), null, null, null, null});
                }
            }
        }
        return rows("TABLE_CAT s, TABLE_SCHEM s, TABLE_NAME s, NON_UNIQUE b, INDEX_QUALIFIER s, INDEX_NAME s, "
                + "TYPE i, ORDINAL_POSITION i, COLUMN_NAME s, ASC_OR_DESC s, CARDINALITY l, PAGES l, "
                + "FILTER_CONDITION s", rows);
    }

    @Override
    public ResultSet getClientInfoProperties() {
        return none("NAME s, MAX_LEN i, DEFAULT_VALUE s, DESCRIPTION s");
    }

    @Override
    public ResultSet getPseudoColumns(String catalog, String schemaPattern, String tableNamePattern,
                                      String columnNamePattern) {
        return none("TABLE_CAT s, TABLE_SCHEM s, TABLE_NAME s, COLUMN_NAME s, DATA_TYPE i, COLUMN_SIZE i, "
                + "DECIMAL_DIGITS i, NUM_PREC_RADIX i, COLUMN_USAGE s, REMARKS s, CHAR_OCTET_LENGTH i, "
                + "IS_NULLABLE s");
    }
}
