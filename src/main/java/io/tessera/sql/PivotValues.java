package io.tessera.sql;

import org.apache.calcite.sql.SqlNode;

import java.util.List;

/**
 * Reads the values a PIVOT statement's ON item takes from the data ({@link PivotStatements}): runs a query of one
 * VARCHAR column and gives its rows, in order, as the values that enter the plan (never its code).
 */
@FunctionalInterface
public interface PivotValues {

    /** The first column of the rows of {@code query}. */
    List<String> read(SqlNode query);

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
