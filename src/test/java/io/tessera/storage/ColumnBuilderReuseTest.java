package io.tessera.storage;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A builder emptied with {@link ColumnBuilder#clear} and filled again (an importer reusing its batches) holds only
 * the new batch's rows, values and nulls, whichever way its strings arrive.
 */
class ColumnBuilderReuseTest {

    private static void appendUtf8(ColumnBuilder b, String v) {
        byte[] bytes = ("<" + v + ">").getBytes(StandardCharsets.UTF_8);
        b.appendUtf8(bytes, 1, bytes.length - 2);
    }

    private static List<Object> values(ColumnBuilder b) {
        List<Object> out = new ArrayList<>();
        for (int r = 0; r < b.size(); r++) {
            out.add(b.get(r));
        }
        return out;
    }

    @Test
    void stringsAsBytesAfterClearAreTheNewBatchsOnly() {
        ColumnBuilder b = new ColumnBuilder(DataType.VARCHAR, 4);
        b.reserveUtf8(3, 64);
        for (int i = 0; i < 5000; i++) { // past the point where values stop being looked up
            appendUtf8(b, "first batch " + i);
        }
        b.appendNull();
        b.clear();
        assertEquals(0, b.size());
        assertFalse(b.hasNulls());
        appendUtf8(b, "x");
        appendUtf8(b, "ü y");
        appendUtf8(b, "x");
        b.appendNull();
        assertEquals(java.util.Arrays.asList("x", "ü y", "x", null), values(b));
        assertEquals(List.of("x", "ü y"), b.localValues(), "repeats looked up again: a new batch starts looking");
        assertTrue(b.isNull(3));
    }

    @Test
    void stringsAfterBytesGoBackToStrings() {
        ColumnBuilder b = new ColumnBuilder(DataType.VARCHAR, 4);
        appendUtf8(b, "bytes");
        b.clear();
        b.appendString("text");
        appendUtf8(b, "more");
        assertEquals(List.of("text", "more"), values(b));
        assertNull(b.localUtf8(), "a batch whose first value is a String keeps strings");
        b.clear();
        appendUtf8(b, "bytes again");
        assertEquals(List.of("bytes again"), values(b));
        assertEquals(List.of("bytes again"), b.localValues());
    }

    @Test
    void numbersAfterClearStartAtRowZero() {
        ColumnBuilder b = new ColumnBuilder(DataType.BIGINT, 2);
        b.appendLongs(new long[] {1, 2, 3, 4, 5}, 0, 5);
        b.appendNull();
        b.clear();
        b.appendLong(7);
        assertEquals(List.of(7L), values(b));
        assertFalse(b.hasNulls());
    }
}
