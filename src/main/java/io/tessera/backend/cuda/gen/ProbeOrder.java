package io.tessera.backend.cuda.gen;

import io.tessera.plan.Expr;
import io.tessera.plan.Operation;
import io.tessera.plan.Slot;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * probe_order=selectivity: the operations reordered so that rows are dropped as early as possible: filters first,
 * then probes from the most selective table on; an operation that reads a probe's payload stays after that probe.
 */
final class ProbeOrder {

    private ProbeOrder() {
    }

    static List<Operation> bySelectivity(List<Operation> ops, IntFunction<JoinLayout> tables) {
        if (MarkOps.anyMarks(ops)) {
            return ops; // the rows that mark are those the plan's operations before the marking probe keep
        }
        List<Operation> left = new ArrayList<>(ops);
        List<Operation> out = new ArrayList<>();
        Set<Integer> probed = new HashSet<>();
        while (!left.isEmpty()) {
            Operation best = null;
            double bestRank = Double.MAX_VALUE;
            for (Operation op : left) {
                if (!ready(op, probed)) {
                    continue;
                }
                double rank = switch (op) {
                    case Operation.Filter f -> -1;
                    case Operation.Probe pr -> {
                        JoinLayout t = tables.apply(pr.joinId());
                        yield t == null ? 1 : KernelBuilder.keeps(pr, t);
                    }
                };
                if (rank < bestRank) {
                    bestRank = rank;
                    best = op;
                }
            }
            if (best == null) {
                return ops; // a dependency the reordering does not understand: keep the plan's order
            }
            left.remove(best);
            out.add(best);
            if (best instanceof Operation.Probe pr) {
                probed.add(pr.joinId());
            }
        }
        return out;
    }

    private static boolean ready(Operation op, Set<Integer> probed) {
        List<Slot> slots = new ArrayList<>();
        switch (op) {
            case Operation.Filter f -> Expr.slots(f.condition(), slots);
            case Operation.Probe pr -> pr.keys().forEach(e -> Expr.slots(e, slots));
        }
        return slots.stream().allMatch(s -> s.isSource() || probed.contains(s.joinId()));
    }
}
