package io.tessera.exec;

import io.tessera.api.QueryResult;
import io.tessera.sql.PivotValues;
import io.tessera.sql.SqlFrontEnd;
import org.apache.calcite.sql.SqlNode;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The queries a statement's planning runs over the data before its plan is made, within that statement: the values
 * of a PIVOT statement's ON item (as DuckDB reads them) and the longest list an unnest of a computed list meets.
 * They are counted, since a plan that read the data this way is not kept ({@link PlanCache}).
 */
final class PlanTimeQueries implements PivotValues {

    private final QueryEngine engine;
    private final AtomicLong runs = new AtomicLong();

    PlanTimeQueries(QueryEngine engine) {
        this.engine = engine;
    }

    /** How many such queries have run, for telling whether a statement's planning ran one. */
    long runs() {
        return runs.get();
    }

    /** The rows of a PIVOT's query of one VARCHAR column, in order. */
    @Override
    public List<String> read(SqlNode query) {
        QueryResult r = run(engine.frontEnd().plan(query));
        List<String> out = new ArrayList<>(r.rows().size());
        for (Object[] row : r.rows()) {
            out.add((String) row[0]);
        }
        return out;
    }

    /** The largest value of the one row of {@code lengths} (an unnest's longest list); 0 where all are NULL. */
    @Override
    public long largest(SqlFrontEnd.LogicalPlan lengths) {
        long largest = 0;
        for (Object[] row : run(lengths).rows()) {
            for (Object v : row) {
                if (v instanceof Number n) {
                    largest = Math.max(largest, n.longValue());
                }
            }
        }
        return largest;
    }

    private QueryResult run(SqlFrontEnd.LogicalPlan plan) {
        runs.incrementAndGet();
        return engine.run(engine.prepare(plan, null, null, System.nanoTime()));
    }
}
