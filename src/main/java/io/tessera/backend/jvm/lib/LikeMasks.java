package io.tessera.backend.jvm.lib;

import io.tessera.storage.Dictionary;

import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * LIKE masks made already ({@link Runtime#likeMask}): per dictionary and pattern, whether each code's string
 * matches. A dictionary never changes (a table's generation is written once), so a mask holds for as long as the
 * dictionary lives, and a query run again, or another with the same pattern, finds it instead of decoding every
 * string once more (TPC-H Q13's 1.5M order comments at SF 1: 150 MB of strings made and matched each run). The masks
 * are kept by the dictionary's identity without keeping it alive, the least recently used dropped beyond
 * {@link #BUDGET_BYTES}; they are only read once made, by any number of threads.
 */
final class LikeMasks {

    /** The masks' bytes kept at most (a mask is a byte per code of its dictionary). */
    static final long BUDGET_BYTES = 64L << 20;

    /** A dictionary, by identity and without keeping it alive, and a pattern. */
    private record Key(WeakReference<Dictionary> dictionary, int identity, String regex) {
        Key(Dictionary d, String regex) {
            this(new WeakReference<>(d), System.identityHashCode(d), regex);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.identity == identity && k.regex.equals(regex)
                    && k.dictionary.get() != null && k.dictionary.get() == dictionary.get();
        }

        @Override
        public int hashCode() {
            return identity * 31 + regex.hashCode();
        }
    }

    private static final LinkedHashMap<Key, boolean[]> MASKS = new LinkedHashMap<>(16, 0.75f, true);
    private static long bytes;

    private LikeMasks() {
    }

    /** The mask of {@code regex} over {@code d}, made by {@code make} where none is kept. */
    static boolean[] of(Dictionary d, String regex, Supplier<boolean[]> make) {
        Key key = new Key(d, regex);
        synchronized (MASKS) {
            boolean[] kept = MASKS.get(key);
            if (kept != null) {
                return kept;
            }
        }
        boolean[] mask = make.get();
        if (mask.length > BUDGET_BYTES / 4) {
            return mask; // too large to keep beside others
        }
        synchronized (MASKS) {
            if (MASKS.putIfAbsent(key, mask) == null) {
                bytes += mask.length;
            }
            Iterator<Map.Entry<Key, boolean[]>> oldest = MASKS.entrySet().iterator();
            while (oldest.hasNext() && bytes > BUDGET_BYTES) {
                bytes -= oldest.next().getValue().length;
                oldest.remove();
            }
            // masks of dictionaries no longer in use go at once
            MASKS.entrySet().removeIf(e -> {
                boolean gone = e.getKey().dictionary().get() == null;
                if (gone) {
                    bytes -= e.getValue().length;
                }
                return gone;
            });
        }
        return mask;
    }
}
