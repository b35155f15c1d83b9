package io.tessera.jdbc;

import java.sql.SQLException;
import java.util.Iterator;
import java.util.List;

/** The rows of a result set, one at a time: a list held whole, or a running query's {@link RowStream}. */
interface RowSource {

    /** The next row, or null after the last. */
    Object[] next() throws SQLException;

    /** No more rows are wanted: a running query stops. */
    void close();

    static RowSource of(List<Object[]> rows) {
        Iterator<Object[]> it = rows.iterator();
        return new RowSource() {
            @Override
            public Object[] next() {
                return it.hasNext() ? it.next() : null;
            }

            @Override
            public void close() {
            }
        };
    }
}
