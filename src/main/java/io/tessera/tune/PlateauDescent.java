package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The hash-aggregation tuner's Algorithm 1 over a thread configuration (JVM: workers x morsel; GPU: threads per
 * block x items per thread), run on the input's blocks while the query runs. From the start configuration it
 * follows the gradient to a neighbour (one step in one dimension) that is faster; a neighbour within {@code s} of
 * its reference is a plateau and is explored as a second path; references slower than {@code p} times the
 * fastest are dropped. Each configuration is measured on blocks by {@link BlockWindow} (warm-up outliers dropped
 * with v_max and b_max). It ends when no reference is left, and then runs every block with the fastest.
 */
public final class PlateauDescent implements BlockTuner {

    public static final String NAME = "plateau";
    public static final double S = 0.06;
    public static final double P = 1.07;

    private final TuningSpace space;
    private final double s;
    private final double p;
    private final double vMax;
    private final int bMax;

    private final Map<Map<Integer, Genome>, Double> times = new HashMap<>();
    private final Set<Map<Integer, Genome>> tested = new HashSet<>();
    private final Deque<Map<Integer, Genome>> queue = new ArrayDeque<>();
    private final List<TuningResult.Evaluation> trace = new ArrayList<>();
    private Map<Integer, Genome> fastest;
    private Map<Integer, Genome> pending;
    private Map<Integer, Genome> reference;
    private BlockWindow window;
    private boolean done;
    private double cost;
    private int blocks;

    public PlateauDescent(TuningSpace space) {
        this(space, S, P, BlockWindow.V_MAX, BlockWindow.B_MAX);
    }

    public PlateauDescent(TuningSpace space, double s, double p, double vMax, int bMax) {
        if (!(p > 1)) {
            throw new IllegalArgumentException("the prune factor must exceed 1, got " + p);
        }
        this.space = space;
        this.s = s;
        this.p = p;
        this.vMax = vMax;
        this.bMax = bMax;
        pending = space.start();
        tested.add(pending);
        window = new BlockWindow(vMax, bMax);
    }

    @Override
    public Map<Integer, Genome> next() {
        return pending != null ? pending : fastest;
    }

    @Override
    public void observe(Map<Integer, Genome> a, double seconds) {
        if (done) {
            return;
        }
        cost += seconds;
        blocks++;
        if (pending == null || !a.equals(pending)) {
            return;
        }
        window.add(seconds);
        if (!window.done()) {
            return;
        }
        double t = window.mean();
        times.put(pending, t);
        Map<Integer, Genome> cj = pending;
        pending = null;
        if (reference == null) {
            fastest = cj;
            queue.addFirst(cj);
        } else {
            double ti = times.get(reference);
            if ((1 - s) * ti <= t && t <= (1 + s) * ti) {
                queue.addFirst(cj); // a plateau: explore from both
            } else if (t < ti) {
                replaceFirst(reference, cj); // follow the gradient
            }
            if (t < times.get(fastest)) {
                fastest = cj;
            }
        }
        trace.add(new TuningResult.Evaluation(trace.size(), cj, t, false, cost, times.get(fastest)));
        advance();
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
            if (times.get(ci) > p * times.get(fastest)) {
                queue.pollFirst(); // prune a slow reference
                continue;
            }
            Map<Integer, Genome> cj = untestedNeighbour(ci);
            if (cj == null) {
                queue.pollFirst(); // a local minimum: back to another reference
                continue;
            }
            tested.add(cj);
            pending = cj;
            reference = ci;
            window = new BlockWindow(vMax, bMax);
            return;
        }
        done = true;
    }

    /** The first valid, untested configuration one step away in one dimension (down first, then up). */
    private Map<Integer, Genome> untestedNeighbour(Map<Integer, Genome> c) {
        for (TuningSpace.Knob k : space.knobs()) {
            int i = k.values().indexOf(space.value(c, k));
            for (int j : new int[] {i - 1, i + 1}) {
                if (j < 0 || j >= k.values().size()) {
                    continue;
                }
                Map<Integer, Genome> n = space.with(c, k, k.values().get(j));
                if (!tested.contains(n) && space.valid(n)) {
                    return n;
                }
            }
        }
        return null;
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
        return new TuningResult(NAME, best(), t, times.size(), cost, space.size(), trace,
                (done ? "converged" : "not converged") + " after " + blocks + " blocks, s=" + s + ", p=" + p
                        + ", v_max=" + vMax + ", b_max=" + bMax);
    }
}
