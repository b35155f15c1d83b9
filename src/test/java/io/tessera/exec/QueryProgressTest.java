package io.tessera.exec;

import io.tessera.Tessera;
import io.tessera.api.QueryCancel;
import io.tessera.api.QueryProgress;
import io.tessera.api.ResultColumn;
import io.tessera.api.RowSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A query's run reports each pipeline it starts and every input row it has done into its handle's progress. */
class QueryProgressTest {

    private static final int ROWS = 100_000;

    @TempDir
    Path dir;

    @Test
    void everyPipelineAndEveryInputRowIsReported() {
        Object[][] rows = new Object[ROWS][];
        for (int i = 0; i < ROWS; i++) {
            rows[i] = new Object[] {i, i % 10};
        }
        TinyTables.write(dir, "t", "id INTEGER NOT NULL, g INTEGER NOT NULL", rows);
        try (Tessera t = Tessera.open(dir, Device.CPU)) {
            QueryCancel handle = new QueryCancel();
            List<Object[]> out = new ArrayList<>();
            // a join and a grouping: a build over t, a probe of all of t's rows, then the groups sorted
            t.query("select a.g, count(*) from t a join t b on a.id = b.id group by a.g order by a.g", handle,
                    new RowSink() {
                        @Override
                        public void start(List<ResultColumn> columns) {
                        }

                        @Override
                        public void rows(List<Object[]> batch) {
                            out.addAll(batch);
                        }
                    });
            assertEquals(10, out.size());
            QueryProgress.Snapshot s = handle.progress().snapshot();
            int pipelines = t.engine().plan("select a.g, count(*) from t a join t b on a.id = b.id group by a.g"
                    + " order by a.g").pipelines().size();
            assertEquals(pipelines, s.pipelines());
            assertEquals(pipelines, s.pipeline(), "every pipeline started");
            assertEquals(s.rowsTotal(), s.rowsDone(), "the last pipeline's input all done");
        }
    }

    @Test
    void aSnapshotBeforeTheRunHasNoPipelineAndRowsNeverExceedTheTotal() {
        QueryProgress p = new QueryProgress();
        assertEquals(new QueryProgress.Snapshot(0, 0, 0, 0), p.snapshot());
        p.begin(3);
        p.pipelineStarted(100);
        p.advanced(60);
        p.advanced(60); // a morsel reported after the last one was counted: never more than the input
        assertEquals(new QueryProgress.Snapshot(1, 3, 100, 100), p.snapshot());
        p.pipelineStarted(50);
        assertEquals(new QueryProgress.Snapshot(2, 3, 0, 50), p.snapshot());
    }
}
