package io.tessera.plan;

/** A known inclusive range of an integer-valued key (from column statistics or a dictionary's size). */
public record KeyRange(long min, long max) {
    public long size() {
        return max - min + 1;
    }
}
