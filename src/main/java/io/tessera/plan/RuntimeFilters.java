package io.tessera.plan;

import io.tessera.storage.ColumnStats;

import java.util.ArrayList;
import java.util.List;

/**
 * Runtime join filters: which probes of a pipeline may have their join table's key range (and a Bloom filter over
 * its keys) tested right after the probe's keys are read, just before its own lookup (after the probes and filters
 * ahead of it, so a row they drop is never tested), and where the estimates say a test pays: only where it costs
 * less than the lookup's own miss, for the rows estimated to reach that probe.
 *
 * <p>A filter only drops rows that cannot match, so it is sound only for probes that drop such rows themselves:
 * inner and semi probes, and the probes that mark a table's build rows (a MARK probe, which goes no further than
 * its marks, and an inner probe that marks): a row without a match marks nothing. Anti and left probes keep rows
 * without a match and are never filtered. Every key must be a column of the
 * pipeline's source, read as it is: then the filter tests the very keys the probe then looks up. A table that keeps its rows
 * with NULL keys (for a scan of its unmarked rows) is not filtered: its last key is not a key of the join.
 */
public final class RuntimeFilters {
    private RuntimeFilters() {
    }

    /** Fewest estimated rows reaching a probe for which its Bloom filter pays: fewer are tested before its build is repaid. */
    public static final double BLOOM_MIN_PROBE_ROWS = 1 << 17;
    /**
     * Smallest join table, in bytes of its index, for which a Bloom filter pays: a smaller one sits in a core's
     * cache, where its own lookup costs what the filter's does.
     */
    public static final double BLOOM_MIN_TABLE_BYTES = 1 << 18;
    /**
     * Smallest perfect table, in bytes of its slots (an int a key of its range), whose presence bits pay ahead of its
     * lookup: a smaller one stays in a core's second-level cache, where its slot is read as fast as its bit.
     */
    public static final double PRESENCE_MIN_TABLE_BYTES = 1 << 20;
    /** The smallest estimated fraction of probing rows that a range test must drop to be emitted. */
    public static final double RANGE_MIN_CUT = 0.1;
    /**
     * A system property: when true, every filterable probe gets its strategy's tests, whatever the estimates say
     * (the tests of the filters themselves use it on tables too small for a filter to pay).
     */
    public static final String EVERY_PROBE = "tessera.joinfilter.everyProbe";
    /** Most estimated build rows a Bloom filter is made for by default (10 bits a key: 80 MiB). */
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
     * Whether a Bloom filter over probe {@code pr}'s build keys pays in pipeline {@code p}, tested just before the
     * probe's lookup in the operations {@code ops}: many rows reach the probe ({@link #rowsReaching}), its hashed
     * table is too large for a core's cache ({@link #tableBytes}), and most of them are estimated to find no match
     * ({@link #matchesPerRow}; a Bloom test, one block read in a filter a twentieth of the table's size, costs a
     * fraction of a lookup that misses the cache, so dropping half the rows repays testing them all). Never for a
     * perfect table: its lookup is one int read at the key's place, so keys that come clustered (lineitem's order
     * keys, in order) read it in order, where the filter's hash scatters them over its blocks: on TPC-H SF 1
     * (orders' keys in a perfect table) Q21's three probes of lineitem and orders took 3.2 to 4.5 times as long with
     * the filter (one thread). Nor for a ranged table probed by keys in order ({@link #lookupsInOrder}), for the
     * same reason (the orders at SF 10, whose key span is too long for a perfect table).
     */
    public static boolean bloomPays(Pipeline p, List<Operation> ops, Operation.Probe pr) {
        return !perfect(pr.build()) && !lookupsInOrder(pr)
                && rowsReaching(p, ops, pr) >= BLOOM_MIN_PROBE_ROWS
                && tableBytes(pr.build()) >= BLOOM_MIN_TABLE_BYTES
                && pr.build().estimatedRows() <= BLOOM_MAX_BUILD_ROWS
                && matchesPerRow(p, pr) <= BLOOM_MAX_KEPT;
    }

    /**
     * Whether testing a perfect table's presence bits (one bit a key of its range, {@code JoinTable.present}) before
     * its lookup pays in pipeline {@code p}: many rows reach the probe, its slots are beyond a core's second-level
     * cache ({@link #PRESENCE_MIN_TABLE_BYTES}; the bits, 32 times smaller, stay in it), its keys do not come in
     * order ({@link #lookupsInOrder}: those read the slots as a scan does), and most rows are estimated to find no
     * match. SSB's probes of filtered customers and parts at SF 20 (600K and 1M-key ranges, 0.6% to 4% of the rows
     * matching) read a bit in 75 and 130 KB instead of a slot in 2.4 and 4.2 MB.
     */
    public static boolean presencePays(Pipeline p, List<Operation> ops, Operation.Probe pr) {
        return perfect(pr.build()) && !lookupsInOrder(pr)
                && rowsReaching(p, ops, pr) >= BLOOM_MIN_PROBE_ROWS
                && tableBytes(pr.build()) >= PRESENCE_MIN_TABLE_BYTES
                && matchesPerRow(p, pr) <= BLOOM_MAX_KEPT;
    }

    /**
     * The estimated rows of pipeline {@code p} that reach probe {@code pr} in the operations {@code ops} (the
     * pipeline's, perhaps reordered or with leading filters taken by a vectorized filter): the source's rows times
     * the share each operation ahead of it keeps, as the pipeline's estimates give it (the rows after it over the
     * rows before it; an operation without an estimate keeps all, its share counted with the next one that has one).
     * The operations of {@code p} missing from {@code ops} ran ahead of all of them.
     */
    static double rowsReaching(Pipeline p, List<Operation> ops, Operation.Probe pr) {
        List<Operation> all = p.operations();
        double rows = p.source().estimatedRows();
        double before = rows;
        int at = indexOf(ops, pr);
        for (int i = 0; i < all.size(); i++) {
            double after = p.estimatedRowsAfter(i);
            if (Double.isNaN(after)) {
                continue;
            }
            int in = indexOf(ops, all.get(i));
            if (in < 0 || in < at) {
                rows *= before > 0 ? Math.min(1.0, after / before) : 0;
            }
            before = after;
        }
        return rows;
    }

    private static int indexOf(List<Operation> ops, Operation op) {
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i) == op) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Estimated build rows a probing row of {@code p} matches: {@link PipelineAnalysis#matchesPerRow} for one key;
     * for several, the build rows over the distinct key combinations (the product of each probe key's distinct
     * values, at most the pipeline's rows), 1 where a key's distinct count is unknown.
     */
    static double matchesPerRow(Pipeline p, Operation.Probe pr) {
        if (pr.keys().size() == 1) {
            return PipelineAnalysis.matchesPerRow(pr);
        }
        double combinations = 1;
        for (Expr k : pr.keys()) {
            ColumnStats st = k instanceof Expr.Ref r && r.slot().origin() != null ? r.slot().origin().stats() : null;
            if (st == null || st.distinctEstimate() <= 0) {
                return 1.0;
            }
            combinations *= st.distinctEstimate();
        }
        double distinct = Math.min(combinations, Math.max(1, p.source().estimatedRows()));
        double m = Math.max(0, pr.build().estimatedRows()) / distinct;
        return pr.kind() == JoinKind.SEMI ? Math.min(1.0, m) : m;
    }

    /**
     * The estimated fraction of probing rows whose keys fall outside the build keys' ranges: each probe key's
     * statistics (its histogram) against the build key column's min and max, the keys taken as independent; 0 where
     * either is unknown, or the key is converted to a common type or is not an integer (a string's codes, a DECIMAL).
     * The build's range is its column's: a filter on the build side that narrows it is not seen.
     */
    public static double rangeCut(Operation.Probe pr) {
        double kept = 1;
        for (int i = 0; i < pr.keys().size(); i++) {
            Expr pk = pr.keys().get(i);
            Expr bk = pr.build().keys().get(i);
            if (pr.build().commonKeyTypes().get(i) != null || !(pk instanceof Expr.Ref r) || r.slot().origin() == null
                    || !integerKey(pk) || !integerKey(bk) || pk.type().kind() != bk.type().kind()) {
                continue;
            }
            KeyRange build = KeyRange.of(bk);
            ColumnStats st = r.slot().origin().stats();
            if (build == null || st == null || !st.hasRange()) {
                continue;
            }
            if (st.minLong() >= build.min() && st.maxLong() <= build.max()) {
                continue;
            }
            kept *= st.fractionBetween(build.min(), true, build.max(), true);
        }
        return 1 - kept;
    }

    private static boolean integerKey(Expr e) {
        return switch (e.type().kind()) {
            case INTEGER, BIGINT, DATE -> true;
            default -> false;
        };
    }

    /** Whether the range test of probe {@code pr} pays: it is estimated to drop at least {@link #RANGE_MIN_CUT}. */
    public static boolean rangePays(Operation.Probe pr) {
        return rangeCut(pr) >= RANGE_MIN_CUT;
    }

    /** What the runtime filter of one probe tests: its key range, its Bloom filter, or both. */
    public record ProbeFilter(Operation.Probe probe, boolean range, boolean bloom) {
    }

    /**
     * The tests of pipeline {@code p}'s filterable probes among {@code ops} under {@code joinfilter} value
     * {@code strategy}, in their order: under bloom a Bloom filter where it pays ({@link #bloomPays}: hashed tables
     * only, for the rows reaching the probe), under range and bloom a range test where it cuts ({@link #rangePays});
     * for a perfect table, whose lookup first compares the key with the range the estimates know (a range test there
     * is that comparison twice), under bloom only its presence bits where they pay ({@link #presencePays}), and
     * nothing under none. With {@link #EVERY_PROBE} set, every filterable
     * probe gets the strategy's tests (and a Bloom filter is tested however small its table is built:
     * {@link #bloomPaysFor}), as before the estimates chose per probe (the tests of small tables read their filters
     * that way).
     */
    public static List<ProbeFilter> filters(Pipeline p, List<Operation> ops, String strategy) {
        return filters(p, ops, strategy, Boolean.getBoolean(EVERY_PROBE));
    }

    private static List<ProbeFilter> filters(Pipeline p, List<Operation> ops, String strategy, boolean every) {
        boolean bloom = "bloom".equals(strategy);
        if (!bloom && !"range".equals(strategy)) {
            return List.of();
        }
        List<ProbeFilter> out = new ArrayList<>();
        for (Operation.Probe pr : filterable(ops)) {
            if (every) {
                out.add(new ProbeFilter(pr, true, bloom));
                continue;
            }
            if (perfect(pr.build())) {
                if (bloom && presencePays(p, ops, pr)) {
                    out.add(new ProbeFilter(pr, false, true));
                }
                continue;
            }
            boolean b = bloom && bloomPays(p, ops, pr);
            boolean r = rangePays(pr);
            if (b || r) {
                out.add(new ProbeFilter(pr, r, b));
            }
        }
        return out;
    }

    /**
     * The estimated bytes a lookup in the build's table reaches over: an int per key of the range for one integer
     * key of a known, small range (a perfect table), else two slots of a long key and an int row per build row.
     */
    static double tableBytes(Sink.Build b) {
        if (perfect(b)) {
            return 4.0 * b.range().size();
        }
        return hashedTableBytes(b.estimatedRows());
    }

    /** The bytes a lookup in a hashed table of {@code rows} rows reaches over: two slots of a long key and an int row. */
    public static double hashedTableBytes(double rows) {
        return 24.0 * Math.max(0, rows);
    }

    /**
     * Whether a Bloom filter chosen from the estimates still pays once the table is built with {@code rows} rows: the
     * table is beyond a core's cache. An estimate 1000x too high (TPC-H Q18's subquery) otherwise has every probing
     * row hashed and tested against a filter of a table that a lookup finds in the cache anyway.
     */
    public static boolean bloomPaysFor(long rows) {
        return hashedTableBytes(rows) >= BLOOM_MIN_TABLE_BYTES || Boolean.getBoolean(EVERY_PROBE);
    }

    /** Whether the table of {@code b} is a perfect one: its row found at its key's place in the key range. */
    static boolean perfect(Sink.Build b) {
        return b.keys().size() == 1 && b.range() != null && b.range().size() <= PERFECT_SLOTS;
    }

    /**
     * Whether the table of {@code b} keeps its index in key order: a perfect table, or one the JVM's workers build
     * ranged (a hashed table of one key whose known span is below 2^32, of enough rows to be built in parallel: its
     * home slots follow the keys' order; {@code JoinTable.ranged}).
     */
    static boolean orderedIndex(Sink.Build b) {
        if (perfect(b)) {
            return true;
        }
        if (b.keys().size() != 1) {
            return false;
        }
        KeyRange r = b.range() != null ? b.range() : KeyRange.of(b.keys().get(0));
        return r != null && io.tessera.optimize.JoinCost.orderedIndex(b.estimatedRows(), 0, r.size());
    }

    /**
     * Whether probe {@code pr} reads its table's index in order, as a scan reads: an index in key order
     * ({@link #orderedIndex}) probed by a stored column that ascends with the row (lineitem's order keys probing
     * the orders).
     */
    static boolean lookupsInOrder(Operation.Probe pr) {
        return orderedIndex(pr.build()) && pr.keys().size() == 1 && AscendingColumns.ascendingSource(pr.keys().get(0));
    }

    /**
     * The {@code joinfilter} value these estimates choose, the dimension's default (a tuner measures every value):
     * bloom where a Bloom filter pays for one of the pipeline's filterable probes, else range where a probe's key range
     * is estimated to cut ({@link #rangePays}), else none. Either tests only the probes {@link #filters} picks, so a
     * probe whose key is read for a test that rarely drops a row is left to its own lookup.
     */
    public static String estimatedStrategy(Pipeline p) {
        List<ProbeFilter> filters = filters(p, p.operations(), "bloom", false);
        if (filters.stream().anyMatch(ProbeFilter::bloom)) {
            return "bloom";
        }
        return filters.isEmpty() ? "none" : "range";
    }

    /**
     * The {@code joinfilter} value for a machine of many cores, where the probes' cache misses overlap across cores
     * and a Bloom filter's hashing of every row is what is left of its gain: bloom where every test the estimates
     * pick under it is a perfect table's presence bits ({@link #presencePays}: a bit read in place of a slot, no hash),
     * else none.
     */
    public static String presenceStrategy(Pipeline p) {
        List<ProbeFilter> filters = filters(p, p.operations(), "bloom", false);
        boolean bitsOnly = !filters.isEmpty()
                && filters.stream().allMatch(f -> f.bloom() && !f.range() && perfect(f.probe().build()));
        return bitsOnly ? "bloom" : "none";
    }
}
