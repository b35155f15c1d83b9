package io.tessera.sql;

import org.apache.calcite.sql.SqlNode;

import java.util.List;

/**
 * Reads from the data, before a statement is planned, what its plan needs to know of it: the values a PIVOT
 * statement's ON item takes ({@link PivotStatements}: a query of one VARCHAR column whose rows, in order, enter the
 * plan as values, never as its code), and the most elements an unnest of a list the query computes meets
 * ({@link UnnestJoins}).
 */
@FunctionalInterface
public interface PivotValues {

    /** The first column of the rows of {@code query}. */
    List<String> read(SqlNode query);

    /**
     * The largest value of the one-row plan {@code lengths} (a MAX of list lengths per column), run now; 0 where all
     * are NULL. Where no query runs, the unnest is refused.
     */
    default long largest(SqlFrontEnd.LogicalPlan lengths) {
        throw new SqlError("unsupported: unnest of a list the query computes (such as list(x)) here, where no query "
                + "runs to measure it: unnest a list column or a list literal");
    }

    /** Where no query runs (a front end of its own): the values must be listed. */
    PivotValues NONE = query -> {
        throw new SqlError("unsupported: DuckDB's PIVOT statement with values from the data here (no query runs to "
                + "read them); list them: PIVOT ... ON col IN (v1, v2, ...)");
    };

    /** In a view, which is expanded where a query names it, as DuckDB refuses it. */
    PivotValues IN_VIEW = query -> {
        throw new SqlError("PIVOT statements with pivot elements extracted from the data cannot be used in views; "
                + "list the values: PIVOT ... ON col IN (v1, v2, ...)");
    };
}
