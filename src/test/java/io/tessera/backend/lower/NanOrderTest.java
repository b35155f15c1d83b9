package io.tessera.backend.lower;

import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.plan.Slot;
import io.tessera.storage.DataType;
import org.codehaus.janino.ExpressionEvaluator;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The comparisons NanOrder prints give DuckDB's total order of doubles (Double.compare's, with -0.0 equal to 0.0) for
 * every pair of values the operands may hold, in the inline form and through the run-time functions alike.
 */
class NanOrderTest {

    private static final double[] VALUES = {Double.NaN, -Double.NaN, Double.NEGATIVE_INFINITY, -1.5, -0.0, 0.0, 2.0,
            Double.POSITIVE_INFINITY};
    private static final Op[] OPS = {Op.EQ, Op.NE, Op.LT, Op.LE, Op.GT, Op.GE};

    private static boolean expected(Op op, double x, double y) {
        int c = Double.compare(x + 0.0, y + 0.0);
        return switch (op) {
            case EQ -> c == 0;
            case NE -> c != 0;
            case LT -> c < 0;
            case LE -> c <= 0;
            case GT -> c > 0;
            default -> c >= 0;
        };
    }

    private static boolean evaluate(String text, double x, double y) throws Exception {
        ExpressionEvaluator e = new ExpressionEvaluator();
        e.setParameters(new String[] {"x", "y"}, new Class<?>[] {double.class, double.class});
        e.setExpressionType(boolean.class);
        e.cook(text);
        return (Boolean) e.evaluate(new Object[] {x, y});
    }

    private static String print(Op op, String x, String y, boolean xNaN, boolean yNaN) {
        return NanOrder.compare(op, x, y, xNaN, yNaN, f -> "io.tessera.backend.jvm.lib.DoubleOrder.is" + f);
    }

    @Test
    void everyFormOrdersAsDuckDb() throws Exception {
        for (Op op : OPS) {
            for (boolean xNaN : new boolean[] {false, true}) {
                for (boolean yNaN : new boolean[] {false, true}) {
                    // plain names are written inline, computed sides through the functions
                    for (String[] sides : new String[][] {{"x", "y"}, {"(x + 0.0)", "(y * 1.0)"}}) {
                        String text = print(op, sides[0], sides[1], xNaN, yNaN);
                        for (double x : VALUES) {
                            for (double y : VALUES) {
                                if (!xNaN && Double.isNaN(x) || !yNaN && Double.isNaN(y)) {
                                    continue; // a side said not to be NaN never is
                                }
                                assertEquals(expected(op, x, y), evaluate(text, x, y), text + " at " + x + ", " + y);
                            }
                        }
                    }
                }
            }
        }
    }

    /** MIN and MAX replace the current value where the new one beats it; the run-time merge gives the same. */
    @Test
    void minAndMaxKeepNaNAsTheGreatest() throws Exception {
        for (boolean min : new boolean[] {true, false}) {
            String beats = NanOrder.beats(min, "x", "y");
            for (double x : VALUES) {
                for (double y : VALUES) {
                    double kept = evaluate(beats, x, y) ? x : y;
                    double merged = min ? io.tessera.backend.jvm.lib.DoubleOrder.min(y, x)
                            : io.tessera.backend.jvm.lib.DoubleOrder.max(y, x);
                    int c = Double.compare(x + 0.0, y + 0.0);
                    double want = c == 0 ? kept : (c < 0) == min ? x : y;
                    assertEquals(0, Double.compare(want + 0.0, kept + 0.0), beats + " at " + x + ", " + y);
                    assertEquals(0, Double.compare(want + 0.0, merged + 0.0), "merge at " + x + ", " + y);
                }
            }
        }
    }

    @Test
    void aConstantThatIsNotNaNKeepsTheCheapForm() {
        assertEquals("(x > 5.0d || x != x)", print(Op.GT, "x", "5.0d", true, false));
        assertEquals("(x < 5.0d)", print(Op.LT, "x", "5.0d", true, false));
        assertEquals("(x == 5.0d)", print(Op.EQ, "x", "5.0d", true, false));
        assertEquals("(5.0d < x || x != x)", print(Op.LT, "5.0d", "x", false, true));
    }

    @Test
    void whatMayBeNaN() {
        Expr column = new Expr.Ref(Slot.source(0, "x", DataType.DOUBLE, true, null, null));
        assertTrue(NanOrder.mayBeNaN(column));
        assertFalse(NanOrder.mayBeNaN(new Expr.Literal(5.0, DataType.DOUBLE)));
        assertTrue(NanOrder.mayBeNaN(new Expr.Literal(Double.NaN, DataType.DOUBLE)));
        assertFalse(NanOrder.mayBeNaN(new Expr.Ref(Slot.source(1, "i", DataType.INTEGER, true, null, null))));
        Expr converted = new Expr.Call(Op.CAST, List.of(new Expr.Ref(Slot.source(1, "i", DataType.INTEGER, true, null, null))),
                DataType.DOUBLE, true, null);
        assertFalse(NanOrder.mayBeNaN(converted));
        assertTrue(NanOrder.mayBeNaN(new Expr.Call(Op.MUL, List.of(column, column), DataType.DOUBLE, true, null)));
    }
}
