package io.tessera.backend.cuda.exec;

/**
 * What a pipeline does when its GPU hash table filled up (a group table sized from an estimate that ran low, a
 * join table whose inserts met a probe run longer than the kernels' limit): run again into a larger table, from
 * cleared buffers so that no row counts twice, or, after {@link #MAX_RUNS} runs, give the query to the JVM with
 * the reason.
 *
 * <p>The next table has at least {@link #GROWTH} times the slots of the last one, and at least twice the keys the
 * planner estimated (the first table's size may have been capped below that); it never passes {@code enough}, the
 * slots that hold every row's key at half load at most (the pipeline's input rows bound its keys), unless the
 * last table already had that many, when it doubles once more (a run of colliding hashes, not a lack of room).
 */
final class TableGrowth {

    /** Runs of one pipeline at most: the first and three larger ones. */
    static final int MAX_RUNS = 4;
    static final long GROWTH = 4;

    /** Run again into a table of {@code slots}, or (slots 0) move to the JVM because of {@code reason}. */
    record Next(long slots, String reason) {
        boolean again() {
            return slots > 0;
        }
    }

    private TableGrowth() {
    }

    /**
     * After run {@code run} (0 the first) filled a table of {@code slots}: the next step. {@code estimatedKeys} is
     * the planner's estimate (uncapped), {@code enough} the slots for every input row's key, {@code what} names
     * the table in the reason.
     */
    static Next afterFull(int run, long slots, long estimatedKeys, long enough, String what) {
        if (run + 1 >= MAX_RUNS) {
            return new Next(0, what + " filled up " + MAX_RUNS + " times (the last had " + slots + " slots)");
        }
        long ceiling = Math.max(enough, 2);
        long next;
        if (slots >= ceiling) {
            next = slots * 2;
        } else {
            long fromEstimate = 2 * Math.max(1, Math.min(estimatedKeys, Long.MAX_VALUE / 4));
            next = Math.min(ceiling, Math.max(slots * GROWTH, fromEstimate));
        }
        next = powerOfTwo(next);
        if (next > 1L << 40) {
            return new Next(0, what + " filled up and would need " + next + " slots");
        }
        return new Next(next, null);
    }

    /**
     * The places a first run gives an expanded join table (a chained table whose pipeline may make several rows of
     * one): its {@code input} rows, or the planner's {@code estimate} of its rows where that is more (at most
     * {@link #GROWTH} times the input, since estimates over joins run high), at most {@code forced} when that is set
     * (above 0). A table the counter finds too small runs again with exactly as many places as rows.
     */
    static long firstRows(long input, double estimate, long forced) {
        long fromEstimate = (long) Math.min(Math.ceil(estimate), (double) GROWTH * Math.max(1, input));
        long rows = Math.max(1, Math.max(input, fromEstimate));
        return forced > 0 ? Math.min(rows, forced) : rows;
    }

    /** The least power of two at least {@code n} (n >= 1). */
    static long powerOfTwo(long n) {
        return n <= 1 ? 1 : Long.highestOneBit(n - 1) << 1;
    }
}
