package io.tessera.sql;

import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;

/**
 * The SQL dialect Tessera accepts: Calcite's standard ({@link SqlConformanceEnum#DEFAULT}) plus the extensions
 * that DuckDB, the reference Tessera is tested against, also has. Each extension gives the same answer as in
 * DuckDB; one that DuckDB rejects is rejected here too, so that no query means one thing in Tessera and fails
 * (or means another thing) in the reference.
 *
 * <p>Kept: a SELECT alias or an ordinal in GROUP BY, a SELECT alias in HAVING (both only where no column of the
 * FROM clause has the name: {@link TesseraValidator}), {@code !=}, {@code %}, OFFSET before LIMIT, plural
 * interval units ({@code INTERVAL '2' DAYS}). (An INSERT column list may name a subset of the columns, as the
 * standard has it; an INSERT without one needs a value for every column, as in DuckDB.)
 *
 * <p>Not kept (Calcite's LENIENT has them, DuckDB does not): a string literal as an alias ({@code SELECT 1 'x'}),
 * MySQL's {@code LIMIT offset, count}, MINUS for EXCEPT, VALUE for VALUES, CROSS/OUTER APPLY, EXTEND column
 * lists, Calcite's extended TRIM, empty parentheses after niladic functions ({@code CURRENT_DATE()}), and the
 * geometry types.
 */
public final class TesseraConformance extends SqlDelegatingConformance {

    public static final TesseraConformance INSTANCE = new TesseraConformance();

    private TesseraConformance() {
        super(SqlConformanceEnum.DEFAULT);
    }

    @Override
    public boolean isGroupByAlias() {
        return true;
    }

    @Override
    public boolean isGroupByOrdinal() {
        return true;
    }

    @Override
    public boolean isHavingAlias() {
        return true;
    }

    @Override
    public boolean isBangEqualAllowed() {
        return true;
    }

    @Override
    public boolean isPercentRemainderAllowed() {
        return true;
    }

    @Override
    public boolean isOffsetLimitAllowed() {
        return true;
    }

    @Override
    public boolean allowPluralTimeUnits() {
        return true;
    }

    /** An UNNEST of a list of structs gives a column of structs, as DuckDB's unnest does, not a column per field. */
    @Override
    public boolean allowAliasUnnestItems() {
        return true;
    }
}
