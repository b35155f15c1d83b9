package io.tessera.plan;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The order of magnitude a pipeline's shape gives its scanned table, so that profiles do not cross data sizes. */
class PipelineShapeTest {

    @Test
    void theMagnitudeIsThePowerOfTenAtOrBelowTheRowCount() {
        assertEquals("1e0", Pipeline.magnitude(0));
        assertEquals("1e0", Pipeline.magnitude(9));
        assertEquals("1e1", Pipeline.magnitude(10));
        assertEquals("1e6", Pipeline.magnitude(6_001_171));      // SSB SF 1's lineorder
        assertEquals("1e8", Pipeline.magnitude(119_994_608));    // SF 20
        assertEquals("1e8", Pipeline.magnitude(600_038_145));    // SF 100
        assertEquals("1e18", Pipeline.magnitude(Long.MAX_VALUE));
    }
}
