package io.tessera.tune;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimedRunsTest {

    @Test
    void theFastestRunUnderTheLimitIsTheTime() {
        TimedRuns t = new TimedRuns(0.010);
        assertFalse(t.add(0.008));
        assertFalse(t.add(0.007));
        assertFalse(t.add(0.009));
        assertFalse(t.pruned());
        assertEquals(0.007, t.seconds());
    }

    @Test
    void oneRunOverTheLimitIsNoise() {
        TimedRuns t = new TimedRuns(0.010);
        assertFalse(t.add(0.019), "a single run over the limit does not prune");
        assertFalse(t.stopped(), "more runs follow");
        assertFalse(t.add(0.008));
        assertFalse(t.add(0.012), "nor does one after a run under it");
        assertFalse(t.add(0.011));
        assertFalse(t.pruned());
        assertEquals(0.008, t.seconds());
    }

    @Test
    void aSecondRunOverTheLimitWithNoneUnderItPrunes() {
        TimedRuns t = new TimedRuns(0.010);
        assertFalse(t.add(0.013));
        assertTrue(t.add(0.010), "a run stopped at the limit counts as over it");
        assertTrue(t.pruned());
        assertTrue(t.stopped());
        assertEquals(0.010, t.seconds(), "the faster of the two, a lower bound");
        assertThrows(IllegalStateException.class, () -> t.add(0.005), "a pruned measurement takes no more runs");
    }

    @Test
    void aLoneRunOverTheLimitIsPrunedWhenNoMoreFollow() {
        TimedRuns t = new TimedRuns(0.010);
        assertThrows(IllegalStateException.class, t::seconds, "no run yet");
        t.add(0.015);
        assertTrue(t.pruned());
        assertEquals(0.015, t.seconds());
    }
}
