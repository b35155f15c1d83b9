package io.tessera.exec;

import io.tessera.api.QueryResult;
import io.tessera.plan.ColumnInfo;
import io.tessera.sql.Parameters;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.sql.Statement;
import io.tessera.sql.Summaries;
import io.tessera.storage.Database;
import io.tessera.storage.TableKey;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TypeKind;

import java.util.ArrayList;
import java.util.List;

/** DESCRIBE (and {@code PRAGMA table_info}) and SUMMARIZE of a query, a table or a file: what its columns are. */
final class QueryDescriptions {

    private QueryDescriptions() {
    }

    /**
     * The columns of a query (of a file: its schema, no row read), as DuckDB's DESCRIBE or {@code PRAGMA table_info}
     * lists them.
     */
    static QueryResult describe(QueryEngine engine, Database db, Statement.Describe d, Parameters parameters) {
        FileTableLoader files = engine.statementFiles();
        if (files != null) {
            files.schemaOnly();
        }
        SqlFrontEnd.LogicalPlan logical = engine.frontEnd().plan(parameters.bind(SqlFrontEnd.parse(d.query())),
                d.query());
        List<ColumnInfo> columns = ResultRows.nullableAsDuckDb(engine.prepare(logical).plan().resultColumns(),
                logical.storedNotNull());
        TableSchema table = ResultRows.describedTable(db, d.query());
        List<TableKey> keys = table == null ? List.of() : table.keys();
        java.util.function.Function<String, String> defaults = name -> table == null ? null
                : table.columns().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst()
                        .map(io.tessera.storage.ColumnSchema::defaultValue).orElse(null);
        return d.form() == Statement.Describe.Form.TABLE_INFO ? ResultRows.tableInfo(columns, keys, defaults)
                : ResultRows.describe(columns, keys, defaults);
    }

    /** SUMMARIZE: the columns of the query (as DESCRIBE finds them), then one aggregate per column over its rows. */
    static QueryResult summarize(QueryEngine engine, Statement.Summarize m, Parameters parameters) {
        List<Summaries.Column> columns = new ArrayList<>();
        for (ColumnInfo c : engine.prepare(m.query(), parameters).plan().resultColumns()) {
            TypeKind k = c.type().kind();
            boolean numeric = k != TypeKind.VARCHAR && !k.isTemporal() && k != TypeKind.BOOLEAN;
            columns.add(new Summaries.Column(c.name(), c.type().toString(), numeric));
        }
        return engine.result(engine.frontEnd().plan(parameters.bind(Summaries.query(m.query(), columns))), null);
    }
}
