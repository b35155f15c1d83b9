package io.tessera.tune;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Measures one configuration over blocks, dropping warm-up outliers as the hash-aggregation tuner does: three
 * blocks first; while their range (max - min) over their mean exceeds {@code vMax}, drop the oldest and run one
 * more block, up to {@code bMax} blocks. The measurement is the mean of the last three. A window of one block
 * measures whole runs of a query, each of which has dropped its own warm-up ({@link WholeRuns}).
 */
public final class BlockWindow {

    public static final int WINDOW = 3;
    public static final double V_MAX = 0.019;
    public static final int B_MAX = 10;

    private final int size;
    private final double vMax;
    private final int bMax;
    private final Deque<Double> window = new ArrayDeque<>();
    private int blocks;

    public BlockWindow() {
        this(V_MAX, B_MAX);
    }

    public BlockWindow(double vMax, int bMax) {
        this(WINDOW, vMax, bMax);
    }

    /** A window of the last {@code size} blocks. */
    public BlockWindow(int size, double vMax, int bMax) {
        if (size < 1) {
            throw new IllegalArgumentException("a window needs at least one block, got " + size);
        }
        if (bMax < size) {
            throw new IllegalArgumentException("b_max must be at least the window's " + size + " blocks, got " + bMax);
        }
        this.size = size;
        this.vMax = vMax;
        this.bMax = bMax;
    }

    public void add(double seconds) {
        window.addLast(seconds);
        blocks++;
        if (window.size() > size) {
            window.removeFirst();
        }
    }

    /** Whether the measurement is complete. */
    public boolean done() {
        return window.size() >= size && (variation() <= vMax || blocks >= bMax);
    }

    /** (max - min) / mean of the window. */
    public double variation() {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : window) {
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return (max - min) / mean();
    }

    public double mean() {
        double s = 0;
        for (double v : window) {
            s += v;
        }
        return s / window.size();
    }

    /** Blocks measured, outliers included. */
    public int blocks() {
        return blocks;
    }
}
