package io.tessera.sql;

import io.tessera.storage.Table;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.RelOptTableImpl;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.TableSpool;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexLiteral;

import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a recursive query ({@code WITH RECURSIVE}), as Calcite plans it: a {@link RepeatUnion} of a seed and a
 * step that reads the rows of the iteration before through a scan of a transient table. The executor runs the seed,
 * then the step over each iteration's new rows until there are none, and the query then reads all the rows as a
 * table; this class takes the plan apart and puts it together for that.
 */
public final class RecursiveUnions {

    private RecursiveUnions() {
    }

    /** Whether {@code rel} holds a recursive union. */
    public static boolean any(RelNode rel) {
        return RuleTargets.any(rel, RepeatUnion.class::isInstance);
    }

    /** What the executor makes of one recursive union. */
    @FunctionalInterface
    public interface Computation {
        /**
         * The plan that gives {@code union}'s rows; {@code rowsNeeded}: how many rows the query reads from it at most
         * (a LIMIT above it with nothing between that drops or orders rows), else -1.
         */
        RelNode rows(RepeatUnion union, long rowsNeeded);
    }

    /** {@code rel} with each outermost recursive union replaced by what {@code computed} makes of it. */
    public static RelNode replace(RelNode rel, Computation computed) {
        return replace(rel, -1, computed);
    }

    private static RelNode replace(RelNode rel, long rowsNeeded, Computation computed) {
        if (rel instanceof RepeatUnion union) {
            return computed.rows(union, rowsNeeded);
        }
        // a LIMIT without ORDER BY reads only its first rows, through projections that keep every row
        long below = rel instanceof Project ? rowsNeeded
                : rel instanceof Sort sort && sort.getCollation().getFieldCollations().isEmpty() && sort.fetch != null
                        ? limit(sort) : -1;
        return withInputs(rel, input -> replace(input, below, computed));
    }

    /** The rows a LIMIT (and OFFSET) reads, where both are constants; else -1. */
    private static long limit(Sort sort) {
        if (!(sort.fetch instanceof RexLiteral fetch) || sort.offset != null && !(sort.offset instanceof RexLiteral)) {
            return -1;
        }
        long offset = sort.offset == null ? 0 : ((RexLiteral) sort.offset).getValueAs(Long.class);
        Long n = fetch.getValueAs(Long.class);
        return n == null || n > Long.MAX_VALUE - offset ? -1 : offset + n;
    }

    /** The query of the first iteration (the part before UNION). */
    public static RelNode seed(RepeatUnion union) {
        return unspooled(union.getSeedRel());
    }

    /** The query of a later iteration, reading {@code previous} (the rows the iteration before added). */
    public static RelNode step(RepeatUnion union, RelNode previous) {
        RelOptTable transientTable = union.getTransientTable();
        return readingPrevious(unspooled(union.getIterativeRel()), transientTable, previous);
    }

    /**
     * A scan of {@code table} (rows the executor made), its columns cast to {@code rowType}: the recursive union's own
     * types, which the step's expressions were typed against.
     */
    public static RelNode scan(RelOptCluster cluster, CalciteCatalogReader catalog, Table table, RelDataType rowType) {
        CatalogTable stored = new CatalogTable(table);
        RelOptTable relTable = RelOptTableImpl.create(catalog, stored.getRowType(cluster.getTypeFactory()),
                List.of(table.name()), stored, (org.apache.calcite.linq4j.tree.Expression) null);
        RelNode scan = LogicalTableScan.create(cluster, relTable, List.of());
        return RelOptUtil.createCastRel(scan, rowType, true);
    }

    /** The name of a recursive union's stand-in table while the query around it is decorrelated. */
    private static final String STAND_IN = "recursive";

    /**
     * {@code rel} with each recursive union's seed and step passed through {@code decorrelate} on their own and the
     * union then held in a scan of a stand-in table, which Calcite's decorrelator (that has no rule for a union
     * that repeats) passes as any scan: a correlated subquery over a recursive query then decorrelates.
     * {@link #restore} puts the unions back.
     */
    static RelNode hide(RelNode rel, CalciteCatalogReader catalog, java.util.function.UnaryOperator<RelNode> decorrelate) {
        if (rel instanceof RepeatUnion union) {
            List<RelNode> parts = new ArrayList<>();
            for (RelNode input : union.getInputs()) {
                parts.add(decorrelated(input, catalog, decorrelate));
            }
            return StandInTable.scan(STAND_IN, union.copy(union.getTraitSet(), parts), catalog);
        }
        return withInputs(rel, input -> hide(input, catalog, decorrelate));
    }

    /** A union's seed or step decorrelated, its spool kept (the step's spool names the transient table). */
    private static RelNode decorrelated(RelNode part, CalciteCatalogReader catalog,
                                        java.util.function.UnaryOperator<RelNode> decorrelate) {
        if (part instanceof TableSpool spool) {
            RelNode inner = hide(spool.getInput(), catalog, decorrelate);
            return spool.copy(spool.getTraitSet(), List.of(decorrelate.apply(inner)));
        }
        return decorrelate.apply(hide(part, catalog, decorrelate));
    }

    /** {@code rel} with the unions {@link #hide} held put back in place. */
    static RelNode restore(RelNode rel) {
        RelNode union = StandInTable.held(rel, STAND_IN);
        if (union != null) {
            return withInputs(union, RecursiveUnions::restore); // the unions its seed and step hold were hidden too
        }
        return withInputs(rel, RecursiveUnions::restore);
    }

    /** {@code rel} with each input replaced by {@code f}'s result for it (the same node where none changed). */
    static RelNode withInputs(RelNode rel, java.util.function.UnaryOperator<RelNode> f) {
        List<RelNode> inputs = new ArrayList<>();
        boolean changed = false;
        for (RelNode input : rel.getInputs()) {
            RelNode replaced = f.apply(input);
            changed |= replaced != input;
            inputs.add(replaced);
        }
        return changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    }

    private static RelNode unspooled(RelNode rel) {
        return rel instanceof TableSpool spool ? spool.getInput() : rel;
    }

    private static RelNode readingPrevious(RelNode rel, RelOptTable transientTable, RelNode previous) {
        if (rel instanceof TableScan scan && reads(scan, transientTable)) {
            return previous;
        }
        return withInputs(rel, input -> readingPrevious(input, transientTable, previous));
    }

    /** Whether {@code scan} reads the union's transient table (not a stored table of the same name). */
    private static boolean reads(TableScan scan, RelOptTable transientTable) {
        RelOptTable t = scan.getTable();
        return t == transientTable || t.unwrap(CatalogTableAccess.class) == null
                && t.getQualifiedName().equals(transientTable.getQualifiedName());
    }
}
