package io.tessera.plan;

import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The facts variants are declared from: conjunct runs, failure-free expressions, column comparisons. */
class PipelineAnalysisTest {

    static Expr col(int i, DataType t, boolean nullable) {
        return new Expr.Ref(Slot.source(i, "c" + i, t, nullable, t.kind() == io.tessera.storage.TypeKind.VARCHAR ? "t.c" + i : null, null));
    }

    static Expr lit(Object v, DataType t) {
        return new Expr.Literal(v, t);
    }

    static Expr call(Op op, DataType t, Expr... args) {
        return new Expr.Call(op, List.of(args), t, false);
    }

    static final Expr A = col(0, DataType.INTEGER, false);
    static final Expr B = col(1, DataType.BIGINT, false);
    static final Expr X = col(2, DataType.DOUBLE, false);
    static final Expr D = col(3, DataType.decimal(12, 2), false);
    static final Expr S = col(4, DataType.VARCHAR, false);
    static final Expr N = col(5, DataType.INTEGER, true);

    @Test
    void runsFlattenAndsAcrossConsecutiveFilters() {
        Expr lt = call(Op.LT, DataType.BOOLEAN, A, lit(5L, DataType.INTEGER));
        Expr gt = call(Op.GT, DataType.BOOLEAN, B, lit(1L, DataType.BIGINT));
        Expr eq = call(Op.EQ, DataType.BOOLEAN, X, lit(2.0, DataType.DOUBLE));
        List<Operation> ops = List.of(new Operation.Filter(call(Op.AND, DataType.BOOLEAN, lt, call(Op.AND, DataType.BOOLEAN, gt, eq))),
                new Operation.Filter(lt));
        List<PipelineAnalysis.FilterRun> runs = PipelineAnalysis.filterRuns(ops);
        assertEquals(1, runs.size());
        assertEquals(List.of(lt, gt, eq, lt), runs.get(0).conjuncts());
        assertTrue(PipelineAnalysis.predicable(runs.get(0).conjuncts()));
        assertFalse(PipelineAnalysis.predicable(List.of(lt)), "one conjunct: nothing to combine");
    }

    @Test
    void whatCannotFail() {
        Expr one = lit(1L, DataType.INTEGER);
        assertTrue(PipelineAnalysis.cannotFail(call(Op.LT, DataType.BOOLEAN, A, one)));
        assertTrue(PipelineAnalysis.cannotFail(call(Op.GT, DataType.BOOLEAN, call(Op.MUL, DataType.DOUBLE, X, one), one)),
                "DOUBLE arithmetic");
        assertFalse(PipelineAnalysis.cannotFail(call(Op.GT, DataType.BOOLEAN, call(Op.ADD, DataType.INTEGER, A, one), one)),
                "integer arithmetic may overflow");
        assertFalse(PipelineAnalysis.cannotFail(call(Op.GT, DataType.BOOLEAN, call(Op.DIV, DataType.DOUBLE, X, X), one)),
                "division");
        assertFalse(PipelineAnalysis.cannotFail(call(Op.LT, DataType.BOOLEAN, D, lit(15L, DataType.decimal(3, 1)))),
                "comparing DECIMALs of different scales rescales one side");
        assertTrue(PipelineAnalysis.cannotFail(call(Op.LT, DataType.BOOLEAN, D, lit(150L, DataType.decimal(3, 2)))));
        assertTrue(PipelineAnalysis.cannotFail(call(Op.CAST, DataType.BIGINT, A)));
        assertFalse(PipelineAnalysis.cannotFail(call(Op.CAST, DataType.INTEGER, B)), "narrowing cast");
    }

    @Test
    void columnComparisonsAreNormalizedToTheColumnsRepresentation() {
        PipelineAnalysis.ColumnComparison flipped = PipelineAnalysis.columnComparison(
                call(Op.LT, DataType.BOOLEAN, lit(7L, DataType.INTEGER), A));
        assertEquals(Op.GT, flipped.op(), "7 < a is a > 7");
        assertEquals(7, flipped.value());
        PipelineAnalysis.ColumnComparison dec = PipelineAnalysis.columnComparison(
                call(Op.GE, DataType.BOOLEAN, D, lit(15L, DataType.decimal(3, 1))));
        assertEquals(150, dec.value(), "1.5 at the column's scale 2");
        assertEquals("AMERICA", PipelineAnalysis.columnComparison(
                call(Op.EQ, DataType.BOOLEAN, S, lit("AMERICA", DataType.VARCHAR))).string());
        assertEquals(2.5, PipelineAnalysis.columnComparison(
                call(Op.NE, DataType.BOOLEAN, X, lit(2.5, DataType.DOUBLE))).doubleValue());
        assertNull(PipelineAnalysis.columnComparison(call(Op.LT, DataType.BOOLEAN, N, lit(1L, DataType.INTEGER))), "nullable");
        assertNull(PipelineAnalysis.columnComparison(call(Op.LT, DataType.BOOLEAN, A, lit(1L << 40, DataType.BIGINT))),
                "a constant beyond the column's range");
        assertNull(PipelineAnalysis.columnComparison(call(Op.LT, DataType.BOOLEAN, D, lit(1005L, DataType.decimal(4, 3)))),
                "a constant finer than the column's scale");
        assertNull(PipelineAnalysis.columnComparison(call(Op.LT, DataType.BOOLEAN, A, B)), "two columns");
        assertNull(PipelineAnalysis.columnComparison(call(Op.IS_DISTINCT, DataType.BOOLEAN, A, lit(1L, DataType.INTEGER))));
        assertNull(PipelineAnalysis.columnComparison(call(Op.LT, DataType.BOOLEAN, A, lit(null, DataType.INTEGER))));
    }

    @Test
    void vectorizingKeepsTheOtherLeadingConjunctsInOrder() {
        Expr v1 = call(Op.LT, DataType.BOOLEAN, A, lit(5L, DataType.INTEGER));
        Expr s1 = call(Op.LT, DataType.BOOLEAN, A, B);
        Expr v2 = call(Op.GT, DataType.BOOLEAN, B, lit(1L, DataType.BIGINT));
        Expr later = call(Op.GT, DataType.BOOLEAN, B, lit(2L, DataType.BIGINT));
        Sink.Build b = new Sink.Build(0, List.of(A), List.of(), List.of(), true, null, 1, java.util.Arrays.asList((DataType) null));
        List<Operation> ops = List.of(new Operation.Filter(call(Op.AND, DataType.BOOLEAN, v1, s1)), new Operation.Filter(v2),
                new Operation.Probe(0, List.of(A), JoinKind.SEMI, b), new Operation.Filter(later));
        assertEquals(2, PipelineAnalysis.leadingColumnComparisons(ops).size(), "the filter after the probe is not leading");
        List<Operation> rest = PipelineAnalysis.withoutLeadingColumnComparisons(ops);
        assertEquals(List.of(new Operation.Filter(s1), ops.get(2), ops.get(3)), rest);
    }
}
