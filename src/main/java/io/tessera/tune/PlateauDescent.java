package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The hash-aggregation tuner's Algorithm 1 over a thread configuration (JVM: workers x morsel x access; GPU:
 * threads per block x items per thread), run on the input's blocks while the query runs, from one starting point per
 * parallelization strategy (the paper's section 4, "Optimizing multiple parallelization strategies").
 *
 * <p>The space's knobs are of two kinds: the <em>descent</em> dimensions (the thread configuration) and the
 * others (on the JVM: simd, pred, order, agg). The starting points are the start assignment crossed with
 * every valid combination of the other dimensions' values; all are measured first and all become references
 * before the loop. From each reference it follows the gradient to a neighbour (one step in one descent
 * dimension; never a step in another) that is faster; a neighbour within {@code s} of its reference is a plateau
 * and is explored as a second path; references slower than {@code p} times the fastest are dropped. Each
 * configuration is measured on blocks by {@link BlockWindow} (warm-up outliers dropped with v_max and b_max). The
 * descent ends when no reference is left (or when {@link #endDescent} cuts it). With only descent dimensions there
 * is one starting point, the start assignment: the algorithm as the paper gives it for one strategy.
 *
 * <p>Beyond the paper: a starting point within s of the fastest starting point is descended even when the
 * descent from another has by then found a configuration more than p times faster. The paper's loop prunes it; on SSB
 * q3.4 at SF 20 on the H200 the two probe orders' starting points measured 1.3% apart, the descent from the faster
 * one reached a configuration 15% faster still and pruned the other, which was the faster at the tuned thread
 * configuration by 6%. Starting points that far apart form a plateau, and each is followed, as a neighbour within s
 * of its reference is.
 *
 * <p>Also beyond the paper: the descent's choice is confirmed in {@link FinalRounds} before it is kept. The finalists are
 * the fastest configuration of each code variant (each combination of the other dimensions) measured within
 * {@link #FINALIST_BOUND} of the fastest, the {@link #RUNNERS_UP} next fastest, and each of those code variants
 * under the fastest's thread configuration; the one with the lowest median over the rounds wins, and from then on
 * every block runs it. A starting point pruned on one unlucky measurement thus gets a second chance, a
 * configuration measured fastest by luck is checked against its neighbours, and a code variant pruned at the start's
 * thread configuration is tried at the one the descent found.
 *
 * <p>Also beyond the paper: a step that lost by more than {@link #LOSING_STEP} is not taken again elsewhere in the same
 * code variant (the same knob from the same value to the same value, the other descent knobs at other values). On the
 * 2-core VM every reference a plateau of morsel sizes put in the queue had an untested neighbour with one worker,
 * which ran 1.4 to 2.1x slower each time: 4 to 6 of a query's 20 to 32 configurations (SSB SF 1). A step that loses
 * by that much is no plateau the descent could follow from elsewhere. A step that loses by less is still taken from
 * every reference, as the knobs do interact that far: blocked access lost 1.24x to dynamic at 262144 rows per
 * morsel on q1.1 and won at 131072.
 */
public final class PlateauDescent implements BlockTuner {

    public static final String NAME = "plateau";
    public static final double S = 0.06;
    public static final double P = 1.07;
    /** Finalists are measured within this factor of the fastest. */
    static final double FINALIST_BOUND = 1.5;
    /** The fastest configurations that become finalists besides each code variant's fastest. */
    static final int RUNNERS_UP = 2;
    /** A step this many times slower than its reference is not taken again from another reference of its code variant. */
    static final double LOSING_STEP = 1.5;

    private final TuningSpace space;
    /** The knobs a step of the descent may change. */
    private final List<TuningSpace.Knob> descent;
    private final double s;
    private final double p;
    private final double vMax;
    private final int bMax;
    /** Blocks a measurement averages ({@link BlockWindow}): three, or one where each block is a whole run. */
    private final int window;

    private final Map<Map<Integer, Genome>, Double> times = new HashMap<>();
    private final Set<Map<Integer, Genome>> tested = new HashSet<>();
    private final Deque<Map<Integer, Genome>> queue = new ArrayDeque<>();
    /** Starting points not measured yet; the descent begins once it is empty. */
    private final Deque<Map<Integer, Genome>> starts = new ArrayDeque<>();
    private final List<TuningResult.Evaluation> trace = new ArrayList<>();
    /** Steps that lost by more than {@link #LOSING_STEP}: code variant, knob, the value stepped from and to. */
    private final Set<List<String>> losingSteps = new HashSet<>();
    private Map<Integer, Genome> fastest;
    private Map<Integer, Genome> pending;
    private Map<Integer, Genome> reference;
    private BlockWindow measuring;
    private boolean done;
    /** The finalists' rounds once the descent has ended; null before. */
    private FinalRounds finals;
    private boolean descentCut;
    private double cost;
    private int blocks;
    /** Every starting point, and the fastest one once all are measured. */
    private final Set<Map<Integer, Genome>> allStarts = new HashSet<>();
    private Map<Integer, Genome> fastestStart;

    /** Descends along every knob of the space from its start assignment alone. */
    public PlateauDescent(TuningSpace space) {
        this(space, allKnobs(space));
    }

    /** Descends along the knobs named in {@code descentDimensions}, from one starting point per combination of the others. */
    public PlateauDescent(TuningSpace space, Set<String> descentDimensions) {
        this(space, descentDimensions, S, P, BlockWindow.V_MAX, BlockWindow.B_MAX);
    }

    public PlateauDescent(TuningSpace space, double s, double p, double vMax, int bMax) {
        this(space, allKnobs(space), s, p, vMax, bMax);
    }

    public PlateauDescent(TuningSpace space, Set<String> descentDimensions, double s, double p, double vMax, int bMax) {
        this(space, descentDimensions, s, p, vMax, bMax, BlockWindow.WINDOW);
    }

    /**
     * Descends along the knobs named in {@code descentDimensions}, each configuration measured as the mean of a
     * window of {@code window} blocks.
     */
    PlateauDescent(TuningSpace space, Set<String> descentDimensions, double s, double p, double vMax, int bMax,
                   int window) {
        if (!(p > 1)) {
            throw new IllegalArgumentException("the prune factor must exceed 1, got " + p);
        }
        this.space = space;
        this.descent = space.knobs().stream().filter(k -> descentDimensions.contains(k.name())).toList();
        if (descent.isEmpty()) {
            throw new IllegalArgumentException("no knob of the space is a descent dimension " + descentDimensions);
        }
        this.s = s;
        this.p = p;
        this.vMax = vMax;
        this.bMax = bMax;
        this.window = window;
        starts.addAll(startingPoints(space, descent));
        allStarts.addAll(starts);
        tested.addAll(starts);
        measureNext(starts.pollFirst(), null);
    }

    private static Set<String> allKnobs(TuningSpace space) {
        Set<String> names = new HashSet<>();
        for (TuningSpace.Knob k : space.knobs()) {
            names.add(k.name());
        }
        return names;
    }

    /**
     * The start assignment crossed with every valid combination of the values of the knobs outside the descent,
     * the start assignment first.
     */
    static List<Map<Integer, Genome>> startingPoints(TuningSpace space, List<TuningSpace.Knob> descent) {
        return space.combinations(k -> !descent.contains(k));
    }

    @Override
    public Map<Integer, Genome> next() {
        if (pending != null) {
            return pending;
        }
        return finals != null && !done ? finals.next() : best();
    }

    /** How many starting points there are: one per code variant, measured before the descent. */
    int startingPoints() {
        return allStarts.size();
    }

    /** The starting points not measured yet. */
    @Override
    public List<Map<Integer, Genome>> upcoming() {
        return List.copyOf(starts);
    }

    @Override
    public void observe(Map<Integer, Genome> a, double seconds) {
        if (done) {
            return;
        }
        cost += seconds;
        blocks++;
        if (finals != null) {
            finals.observe(a, seconds);
            if (finals.done()) {
                finish();
            }
            return;
        }
        if (pending == null || !a.equals(pending)) {
            return;
        }
        measuring.add(seconds);
        if (!measuring.done()) {
            return;
        }
        double t = measuring.mean();
        times.put(pending, t);
        Map<Integer, Genome> cj = pending;
        pending = null;
        if (fastest == null || t < times.get(fastest)) {
            fastest = cj;
        }
        trace.add(new TuningResult.Evaluation(trace.size(), cj, t, false, cost, times.get(fastest)));
        if (reference == null) {
            queue.addLast(cj); // a starting point: every one becomes a reference
            if (!starts.isEmpty()) {
                measureNext(starts.pollFirst(), null);
                return;
            }
            // the fastest starting point is explored first; slow ones are pruned when their turn comes
            List<Map<Integer, Genome>> byTime = new ArrayList<>(queue);
            byTime.sort(Comparator.comparingDouble(times::get));
            fastestStart = byTime.get(0);
            queue.clear();
            queue.addAll(byTime);
        } else {
            double ti = times.get(reference);
            if (t > LOSING_STEP * ti) {
                losingSteps.add(step(reference, cj));
            }
            if ((1 - s) * ti <= t && t <= (1 + s) * ti) {
                queue.addFirst(cj); // a plateau: explore from both
            } else if (t < ti) {
                replaceFirst(reference, cj); // follow the gradient
            }
        }
        advance();
    }

    private void measureNext(Map<Integer, Genome> c, Map<Integer, Genome> from) {
        tested.add(c);
        pending = c;
        reference = from;
        measuring = new BlockWindow(window, vMax, bMax);
    }

    private void replaceFirst(Map<Integer, Genome> old, Map<Integer, Genome> with) {
        List<Map<Integer, Genome>> items = new ArrayList<>(queue);
        int i = items.indexOf(old);
        if (i >= 0) {
            items.set(i, with);
        } else {
            items.add(0, with);
        }
        queue.clear();
        queue.addAll(items);
    }

    /** Runs the algorithm's loop until it needs a measurement (pending) or has no reference left (done). */
    private void advance() {
        while (!queue.isEmpty()) {
            Map<Integer, Genome> ci = queue.peekFirst();
            if (times.get(ci) > p * times.get(fastest) && !tiedStart(ci)) {
                queue.pollFirst(); // prune a slow reference
                continue;
            }
            Map<Integer, Genome> cj = untestedNeighbour(ci);
            if (cj == null) {
                queue.pollFirst(); // a local minimum: back to another reference
                continue;
            }
            measureNext(cj, ci);
            return;
        }
        startFinals();
    }

    /**
     * Whether {@code c} is another starting point within s of the fastest one: the strategies' plateau, each
     * descended as the fastest was (its steps that are faster replace it and are pruned as any reference).
     */
    private boolean tiedStart(Map<Integer, Genome> c) {
        return allStarts.contains(c) && !c.equals(fastestStart) && times.get(c) <= (1 + s) * times.get(fastestStart);
    }

    /**
     * Ends the descent where it stands (the run budget is spent) and goes on to the finalists' rounds; does nothing
     * once the descent has ended.
     */
    public void endDescent() {
        if (finals != null || done) {
            return;
        }
        descentCut = true;
        pending = null;
        starts.clear();
        queue.clear();
        startFinals();
    }

    private void startFinals() {
        List<Map<Integer, Genome>> chosen = finalists();
        if (chosen.size() < 2) {
            done = true;
            return;
        }
        finals = new FinalRounds(chosen, FinalRounds.ROUNDS);
    }

    /** Each code variant's fastest within {@link #FINALIST_BOUND} of the fastest, and the next fastest, by time. */
    List<Map<Integer, Genome>> finalists() {
        List<Map<Integer, Genome>> byTime = new ArrayList<>(times.keySet());
        byTime.sort(Comparator.comparingDouble(times::get));
        List<Map<Integer, Genome>> chosen = new ArrayList<>();
        Set<List<String>> codes = new HashSet<>();
        int runnersUp = 0;
        for (Map<Integer, Genome> c : byTime) {
            if (times.get(c) > FINALIST_BOUND * times.get(byTime.get(0))) {
                break;
            }
            boolean newCode = codes.add(code(c));
            if (newCode || runnersUp++ < RUNNERS_UP) {
                chosen.add(c);
            }
        }
        // every other code variant also under the fastest's thread configuration
        Map<Integer, Genome> first = byTime.get(0);
        for (Map<Integer, Genome> c : List.copyOf(chosen)) {
            Map<Integer, Genome> moved = withThreadsOf(c, first);
            if (moved != null && !chosen.contains(moved)) {
                chosen.add(moved);
            }
        }
        return chosen;
    }

    /**
     * Configuration {@code c}'s code variant with {@code threads}' thread configuration (its values of the descent
     * knobs); null when the space does not allow it.
     */
    private Map<Integer, Genome> withThreadsOf(Map<Integer, Genome> c, Map<Integer, Genome> threads) {
        Map<Integer, Genome> out = c;
        for (TuningSpace.Knob k : descent) {
            out = space.with(out, k, space.value(threads, k));
        }
        return space.valid(out) ? out : null;
    }

    /** The values of the knobs the descent does not step along: which code variant a configuration runs. */
    private List<String> code(Map<Integer, Genome> c) {
        List<String> values = new ArrayList<>();
        for (TuningSpace.Knob k : space.knobs()) {
            if (!descent.contains(k)) {
                values.add(space.value(c, k));
            }
        }
        return values;
    }

    /** Keeps the finalist with the lowest median, and records each finalist's median in the trace. */
    private void finish() {
        List<Map<Integer, Genome>> fs = finals.finalists();
        int winner = finals.fastest();
        fastest = fs.get(winner);
        double best = finals.median(winner);
        for (int i = 0; i < fs.size(); i++) {
            trace.add(new TuningResult.Evaluation(trace.size(), fs.get(i), finals.median(i), false, cost, best));
        }
        times.put(fastest, best);
        done = true;
    }

    /**
     * The first valid, untested configuration one step away in one descent dimension (down first, then up), leaving
     * out steps that lost by more than {@link #LOSING_STEP} elsewhere.
     */
    private Map<Integer, Genome> untestedNeighbour(Map<Integer, Genome> c) {
        for (Map<Integer, Genome> n : space.neighbours(c, descent)) {
            if (!tested.contains(n) && !losingSteps.contains(step(c, n))) {
                return n;
            }
        }
        return null;
    }

    /** The step from {@code from} to its neighbour {@code to}: their code variant, the knob, its two values. */
    private List<String> step(Map<Integer, Genome> from, Map<Integer, Genome> to) {
        List<String> key = new ArrayList<>(code(from));
        for (TuningSpace.Knob k : descent) {
            if (!space.value(from, k).equals(space.value(to, k))) {
                key.add(k.label());
                key.add(space.value(from, k));
                key.add(space.value(to, k));
            }
        }
        return key;
    }

    /** Every configuration a block ran: those the descent measured and the finalists (some new to the rounds). */
    private int variantsRun() {
        Set<Map<Integer, Genome>> run = new HashSet<>(times.keySet());
        if (finals != null) {
            run.addAll(finals.finalists());
        }
        return run.size();
    }

    @Override
    public boolean comparingFinalists() {
        return finals != null && !done;
    }

    @Override
    public boolean converged() {
        return done;
    }

    @Override
    public Map<Integer, Genome> best() {
        return fastest != null ? fastest : space.start();
    }

    /** Blocks observed until it converged (or so far). */
    public int blocks() {
        return blocks;
    }

    @Override
    public TuningResult result() {
        double t = fastest == null ? Double.NaN : times.get(fastest);
        String state = !done ? "not converged" : descentCut ? "descent cut, then converged" : "converged";
        String confirmed = finals == null ? "" : ", " + finals.finalists().size() + " finalists in "
                + FinalRounds.ROUNDS + " rounds";
        return new TuningResult(NAME, best(), t, variantsRun(), cost, space.size(), trace,
                state + " after " + blocks + " blocks from " + startingPoints() + " starting point"
                        + (startingPoints() == 1 ? "" : "s") + confirmed + ", s=" + s + ", p=" + p
                        + (window == 1 ? ", each configuration measured on whole runs" : ", v_max=" + vMax + ", b_max=" + bMax));
    }
}
