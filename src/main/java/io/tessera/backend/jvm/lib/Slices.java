package io.tessera.backend.jvm.lib;

import io.tessera.sql.SqlError;
import io.tessera.storage.ListCodec;

import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB's slices ({@code array_slice}, {@code x[b:e:s]}) of a list and of a string: positions 1-based, both bounds
 * included, a negative bound counting from the end (-1 the last), bounds outside clamped; a positive step takes every
 * step-th from the begin, a negative one walks from the begin down to the end. A string's positions are code points.
 */
public final class Slices {
    private Slices() {
    }

    /** The slice of an encoded list. */
    public static String list(String list, long begin, long end, long step) {
        List<String> texts = ListCodec.texts(list);
        List<String> kept = new ArrayList<>();
        for (long p : positions(texts.size(), begin, end, step)) {
            kept.add(texts.get((int) p - 1));
        }
        return ListCodec.join(kept.toArray(new String[0]));
    }

    /** The slice of a string (its step 1: DuckDB has no step for strings). */
    public static String text(String s, long begin, long end, long step) {
        int[] cps = s.codePoints().toArray();
        StringBuilder b = new StringBuilder();
        for (long p : positions(cps.length, begin, end, step)) {
            b.appendCodePoint(cps[(int) p - 1]);
        }
        return b.toString();
    }

    /** The 1-based positions a slice of {@code size} takes, in order. */
    static long[] positions(long size, long begin, long end, long step) {
        if (step == 0) {
            throw new SqlError("Slice step cannot be zero");
        }
        long b = begin < 0 ? begin + size + 1 : begin;
        long e = end < 0 ? end + size + 1 : end;
        List<Long> out = new ArrayList<>();
        if (step > 0) {
            for (long p = Math.max(b, 1); p <= Math.min(e, size) && p > 0; p += step) {
                out.add(p); // p > 0: a step that passes Long.MAX_VALUE ends the walk
            }
        } else {
            for (long p = Math.min(b, size); p >= Math.max(e, 1); p += step) {
                out.add(p);
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }
}
