package io.tessera.backend.jvm.join;

import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.plan.Operation;
import io.tessera.plan.RuntimeFilters;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runtime join filters ({@code joinfilter}): just before a filterable probe's lookup ({@link RuntimeFilters}: inner,
 * semi and mark probes on source columns), the keys it has read are tested against what its join table, finished
 * before this pipeline runs, holds; a row that fails cannot match and is dropped without the lookup. The test comes
 * after the filters and probes ahead of that probe, so a row they drop is never tested, and the probe looks up the
 * very keys the test read. Rows that pass are probed as always.
 * <ul>
 * <li>none: no test;</li>
 * <li>range: a NULL key, or a key outside the range of the table's keys ({@link KeyRanges}), drops the row;</li>
 * <li>bloom: that, and the table's {@link BloomFilter} (one cache-line block read per key); for a perfect table
 * its presence bits ({@link JoinTable#present}: one bit per key of its range, exact).</li>
 * </ul>
 * Each probe gets only the tests the estimates say pay ({@link RuntimeFilters#filters}): a Bloom filter for a large
 * hashed table that most of the rows reaching the probe miss, a range test where the probe keys' range reaches
 * beyond the build keys', for a perfect table only its presence bits where its slots are beyond the cache and most
 * rows miss (its lookup compares the key with its range itself).
 */
public final class JoinFilterEmitter {

    /** The strategies, as the {@code joinfilter} dimension names them. */
    public enum Strategy {
        NONE, RANGE, BLOOM;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Strategy of(String label) {
            return valueOf(label.toUpperCase(Locale.ROOT));
        }
    }

    private JoinFilterEmitter() {
    }

    /** The pipeline's strategy: its genome's value, none where the dimension is absent. */
    public static Strategy strategy(PipelineWriter w) {
        return Strategy.of(w.choice(JvmDimensions.JOIN_FILTER, Strategy.NONE.label()));
    }

    /**
     * The tests of the pipeline's probes among {@code ops} under its strategy, by probe (the same instances as in
     * {@code ops}); empty under none.
     */
    public static Map<Operation.Probe, RuntimeFilters.ProbeFilter> filters(PipelineWriter w, List<Operation> ops) {
        Map<Operation.Probe, RuntimeFilters.ProbeFilter> out = new IdentityHashMap<>();
        for (RuntimeFilters.ProbeFilter f : RuntimeFilters.filters(w.pipeline(), ops, strategy(w).label())) {
            out.put(f.probe(), f);
        }
        return out;
    }

    /**
     * Emits filter {@code f}'s tests of the probe's keys {@code k} (read by {@link ProbeEmitter#keys}), to be placed
     * just before the probe's lookup: a row whose keys are NULL, or that the tests drop, goes no further.
     */
    static void emit(PipelineWriter w, RuntimeFilters.ProbeFilter f, ProbeEmitter.Keys k) {
        Operation.Probe pr = f.probe();
        int j = pr.joinId();
        boolean bits = f.bloom() && JoinTable.Layout.of(w.g.get(JvmDimensions.probeTable(j))) == JoinTable.Layout.PERFECT;
        w.comment("JOIN FILTER of j" + j + " (" + strategy(w).label() + "): "
                + (f.range() ? "key range" + (f.bloom() ? " and " : "") : "")
                + (bits ? "presence bits" : f.bloom() ? "Bloom filter" : "")
                + " on " + w.codeNames.exprs(pr.keys()) + "; a row whose keys no build row has is dropped before the lookup");
        List<String> drop = new ArrayList<>(k.nulls());
        for (int i = 0; f.range() && i < k.values().size(); i++) {
            String min = w.field("long", "ctx.joinTable(" + j + ").keyRanges().min()[" + i + "]", "jf" + j + "_min");
            String max = w.field("long", "ctx.joinTable(" + j + ").keyRanges().max()[" + i + "]", "jf" + j + "_max");
            String v = k.values().get(i);
            drop.add(v + " < " + min + " || " + v + " > " + max);
        }
        if (!drop.isEmpty()) {
            w.line("if (" + String.join(" || ", drop) + ") continue;");
        }
        if (bits) {
            // a perfect table's bit per key of its range (JoinTable.present), read where its slot would miss the cache
            w.line("if (" + JoinLookup.absent(w, j, k.values().get(0)) + ") continue;");
        } else if (f.bloom()) {
            // the table's filter is made when this field is first read: only for the tables a probe tests, and
            // only where the table as built is beyond the cache (else null, and the test is skipped)
            String words = w.field("long[]", "ctx.joinTable(" + j + ").bloomIfItPays()", "jf" + j + "_bloom");
            String blocks = w.field("int", "ctx.joinTable(" + j + ").bloomBlocks()", "jf" + j + "_blocks");
            w.line("if (" + words + " != null && !io.tessera.backend.jvm.join.BloomFilter.mayContain(" + words
                    + ", " + blocks + ", io.tessera.backend.jvm.join.BloomFilter.mix(" + hashed(k.values())
                    + "))) continue;");
        }
    }

    /** The value a join table's slot functions hash for these keys ({@code JoinTable.hashKey}). */
    private static String hashed(List<String> keys) {
        if (keys.size() == 1) {
            return keys.get(0);
        }
        String h = "0L";
        for (String k : keys) {
            h = "io.tessera.backend.jvm.lib.Hashing.combine(" + h + ", " + k + ")";
        }
        return h;
    }
}
