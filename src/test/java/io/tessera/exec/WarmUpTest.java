package io.tessera.exec;

import io.tessera.backend.jvm.gen.JavaCompiler;
import io.tessera.sql.CalciteSetup;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The first query's warm-up plans its query over no tables as any query is planned, and leaves nothing a query reads:
 * no class in the class cache, nothing added to the compile count that {@code bench constants} and its tests read.
 */
class WarmUpTest {

    @Test
    void theWarmUpQueryIsPlannedOverNoTables() {
        assertEquals(List.of("k", "s", "n"), CalciteSetup.warmUp().fieldNames());
    }

    @Test
    void theWarmUpCompilesOutsideTheClassCacheAndItsCount() {
        long compiles = JavaCompiler.compiles();
        assertEquals(2, WarmUp.run(), "a filtered aggregation and a sort, compiled");
        assertEquals(2, WarmUp.run());
        assertEquals(compiles, JavaCompiler.compiles());
    }
}
