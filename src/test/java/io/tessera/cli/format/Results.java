package io.tessera.cli.format;

import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.storage.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Builds small query results by hand for formatter tests. */
final class Results {

    private final List<ResultColumn> columns = new ArrayList<>();
    private final List<Object[]> rows = new ArrayList<>();

    static Results columns(Object... nameTypePairs) {
        Results r = new Results();
        for (int i = 0; i < nameTypePairs.length; i += 2) {
            r.columns.add(new ResultColumn((String) nameTypePairs[i], (DataType) nameTypePairs[i + 1], true));
        }
        return r;
    }

    Results row(Object... values) {
        rows.add(Arrays.copyOf(values, values.length));
        return this;
    }

    QueryResult build() {
        return new QueryResult(columns, rows, 0, 0);
    }
}
