package io.tessera.backend.cuda.gen;

import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.plan.Slot;

import java.util.List;

/**
 * The payload slots an expression reads as values, which a probe must fetch: every slot it reads, except a payload
 * column read only as the operand of IS NULL or IS NOT NULL, whose test a kernel answers from the NULL condition
 * alone (a left join's hit flag, a NULL flag column), so that its value is never loaded into a register nvcc would
 * find set and never used.
 */
final class ValueReads {

    private ValueReads() {
    }

    /** Adds to {@code out} (each once, in order of first use) the slots e reads as values. */
    static void slots(Expr e, List<Slot> out) {
        switch (e) {
            case Expr.Ref r -> {
                if (!out.contains(r.slot())) {
                    out.add(r.slot());
                }
            }
            case Expr.Literal l -> {
            }
            case Expr.Call c -> {
                if (nullTestOfPayload(c)) {
                    return;
                }
                for (Expr a : c.args()) {
                    slots(a, out);
                }
            }
        }
    }

    /** Whether c is {@code x IS [NOT] NULL} of a payload column x, answered without x's value. */
    static boolean nullTestOfPayload(Expr.Call c) {
        return (c.op() == Op.IS_NULL || c.op() == Op.IS_NOT_NULL)
                && c.args().getFirst() instanceof Expr.Ref r && !r.slot().isSource();
    }
}
