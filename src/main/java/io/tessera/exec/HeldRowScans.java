package io.tessera.exec;

import io.tessera.sql.RecursiveUnions;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.storage.Table;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.sql.SqlNode;

import java.util.function.IntPredicate;

/**
 * A query of a table planned as any query of it (its names resolved, its expressions typed), then with scans of the
 * table swapped for a read of rows held in the statement's temporary database: the rows a write is about to store
 * or remove, which CHECK constraints, FOREIGN KEYs, generated columns and RETURNING are queries over.
 */
final class HeldRowScans {

    /** Every scan of the table reads the held rows. */
    static final IntPredicate EVERY = occurrence -> true;

    private HeldRowScans() {
    }

    /** Only the {@code n}-th scan of the table (from 0, in the plan's order) reads the held rows. */
    static IntPredicate nth(int n) {
        return occurrence -> occurrence == n;
    }

    /** What a swapped scan becomes: a read of held rows with the scan's row type. */
    interface HeldRead {
        RelNode read(TableScan scan, CalciteCatalogReader catalog);
    }

    /** {@code query} planned with the scans of table {@code table} that {@code which} picks reading {@code held}. */
    static SqlFrontEnd.LogicalPlan over(QueryEngine engine, String table, IntPredicate which, Table held,
            SqlNode query) {
        return swapped(engine, table, which, query,
                (scan, catalog) -> RecursiveUnions.scan(scan.getCluster(), catalog, held, scan.getRowType()));
    }

    /**
     * {@code query} planned with the scans of table {@code table} that {@code which} picks replaced by what
     * {@code read} makes of each (for held rows that are not all the table's columns).
     */
    static SqlFrontEnd.LogicalPlan swapped(QueryEngine engine, String table, IntPredicate which, SqlNode query,
            HeldRead read) {
        SqlFrontEnd.LogicalPlan logical = engine.frontEnd().plan(query);
        int[] seen = {0};
        RelNode rel = logical.rel().accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(TableScan scan) {
                if (!scan.getTable().getQualifiedName().getLast().equalsIgnoreCase(table)
                        || !which.test(seen[0]++)) {
                    return scan;
                }
                return read.read(scan, logical.catalog());
            }
        });
        return new SqlFrontEnd.LogicalPlan(rel, logical.fieldNames(), logical.catalog(), logical.storedNotNull());
    }
}
