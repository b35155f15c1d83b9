package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.plan.Types;
import io.tessera.sql.RecursiveUnions;
import io.tessera.sql.SqlError;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.Table;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs the recursive unions of a query ({@code WITH RECURSIVE}) before the query is planned, as the standard defines
 * them: the seed's rows, then the step run over the rows the iteration before added, again and again until an
 * iteration adds none (with UNION, rows seen before are not added again, so a cycle ends; with UNION ALL a step that
 * always finds rows runs until the statement is cancelled, or until it has made the rows a LIMIT above it reads). Each iteration's new rows are a table of the statement's
 * temporary database ({@link FileTableLoader}) that the next step scans, planned with its statistics; all the rows
 * together become the table the query reads in place of the union.
 */
final class RecursiveQueries {

    private final QueryEngine engine;
    private final FileTableLoader files;
    private final QueryCancel cancel;
    private final SqlFrontEnd.LogicalPlan query;

    private RecursiveQueries(QueryEngine engine, FileTableLoader files, QueryCancel cancel, SqlFrontEnd.LogicalPlan query) {
        this.engine = engine;
        this.files = files;
        this.cancel = cancel;
        this.query = query;
    }

    /** {@code logical} with each recursive union replaced by a scan of its rows, computed now. */
    static SqlFrontEnd.LogicalPlan computed(SqlFrontEnd.LogicalPlan logical, QueryEngine engine, FileTableLoader files) {
        if (!RecursiveUnions.any(logical.rel())) {
            return logical;
        }
        if (files == null) {
            throw new SqlError("unsupported: WITH RECURSIVE in a query that is prepared without being run (its rows"
                    + " are computed when the statement runs)");
        }
        RecursiveQueries r = new RecursiveQueries(engine, files, files.cancel(), logical);
        RelNode rel = RecursiveUnions.replace(logical.rel(), r::rows);
        return new SqlFrontEnd.LogicalPlan(rel, logical.fieldNames(), logical.catalog(), logical.storedNotNull());
    }

    /**
     * The rows of {@code union}, as a scan of a table that holds them; where the query reads at most
     * {@code rowsNeeded} of them (a LIMIT, else -1), no more iterations than make that many.
     */
    private RelNode rows(RepeatUnion union, long rowsNeeded) {
        RelDataType rowType = union.getRowType();
        List<ColumnSchema> columns = new ArrayList<>();
        for (RelDataTypeField f : rowType.getFieldList()) {
            columns.add(new ColumnSchema("c" + f.getIndex(), Types.of(f.getType()), f.getType().isNullable()));
        }
        Set<List<Object>> seen = union.all ? null : new HashSet<>();
        List<Object[]> all = new ArrayList<>();
        List<Object[]> added = newRows(run(RecursiveUnions.seed(union)), seen);
        String working = files.newTableName("recursive"); // one table, replaced by each iteration's rows
        for (int iteration = 0; !added.isEmpty(); iteration++) {
            all.addAll(added);
            if (union.iterationLimit >= 0 && iteration >= union.iterationLimit
                    || rowsNeeded >= 0 && all.size() >= rowsNeeded) {
                break;
            }
            QueryCancel.check(cancel);
            Table previous = files.replaceRows(working, columns, added);
            added = newRows(run(RecursiveUnions.step(union, scan(previous, rowType))), seen);
        }
        if (rowsNeeded >= 0 && all.size() > rowsNeeded) {
            all = all.subList(0, (int) rowsNeeded); // the first rows, in the order the iterations made them
        }
        return scan(files.rows("recursive", columns, all), rowType);
    }

    private RelNode scan(Table table, RelDataType rowType) {
        return RecursiveUnions.scan(query.rel().getCluster(), query.catalog(), table, rowType);
    }

    private QueryExecutor.Ran run(RelNode rel) {
        List<String> names = rel.getRowType().getFieldNames();
        return engine.runLogical(new SqlFrontEnd.LogicalPlan(rel, names, query.catalog(), new boolean[names.size()]),
                cancel);
    }

    /** The rows of {@code ran}; with {@code seen} (UNION), only those not seen before, each once. */
    private List<Object[]> newRows(QueryExecutor.Ran ran, Set<List<Object>> seen) {
        int width = ran.columns().size();
        int n = ran.rel().rowCount();
        List<Object[]> out = new ArrayList<>(n);
        for (int r = 0; r < n; r++) {
            Object[] row = new Object[width];
            for (int c = 0; c < width; c++) {
                row[c] = ran.rel().value(c, r);
            }
            if (seen == null || seen.add(distinctKey(row))) {
                out.add(row);
            }
        }
        return out;
    }

    /** A row as UNION compares rows: as values, -0.0 the same as 0.0. */
    private static List<Object> distinctKey(Object[] row) {
        Object[] key = row.clone();
        for (int i = 0; i < key.length; i++) {
            if (key[i] instanceof Double d && d == 0.0) {
                key[i] = 0.0;
            } else if (key[i] instanceof java.math.BigDecimal b) {
                key[i] = b.signum() == 0 ? java.math.BigDecimal.ZERO : b.stripTrailingZeros();
            }
        }
        return Arrays.asList(key);
    }
}
