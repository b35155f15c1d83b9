package io.tessera.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Runtime join filters: which probes of a pipeline may have their join table's key range (and a Bloom filter over
 * its keys) tested right after the probe keys are read, before the pipeline's first probe, and where the estimates
 * say a Bloom filter pays.
 *
 * <p>A filter only drops rows that cannot match, so it is sound only for probes that drop such rows themselves:
 * inner and semi probes, and the probes that mark a table's build rows (a MARK probe, which goes no further than
 * its marks, and an inner probe that marks): a row without a match marks nothing. Anti and left probes keep rows
 * without a match and are never filtered. Every key must be a column of the
 * pipeline's source, read as it is: then the filter reads the same key the probe reads, before any probe, and
 * computes nothing that could fail for a row an earlier filter would have dropped. A table that keeps its rows
 * with NULL keys (for a scan of its unmarked rows) is not filtered: its last key is not a key of the join.
 */
public final class RuntimeFilters {
    private RuntimeFilters() {
    }

    /** Fewest estimated source rows for which a Bloom filter pays: fewer are probed before its build is repaid. */
    public static final double BLOOM_MIN_PROBE_ROWS = 1 << 17;
    /**
     * Smallest join table, in bytes of its index, for which a Bloom filter pays: a smaller one sits in a core's
     * cache, where its own lookup costs what the filter's does.
     */
    public static final double BLOOM_MIN_TABLE_BYTES = 1 << 18;
    /** Most estimated build rows a Bloom filter is made for by default (8 bits a key: 64 MiB). */
    public static final double BLOOM_MAX_BUILD_ROWS = 1 << 26;
    /** The largest estimated fraction of probing rows with a match for which a Bloom filter pays. */
    public static final double BLOOM_MAX_KEPT = 0.5;
    /** Largest key range that a perfect table (an int per key of the range) covers, as the JVM backend builds it. */
    static final long PERFECT_SLOTS = 1L << 24;

    /** The probes of {@code ops} that a runtime filter may test, in their order. */
    public static List<Operation.Probe> filterable(List<Operation> ops) {
        List<Operation.Probe> out = new ArrayList<>();
        for (Operation op : ops) {
            if (op instanceof Operation.Probe pr && filterable(pr)) {
                out.add(pr);
            }
        }
        return out;
    }

    /** Whether a runtime filter may drop this probe's rows without a match (class comment). */
    public static boolean filterable(Operation.Probe pr) {
        if (pr.kind() != JoinKind.INNER && pr.kind() != JoinKind.SEMI && pr.kind() != JoinKind.MARK) {
            return false;
        }
        if (pr.build().keepsNullKeys() || pr.keys().isEmpty()) {
            return false;
        }
        for (Expr k : pr.keys()) {
            if (!(k instanceof Expr.Ref r) || !r.slot().isSource()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a Bloom filter over probe {@code pr}'s build keys pays in pipeline {@code p}: many rows probe a table
     * too large for a core's cache ({@link #tableBytes}), and most of them are estimated to find no match
     * ({@link PipelineAnalysis#matchesPerRow}: the build rows over the probe key's distinct values).
     */
    public static boolean bloomPays(Pipeline p, Operation.Probe pr) {
        return p.source().estimatedRows() >= BLOOM_MIN_PROBE_ROWS
                && tableBytes(pr.build()) >= BLOOM_MIN_TABLE_BYTES
                && pr.build().estimatedRows() <= BLOOM_MAX_BUILD_ROWS
                && PipelineAnalysis.matchesPerRow(pr) <= BLOOM_MAX_KEPT;
    }

    /**
     * The estimated bytes a lookup in the build's table reaches over: an int per key of the range for one integer
     * key of a known, small range (a perfect table), else two slots of a long key and an int row per build row.
     */
    static double tableBytes(Sink.Build b) {
        if (perfect(b)) {
            return 4.0 * b.range().size();
        }
        return 24.0 * Math.max(0, b.estimatedRows());
    }

    /** Whether the table of {@code b} is a perfect one: its row found at its key's place in the key range. */
    static boolean perfect(Sink.Build b) {
        return b.keys().size() == 1 && b.range() != null && b.range().size() <= PERFECT_SLOTS;
    }

    /**
     * The filterable probes of {@code ops} ordered by their estimated matches per probing row, fewest first: the
     * filter that drops most rows is tested first.
     */
    public static List<Operation.Probe> bySelectivity(List<Operation> ops) {
        List<Operation.Probe> out = new ArrayList<>(filterable(ops));
        out.sort(java.util.Comparator.comparingDouble(PipelineAnalysis::matchesPerRow));
        return out;
    }

    /**
     * The {@code joinfilter} value these estimates choose (not the dimension's default, which is none: on TPC-H SF 10
     * over 16 cores this choice was slower; a tuner measures every value): bloom where a Bloom filter pays for one of the pipeline's
     * filterable probes; else range where only one probe is filterable (two comparisons of a key its probe reads
     * anyway); else none: the range tests of several probes would read every probe's key before the first probe
     * drops a row, which costs more than ranges that rarely cut (a table's keys mostly span the probe side's).
     */
    public static String estimatedStrategy(Pipeline p) {
        List<Operation.Probe> probes = filterable(p.operations());
        for (Operation.Probe pr : probes) {
            if (bloomPays(p, pr)) {
                return "bloom";
            }
        }
        return probes.size() == 1 ? "range" : "none";
    }
}
