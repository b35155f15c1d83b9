package io.tessera.tune;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TargetsTest {

    @Test
    void theJvmAndCudaBackendsMakeTargets() {
        assertEquals(java.util.Set.of("jvm", "cuda"), Targets.backends());
    }

    /** A target that only records its close, failing it with {@code failure} where one is given. */
    private static Target closing(List<String> closed, String name, RuntimeException failure) {
        return new Target() {
            @Override
            public TuningDevice device() {
                throw new UnsupportedOperationException();
            }

            @Override
            public io.tessera.plan.QueryPlan plan() {
                throw new UnsupportedOperationException();
            }

            @Override
            public io.tessera.variant.VariantSpace space() {
                throw new UnsupportedOperationException();
            }

            @Override
            public Map<Integer, io.tessera.variant.Genome> defaults() {
                throw new UnsupportedOperationException();
            }

            @Override
            public Objective objective() {
                throw new UnsupportedOperationException();
            }

            @Override
            public Set<String> blockSwitchable() {
                return Set.of();
            }

            @Override
            public InQueryTuning.BlockSource blocks(TuningSpace space, long blockRows) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void close() {
                closed.add(name);
                if (failure != null) {
                    throw failure;
                }
            }
        };
    }

    @Test
    void closingAllClosesEachTargetEvenAfterAFailureAndThrowsTheFirst() {
        List<String> closed = new ArrayList<>();
        IllegalStateException first = new IllegalStateException("first");
        IllegalStateException second = new IllegalStateException("second");
        List<Target> targets = List.of(closing(closed, "a", null), closing(closed, "b", first),
                closing(closed, "c", second), closing(closed, "d", null));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Targets.closeAll(targets));
        assertSame(first, e);
        assertEquals(List.of(second), List.of(e.getSuppressed()));
        assertEquals(List.of("a", "b", "c", "d"), closed);
    }

    @Test
    void closingAllAfterAFailureAddsTheClosingFailuresToItAndThrowsNothing() {
        List<String> closed = new ArrayList<>();
        IllegalStateException closing = new IllegalStateException("closing");
        RuntimeException pending = new RuntimeException("the work failed");
        List<Target> targets = List.of(closing(closed, "a", closing), closing(closed, "b", null));
        Targets.closeAll(targets, pending);
        assertEquals(List.of(closing), List.of(pending.getSuppressed()));
        assertEquals(List.of("a", "b"), closed);
    }
}
