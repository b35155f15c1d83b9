package io.tessera.difftest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ternary logic partitioning over random schemas, with no reference engine: a query equals the union of itself
 * restricted by {@code p}, {@code NOT p} and {@code p IS NULL}, for plain rows, UNION ALL, SELECT DISTINCT,
 * COUNT/SUM/MIN/MAX and GROUP BY, over one table and over joins ({@link TlpCheck}). 8 schemas of 50 checks each (400)
 * from fixed seeds; {@link MetamorphicRunner} says how to explore other seeds and replay a failure.
 */
class MetamorphicTlpTest {

    @Test
    void partitionsByAPredicateAddUpToTheQuery(@TempDir Path dir) {
        int ran = MetamorphicRunner.run(dir, "TLP", 8, 50, TlpCheck::generate);
        assertTrue(ran >= Integer.getInteger("tessera.metamorphic.minimum", 360), ran + " checks ran");
    }
}
