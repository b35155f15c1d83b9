package io.tessera.sql;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;

import java.util.HashSet;
import java.util.Set;

/**
 * Refuses a window function computed over rows that depend on an outer query's row: inside a correlated subquery or
 * a LATERAL one ({@code (SELECT row_number() OVER (ORDER BY a.id) FROM a WHERE a.id < t.x)}). Decorrelated, such a
 * subquery's rows become one relation for all outer rows, and the window would number or sum across all of them
 * instead of each outer row's own. A window over rows that no outer column filters (a derived table inside the
 * subquery, filtered by the correlation above the window) is computed once, which is right, and stays.
 */
final class CorrelatedWindows {

    private CorrelatedWindows() {
    }

    static void reject(RelNode rel) {
        if (hasWindow(rel) && !outerVariables(rel).isEmpty()) {
            throw new SqlError("unsupported: a window function over the rows of a correlated or LATERAL subquery"
                    + " (rows that depend on the outer query's row); compute it in a derived table the subquery"
                    + " reads");
        }
        for (RelNode in : rel.getInputs()) {
            reject(in);
        }
        rel.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery sq) {
                reject(sq.rel);
                return sq;
            }
        });
    }

    private static boolean hasWindow(RelNode rel) {
        return rel instanceof Window
                || rel instanceof Project p && p.getProjects().stream().anyMatch(RexOver::containsOver)
                || rel instanceof Filter f && RexOver.containsOver(f.getCondition());
    }

    /** The correlation variables {@code rel} and the nodes below it read that none of them defines. */
    private static Set<CorrelationId> outerVariables(RelNode rel) {
        Set<CorrelationId> used = new HashSet<>();
        Set<CorrelationId> defined = new HashSet<>();
        collect(rel, used, defined);
        used.removeAll(defined);
        return used;
    }

    private static void collect(RelNode rel, Set<CorrelationId> used, Set<CorrelationId> defined) {
        defined.addAll(rel.getVariablesSet());
        if (rel instanceof Correlate c) {
            defined.add(c.getCorrelationId());
        }
        rel.accept(new RexShuttle() {
            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable v) {
                used.add(v.id);
                return v;
            }

            @Override
            public RexNode visitSubQuery(RexSubQuery sq) {
                collect(sq.rel, used, defined);
                return super.visitSubQuery(sq);
            }
        });
        for (RelNode in : rel.getInputs()) {
            collect(in, used, defined);
        }
    }
}
