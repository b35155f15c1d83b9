package io.tessera.backend.jvm.filter;

import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.plan.Expr;
import io.tessera.plan.Operation;
import io.tessera.plan.PipelineAnalysis;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.List;

/** FILTER: the loop moves on to the next row where the condition is not TRUE (the scalar filter of scan/filter/map). */
public final class FilterEmitter {
    private FilterEmitter() {
    }

    /** How a run of filters is tested: the {@code pred} dimension. */
    public enum Predication {
        /** one {@code if} per filter, in order, each short-circuiting. */
        BRANCH("branch"),
        /**
         * the conjuncts of a run of filters that cannot fail combined with a non-short-circuit {@code &}: one branch
         * for the run, none to mispredict per conjunct.
         */
        PREDICATED("predicated");

        final String label;

        Predication(String label) {
            this.label = label;
        }

        /** The pipeline's predication: its genome's value, branch where the dimension is absent. */
        public static Predication of(PipelineWriter w) {
            return PREDICATED.label.equals(w.choice(JvmDimensions.PREDICATION, BRANCH.label)) ? PREDICATED : BRANCH;
        }
    }

    /**
     * Emits the filter at {@code ops[i]}: predicated, with the filters that follow it, where the strategy and the run
     * allow; returns the index of the last operation emitted.
     */
    public static int emit(PipelineWriter w, List<Operation> ops, int i, Predication predication) {
        Operation.Filter f = (Operation.Filter) ops.get(i);
        int end = i;
        List<Expr> run = new ArrayList<>();
        while (end < ops.size() && ops.get(end) instanceof Operation.Filter ff) {
            run.addAll(PipelineAnalysis.conjuncts(ff.condition()));
            end++;
        }
        if (predication == Predication.PREDICATED && PipelineAnalysis.predicable(run)) {
            predicated(w, run);
            return end - 1;
        }
        branch(w, f.condition());
        return i;
    }

    private static void branch(PipelineWriter w, Expr cond) {
        w.comment("FILTER " + w.codeNames.expr(cond));
        w.load(cond);
        w.line("if (!" + w.gen.gen(cond).isTrue() + ") continue;");
    }

    private static void predicated(PipelineWriter w, List<Expr> conds) {
        w.comment("FILTER (predicated) " + w.codeNames.exprs(conds));
        for (Expr c : conds) {
            w.load(c);
        }
        StringBuilder sb = new StringBuilder();
        for (Expr c : conds) {
            sb.append(sb.length() == 0 ? "" : " & ").append(w.gen.gen(c).isTrue());
        }
        w.line("if (!(" + sb + ")) continue;");
    }
}
