package io.tessera.sql;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.ForeignKey;
import io.tessera.storage.TableKey;
import io.tessera.storage.TableSchema;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * FOREIGN KEY constraints ({@link ForeignKey}) as SQL: read from CREATE TABLE ({@link #of}: the referencing columns
 * the table's, no CASCADE, SET NULL or SET DEFAULT action), resolved against the parent when the table is created
 * ({@link #resolve}: the parent's primary key where no columns are named, else columns that are its primary key or a
 * UNIQUE key, of the same types), and the queries that check the rows a write adds or removes, built as trees of the
 * tables' and columns' names ({@link #missing}, {@link #referenced}), with DuckDB's messages.
 */
public final class ForeignKeys {

    private static final SqlParserPos POS = SqlParserPos.ZERO;
    /** The aliases of the two sides of a check's query: the rows that reference, the rows referenced. */
    private static final String CHILD = "tessera$child";
    private static final String PARENT = "tessera$parent";

    private ForeignKeys() {
    }

    /**
     * A FOREIGN KEY of CREATE TABLE: its columns as the table stores them, the parent's name and columns as
     * written ({@code referenced} null: the parent's primary key), and where it is in the statement.
     */
    public record Declared(List<String> columns, String parent, List<String> referenced, SqlParserPos at) {
    }

    /** A FOREIGN KEY of CREATE TABLE {@code table}, whose columns are {@code columns} (stored names). */
    static Declared of(ForeignKeyNode node, String table, List<String> columns) {
        if (node.cascade != null) {
            throw new SqlError("CREATE TABLE " + table + ": FOREIGN KEY constraints cannot use CASCADE, SET NULL or"
                    + " SET DEFAULT" + SupportCheck.at(node.cascade));
        }
        List<String> names = new ArrayList<>();
        for (SqlNode c : node.columns) {
            String written = ((SqlIdentifier) c).getSimple();
            String stored = columns.stream().filter(written::equalsIgnoreCase).findFirst().orElseThrow(
                    () -> new SqlError("CREATE TABLE " + table + ": column \"" + written + "\" named in key does not"
                            + " exist" + SupportCheck.at(c.getParserPosition())));
            if (names.contains(stored)) {
                throw new SqlError("CREATE TABLE " + table + ": column " + written + " appears twice in a foreign key"
                        + SupportCheck.at(c.getParserPosition()));
            }
            names.add(stored);
        }
        List<String> referenced = null;
        if (node.referenced != null) {
            referenced = new ArrayList<>();
            for (SqlNode c : node.referenced) {
                referenced.add(((SqlIdentifier) c).getSimple());
            }
        }
        return new Declared(names, TableDefinitions.tableName(node.parent), referenced, node.getParserPosition());
    }

    /**
     * The foreign keys of new table {@code schema}, each resolved against its parent ({@code tables} gives a stored
     * table's schema by name, or null; the table itself may be the parent): an error as DuckDB words it where the
     * parent does not exist, lacks a column named, has no such key, or a column's type differs from its key's.
     */
    public static List<ForeignKey> resolve(TableSchema schema, List<Declared> declared,
            Function<String, TableSchema> tables) {
        List<ForeignKey> keys = new ArrayList<>();
        for (Declared d : declared) {
            String prefix = "CREATE TABLE " + schema.name() + ": Failed to create foreign key: ";
            String at = SupportCheck.at(d.at());
            TableSchema parent = d.parent().equalsIgnoreCase(schema.name()) ? schema : tables.apply(d.parent());
            if (parent == null) {
                throw new SqlError("CREATE TABLE " + schema.name() + ": Table with name " + d.parent()
                        + " does not exist!" + at);
            }
            List<String> referenced = new ArrayList<>();
            if (d.referenced() == null) {
                TableKey primary = parent.primaryKey();
                if (primary == null) {
                    throw new SqlError(prefix + "there is no primary key for referenced table \"" + parent.name()
                            + "\"" + at);
                }
                referenced.addAll(primary.columns());
            } else {
                for (String c : d.referenced()) {
                    int i = parent.indexOf(c);
                    if (i < 0) {
                        throw new SqlError(prefix + "referenced table \"" + parent.name()
                                + "\" does not have a column named \"" + c + "\"" + at);
                    }
                    referenced.add(parent.columns().get(i).name());
                }
            }
            if (referenced.size() != d.columns().size()) {
                throw new SqlError(prefix + "number of referencing (" + String.join(",", d.columns())
                        + ") and referenced columns (" + String.join(",", referenced) + ") differ" + at);
            }
            if (parent.keys().isEmpty()) {
                throw new SqlError(prefix + "there is no primary key or unique constraint for referenced table \""
                        + parent.name() + "\"" + at);
            }
            if (parent.keys().stream().noneMatch(k -> sameColumns(k.columns(), referenced))) {
                throw new SqlError(prefix + "referenced table \"" + parent.name() + "\" does not have a primary key"
                        + " or unique constraint on the columns " + String.join(", ", referenced) + at);
            }
            for (int i = 0; i < referenced.size(); i++) {
                ColumnSchema key = parent.column(referenced.get(i));
                ColumnSchema column = schema.column(d.columns().get(i));
                if (!key.type().equals(column.type())) {
                    throw new SqlError(prefix + "incompatible types between column \"" + key.name() + "\" (\""
                            + key.type() + "\") and column \"" + column.name() + "\" (\"" + column.type() + "\")"
                            + at);
                }
            }
            keys.add(new ForeignKey(d.columns(), parent.name(), referenced));
        }
        return keys;
    }

    private static boolean sameColumns(List<String> a, List<String> b) {
        Set<String> x = new HashSet<>();
        a.forEach(c -> x.add(c.toLowerCase(Locale.ROOT)));
        Set<String> y = new HashSet<>();
        b.forEach(c -> y.add(c.toLowerCase(Locale.ROOT)));
        return a.size() == b.size() && x.equals(y);
    }

    /**
     * {@code SELECT c.a, c.b FROM child AS c WHERE c.a IS NOT NULL AND c.b IS NOT NULL AND NOT EXISTS (SELECT 1 FROM
     * parent AS p WHERE p.x = c.a AND p.y = c.b) FETCH FIRST 1 ROW ONLY}: a key of the child's rows that no row of
     * the parent has (a key with a NULL references nothing); no row where every key is found. The child's scan comes
     * first in the plan, the parent's after it.
     */
    public static SqlSelect missing(String child, ForeignKey key) {
        return childKeys(child, key, false);
    }

    /**
     * {@code SELECT c.a, c.b FROM child AS c WHERE c.a IS NOT NULL AND c.b IS NOT NULL AND EXISTS (SELECT 1 FROM
     * parent AS p WHERE p.x = c.a AND p.y = c.b) FETCH FIRST 1 ROW ONLY}: a key of the child's rows that a row of the
     * parent has; planned over the parent's rows a write removes, a row that still references one of them. The
     * child's scan comes first in the plan; a key with a NULL references nothing, and stays out of the join.
     */
    public static SqlSelect referenced(String child, ForeignKey key) {
        return childKeys(child, key, true);
    }

    /** The first of the child's keys without a NULL that the parent has ({@code found}) or has not. */
    private static SqlSelect childKeys(String child, ForeignKey key, boolean found) {
        SqlNodeList items = new SqlNodeList(POS);
        SqlNode where = null;
        for (String c : key.columns()) {
            items.add(column(CHILD, c));
            where = and(where, SqlStdOperatorTable.IS_NOT_NULL.createCall(POS, column(CHILD, c)));
        }
        SqlNode exists = SqlStdOperatorTable.EXISTS.createCall(POS, select(SqlNodeList.of(
                SqlLiteral.createExactNumeric("1", POS)), key.parent(), PARENT, matching(key), null));
        return select(items, child, CHILD, and(where, found ? exists : SqlStdOperatorTable.NOT.createCall(POS, exists)),
                SqlLiteral.createExactNumeric("1", POS));
    }

    /** {@code p.x = c.a AND p.y = c.b}. */
    private static SqlNode matching(ForeignKey key) {
        SqlNode where = null;
        for (int i = 0; i < key.columns().size(); i++) {
            where = and(where, SqlStdOperatorTable.EQUALS.createCall(POS, column(PARENT, key.referenced().get(i)),
                    column(CHILD, key.columns().get(i))));
        }
        return where;
    }

    /** The error of a write into the child whose row's key {@code values} no row of the parent has, as DuckDB's. */
    public static SqlError missingKey(ForeignKey key, Object[] values) {
        return new SqlError("Violates foreign key constraint because key \"" + keyText(key.referenced(), values)
                + "\" does not exist in the referenced table");
    }

    /** The error of a write that removes a parent's row whose key {@code values} a row still references, as DuckDB's. */
    public static SqlError stillReferenced(ForeignKey key, Object[] values) {
        return new SqlError("Violates foreign key constraint because key \"" + keyText(key.columns(), values)
                + "\" is still referenced by a foreign key in a different table. If this is an unexpected constraint"
                + " violation, please refer to our foreign key limitations in the documentation");
    }

    /** {@code a: 1, b: x}, as DuckDB writes a key in its messages. */
    private static String keyText(List<String> columns, Object[] values) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            out.append(i == 0 ? "" : ", ").append(columns.get(i)).append(": ").append(values[i]);
        }
        return out.toString();
    }

    /** The foreign keys of {@code tables} that reference table {@code parent}, each with the table that holds it. */
    public static List<Reference> referencing(String parent, List<TableSchema> tables) {
        List<Reference> found = new ArrayList<>();
        for (TableSchema t : tables) {
            for (ForeignKey f : t.foreignKeys()) {
                if (f.references(parent)) {
                    found.add(new Reference(t, f));
                }
            }
        }
        return found;
    }

    /** A foreign key and the table that holds it. */
    public record Reference(TableSchema child, ForeignKey key) {

        /** Whether the key references its own table. */
        public boolean self() {
            return key.references(child.name());
        }
    }

    private static SqlNode column(String alias, String name) {
        return new SqlIdentifier(List.of(alias, name), POS);
    }

    private static SqlNode and(SqlNode a, SqlNode b) {
        return a == null ? b : SqlStdOperatorTable.AND.createCall(POS, a, b);
    }

    private static SqlSelect select(SqlNodeList items, String table, String alias, SqlNode where, SqlNode fetch) {
        SqlNode from = SqlStdOperatorTable.AS.createCall(POS, new SqlIdentifier(table, POS),
                new SqlIdentifier(alias, POS));
        return new SqlSelect(POS, null, items, from, where, null, null, null, null, null, null, fetch, null);
    }
}
