package io.tessera.difftest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The TPC-H differential queries with every outer, semi and anti join building its preserved side
 * ({@code tessera.joins.preserved=build}), whatever the estimates say: Q13's LEFT join, Q21's EXISTS and NOT EXISTS,
 * Q22's NOT EXISTS and the joins of Q2, Q17, Q20 and others that decorrelation makes outer joins.
 */
class TpchPreservedBuildDifferentialTest extends TpchDifferentialTest {

    private static final String PROPERTY = "tessera.joins.preserved";
    private String before;

    @BeforeAll
    void buildPreservedSides() {
        before = System.getProperty(PROPERTY);
        System.setProperty(PROPERTY, "build");
    }

    @AfterAll
    void restore() {
        if (before == null) {
            System.clearProperty(PROPERTY);
        } else {
            System.setProperty(PROPERTY, before);
        }
    }
}
