package io.tessera.cli;

import java.util.Locale;

/** The one line a user reads when the Java heap runs out: what ran out, and how to give Tessera more. */
final class OutOfMemory {
    private OutOfMemory() {
    }

    /** {@code doing}: what ran out of memory ("this statement", "generating TPC-H SF 1"). */
    static String describe(OutOfMemoryError e, String doing) {
        long max = Runtime.getRuntime().maxMemory();
        long gib = 1L << 30;
        long suggest = Math.max(2, 2 * ((max + gib - 1) / gib));
        String what = e.getMessage() == null || e.getMessage().isBlank() ? "Java heap space" : e.getMessage();
        return String.format(Locale.ROOT, "out of memory (%s, the heap's limit is %s) while %s; give Tessera more "
                        + "with TESSERA_JAVA_OPTS=-Xmx%dg (the default is -Xmx8g)", what, io.tessera.storage.ByteSizes.text(max),
                doing, suggest);
    }
}
