package io.tessera.sql;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.RelOptTableImpl;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;

import java.util.List;

/**
 * Constant rows ({@code VALUES}) inside a correlated subquery, held in a scan of a stand-in table while the query is
 * decorrelated: Calcite's decorrelator has no frame for a Values node and leaves the correlation above one in place
 * ({@code UPDATE t SET ... FROM (VALUES (1, 'a'), (2, 'b')) v(k, x) WHERE t.k = v.k}, a LATERAL over VALUES), where
 * it passes a scan as any leaf. {@link #restore} puts the rows back.
 */
final class HeldValues {

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
        if (rel instanceof Values values) {
            RelOptTable table = RelOptTableImpl.create(catalog, values.getRowType(), List.of("values"),
                    new Stand(values), (org.apache.calcite.linq4j.tree.Expression) null);
            return LogicalTableScan.create(rel.getCluster(), table, List.of());
        }
        return RecursiveUnions.withInputs(rel, input -> held(input, catalog));
    }

    /** {@code rel} with the rows {@link #hide} held put back in place. */
    static RelNode restore(RelNode rel) {
        if (rel instanceof TableScan scan && scan.getTable().unwrap(Stand.class) != null) {
            return scan.getTable().unwrap(Stand.class).values;
        }
        return RecursiveUnions.withInputs(rel, HeldValues::restore);
    }

    /** The stand-in table of one Values node. */
    private static final class Stand extends org.apache.calcite.schema.impl.AbstractTable
            implements org.apache.calcite.schema.Wrapper {
        private final Values values;

        Stand(Values values) {
            this.values = values;
        }

        @Override
        public RelDataType getRowType(org.apache.calcite.rel.type.RelDataTypeFactory f) {
            return values.getRowType();
        }

        @Override
        public <C> C unwrap(Class<C> c) {
            return c.isInstance(this) ? c.cast(this) : null;
        }
    }
}
