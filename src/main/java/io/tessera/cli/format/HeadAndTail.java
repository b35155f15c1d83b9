package io.tessera.cli.format;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The first and the last items of a sequence of any length, and how many there were: what a long result shows in
 * the shell (its first and last rows with a count, as DuckDB shows them), in memory for the shown items only.
 */
final class HeadAndTail<T> {

    private final int headSize;
    private final int tailSize;
    private final List<T> head = new ArrayList<>();
    private final ArrayDeque<T> tail = new ArrayDeque<>();
    private long count;

    /** Keeps at most {@code shown} items: the first half (rounded up) and the last half. */
    HeadAndTail(int shown) {
        this.headSize = (shown + 1) / 2;
        this.tailSize = shown - headSize;
    }

    void add(T item) {
        count++;
        if (head.size() < headSize) {
            head.add(item);
            return;
        }
        if (tailSize == 0) {
            return;
        }
        if (tail.size() == tailSize) {
            tail.removeFirst();
        }
        tail.addLast(item);
    }

    long count() {
        return count;
    }

    /** Whether items were left out between the head and the tail. */
    boolean cut() {
        return count > head.size() + tail.size();
    }

    List<T> head() {
        return head;
    }

    List<T> tail() {
        return new ArrayList<>(tail);
    }

    /** How many items are kept. */
    int shown() {
        return head.size() + tail.size();
    }
}
