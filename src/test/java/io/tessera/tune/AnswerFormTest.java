package io.tessera.tune;

import io.tessera.bench.TinySsbDatabase;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which answers count as the same when a variant's answer is checked: ties at a LIMIT's cut may differ. */
class AnswerFormTest {

    @RegisterExtension
    static final TinySsbDatabase SSB = new TinySsbDatabase(5, 3_000);

    static AnswerForm form(String sql) {
        return AnswerForm.of(new QueryEngine(SSB.db(), 1, Device.CPU, null).plan(sql));
    }

    static List<String> compared(AnswerForm f, Object[]... rows) {
        return f.compared(List.of(rows), Arrays::toString);
    }

    static Object[] row(Object... values) {
        return values;
    }

    @Test
    void aTopKsRowsTiedAtItsCutCompareByTheirSortKeysAlone() {
        AnswerForm f = form("select lo_orderkey, lo_quantity from lineorder order by lo_quantity desc limit 3");
        assertTrue(f.cut());
        List<String> one = compared(f, row(7, 50), row(9, 49), row(12, 49));
        // the other row of quantity 49, kept by a run that met it first
        assertEquals(one, compared(f, row(7, 50), row(12, 49), row(30, 49)));
        // a row above the tie is compared in full
        assertNotEquals(one, compared(f, row(8, 50), row(9, 49), row(12, 49)));
        // and the keys themselves, and the number of tied rows
        assertNotEquals(one, compared(f, row(7, 50), row(9, 49), row(12, 48)));
        assertNotEquals(one, compared(f, row(7, 50), row(9, 50), row(12, 49)));
    }

    @Test
    void afterAnOffsetTheTieWithTheFirstRowIsCutToo() {
        AnswerForm f = form("select lo_orderkey, lo_quantity from lineorder order by lo_quantity limit 3 offset 4");
        List<String> one = compared(f, row(1, 2), row(5, 3), row(6, 4));
        assertEquals(one, compared(f, row(3, 2), row(5, 3), row(9, 4)));
        assertNotEquals(one, compared(f, row(3, 2), row(8, 3), row(9, 4)));
    }

    @Test
    void aLimitWithoutOrderComparesTheNumberOfRowsAlone() {
        AnswerForm f = form("select lo_orderkey from lineorder where lo_quantity < 10 limit 2");
        assertEquals(compared(f, row(1), row(2)), compared(f, row(40), row(41)));
        assertNotEquals(compared(f, row(1), row(2)), compared(f, row(1)));
    }

    @Test
    void anAnswerWithoutACutComparesEveryRowInFullInAnyOrder() {
        AnswerForm f = form("select lo_quantity, count(*) from lineorder group by lo_quantity order by lo_quantity");
        assertFalse(f.cut());
        assertEquals(compared(f, row(1, 10L), row(2, 12L)), compared(f, row(2, 12L), row(1, 10L)));
        assertNotEquals(compared(f, row(1, 10L), row(2, 12L)), compared(f, row(1, 10L), row(2, 13L)));
    }

    @Test
    void everyVariantOfATopKWithTiesPassesItsCheck() {
        // 50 quantities over 3000 rows: the cut falls in a tie; every variant's answer is checked against the default's
        TuningDevice cpu = TuningDevice.parse("cpu");
        Target t = cpu.target(SSB.db(), "select lo_orderkey, lo_quantity from lineorder order by lo_quantity desc limit 5");
        Strategies.Settings settings = Strategies.Settings.DEFAULT;
        TuningResult r = assertDoesNotThrow(() -> Strategies.run("exhaustive", t, t.defaults(), settings));
        assertTrue(r.variants() > 1, r.variants() + " variants");
    }
}
