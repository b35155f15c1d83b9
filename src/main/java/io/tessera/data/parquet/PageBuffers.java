package io.tessera.data.parquet;

import java.util.ArrayList;
import java.util.List;

/**
 * A decoding thread's arrays for one column chunk at a time: the chunk's bytes as read and each decompressed page.
 * A row group's chunks are decoded one after another, so the next chunk may reuse the last one's arrays; allocated
 * anew for every page, they were a fifth of an import's allocations. An array handed out stays the caller's until
 * the next {@link #reset}.
 */
final class PageBuffers {

    private static final ThreadLocal<PageBuffers> THREAD = ThreadLocal.withInitial(PageBuffers::new);

    private final List<byte[]> arrays = new ArrayList<>();
    private int used;

    /** This thread's buffers, reset: nothing handed out before is in use any more. */
    static PageBuffers forThisThread() {
        PageBuffers b = THREAD.get();
        b.reset();
        return b;
    }

    /** The arrays handed out so far may be handed out again. */
    void reset() {
        used = 0;
    }

    /** An array of at least {@code size} bytes, not handed out since the last reset (its contents are garbage). */
    byte[] take(int size) {
        if (used < arrays.size() && arrays.get(used).length >= size) {
            return arrays.get(used++);
        }
        byte[] b = new byte[size];
        if (used < arrays.size()) {
            arrays.set(used, b);
        } else {
            arrays.add(b);
        }
        used++;
        return b;
    }
}
