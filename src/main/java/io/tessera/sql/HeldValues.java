package io.tessera.sql;

import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Values;

import java.util.List;

/**
 * Constant rows ({@code VALUES}) inside a correlated subquery, held in a scan of a stand-in table while the query is
 * decorrelated: Calcite's decorrelator has no frame for a Values node and leaves the correlation above one in place
 * ({@code UPDATE t SET ... FROM (VALUES (1, 'a'), (2, 'b')) v(k, x) WHERE t.k = v.k}, a LATERAL over VALUES), where
 * it passes a scan as any leaf. {@link #restore} puts the rows back.
 */
final class HeldValues {

    /** The name of a Values node's stand-in table. */
    private static final String STAND_IN = "values";

    private HeldValues() {
    }

    /** {@code rel} with each Values under the right input of a Correlate held in a stand-in scan. */
    static RelNode hide(RelNode rel, CalciteCatalogReader catalog) {
        if (rel instanceof Correlate c) {
            return c.copy(c.getTraitSet(), List.of(hide(c.getLeft(), catalog), held(c.getRight(), catalog)));
        }
        return RecursiveUnions.withInputs(rel, input -> hide(input, catalog));
    }

    private static RelNode held(RelNode rel, CalciteCatalogReader catalog) {
        if (rel instanceof Values) {
            return StandInTable.scan(STAND_IN, rel, catalog);
        }
        return RecursiveUnions.withInputs(rel, input -> held(input, catalog));
    }

    /** {@code rel} with the rows {@link #hide} held put back in place. */
    static RelNode restore(RelNode rel) {
        return StandInTable.restore(rel, STAND_IN);
    }
}
