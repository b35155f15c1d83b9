package io.tessera.exec;

import io.tessera.Tessera;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** SQL three-valued logic of computed booleans over nullable columns. */
class ThreeValuedLogicTest {

    @Test
    void orOfTwoFalseOperandsIsFalseNotNull(@TempDir Path dir) {
        // v NOT BETWEEN 10 AND 20 becomes v < 10 OR v > 20; both comparisons FALSE must give FALSE
        TinyTables.write(dir, "t", "id INTEGER NOT NULL, v BIGINT", new Object[]{1, 15L}, new Object[]{2, 5L},
                new Object[]{3, null}, new Object[]{4, 25L});
        try (Tessera t = Tessera.open(dir)) {
            assertEquals(List.of(List.of(1, false), List.of(2, true), Arrays.asList(3, null), List.of(4, true)),
                    TinyTables.rows(t.query("SELECT id, v NOT BETWEEN 10 AND 20 FROM t ORDER BY id")));
            assertEquals(List.of(List.of(1, false), List.of(2, true), Arrays.asList(3, null), List.of(4, true)),
                    TinyTables.rows(t.query("SELECT id, v < 10 OR v > 20 FROM t ORDER BY id")));
        }
    }

    @Test
    void orAndAndFollowTheTruthTables(@TempDir Path dir) {
        TinyTables.write(dir, "t", "id INTEGER NOT NULL, a BOOLEAN, b BOOLEAN",
                new Object[]{1, true, true}, new Object[]{2, true, false}, new Object[]{3, true, null},
                new Object[]{4, false, true}, new Object[]{5, false, false}, new Object[]{6, false, null},
                new Object[]{7, null, true}, new Object[]{8, null, false}, new Object[]{9, null, null});
        try (Tessera t = Tessera.open(dir)) {
            assertEquals(List.of(
                            Arrays.asList(1, true, true), Arrays.asList(2, true, false), Arrays.asList(3, true, null),
                            Arrays.asList(4, true, false), Arrays.asList(5, false, false), Arrays.asList(6, null, false),
                            Arrays.asList(7, true, null), Arrays.asList(8, null, false), Arrays.asList(9, null, null)),
                    TinyTables.rows(t.query("SELECT id, a OR b, a AND b FROM t ORDER BY id")));
        }
    }
}
