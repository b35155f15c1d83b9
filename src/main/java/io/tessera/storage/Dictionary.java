package io.tessera.storage;

import java.lang.foreign.MemorySegment;
import java.util.Collection;
import java.util.TreeSet;

/**
 * The sorted, distinct strings of one VARCHAR column. A value's code is its index, so codes compare as the
 * strings do (by code point, {@link CodePointOrder}, which is the order of their UTF-8 bytes): equality and
 * ranges on strings become equality and ranges on codes. A stored column's dictionary is read in place from its
 * memory-mapped file ({@link MappedDictionary}), a string decoded only when asked for; one made while a query runs
 * holds its strings ({@link HeapDictionary}).
 */
public abstract sealed class Dictionary permits HeapDictionary, MappedDictionary {

    Dictionary() {
    }

    /** The dictionary of {@code sortedDistinct}, which must be strictly increasing in {@link CodePointOrder}. */
    public static Dictionary ofSorted(String[] sortedDistinct) {
        return new HeapDictionary(sortedDistinct);
    }

    /** The dictionary of the distinct strings of {@code strings} (any order, repeats allowed). */
    public static Dictionary of(Collection<String> strings) {
        TreeSet<String> set = new TreeSet<>(CodePointOrder.ORDER);
        set.addAll(strings);
        return new HeapDictionary(set.toArray(new String[0]));
    }

    /** The dictionary stored in {@code file} (either file form, {@link DictionaryFile}), read where it lies. */
    static Dictionary open(MemorySegment file, String fileName) {
        return MappedDictionary.open(file, fileName);
    }

    /** How many strings it holds; codes are {@code 0 .. size() - 1}. */
    public abstract int size();

    /** The string of {@code code}. */
    public abstract String value(int code);

    /** The code of {@code s}, or -1 when the column does not hold it. */
    public int code(String s) {
        int i = search(s);
        return i >= 0 ? i : -1;
    }

    /** The first code whose string is >= s (size() if none). */
    public int lowerBound(String s) {
        int i = search(s);
        return i >= 0 ? i : -i - 1;
    }

    /** The first code whose string is > s (size() if none). */
    public int upperBound(String s) {
        int i = search(s);
        return i >= 0 ? i + 1 : -i - 1;
    }

    /** As {@link java.util.Arrays#binarySearch}: the code of {@code s}, else -(insertion point) - 1. */
    abstract int search(String s);
}
