package io.tessera.backend.cuda.exec;

import io.tessera.exec.*;
import io.tessera.api.QueryCancel;
import io.tessera.api.QueryCancelledException;
import io.tessera.api.QueryResult;
import io.tessera.backend.cuda.runtime.GpuRuntime;
import io.tessera.bench.Queries;
import io.tessera.storage.Database;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * On a GPU machine: cancellation between kernel launches. A GPU offload given a cancelled handle stops at its first
 * launch with "query cancelled" (the JVM executor's own check left out, so only the GPU's can fire); queries
 * cancelled from another thread at random moments stop or finish; afterwards the engine gives the same rows as
 * before and the device holds no more buffers than it did.
 * {@code java -cp tessera.jar:lib/*:test-classes io.tessera.backend.cuda.exec.GpuCancelCheck SSB_DB}; exits 1 on a failure.
 */
public final class GpuCancelCheck {

    private GpuCancelCheck() {
    }

    public static void main(String[] args) throws Exception {
        boolean ok = true;
        try (Database db = Database.open(Path.of(args[0]))) {
            QueryEngine e = new QueryEngine(db, Runtime.getRuntime().availableProcessors(), Device.GPU);
            String sql = Queries.sql("ssb", "q2.1");
            QueryEngine.Prepared p = e.prepare(sql);
            if (p.gpu() == null) {
                System.out.println("FAIL: q2.1 does not run on the GPU: " + p.notice());
                System.exit(1);
            }
            List<Object[]> expected = e.run(p).rows();
            GpuRuntime rt = CudaBackend.runtime(e.devices());
            long buffersBefore = io.tessera.backend.cuda.driver.CudaMemoryStats.liveDeviceBuffers();
            System.out.printf("q2.1 on the GPU: %d of %d pipelines, %d rows%n", ((GpuPlan) p.gpu()).gpuPipelines(),
                    p.plan().pipelines().size(), expected.size());

            QueryCancel cancelled = new QueryCancel();
            cancelled.cancel();
            try {
                e.run(p, cancelled);
                System.out.println("FAIL: a cancelled GPU run ran the query to its end");
                ok = false;
            } catch (QueryCancelledException ex) {
                System.out.println("a cancelled GPU run stopped before a kernel launch: " + ex.getMessage());
            }

            int stopped = 0;
            int finished = 0;
            long maxStopNanos = 0;
            for (int i = 0; i < 40; i++) {
                QueryCancel c = new QueryCancel();
                long delayMicros = (i * 97L) % 3000;
                Thread t = new Thread(() -> {
                    long until = System.nanoTime() + delayMicros * 1000;
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    c.cancel();
                });
                t.start();
                long t0 = System.nanoTime();
                try {
                    QueryResult r = e.run(p, c);
                    finished++;
                    if (!same(expected, r.rows())) {
                        System.out.println("FAIL: a query that finished gave other rows");
                        ok = false;
                    }
                } catch (QueryCancelledException ex) {
                    stopped++;
                    maxStopNanos = Math.max(maxStopNanos, System.nanoTime() - t0 - delayMicros * 1000);
                }
                t.join();
            }
            System.out.printf("cancelled at random moments: %d stopped (at most %.3f ms after the cancel), "
                    + "%d finished first%n", stopped, maxStopNanos / 1e6, finished);
            if (stopped == 0) {
                System.out.println("FAIL: no query was stopped");
                ok = false;
            }
            if (!same(expected, e.run(p).rows())) {
                System.out.println("FAIL: the query after the cancellations gave other rows");
                ok = false;
            }
            long buffersAfter = io.tessera.backend.cuda.driver.CudaMemoryStats.liveDeviceBuffers();
            System.out.printf("device buffers: %d before, %d after%n", buffersBefore, buffersAfter);
            if (buffersAfter > buffersBefore) {
                System.out.println("FAIL: cancelled queries left device buffers");
                ok = false;
            }
        }
        System.out.println(ok ? "GpuCancelCheck: passed" : "GpuCancelCheck: FAILED");
        System.exit(ok ? 0 : 1);
    }

    private static boolean same(List<Object[]> a, List<Object[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }
}
