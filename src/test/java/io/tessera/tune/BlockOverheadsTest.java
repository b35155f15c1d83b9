package io.tessera.tune;

import io.tessera.variant.Genome;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BlockOverheadsTest {

    static Genome g(String workers, String morsel, String agg) {
        return Genome.of("jvm", Map.of("workers", workers, "morsel", morsel, "agg", agg));
    }

    @Test
    void aVariantsOverheadIsChargedToEachOfItsBlocksWhateverItsThreadConfiguration() {
        BlockOverheads o = new BlockOverheads(Set.of("workers", "morsel"));
        assertEquals(0, o.perBlock(g("2", "16384", "dense")), "nothing recorded yet");
        o.record(g("2", "16384", "dense"), 0.012, 6);
        o.record(g("2", "16384", "dense"), 0.300, 6); // a run that met a collection
        o.record(g("2", "16384", "dense"), 0.018, 6);
        o.record(g("2", "16384", "shared"), 0.003, 6);
        assertEquals(0.018 / 6, o.perBlock(g("1", "1024", "dense")), 1e-12, "the median share, any thread configuration");
        assertEquals(0.003 / 6, o.perBlock(g("2", "65536", "shared")), 1e-12);
        assertEquals(0, o.perBlock(g("2", "16384", "hash")));
        o.record(g("2", "16384", "hash"), 1, 0);
        assertEquals(0, o.perBlock(g("2", "16384", "hash")), "a run without blocks records nothing");
    }
}
