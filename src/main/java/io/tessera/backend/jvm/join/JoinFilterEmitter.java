package io.tessera.backend.jvm.join;

import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.plan.Operation;
import io.tessera.plan.RuntimeFilters;
import io.tessera.variant.JvmDimensions;

import java.util.List;
import java.util.Locale;

/**
 * Runtime join filters ({@code joinfilter}): before a pipeline's first probe, the keys of its filterable probes
 * ({@link RuntimeFilters}: inner, semi and mark probes on source columns) are read and tested against what their join
 * tables, finished before this pipeline runs, hold; a row that fails cannot match and is dropped before the other
 * columns are read and before any hash lookup. Rows that pass are probed as always.
 * <ul>
 * <li>none: no test;</li>
 * <li>range: a NULL key, or a key outside the range of the table's keys ({@link KeyRanges}), drops the row;</li>
 * <li>bloom: that, and the table's {@link BloomFilter} (one cache-line block read per key).</li>
 * </ul>
 * Each probe gets only the tests the estimates say pay ({@link RuntimeFilters#filters}): a Bloom filter for a large
 * table that most rows miss, a range test where the probe keys' range reaches beyond the build keys', nothing for a
 * perfect table in the cache. The probes' tests run in the order of their estimated matches per row, fewest first, each probe's range then its
 * Bloom filter, so that the filter that drops most rows is tested before the other probes' keys are read.
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

    /** Emits the filters of the probes among {@code ops} (to be placed before the first probe). */
    public static void emit(PipelineWriter w, List<Operation> ops) {
        Strategy s = strategy(w);
        List<RuntimeFilters.ProbeFilter> filters = RuntimeFilters.filters(w.pipeline(), ops, s.label());
        if (filters.isEmpty()) {
            return;
        }
        w.comment("JOIN FILTERS (" + s.label() + "): a row whose keys no build row has cannot match; dropped before the probes");
        for (RuntimeFilters.ProbeFilter f : filters) {
            Operation.Probe pr = f.probe();
            int j = pr.joinId();
            w.comment((f.range() ? "key range" + (f.bloom() ? " and " : "") : "") + (f.bloom() ? "Bloom filter" : "")
                    + " of j" + j + " on " + w.codeNames.exprs(pr.keys()));
            ProbeEmitter.Keys k = ProbeEmitter.keys(w, pr);
            List<String> drop = new java.util.ArrayList<>(k.nulls());
            for (int i = 0; f.range() && i < k.values().size(); i++) {
                String min = w.field("long", "ctx.joinTable(" + j + ").keyRanges().min()[" + i + "]", "jf" + j + "_min");
                String max = w.field("long", "ctx.joinTable(" + j + ").keyRanges().max()[" + i + "]", "jf" + j + "_max");
                String v = k.values().get(i);
                drop.add(v + " < " + min + " || " + v + " > " + max);
            }
            if (!drop.isEmpty()) {
                w.line("if (" + String.join(" || ", drop) + ") continue;");
            }
            if (f.bloom()) {
                // the table's filter is made when this field is first read: only for the tables a probe tests, and
                // only where the table as built is beyond the cache (else null, and the test is skipped)
                String words = w.field("long[]", "ctx.joinTable(" + j + ").bloomIfItPays()", "jf" + j + "_bloom");
                String blocks = w.field("int", "ctx.joinTable(" + j + ").bloomBlocks()", "jf" + j + "_blocks");
                w.line("if (" + words + " != null && !io.tessera.backend.jvm.join.BloomFilter.mayContain(" + words
                        + ", " + blocks + ", io.tessera.backend.jvm.join.BloomFilter.mix(" + hashed(k.values())
                        + "))) continue;");
            }
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
