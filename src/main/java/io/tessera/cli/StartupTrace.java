package io.tessera.cli;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * Where a process's start goes, printed on standard error when the JVM runs with {@code -Dtessera.startupTrace=true}
 * or the environment has {@code TESSERA_STARTUP_TRACE=1} (through the launcher, which then uses its startup cache
 * as always: {@code TESSERA_STARTUP_TRACE=1 ./tessera ...}; other JVM options would make it train another): at each
 * mark, the time since the JVM started, the CPU time of the thread that marks (the main thread) and of the whole
 * process (every thread: the JIT compilers, the warm-up, the workers). The CPU times change less with the machine's
 * load than the wall times, which it stretches. Untraced, a mark costs one field read.
 */
final class StartupTrace {

    static final String PROPERTY = "tessera.startupTrace";
    static final String VARIABLE = "TESSERA_STARTUP_TRACE";
    private static final boolean ON = Boolean.getBoolean(PROPERTY) || "1".equals(System.getenv(VARIABLE));

    private StartupTrace() {
    }

    /** Prints where the process stands at the mark {@code what}, when tracing. */
    static void mark(String what) {
        if (ON) {
            print(what);
        }
    }

    private static void print(String what) {
        long wallMs = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
        double threadMs = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1e6;
        double processMs = ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() / 1e6 : -1;
        System.err.printf(Locale.ROOT, "startup: %-28s %6d ms since JVM start, main thread CPU %7.1f ms, process CPU"
                + " %7.1f ms%n", what, wallMs, threadMs, processMs);
    }
}
