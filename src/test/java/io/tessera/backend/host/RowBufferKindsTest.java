package io.tessera.backend.host;

import io.tessera.backend.ValueKind;
import io.tessera.bench.TinySsbDatabase;
import io.tessera.exec.QueryEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A buffer's column kinds are its own: encoding its strings as codes leaves the layout it was made with (an emitted
 * pipeline's, which its next run's buffers are made with) as it was.
 */
class RowBufferKindsTest {

    @RegisterExtension
    static final TinySsbDatabase SSB = new TinySsbDatabase(5, 2_000);

    @Test
    void encodingStringsLeavesTheLayoutItWasMadeWith() {
        ValueKind[] layout = {ValueKind.INT, ValueKind.STRING};
        RowBuffer b = new RowBuffer(layout, 4);
        int w = b.next();
        b.ints[0][w] = 1;
        b.strings[1][w] = "x";
        b.encodeStrings(1);
        assertEquals(ValueKind.CODE, b.kinds[1]);
        assertArrayEquals(new ValueKind[] {ValueKind.INT, ValueKind.STRING}, layout);
    }

    @Test
    void aPreparedQueryWithAComputedStringInAJoinTableRunsTwice() {
        QueryEngine engine = new QueryEngine(SSB.db(), 2);
        // the build side carries a string the query computes: its buffer's column is encoded when the table is built
        QueryEngine.Prepared p = engine.prepare("SELECT COUNT(*), MIN(x.s) FROM lineorder,"
                + " (SELECT s_suppkey AS k, LOWER(s_name) || 'x' AS s FROM supplier) x WHERE lo_suppkey = x.k");
        Object[] first = engine.run(p).rows().get(0);
        Object[] second = engine.run(p).rows().get(0);
        assertEquals(Arrays.asList(first), Arrays.asList(second));
        assertEquals(2_000L, ((Number) first[0]).longValue());
    }
}
