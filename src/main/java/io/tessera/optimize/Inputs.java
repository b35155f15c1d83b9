package io.tessera.optimize;

import org.apache.calcite.rel.RelNode;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** The optimizer passes' walk over a plan's inputs. */
final class Inputs {

    private Inputs() {
    }

    /** {@code rel} over its inputs as {@code visit} returns them: {@code rel} itself where none changed, else a copy. */
    static RelNode visited(RelNode rel, UnaryOperator<RelNode> visit) {
        List<RelNode> inputs = new ArrayList<>();
        boolean changed = false;
        for (RelNode in : rel.getInputs()) {
            RelNode r = visit.apply(in);
            inputs.add(r);
            changed |= r != in;
        }
        return changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    }
}
