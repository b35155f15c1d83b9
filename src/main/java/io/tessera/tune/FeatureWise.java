package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Hawk's feature-wise learner (Algorithm 1): starting from the start assignment, one knob at a time in
 * importance order, try each of its values with the others fixed and keep the fastest; repeat the pass until it
 * changes nothing or {@code maxPasses} passes ran. A value the constraints exclude with the current values is
 * tried with the nested knobs of its pipeline set to values it allows ({@link TuningSpace#repair}), so a nested
 * dimension is explored only under a parent value that has it. Measurements stop at {@code prune} times the best
 * so far, as in exhaustive search. A value replaces the current one only when it is faster by more than
 * {@code margin}: measurements of equal variants differ by a few per cent, and a change that only follows that
 * noise costs a whole further pass to confirm (on SSB SF 1 on the JVM, half the queries took three or four passes,
 * their top variants within a few per cent of each other).
 *
 * <p>Beyond the paper: a code knob's choice is checked under the thread configuration of its own. One knob at a
 * time reaches a local optimum where a code variant is the faster at the current thread configuration and the other
 * the faster at its own: on SSB q3.4 at SF 20 on the H200, a shared table measured 3% faster than a dense array at
 * 4 items per thread and was kept, and the passes then ended there at 1.15x the optimum, a dense array at 8 items
 * per thread (the shared table runs 2.8x slower there). So the first close decision of a knob outside the thread
 * configuration (its other fastest value within {@link #CLOSE} of the kept one) is remembered; after the passes,
 * the thread configuration is scanned once under that runner-up, and when it ends faster than the passes' choice
 * by more than the margin, the passes go on from there.
 *
 * <p>A value's runs stop at {@code cut} times the current value's time: slower than that it cannot replace it, and
 * on the JVM a slow value's further runs were a large part of the search's time. A value that was cut so when its
 * knob was last scanned is not tried again in a later pass: a later pass re-scans a knob because other knobs moved
 * since, which moves its values by a few per cent, not by a quarter, and on the JVM each such value of a knob that
 * changes the code is a class to compile and warm up again. (This rule once kept the Vector API's filters out of
 * SSB Q1.2's second pass: the filters of every query shared one JIT profile then, which made them 1.5x slower than
 * scalar ones at the start's morsel size in a process that had run Q1.1 before. Each query compares in its own
 * class since.)
 *
 * <p>A value that measures faster than half the current value's time makes the current value measured again before
 * the value replaces it: every later decision compares against the kept measurements, and one measurement can be
 * hit by a stall of the machine. On the 2-core VM, the first measurement of SSB q4.3's defaults once took 313 ms
 * against about 25 ms. One worker then measured 28.6 ms and was kept, and the search ended at 1.94x the optimum.
 * Such jumps are rare between correct measurements (Q1's vectorized filters against scalar ones, 4x), and
 * confirming them costs one measurement of code already compiled.
 *
 * <p>The search's first measurement, the start's, is also measured again the first time another value measures
 * faster than it (the start is the current value until then), and the faster of the two is kept. On the 2-core VM
 * (SSB SF 1, three bench runs) the start's first measurement was a median 1.05 to 1.08x exhaustive search's
 * measurement of the same variant, up to 1.70x, while the search's later measurements were 0.98 to 0.99x: the first
 * code a search runs carries the process's warm-up from the work before it. In one run the start, a dense array on
 * q3.2, measured 15.1 ms against a partitioned table's 12.1 ms and lost (exhaustive search: 11.7 and 14.0 ms), and
 * the search ended at 1.11x the optimum. It costs one measurement of code already compiled.
 *
 * <p>A knob whose other values the current values of the others all exclude is nested under a parent value that
 * does not have it (a dense array's hash function, one worker's access pattern): it is not scanned there, as
 * Hawk's nested dimensions are not. Repairing its values would change the parent instead, a code variant the
 * parent's own scan has already judged (on SSB SF 1 on the 2-core VM, scanning the hash function under a dense
 * array measured a hash table with the other function, a new class of 0.2 s, on most queries).
 *
 * <p>A knob along a line ({@link #alongLines}: ordered values whose time changes smoothly with them, the JVM's
 * morsel size) is walked from its current value instead of scanned: both neighbours, then on in the direction of
 * the faster one while each step is faster still. On SSB SF 1 on the 2-core VM the morsel sizes between 2048 and
 * 131072 rows measured within the machine's noise of each other on every query, and a scan of all nine took a
 * third of the search's measurements.
 */
public final class FeatureWise implements SearchStrategy {

    public static final String NAME = "feature-wise";
    public static final int DEFAULT_PASSES = 4;
    /** How much faster a value must be than the current one to replace it. */
    public static final double DEFAULT_MARGIN = 0.03;
    /** A value's runs stop at this many times the current value's time. */
    public static final double DEFAULT_CUT = 1.25;
    /** A code knob's decision is close when its other fastest value measured within this factor of the kept one. */
    public static final double CLOSE = 1.10;
    /**
     * A value measured faster than this share of the current value's time makes the current value measured again
     * before it is replaced.
     */
    static final double SUSPECT = 0.5;

    private final int maxPasses;
    private final double prune;
    private final double limitSeconds;
    private final double margin;
    private final double cut;
    /** The knobs of the thread configuration: re-tuned under the loser of a close code decision (none: no re-tuning). */
    private final Set<String> threadDimensions;
    /** The knobs walked along their ordered values from the current one rather than scanned. */
    private final Set<String> lines;

    public FeatureWise() {
        this(DEFAULT_PASSES, Exhaustive.DEFAULT_PRUNE, Exhaustive.DEFAULT_LIMIT_SECONDS);
    }

    public FeatureWise(int maxPasses, double prune, double limitSeconds) {
        this(maxPasses, prune, limitSeconds, DEFAULT_MARGIN);
    }

    public FeatureWise(int maxPasses, double prune, double limitSeconds, double margin) {
        this(maxPasses, prune, limitSeconds, margin, DEFAULT_CUT);
    }

    public FeatureWise(int maxPasses, double prune, double limitSeconds, double margin, double cut) {
        this(maxPasses, prune, limitSeconds, margin, cut, Set.of());
    }

    public FeatureWise(int maxPasses, double prune, double limitSeconds, double margin, double cut,
                       Set<String> threadDimensions) {
        this(maxPasses, prune, limitSeconds, margin, cut, threadDimensions, Set.of());
    }

    private FeatureWise(int maxPasses, double prune, double limitSeconds, double margin, double cut,
                        Set<String> threadDimensions, Set<String> lines) {
        if (cut <= 1) {
            throw new IllegalArgumentException("a cut factor above 1, got " + cut);
        }
        if (maxPasses < 1) {
            throw new IllegalArgumentException("at least one pass, got " + maxPasses);
        }
        if (margin < 0 || margin >= 1) {
            throw new IllegalArgumentException("a margin in [0, 1), got " + margin);
        }
        this.maxPasses = maxPasses;
        this.prune = prune;
        this.limitSeconds = limitSeconds;
        this.margin = margin;
        this.cut = cut;
        this.threadDimensions = Set.copyOf(threadDimensions);
        this.lines = Set.copyOf(lines);
    }

    /** This search, re-tuning the thread configuration {@code dimensions} under the loser of a close code decision. */
    public FeatureWise retuning(java.util.Collection<String> dimensions) {
        return new FeatureWise(maxPasses, prune, limitSeconds, margin, cut, Set.copyOf(dimensions), lines);
    }

    /** This search, walking the knobs of {@code dimensions} along their ordered values rather than scanning them. */
    public FeatureWise alongLines(java.util.Collection<String> dimensions) {
        return new FeatureWise(maxPasses, prune, limitSeconds, margin, cut, threadDimensions, Set.copyOf(dimensions));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public TuningResult search(TuningSpace space, Objective objective) {
        Evaluations ev = new Evaluations(space, objective);
        Map<Integer, Genome> start = space.start();
        ev.measure(start, limitSeconds);
        List<TuningSpace.Knob> threads = space.knobs().stream()
                .filter(k -> threadDimensions.contains(k.name())).toList();
        Search main = new Search(space, ev, !threads.isEmpty(), start);
        Map<Integer, Genome> v = main.passes(start, space.knobs(), maxPasses);
        int passes = main.passes;
        String note = "";
        if (main.runnerUp != null) {
            Search retune = new Search(space, ev, false, null);
            Map<Integer, Genome> w = retune.passes(main.runnerUp, threads, 1);
            String value = space.value(main.runnerUp, main.runnerUpKnob);
            if (ev.measure(w, limitSeconds) < ev.measure(v, limitSeconds) * (1 - margin)) {
                v = retune.passes(w, space.knobs(), maxPasses);
                note = "; " + main.runnerUpKnob.label() + "=" + value + " re-tuned, faster, " + (retune.passes - 1)
                        + " more pass" + (retune.passes == 2 ? "" : "es");
            } else {
                note = "; " + main.runnerUpKnob.label() + "=" + value + " re-tuned, not faster";
            }
        }
        return ev.result(NAME, v, passes + " pass" + (passes == 1 ? "" : "es") + note);
    }

    /**
     * The passes of one search over some knobs, from an assignment: the values cut per knob, the passes run, and,
     * where it looks for one, the first close decision of a code knob (one outside the thread configuration).
     */
    private final class Search {

        private final TuningSpace space;
        private final Evaluations ev;
        private final boolean watchDecisions;
        /** Per knob, the values cut at {@code cut} times the current value's time when the knob was last scanned. */
        private final Map<TuningSpace.Knob, Set<String>> slow = new HashMap<>();
        int passes;
        /** The assignment that lost the first close decision of a code knob, and that knob (null while none). */
        Map<Integer, Genome> runnerUp;
        TuningSpace.Knob runnerUpKnob;

        /** The search's first measurement while no other value has measured faster than it; null after. */
        private Map<Integer, Genome> firstMeasured;

        Search(TuningSpace space, Evaluations ev, boolean watchDecisions, Map<Integer, Genome> firstMeasured) {
            this.space = space;
            this.ev = ev;
            this.watchDecisions = watchDecisions;
            this.firstMeasured = firstMeasured;
        }

        /** Scans {@code knobs} in order from {@code v}, again until a pass changes nothing or {@code max} ran. */
        Map<Integer, Genome> passes(Map<Integer, Genome> v, List<TuningSpace.Knob> knobs, int max) {
            for (int p = 0; p < max; p++) {
                passes++;
                Map<Integer, Genome> last = v;
                for (TuningSpace.Knob k : knobs) {
                    v = scan(v, k);
                }
                if (v.equals(last)) {
                    break;
                }
            }
            return v;
        }

        /** Tries the values of {@code k} with the others fixed, and returns the assignment the scan keeps. */
        private Map<Integer, Genome> scan(Map<Integer, Genome> v, TuningSpace.Knob k) {
            if (!applies(v, k)) {
                return v;
            }
            if (lines.contains(k.name())) {
                return walk(v, k);
            }
            Set<String> slowBefore = slow.getOrDefault(k, Set.of());
            List<Map<Integer, Genome>> candidates = new ArrayList<>();
            for (String d : k.values()) {
                if (!slowBefore.contains(d)) {
                    candidates.add(space.repair(space.with(v, k, d), k));
                }
            }
            ev.prepare(candidates); // the knob's values compile together
            double currentTime = ev.measure(v, ev.limit(prune, limitSeconds));
            Map<Map<Integer, Genome>, Double> measured = new LinkedHashMap<>();
            measured.put(v, currentTime);
            double bestTime = currentTime;
            Map<Integer, Genome> bestHere = v;
            Set<String> slowNow = new HashSet<>();
            for (Map<Integer, Genome> w : candidates) {
                if (w == null) {
                    continue;
                }
                double t = measureCut(w, k, cut * currentTime, slowNow);
                measured.putIfAbsent(w, t);
                if (t < bestTime) {
                    bestTime = t;
                    bestHere = w;
                }
            }
            slow.put(k, slowNow);
            currentTime = confirmed(v, currentTime, bestTime);
            measured.put(v, currentTime);
            Map<Integer, Genome> kept = bestTime < currentTime * (1 - margin) ? bestHere : v;
            if (watchDecisions && runnerUp == null && !threadDimensions.contains(k.name())) {
                watch(k, kept, measured);
            }
            return kept;
        }

        /** Whether some other value of {@code k} is valid with every other knob as it is in {@code v}. */
        private boolean applies(Map<Integer, Genome> v, TuningSpace.Knob k) {
            String current = space.value(v, k);
            for (String d : k.values()) {
                if (!d.equals(current) && space.valid(space.with(v, k, d))) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Walks knob {@code k} along its ordered values from the current one: measures both neighbours, goes on
         * in the direction of the faster while each step is faster than the best so far, and keeps the best when
         * it is faster than the current value by more than the margin. A value cut at {@code cut} times the
         * current value's time ends its direction, and is not tried again the next time the knob is walked.
         */
        private Map<Integer, Genome> walk(Map<Integer, Genome> v, TuningSpace.Knob k) {
            Set<String> slowBefore = slow.getOrDefault(k, Set.of());
            Set<String> slowNow = new HashSet<>();
            List<String> values = k.values();
            int at = values.indexOf(space.value(v, k));
            double currentTime = ev.measure(v, ev.limit(prune, limitSeconds));
            double cap = cut * currentTime;
            Map<Integer, Genome> best = v;
            double bestTime = currentTime;
            int direction = 0;
            for (int step : new int[] {-1, 1}) {
                Map<Integer, Genome> w = stepTo(v, k, at + step, slowBefore);
                if (w != null) {
                    double t = measureCut(w, k, cap, slowNow);
                    if (t < bestTime) { // below the cap too: bestTime is at most the current value's time
                        best = w;
                        bestTime = t;
                        direction = step;
                    }
                }
            }
            for (int i = at + 2 * direction; direction != 0; i += direction) {
                Map<Integer, Genome> w = stepTo(v, k, i, slowBefore);
                if (w == null) {
                    break;
                }
                double t = measureCut(w, k, cap, slowNow);
                if (t >= bestTime) {
                    break;
                }
                best = w;
                bestTime = t;
            }
            slow.put(k, slowNow);
            return bestTime < confirmed(v, currentTime, bestTime) * (1 - margin) ? best : v;
        }

        /**
         * Measures {@code w}, a value of knob {@code k}, its run cut at {@code cap}; a value cut so joins
         * {@code slowNow}, the values of {@code k} not tried again the next time the knob is scanned or walked.
         */
        private double measureCut(Map<Integer, Genome> w, TuningSpace.Knob k, double cap, Set<String> slowNow) {
            double t = ev.measure(w, Math.min(ev.limit(prune, limitSeconds), cap));
            if (t >= cap) {
                slowNow.add(space.value(w, k));
            }
            return t;
        }

        /**
         * The current assignment's time, measured again first when another value measured under {@link #SUSPECT}
         * of it ({@code bestTime}), or faster than it at all while it is still the search's first measurement.
         */
        private double confirmed(Map<Integer, Genome> v, double currentTime, double bestTime) {
            boolean first = v.equals(firstMeasured) && bestTime < currentTime;
            if (first) {
                firstMeasured = null;
            }
            return first || bestTime < SUSPECT * currentTime
                    ? ev.measureAgain(v, ev.limit(prune, limitSeconds)) : currentTime;
        }

        /** Assignment {@code v} with knob {@code k} at its {@code index}-th value (repaired), or null where none. */
        private Map<Integer, Genome> stepTo(Map<Integer, Genome> v, TuningSpace.Knob k, int index, Set<String> slowBefore) {
            if (index < 0 || index >= k.values().size() || slowBefore.contains(k.values().get(index))) {
                return null;
            }
            return space.repair(space.with(v, k, k.values().get(index)), k);
        }

        /** Notes the fastest other value of code knob {@code k} when it measured within {@link #CLOSE} of the kept. */
        private void watch(TuningSpace.Knob k, Map<Integer, Genome> kept, Map<Map<Integer, Genome>, Double> measured) {
            double keptTime = measured.get(kept);
            Map<Integer, Genome> second = null;
            for (Map.Entry<Map<Integer, Genome>, Double> e : measured.entrySet()) {
                if (!e.getKey().equals(kept) && (second == null || e.getValue() < measured.get(second))) {
                    second = e.getKey();
                }
            }
            if (second != null && measured.get(second) <= CLOSE * keptTime) {
                runnerUp = second;
                runnerUpKnob = k;
            }
        }
    }
}
