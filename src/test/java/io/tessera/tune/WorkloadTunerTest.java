package io.tessera.tune;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a workload's tuning keeps in the profile. */
class WorkloadTunerTest {

    @Test
    void aTunedGenomeSlowerThanTheDefaultsBeyondTheNoiseIsNotStored() {
        assertTrue(WorkloadTuner.worthStoring(0.8, 1.0));
        assertTrue(WorkloadTuner.worthStoring(1.0, 1.0), "a tie: the search found nothing better, nothing worse");
        assertTrue(WorkloadTuner.worthStoring(1.04, 1.0), "within the final measurement's noise");
        // q3.1 tuned on the H200 at SSB SF 1: 0.10 ms with the tuned genome against 0.07 ms with the defaults
        assertFalse(WorkloadTuner.worthStoring(0.10e-3, 0.07e-3));
        assertFalse(WorkloadTuner.worthStoring(Double.NaN, 1.0), "a query that failed to measure stores nothing");
    }
}
