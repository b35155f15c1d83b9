package io.tessera.bench;

import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Results compared as multisets, and in the order of the columns a query sorts by. */
class ResultMatchTest {

    private static QueryResult result(Object[]... rows) {
        List<ResultColumn> cols = List.of(new ResultColumn("year", DataType.INTEGER, false),
                new ResultColumn("revenue", DataType.BIGINT, false));
        return new QueryResult(cols, List.of(rows), 0, 0);
    }

    @Test
    void rowsInAnotherOrderMatchAsMultisetsButNotUnderTheirOrderBy() {
        QueryResult sorted = result(new Object[] {1992, 5L}, new Object[] {1993, 7L}, new Object[] {1993, 6L});
        QueryResult swapped = result(new Object[] {1993, 7L}, new Object[] {1992, 5L}, new Object[] {1993, 6L});
        assertNull(ResultMatch.difference(sorted, swapped));
        assertEquals("row 0 out of the ORDER BY's order: column year is 1993 where 1992 belongs",
                ResultMatch.difference(sorted, swapped, new int[] {0}));
    }

    @Test
    void tiesMayComeOutInEitherOrder() {
        QueryResult a = result(new Object[] {1992, 5L}, new Object[] {1993, 7L}, new Object[] {1993, 6L});
        QueryResult b = result(new Object[] {1992, 5L}, new Object[] {1993, 6L}, new Object[] {1993, 7L});
        assertNull(ResultMatch.difference(a, b, new int[] {0}));
        assertEquals("row 1 out of the ORDER BY's order: column revenue is 6 where 7 belongs",
                ResultMatch.difference(a, b, new int[] {0, 1}));
    }
}
