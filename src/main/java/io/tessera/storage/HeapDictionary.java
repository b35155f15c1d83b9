package io.tessera.storage;

import java.util.Arrays;

/** A dictionary that holds its strings: those made while a query runs, small ones, tests. */
final class HeapDictionary extends Dictionary {

    private final String[] values;

    /** {@code sortedDistinct} must be strictly increasing in {@link CodePointOrder}. */
    HeapDictionary(String[] sortedDistinct) {
        this.values = sortedDistinct;
    }

    @Override
    public int size() {
        return values.length;
    }

    @Override
    public String value(int code) {
        return values[code];
    }

    @Override
    int search(String s) {
        return Arrays.binarySearch(values, s, CodePointOrder.ORDER);
    }
}
