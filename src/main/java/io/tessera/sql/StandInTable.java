package io.tessera.sql;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.RelOptTableImpl;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;

import java.util.List;

/**
 * A table that holds a relation in its place while Calcite's decorrelator runs, which passes a scan as any leaf
 * where it has no rule for the relation itself (a recursive union, {@link RecursiveUnions}; constant rows,
 * {@link HeldValues}; an aggregation of constant keys, {@link ConstantKeyAggregates}). Each user names its stand-ins, so that each puts back only its own.
 */
final class StandInTable extends org.apache.calcite.schema.impl.AbstractTable
        implements org.apache.calcite.schema.Wrapper {

    private final String name;
    private final RelNode held;

    private StandInTable(String name, RelNode held) {
        this.name = name;
        this.held = held;
    }

    /** A scan of a stand-in table named {@code name} holding {@code held}. */
    static RelNode scan(String name, RelNode held, CalciteCatalogReader catalog) {
        RelOptTable table = RelOptTableImpl.create(catalog, held.getRowType(), List.of(name),
                new StandInTable(name, held), (org.apache.calcite.linq4j.tree.Expression) null);
        return LogicalTableScan.create(held.getCluster(), table, List.of());
    }

    /** What {@code rel} holds when it is a scan of a stand-in table named {@code name}; else null. */
    static RelNode held(RelNode rel, String name) {
        if (rel instanceof TableScan scan) {
            StandInTable t = scan.getTable().unwrap(StandInTable.class);
            if (t != null && t.name.equals(name)) {
                return t.held;
            }
        }
        return null;
    }

    /** {@code rel} with every scan of a stand-in table named {@code name} replaced by what it holds. */
    static RelNode restore(RelNode rel, String name) {
        RelNode held = held(rel, name);
        if (held != null) {
            return held;
        }
        return RecursiveUnions.withInputs(rel, input -> restore(input, name));
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory f) {
        return held.getRowType();
    }

    @Override
    public <C> C unwrap(Class<C> c) {
        return c.isInstance(this) ? c.cast(this) : null;
    }
}
