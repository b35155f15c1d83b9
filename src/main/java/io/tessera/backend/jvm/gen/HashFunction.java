package io.tessera.backend.jvm.gen;

import io.tessera.backend.jvm.lib.Hashing;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;

/**
 * The hash function of hash tables, one per value of the {@code hash} dimension (join tables mirror their build's
 * as {@code hash.jN}); a perfect table and a dense array hash nothing and keep the default.
 */
public enum HashFunction {
    /** Fibonacci hashing: a multiply by 2^64 / phi, the top bits. */
    MULSHIFT("mulshift", "multiplyShift", "multiply-shift"),
    /** MurmurHash3's 64-bit finalizer: better spread for keys with regular low bits. */
    MURMUR("murmur", "murmur", "murmur");

    /** The genome value. */
    final String label;
    /** The method of {@link Hashing} that computes it. */
    public final String method;
    /** Its name in the generated code's comments. */
    public final String description;

    HashFunction(String label, String method, String description) {
        this.label = label;
        this.method = method;
        this.description = description;
    }

    /** The hash of join {@code joinId}'s table, as a probe's genome mirrors it. */
    public static HashFunction ofJoin(PipelineWriter w, int joinId) {
        return MURMUR.label.equals(w.g.get(JvmDimensions.probeHash(joinId))) ? MURMUR : MULSHIFT;
    }

    /** The hash of this pipeline's own table (a group aggregation's): mulshift where the dimension is absent. */
    public static HashFunction of(PipelineWriter w) {
        return MURMUR.label.equals(w.choice(JvmDimensions.HASH, MULSHIFT.label)) ? MURMUR : MULSHIFT;
    }

    /** Whether the tables a pipeline of genome {@code g} builds at run time hash with murmur (its own hash). */
    public static boolean murmur(Genome g) {
        return g.has(JvmDimensions.HASH) && MURMUR.label.equals(g.get(JvmDimensions.HASH));
    }
}
