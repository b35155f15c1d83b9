package io.tessera.sql;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** "Did you mean": the names within a few edits of a misspelt one, the closest first. */
class DidYouMeanTest {

    @Test
    void editsAndSwapsOfNeighboursCountOneEach() {
        assertEquals(1, DidYouMean.distance("lineitme", "lineitem"));
        assertEquals(1, DidYouMean.distance("l_quantiy", "l_quantity"));
        assertEquals(1, DidYouMean.distance("sqr", "sqrt"));
        assertEquals(2, DidYouMean.distance("ordres", "order"));
        assertEquals(0, DidYouMean.distance("", ""));
        assertEquals(4, DidYouMean.distance("", "abcd"));
    }

    @Test
    void theClosestNamesAreSuggestedIgnoringCase() {
        List<String> tables = List.of("lineitem", "orders", "part", "partsupp", "customer");
        assertEquals("; did you mean lineitem?", DidYouMean.hint("LINEITME", tables));
        assertEquals("; did you mean orders?", DidYouMean.hint("order", tables));
        assertEquals("; did you mean part?", DidYouMean.hint("prt", tables));
        // equally close names, in name order
        assertEquals("; did you mean a1, a2 or a3?", DidYouMean.hint("a0", List.of("a3", "a2", "b9", "a1")));
    }

    @Test
    void aNameFarFromEveryKnownOneGetsNoHint() {
        assertEquals("", DidYouMean.hint("nation", List.of("lineitem", "orders")));
        assertEquals("", DidYouMean.hint("x", List.of()));
        // the same name failed for another reason: no suggestion of itself
        assertEquals("", DidYouMean.hint("Orders", List.of("orders")));
        // a short name may be one edit away, not two
        assertEquals("", DidYouMean.hint("abc", List.of("xyc")));
    }
}
