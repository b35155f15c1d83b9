package io.tessera.jdbc;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** Cancels statements whose query timeout passed: one daemon thread for every connection of the process. */
final class QueryTimer {

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tessera-jdbc-query-timeout");
        t.setDaemon(true);
        return t;
    });

    private QueryTimer() {
    }

    /** Runs {@code onTimeout} after {@code seconds} unless the returned handle is cancelled first. */
    static ScheduledFuture<?> after(int seconds, Runnable onTimeout) {
        return TIMER.schedule(onTimeout, seconds, TimeUnit.SECONDS);
    }
}
