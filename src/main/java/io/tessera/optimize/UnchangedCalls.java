package io.tessera.optimize;

import org.apache.calcite.plan.RelHintsPropagator;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The keys of a rule's calls that changed nothing ({@link ReducedFilters}, {@link ReducedProjects}): a call whose key
 * is here is not made again; the least recently used keys are dropped beyond a bound.
 */
final class UnchangedCalls {

    /** Keys kept, the least recently used dropped beyond this. */
    private static final int MAX_KEYS = 1024;

    private final Map<String, Boolean> keys = Collections.synchronizedMap(
            new LinkedHashMap<>(64, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                    return size() > MAX_KEYS;
                }
            });

    /**
     * Makes the rule's call ({@code rule}) unless {@code key} is known to change nothing, and remembers the key when
     * it changed nothing; a null key (the call's outcome cannot be keyed) is always made.
     */
    void fire(RelOptRuleCall call, String key, Consumer<RelOptRuleCall> rule) {
        if (key == null) {
            rule.accept(call);
            return;
        }
        if (keys.containsKey(key)) {
            return;
        }
        Watched watched = new Watched(call);
        rule.accept(watched);
        if (!watched.transformed) {
            keys.put(key, Boolean.TRUE);
        }
    }

    /** The rule's call, noting whether the rule transformed its relation. */
    private static final class Watched extends RelOptRuleCall {
        private final RelOptRuleCall call;
        boolean transformed;

        Watched(RelOptRuleCall call) {
            super(call.getPlanner(), call.getOperand0(), call.rels, Map.of());
            this.call = call;
        }

        @Override
        public void transformTo(RelNode rel, Map<RelNode, RelNode> equiv, RelHintsPropagator handler) {
            transformed = true;
            call.transformTo(rel, equiv, handler);
        }
    }
}
