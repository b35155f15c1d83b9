package io.tessera.tune;

import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.SortKey;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * What of a query's answer every correct run gives alike, for checking a variant's answer against a reference.
 * Rows compare as a multiset, each in full, except where LIMIT or OFFSET cuts the answer: rows of a top-k tied on
 * its sort keys with the last row kept (or, after an OFFSET, with the first) may be any of the tied rows, so those
 * compare by their sort keys alone; a LIMIT or OFFSET without ORDER BY may keep any rows, so only their number
 * compares. (SSB's top-k at SF 10 has ties at its cut: GPU variants that write rows in another order kept other
 * rows of the tie, and were right.)
 */
public final class AnswerForm {

    /** The answer's columns that a row cut in a tie compares by; null when no cut applies (rows compare in full). */
    private final List<Integer> keyColumns;
    private final boolean cutAtStart;

    private AnswerForm(List<Integer> keyColumns, boolean cutAtStart) {
        this.keyColumns = keyColumns;
        this.cutAtStart = cutAtStart;
    }

    /** The form of the answers of {@code plan}: from the sink that writes its result relation. */
    public static AnswerForm of(QueryPlan plan) {
        for (Pipeline p : plan.pipelines()) {
            if (p.sink() instanceof Sink.Sort s && s.relationId() == plan.resultRelation()
                    && (s.fetch() >= 0 || s.offset() > 0)) {
                return new AnswerForm(s.keys().stream().map(SortKey::column).toList(), s.offset() > 0);
            }
            if (p.sink() instanceof Sink.Materialize m && m.relationId() == plan.resultRelation()
                    && (m.fetch() >= 0 || m.offset() > 0)) {
                return new AnswerForm(List.of(), m.offset() > 0);
            }
        }
        return new AnswerForm(null, false);
    }

    /** Whether a cut applies: some rows may compare by their sort keys alone. */
    public boolean cut() {
        return keyColumns != null;
    }

    /**
     * The rows of an answer (in its order) in their compared form, sorted: each row's {@code text}, or for a row that
     * the cut may have chosen among ties, the text of its sort key values alone (its other columns null).
     */
    public List<String> compared(List<Object[]> rows, Function<Object[], String> text) {
        List<String> out = comparedInOrder(rows, text);
        Collections.sort(out);
        return out;
    }

    /**
     * The rows' compared forms in the answer's order: for a comparison that does not depend on the order (an
     * order-independent checksum), which need not sort them.
     */
    public List<String> comparedInOrder(List<Object[]> rows, Function<Object[], String> text) {
        List<String> out = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            boolean tied = cut() && (sameKeys(row, rows.get(rows.size() - 1)) || cutAtStart && sameKeys(row, rows.get(0)));
            out.add(tied ? "keys " + text.apply(keysOnly(row)) : text.apply(row));
        }
        return out;
    }

    private boolean sameKeys(Object[] a, Object[] b) {
        for (int c : keyColumns) {
            if (!Objects.equals(a[c], b[c])) {
                return false;
            }
        }
        return true;
    }

    private Object[] keysOnly(Object[] row) {
        Object[] out = new Object[row.length];
        for (int c : keyColumns) {
            out[c] = row[c];
        }
        return out;
    }
}
