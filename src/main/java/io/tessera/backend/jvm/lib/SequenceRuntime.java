package io.tessera.backend.jvm.lib;

import io.tessera.storage.SequenceCounters;
import io.tessera.storage.SequenceException;

/**
 * nextval, currval and setval as generated code calls them: the sequence found by name among the counters of the
 * run, which the worker running a morsel holds ({@link #use}, set around each morsel as the random() seed is), so
 * that two runs at once never share one; a call outside a run with counters is an error, never a value.
 */
public final class SequenceRuntime {

    private static final ThreadLocal<SequenceCounters> COUNTERS = new ThreadLocal<>();

    private SequenceRuntime() {
    }

    /** Makes {@code counters} (null: none) the ones this thread's calls use, until {@link #done}. */
    public static void use(SequenceCounters counters) {
        COUNTERS.set(counters);
    }

    public static void done() {
        COUNTERS.remove();
    }

    public static long nextval(String name) {
        return counters().counter(name).next();
    }

    public static long currval(String name) {
        return counters().counter(name).current();
    }

    public static long setval(String name, long value) {
        return counters().counter(name).set(value);
    }

    private static SequenceCounters counters() {
        SequenceCounters c = COUNTERS.get();
        if (c == null) {
            throw new SequenceException("unsupported: a sequence function (nextval, currval, setval) in a query run"
                    + " without its statement (under given genomes, by a tuner)");
        }
        return c;
    }
}
