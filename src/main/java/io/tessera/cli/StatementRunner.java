package io.tessera.cli;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.api.RowSink;
import io.tessera.Tessera;

/**
 * What runs one SQL statement for the shell and {@code tessera sql}: an open {@link Tessera} in use, a stand-in
 * in tests. A failure is a runtime exception whose message the user reads.
 */
@FunctionalInterface
public interface StatementRunner {
    QueryResult run(String sql);

    /**
     * Runs a statement under {@code cancel}, handing its rows to {@code sink} in batches; returns its columns and
     * times. This default runs {@link #run(String)} and hands over its rows at once.
     */
    default QueryResult run(String sql, QueryCancel cancel, RowSink sink) {
        cancel.check();
        QueryResult r = run(sql);
        sink.start(r.columns());
        if (r.rowCount() > 0) {
            sink.rows(r.rows());
        }
        return r;
    }

    /**
     * Whether the statements from now on time their GPU kernels, for the timing line ({@code --timing},
     * {@code \timing}); a plain run records no timing events. This default ignores it.
     */
    default void timeKernels(boolean on) {
    }

    /** Statements run by {@code t}, rows streamed to the sink and cancellable. */
    static StatementRunner of(Tessera t) {
        return new StatementRunner() {
            @Override
            public QueryResult run(String sql) {
                return t.query(sql);
            }

            @Override
            public QueryResult run(String sql, QueryCancel cancel, RowSink sink) {
                return t.query(sql, cancel, sink);
            }

            @Override
            public void timeKernels(boolean on) {
                t.engine().timeKernels(on);
            }
        };
    }
}
