package io.tessera.plan;

import io.tessera.storage.Column;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.type.RelDataTypeField;

import java.util.ArrayList;
import java.util.List;

/**
 * The joins whose preserved side builds the hash table (a semi or anti join's outer side, an outer join's preserved
 * side, either side of a FULL join): the other side's probe marks the build rows it matches, and a scan of the
 * table's marked or unmarked rows ({@link Source.JoinTableScan}) gives what the join keeps. {@link JoinPlanner}
 * plans the probe; this class decides which side builds and plans what comes after the marks.
 */
final class PreservedSideJoins {

    /**
     * The system property that fixes which side of an outer, semi or anti join builds: {@code estimate} (the
     * default: the side estimated smaller), {@code build} (the preserved side, wherever a plan for it exists; a FULL
     * join builds its left input) or {@code probe} (the other side; a FULL join builds its right input). For tests
     * that run every such join both ways, and for measuring one strategy against the other.
     */
    static final String PROPERTY = "tessera.joins.preserved";

    private final PhysicalPlanner planner;
    private final String mode;

    PreservedSideJoins(PhysicalPlanner planner) {
        this.planner = planner;
        this.mode = System.getProperty(PROPERTY, "estimate");
        if (!List.of("estimate", "build", "probe").contains(mode)) {
            throw new IllegalArgumentException(PROPERTY + " is estimate, build or probe, not " + mode);
        }
    }

    /** Whether the join whose preserved input is {@code preserved} builds it (see {@link #PROPERTY}). */
    boolean builds(RelNode preserved, RelNode other) {
        return switch (mode) {
            case "build" -> true;
            case "probe" -> false;
            default -> planner.estimates.rows(preserved) < planner.estimates.rows(other);
        };
    }

    /**
     * A semi ({@code matched}) or anti join that built its outer side as {@code table}: closes pipeline
     * {@code marking} (the inner side's rows, which only mark) and goes on with a scan of the table's marked or
     * unmarked rows, which has the outer side's fields.
     */
    PhysicalPlanner.Open markedRows(Join j, PhysicalPlanner.Open marking, Sink.Build table, boolean matched) {
        planner.close(marking, new Sink.Marks(table.joinId()), Double.NaN);
        PhysicalPlanner.Open rows = joinTableScan(table, matched, planner.estimates.rows(j));
        rows.names = j.getRowType().getFieldNames();
        return rows;
    }

    /**
     * An outer join whose probe ({@code probed}, its fields the join's) marks the rows of {@code table}, built over
     * the left ({@code builtLeft}) or right input: the probe's rows, then the unmarked build rows with NULLs for the
     * other input's columns, written into relation {@code rel}, which the next pipeline reads.
     */
    PhysicalPlanner.Open withUnmatchedRows(Join j, int rel, PhysicalPlanner.Open probed, Sink.Build table,
                                           boolean builtLeft) {
        List<ColumnInfo> cols = joinColumns(j, rel);
        planner.close(probed, new Sink.Materialize(castTo(probed.fields, cols), j.getRowType().getFieldNames(), 0, -1,
                rel));
        unmatchedRows(j, table, builtLeft, cols, rel);
        return readJoined(j, rel, cols, probed.fields);
    }

    /**
     * For a table that keeps its rows with a NULL key: a last key that is TRUE exactly for them (the OR of the
     * nullable keys' IS NULL) and FALSE in every probe, so that no probe finds them. False when no key can be NULL.
     */
    static boolean addNullFlag(List<Expr> buildKeys, List<Expr> probeKeys, List<DataType> common) {
        Expr flag = null;
        for (Expr k : buildKeys) {
            if (k.nullable()) {
                Expr isNull = new Expr.Call(Op.IS_NULL, List.of(k), DataType.BOOLEAN, false);
                flag = flag == null ? isNull : new Expr.Call(Op.OR, List.of(flag, isNull), DataType.BOOLEAN, false);
            }
        }
        if (flag == null) {
            return false;
        }
        buildKeys.add(flag);
        probeKeys.add(new Expr.Literal(false, DataType.BOOLEAN));
        common.add(null);
        return true;
    }

    /** The columns of relation {@code rel} that holds a join's rows (a VARCHAR column's dictionary its own). */
    private static List<ColumnInfo> joinColumns(Join j, int rel) {
        List<ColumnInfo> cols = new ArrayList<>();
        List<RelDataTypeField> fs = j.getRowType().getFieldList();
        for (int i = 0; i < fs.size(); i++) {
            DataType t = Types.of(fs.get(i).getType());
            cols.add(new ColumnInfo(fs.get(i).getName(), t, fs.get(i).getType().isNullable(),
                    t.kind() == TypeKind.VARCHAR ? DictionaryKeys.relation(rel, i) : null));
        }
        return cols;
    }

    /**
     * The unmarked rows of join table {@code b}, built over the left ({@code builtLeft}) or right input, with NULLs
     * for the other input's columns: a pipeline writing them into relation {@code rel}.
     */
    private void unmatchedRows(Join j, Sink.Build b, boolean builtLeft, List<ColumnInfo> cols, int rel) {
        int nLeft = j.getLeft().getRowType().getFieldCount();
        PhysicalPlanner.Open scan = joinTableScan(b, false,
                planner.estimates.rows(builtLeft ? j.getLeft() : j.getRight()));
        List<Expr> outs = new ArrayList<>();
        int from = builtLeft ? nLeft : 0;
        int to = builtLeft ? cols.size() : nLeft;
        if (!builtLeft) {
            addNulls(outs, cols, from, to);
        }
        outs.addAll(scan.fields);
        if (builtLeft) {
            addNulls(outs, cols, from, to);
        }
        planner.close(scan, new Sink.Materialize(castTo(outs, cols), j.getRowType().getFieldNames(), 0, -1, rel));
    }

    private static void addNulls(List<Expr> outs, List<ColumnInfo> cols, int from, int to) {
        for (int i = from; i < to; i++) {
            outs.add(new Expr.Literal(null, cols.get(i).type()));
        }
    }

    /**
     * The pipeline that goes on from relation {@code rel}, which holds the join's rows: {@code matched}, the matched
     * rows' fields, and NULLs. A column copied from a stored column (other than a string's codes, which the
     * relation may encode anew) keeps it as its origin, whose statistics bound its values (a key's range).
     */
    private PhysicalPlanner.Open readJoined(Join j, int rel, List<ColumnInfo> cols, List<Expr> matched) {
        PhysicalPlanner.Open next = planner.relationScan(rel, cols, planner.estimates.rows(j));
        for (int i = 0; i < cols.size(); i++) {
            ColumnInfo c = cols.get(i);
            if (matched.get(i) instanceof Expr.Ref r && r.slot().origin() != null && r.type().equals(c.type())
                    && c.type().kind() != TypeKind.VARCHAR) {
                next.fields.set(i, new Expr.Ref(Slot.source(i, c.name(), c.type(), c.nullable(), c.dictionaryKey(),
                        r.slot().origin())));
            }
        }
        next.names = j.getRowType().getFieldNames();
        return next;
    }

    /**
     * A pipeline over the marked ({@code matched}) or unmarked rows of join table {@code b}: one source column per
     * payload column, typed, named and with the dictionary of the payload.
     */
    private static PhysicalPlanner.Open joinTableScan(Sink.Build b, boolean matched, double rows) {
        List<ColumnInfo> cols = new ArrayList<>();
        List<Expr> fields = new ArrayList<>();
        for (int i = 0; i < b.payload().size(); i++) {
            Expr e = b.payload().get(i);
            String name = b.payloadNames().get(i);
            String dict = DictionaryKeys.of(e, DictionaryKeys.payload(b.joinId(), i));
            Column origin = e instanceof Expr.Ref r ? r.slot().origin() : null;
            cols.add(new ColumnInfo(name, e.type(), e.nullable(), dict));
            fields.add(new Expr.Ref(Slot.source(i, name, e.type(), e.nullable(), dict, origin)));
        }
        return new PhysicalPlanner.Open(new Source.JoinTableScan(b.joinId(), matched, cols, rows), fields,
                new ArrayList<>(b.payloadNames()), rows);
    }

    private static List<Expr> castTo(List<Expr> exprs, List<ColumnInfo> cols) {
        List<Expr> outs = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            Expr e = exprs.get(i);
            DataType t = cols.get(i).type();
            outs.add(e.type().equals(t) || e instanceof Expr.Literal l && l.value() == null ? e
                    : new Expr.Call(Op.CAST, List.of(e), t, e.nullable()));
        }
        return outs;
    }
}
