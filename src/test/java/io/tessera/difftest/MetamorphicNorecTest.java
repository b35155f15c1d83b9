package io.tessera.difftest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Non-optimizing reference engine construction over random schemas, with no reference engine: a predicate as a
 * filter counts as many rows as the same predicate evaluated in the select list ({@link NorecCheck}), over one
 * table and over joins. 12 schemas of 50 checks each (600) from fixed seeds; {@link MetamorphicRunner} says how to
 * explore other seeds and replay a failure.
 */
class MetamorphicNorecTest {

    @Test
    void aFilterCountsWhatTheProjectedPredicateCounts(@TempDir Path dir) {
        int ran = MetamorphicRunner.run(dir, "NoREC", 12, 50, NorecCheck::generate);
        assertTrue(ran >= Integer.getInteger("tessera.metamorphic.minimum", 540), ran + " checks ran");
    }
}
