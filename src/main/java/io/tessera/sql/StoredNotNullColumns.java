package io.tessera.sql;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

/**
 * Which result columns of a query DESCRIBE calls NOT NULL, as DuckDB decides it: a column that is a stored table's
 * column declared NOT NULL, reached through column references only (a subquery's or a view's, past filters, sorts,
 * limits, DISTINCT and joins, of any kind, as DuckDB follows them). A constant, any other expression, an aggregate's
 * value or group key and a set operation's column may be NULL, as DuckDB says, even where Calcite's type says none is.
 * A GROUP BY without aggregates is planned as a DISTINCT is, and so is followed too (DuckDB says YES there).
 */
public final class StoredNotNullColumns {

    private StoredNotNullColumns() {
    }

    /** Per output column of {@code rel}, whether it is such a column. */
    public static boolean[] of(RelNode rel) {
        boolean[] out = new boolean[rel.getRowType().getFieldCount()];
        for (int i = 0; i < out.length; i++) {
            out[i] = stored(rel, i);
        }
        return out;
    }

    private static boolean stored(RelNode rel, int column) {
        return switch (rel) {
            case TableScan scan -> !scan.getRowType().getFieldList().get(column).getType().isNullable();
            case Project p -> {
                RexNode e = p.getProjects().get(column);
                yield e instanceof RexInputRef ref && stored(p.getInput(), ref.getIndex());
            }
            case Filter f -> stored(f.getInput(), column);
            case Sort s -> stored(s.getInput(), column);
            case Join j -> {
                int left = j.getLeft().getRowType().getFieldCount();
                yield column < left ? stored(j.getLeft(), column)
                        : j.getJoinType().projectsRight() && stored(j.getRight(), column - left);
            }
            // DISTINCT: a group key of an aggregation without aggregates
            case Aggregate a when a.getAggCallList().isEmpty() && a.getGroupSets().size() == 1
                    && column < a.getGroupCount() -> stored(a.getInput(), a.getGroupSet().asList().get(column));
            default -> false;
        };
    }
}
