package io.tessera.plan;

import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plan elements of a join that builds its preserved side: probes that mark (which never move, since a mark is
 * set only for rows that passed everything before it), the scan of a table's marked or unmarked rows, the sink of a
 * pipeline that only marks, and a table that keeps its NULL keys; their EXPLAIN text and profile shape.
 */
class MarkingPlanTest {

    private static final Expr.Ref KEY = new Expr.Ref(Slot.source(0, "k", DataType.INTEGER, false, null, null));

    private static Sink.Build build(int joinId, boolean keepsNullKeys) {
        return new Sink.Build(joinId, List.of(KEY), List.of(KEY), List.of("k"), false, null, 10,
                Arrays.asList((DataType) null), keepsNullKeys);
    }

    @Test
    void probesThatMarkNeverMove() {
        Sink.Build b = build(3, false);
        assertTrue(PipelineAnalysis.movable(new Operation.Probe(3, List.of(KEY), JoinKind.INNER, b)));
        assertFalse(PipelineAnalysis.movable(new Operation.Probe(3, List.of(KEY), JoinKind.MARK, b)));
        assertFalse(PipelineAnalysis.movable(new Operation.Probe(3, List.of(KEY), JoinKind.INNER, b, null, true)));
    }

    @Test
    void onlyInnerAndLeftProbesMarkBesides() {
        Sink.Build b = build(3, false);
        for (JoinKind k : List.of(JoinKind.SEMI, JoinKind.ANTI, JoinKind.MARK)) {
            assertThrows(IllegalArgumentException.class, () -> new Operation.Probe(3, List.of(KEY), k, b, null, true));
        }
        assertTrue(new Operation.Probe(3, List.of(KEY), JoinKind.MARK, b).setsMarks());
        assertTrue(new Operation.Probe(3, List.of(KEY), JoinKind.LEFT, b, null, true).setsMarks());
        assertFalse(new Operation.Probe(3, List.of(KEY), JoinKind.LEFT, b).setsMarks());
    }

    @Test
    void explainNamesTheMarksAndTheScans() {
        Sink.Build b = build(3, true);
        assertEquals("PROBE j3 mark on [k]", new Operation.Probe(3, List.of(KEY), JoinKind.MARK, b).toString());
        assertEquals("PROBE j3 inner marking on [k]",
                new Operation.Probe(3, List.of(KEY), JoinKind.INNER, b, null, true).toString());
        assertEquals("PROBE j3 left marking on [k]",
                new Operation.Probe(3, List.of(KEY), JoinKind.LEFT, b, null, true).toString());
        assertEquals("MARKS j3", new Sink.Marks(3).toString());
        assertEquals("BUILD j3 keys [k] payload [k] with NULL keys", b.toString());
        List<ColumnInfo> cols = List.of(new ColumnInfo("k", DataType.INTEGER, false, null));
        assertEquals("LOOP j3 (matched)", new Source.JoinTableScan(3, true, cols, 10).toString());
        assertEquals("LOOP j3 (unmatched)", new Source.JoinTableScan(3, false, cols, 10).toString());
    }

    @Test
    void shapesTellMarkingPipelinesAndScansApart() {
        Sink.Build b = build(3, false);
        List<ColumnInfo> cols = List.of(new ColumnInfo("k", DataType.INTEGER, false, null));
        Source rel = new Source.RelationScan(1, cols, 10);
        assertEquals("LOOP:rel|PROBE+MARK[k]|MARKS",
                new Pipeline(0, rel, List.of(new Operation.Probe(3, List.of(KEY), JoinKind.MARK, b)), new Sink.Marks(3))
                        .shape());
        assertEquals("LOOP:rel|PROBE[k]|MARKS",
                new Pipeline(0, rel, List.of(new Operation.Probe(3, List.of(KEY), JoinKind.SEMI, b)), new Sink.Marks(3))
                        .shape());
        Sink sink = new Sink.Materialize(List.of(KEY), List.of("k"), 0, -1, 2);
        assertEquals("LOOP:matched|MATERIALIZE", new Pipeline(1, new Source.JoinTableScan(3, true, cols, 5), List.of(),
                sink).shape());
        assertEquals("LOOP:unmatched|MATERIALIZE", new Pipeline(1, new Source.JoinTableScan(3, false, cols, 5),
                List.of(), sink).shape());
    }
}
