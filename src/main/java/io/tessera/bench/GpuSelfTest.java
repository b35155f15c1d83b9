package io.tessera.bench;

import io.tessera.api.QueryResult;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.SortKey;
import io.tessera.storage.Database;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs queries on the GPU and on the JVM backend over the same database and compares every result: each query
 * under its default CUDA genomes, and under variants that together use every value of every CUDA dimension of its
 * pipelines at least once (one dimension moved away from the default at a time, where the constraints allow), and
 * a few combinations of values that interact (see {@link #COMBINATIONS}).
 */
public final class GpuSelfTest implements AutoCloseable {

    /** One comparison: query, variant, where it ran, and the difference (null: the same rows). */
    public record Check(String query, String variant, String device, String difference, String notOnGpu) {
        public boolean passed() {
            return difference == null;
        }
    }

    /**
     * SSB queries whose table scans end in MATERIALIZE or SORT (those of the benchmark queries all aggregate or
     * build a join table), so that the materialization variants run too: a filtered sort, rows with a join's
     * payload read by a filter and by the outputs, and a top-k over two joins (ordered to a unique row, so that both
     * engines keep the same rows).
     */
    public static final List<Queries.Query> SSB_ROWS = List.of(
            new Queries.Query(Queries.SSB, "rows-sort", "select lo_orderkey, lo_linenumber, lo_revenue from lineorder "
                    + "where lo_discount = 1 and lo_quantity < 5 order by lo_orderkey, lo_linenumber"),
            new Queries.Query(Queries.SSB, "rows-join", "select lo_orderkey, lo_linenumber, d_year, d_month, lo_revenue "
                    + "from lineorder, ddate where lo_orderdate = d_datekey and d_year + lo_discount > 1997 and lo_quantity < 10"),
            new Queries.Query(Queries.SSB, "rows-topk", "select lo_orderkey, lo_linenumber, s_city, c_city, lo_revenue "
                    + "from lineorder, supplier, customer where lo_suppkey = s_suppkey and lo_custkey = c_custkey "
                    + "and s_region = 'AMERICA' and c_nation = 'BRAZIL' and lo_quantity < 20 "
                    + "order by lo_revenue desc, lo_orderkey, lo_linenumber limit 50"));

    /**
     * A TPC-H scan that materializes DECIMAL, DATE and string columns; an EXISTS and a NOT EXISTS whose outer side
     * (a few weeks of orders) builds the table that lineitem's probes mark, its matched or unmatched rows then
     * scanned, materialized or grouped; a join whose build side (a day of lineitem) repeats its keys, so that each
     * probe finds several rows, with a condition besides the keys; conditions over one dictionary column computed
     * per code on the host (masks of codes: LIKE, NOT LIKE, SUBSTRING in an IN list) beside a prefix LIKE; EXTRACT of
     * a DATE's year, quarter, month and day as filters and group keys; scans of an aggregation's groups on
     * the device that build a join table, aggregate, or only mark the rows of a semi or anti join's table (Q20's
     * shape); and string functions of one dictionary column computed per
     * code on the host (maps of codes) as group keys, an aggregate's argument and outputs that can be NULL; DISTINCT
     * aggregates as two aggregations, grouped and not, beside plain ones, over arguments that can be NULL (0 among
     * their values, groups with none).
     */
    public static final List<Queries.Query> TPCH_ROWS = List.of(
            new Queries.Query(Queries.TPCH, "rows-lineitem", "select l_orderkey, l_linenumber, l_extendedprice, "
                    + "l_shipdate, l_returnflag from lineitem where l_shipdate >= date '1998-10-01' and l_discount > 0.05"),
            new Queries.Query(Queries.TPCH, "rows-marked", "select o_orderkey, o_orderdate, o_totalprice from orders "
                    + "where o_orderdate < date '1992-02-01' and exists (select * from lineitem "
                    + "where l_orderkey = o_orderkey and l_receiptdate > l_commitdate)"),
            new Queries.Query(Queries.TPCH, "groups-unmarked", "select o_orderpriority, count(*), sum(o_totalprice) "
                    + "from orders where o_orderdate < date '1992-02-01' and not exists (select * from lineitem "
                    + "where l_orderkey = o_orderkey and l_shipdate > date '1992-02-20') group by o_orderpriority"),
            new Queries.Query(Queries.TPCH, "groups-fanout", "select b.l_returnflag, count(*), sum(a.l_quantity), "
                    + "sum(b.l_extendedprice) from lineitem a, lineitem b where a.l_orderkey = b.l_orderkey "
                    + "and a.l_shipdate = date '1995-03-01' and a.l_extendedprice > b.l_extendedprice "
                    + "group by b.l_returnflag"),
            new Queries.Query(Queries.TPCH, "codes-masked", "select count(*), sum(l_extendedprice) from lineitem, part "
                    + "where l_partkey = p_partkey and p_name like '%green%' and p_container not like '%BAG' "
                    + "and p_type like 'PROMO%'"),
            new Queries.Query(Queries.TPCH, "codes-substring", "select c_mktsegment, count(*), sum(c_acctbal) "
                    + "from customer where substring(c_phone, 1, 2) in ('13', '31', '23', '29', '30', '18', '17') "
                    + "and c_comment not like '%special%requests%' group by c_mktsegment"),
            new Queries.Query(Queries.TPCH, "groups-dateparts", "select extract(year from l_shipdate), "
                    + "extract(quarter from l_shipdate), count(*), sum(l_quantity) from lineitem "
                    + "where extract(month from l_shipdate) = 2 and extract(day from l_shipdate) >= 28 "
                    + "group by extract(year from l_shipdate), extract(quarter from l_shipdate)"),
            // the groups of an aggregation scanned on the device: a HAVING's filter and a join table built from them
            // (Q18's shape), an aggregation over them (Q15's), two keys filtered by their count probing a table, a
            // join table whose payload is a count and a latest date
            new Queries.Query(Queries.TPCH, "groups-build", "select o_orderkey, o_custkey, o_totalprice from orders "
                    + "where o_orderkey in (select l_orderkey from lineitem group by l_orderkey "
                    + "having sum(l_quantity) > 250) order by o_orderkey"),
            new Queries.Query(Queries.TPCH, "groups-aggregate", "select max(revenue), count(*), sum(revenue), "
                    + "min(revenue) from (select l_suppkey, sum(l_extendedprice * (1 - l_discount)) as revenue "
                    + "from lineitem where l_shipdate >= date '1996-01-01' and l_shipdate < date '1996-04-01' "
                    + "group by l_suppkey) t"),
            new Queries.Query(Queries.TPCH, "groups-probe", "select count(*), sum(ps_availqty), sum(c) from partsupp, "
                    + "(select l_partkey, l_suppkey, count(*) as c from lineitem group by l_partkey, l_suppkey) g "
                    + "where ps_partkey = l_partkey and ps_suppkey = l_suppkey and c > 1"),
            new Queries.Query(Queries.TPCH, "groups-payload", "select o_orderpriority, count(*), sum(n) from orders, "
                    + "(select l_orderkey, count(*) as n, max(l_shipdate) as last from lineitem group by l_orderkey) g "
                    + "where o_orderkey = l_orderkey and last > date '1998-09-01' group by o_orderpriority"),
            // groups that only mark the rows of a table the outer side of a semi or anti join built (Q20's shape at
            // SF 1 and more: the groups probe partsupp, a filter over the group's sum, the match marks a supplier),
            // filters that a slot without a group would pass (its sum is 0), so that marks from it would show
            new Queries.Query(Queries.TPCH, "groups-mark", "select s_suppkey, s_name from supplier, nation "
                    + "where s_nationkey = n_nationkey and n_regionkey = 1 and s_suppkey in (select ps_suppkey "
                    + "from partsupp, (select l_partkey, l_suppkey, sum(l_quantity) as q from lineitem "
                    + "where l_shipdate >= date '1994-01-01' and l_shipdate < date '1996-01-01' "
                    + "group by l_partkey, l_suppkey) g where ps_partkey = g.l_partkey and ps_suppkey = g.l_suppkey "
                    + "and ps_availqty > 1000 * g.q) order by s_suppkey"),
            new Queries.Query(Queries.TPCH, "groups-mark-anti", "select s_suppkey, s_name from supplier "
                    + "where s_nationkey < 10 and not exists (select 1 from (select l_partkey, l_suppkey, "
                    + "sum(l_quantity) as q from lineitem where l_shipdate >= date '1995-01-01' "
                    + "group by l_partkey, l_suppkey) g where g.l_suppkey = s_suppkey and q < 6) order by s_suppkey"),
            // a left join probed on the device (Q13's shape): rows whose values over the NULL-padded payload are
            // never NULL, and aggregates that skip its NULLs, with CASE, IS [NOT] NULL, OR and AND over it
            new Queries.Query(Queries.TPCH, "rows-left", "select o_orderkey, o_totalprice, coalesce(g.n, 0), "
                    + "case when g.last_ship is null then o_orderdate else g.last_ship end from orders left join "
                    + "(select l_orderkey, count(*) as n, max(l_shipdate) as last_ship from lineitem "
                    + "where l_shipdate > date '1998-06-01' group by l_orderkey) g on o_orderkey = g.l_orderkey "
                    + "where o_orderdate >= date '1996-06-01'"),
            new Queries.Query(Queries.TPCH, "groups-left", "select o_orderpriority, count(*), count(g.n), sum(g.n), "
                    + "min(g.n), max(g.last_ship), sum(coalesce(g.n, -1)), sum(case when g.n is null then 1 else 0 end), "
                    + "sum(case when g.n > 3 or o_totalprice > 200000 then 1 else 0 end), "
                    + "count(case when g.n > 3 and o_totalprice > 200000 then 1 end) from orders left join "
                    + "(select l_orderkey, count(*) as n, max(l_shipdate) as last_ship from lineitem "
                    + "where l_shipdate > date '1998-06-01' group by l_orderkey) g on o_orderkey = g.l_orderkey "
                    + "where o_orderdate >= date '1996-06-01' group by o_orderpriority"),
            // joins without an equality condition whose build side is one row (Q22's and Q11's shape): a scalar's
            // value compared with every row, and a MAX over no rows crossed with every row as NULL
            new Queries.Query(Queries.TPCH, "scalar-compare", "select count(*), sum(c_acctbal) from customer "
                    + "where c_acctbal > (select avg(c_acctbal) from customer where c_acctbal > 0.00)"),
            new Queries.Query(Queries.TPCH, "scalar-null", "select c_mktsegment, count(*), count(s), max(s) "
                    + "from customer, (select max(o_totalprice) as s from orders "
                    + "where o_orderdate < date '1900-01-01') t where c_nationkey < 5 group by c_mktsegment"),
            // string functions of one dictionary column as maps of codes: group keys sorted on the device, MIN of
            // one, and rows that output one over a left join's payload, NULL where the row found no match
            new Queries.Query(Queries.TPCH, "codes-mapped-keys", "select substring(c_phone, 1, 2) as cc, "
                    + "upper(left(c_mktsegment, 3)) as seg, count(*), sum(c_acctbal), min(lower(c_name)) "
                    + "from customer where c_acctbal > 0 group by substring(c_phone, 1, 2), "
                    + "upper(left(c_mktsegment, 3)) order by cc, seg"),
            new Queries.Query(Queries.TPCH, "codes-mapped-rows", "select o_orderkey, substring(c_name, 10, 9), "
                    + "trim(c_mktsegment || ' ') from orders left join customer on o_custkey = c_custkey "
                    + "and c_acctbal > 9000 where o_orderdate < date '1992-03-01'"),
            // DISTINCT aggregates: per (keys, argument) first, then over those groups on the device
            new Queries.Query(Queries.TPCH, "distinct-grouped", "select l_returnflag, count(distinct l_partkey), "
                    + "count(*), sum(l_quantity), min(l_discount), max(l_shipdate) from lineitem "
                    + "where l_shipdate >= date '1995-03-01' group by l_returnflag"),
            new Queries.Query(Queries.TPCH, "distinct-scalar", "select count(distinct l_suppkey), "
                    + "sum(distinct l_suppkey), avg(distinct l_suppkey), count(*) from lineitem "
                    + "where l_shipdate < date '1993-01-01'"),
            new Queries.Query(Queries.TPCH, "distinct-null", "select l_returnflag, l_linestatus, "
                    + "count(distinct case when l_returnflag = 'A' and l_quantity > 25 then l_suppkey end), "
                    + "sum(distinct case when l_returnflag = 'A' and l_quantity > 25 then l_suppkey end) "
                    + "from lineitem group by l_returnflag, l_linestatus"),
            new Queries.Query(Queries.TPCH, "distinct-null-scalar", "select "
                    + "count(distinct case when l_linenumber < 3 then l_linenumber - 1 end), "
                    + "sum(distinct case when l_linenumber < 3 then l_linenumber - 1 end), "
                    + "avg(distinct case when l_linenumber < 3 then l_linenumber - 1 end) from lineitem"),
            new Queries.Query(Queries.TPCH, "distinct-decimal", "select o_orderpriority, count(distinct o_totalprice), "
                    + "sum(distinct o_totalprice) from orders where o_orderdate < date '1993-01-01' "
                    + "group by o_orderpriority"),
            // window functions over rows sorted on the device: partitions of a few rows (by customer, with peers of
            // one date), of hundreds of thousands (by year, across many scan tiles), one partition of every row
            // (OVER ()), frames of the whole partition, up to the last peer and up to the row, and a window over a
            // GPU aggregation's groups; each query's rows are the same set whatever order ties are collected in
            new Queries.Query(Queries.TPCH, "window-ranks", "select o_custkey, o_orderdate, o_totalprice, "
                    + "rank() over (partition by o_custkey order by o_orderdate) rk, "
                    + "dense_rank() over (partition by o_custkey order by o_orderdate) dr, "
                    + "sum(o_totalprice) over (partition by o_custkey) total, "
                    + "count(*) over (partition by o_custkey order by o_orderdate) running "
                    + "from orders where o_orderdate < date '1993-01-01'"),
            new Queries.Query(Queries.TPCH, "window-rownumber", "select o_orderkey, extract(year from o_orderdate) y, "
                    + "row_number() over (partition by extract(year from o_orderdate) order by o_totalprice desc, o_orderkey) rn, "
                    + "rank() over (partition by extract(year from o_orderdate) order by o_totalprice desc, o_orderkey) rk, "
                    + "sum(o_totalprice) over (partition by extract(year from o_orderdate) "
                    + "order by o_totalprice desc, o_orderkey) running from orders"),
            new Queries.Query(Queries.TPCH, "window-aggregates", "select l_orderkey, l_linenumber, l_quantity, "
                    + "sum(l_quantity) over (partition by l_orderkey order by l_linenumber rows between unbounded "
                    + "preceding and current row) s, avg(l_extendedprice) over (partition by l_orderkey) a, "
                    + "min(l_shipdate) over (partition by l_orderkey order by l_linenumber) mn, "
                    + "max(l_discount) over (partition by l_orderkey) mx, count(l_quantity) over (partition by l_orderkey) c "
                    + "from lineitem where l_shipdate < date '1993-01-01'"),
            new Queries.Query(Queries.TPCH, "window-whole", "select o_orderkey, count(*) over () c, "
                    + "sum(o_totalprice) over () s, avg(o_totalprice) over () a, min(o_orderdate) over () mn, "
                    + "max(o_custkey) over () mx from orders"),
            new Queries.Query(Queries.TPCH, "window-groups", "select l_suppkey, sum(l_quantity) q, "
                    + "rank() over (order by sum(l_quantity) desc) rk, count(*) over (order by sum(l_quantity) desc) c "
                    + "from lineitem where l_shipdate < date '1994-01-01' group by l_suppkey"));

    /**
     * Tables made from TPC-H's for {@link #NULLS}: columns that hold NULLs (every few rows, by key), and one declared
     * nullable that holds none ({@code tax}), which a kernel reads as never NULL.
     */
    public static final List<String> NULLS_TABLES = List.of(
            "create table lnull as select l_orderkey, l_partkey, l_suppkey, l_linenumber, "
                    + "case when l_linenumber = 3 then null else l_quantity end as qty, "
                    + "case when l_orderkey % 5 = 0 then null else l_extendedprice end as price, "
                    + "case when l_suppkey % 7 = 0 then null else l_discount end as disc, "
                    + "case when l_partkey % 11 = 0 then null else l_shipdate end as shipdate, "
                    + "case when l_orderkey % 13 = 0 then null else l_shipmode end as shipmode, "
                    + "case when l_orderkey < 0 then null else l_tax end as tax, "
                    + "case when l_orderkey % 17 = 0 then null else l_orderkey end as okey, l_returnflag from lineitem",
            "create table onull as select o_orderkey, o_custkey, "
                    + "case when o_orderkey % 3 = 0 then null else o_totalprice end as total, "
                    + "case when o_custkey % 4 = 0 then null else o_orderdate end as odate, o_orderpriority from orders");

    /**
     * Queries over {@link #NULLS_TABLES}: a table's columns that hold NULLs read on the GPU with their NULL flags,
     * in filters, aggregates, NULL tests, a join's probe and a join table's payload, a row sink's outputs, and as
     * join keys (inner, semi and anti probes, builds; a NULL key never matches), sort keys (NULLS FIRST and LAST,
     * a LIMIT), number, date and string group keys that may be NULL (optimize.NullableGroupKeys; a string's
     * COALESCE through a map of its codes), a LIKE over a column that holds NULLs as a mask of its codes (with a bit
     * for NULL where the condition is TRUE or FALSE there: IS NOT TRUE, IS DISTINCT FROM, OR ... IS NULL).
     */
    public static final List<Queries.Query> NULLS = List.of(
            new Queries.Query("nulls", "nulls-aggregate", "select l_returnflag, count(*), count(qty), sum(qty), "
                    + "min(price), max(price), avg(disc), count(shipdate), sum(tax) from lnull group by l_returnflag"),
            new Queries.Query("nulls", "nulls-filter", "select count(*), sum(price * (1 - disc)) from lnull "
                    + "where shipdate >= date '1995-01-01' and qty < 20"),
            new Queries.Query("nulls", "nulls-tests", "select count(*) filter (where qty is null), "
                    + "count(*) filter (where price is not null and disc is null), sum(coalesce(qty, 0) + tax), "
                    + "count(*) filter (where not (price > 30000)) from lnull"),
            new Queries.Query("nulls", "nulls-probe", "select o_orderpriority, count(*), sum(qty), max(shipdate) "
                    + "from lnull, onull where l_orderkey = o_orderkey and price > 50000 group by o_orderpriority"),
            new Queries.Query("nulls", "nulls-payload", "select l_returnflag, count(*), sum(total), count(odate), "
                    + "max(odate) from lnull, onull where l_orderkey = o_orderkey and qty > 40 group by l_returnflag"),
            new Queries.Query("nulls", "nulls-rows", "select l_orderkey, l_linenumber, qty, price, shipdate, "
                    + "shipmode from lnull where l_orderkey < 2000 and l_linenumber <= 4"),
            new Queries.Query("nulls", "nulls-key-inner", "select o_orderpriority, count(*), sum(qty) from lnull, onull "
                    + "where okey = o_orderkey group by o_orderpriority"),
            new Queries.Query("nulls", "nulls-key-build", "select count(*), sum(total) from onull where not exists "
                    + "(select * from lnull where okey = o_orderkey and qty > 45)"),
            new Queries.Query("nulls", "nulls-key-anti", "select l_returnflag, count(*), sum(qty) from lnull "
                    + "where not exists (select * from onull where o_orderkey = okey and total > 100000) "
                    + "group by l_returnflag"),
            new Queries.Query("nulls", "nulls-key-semi", "select count(*), sum(qty) from lnull where okey in "
                    + "(select o_orderkey from onull where odate < date '1993-01-01')"),
            new Queries.Query("nulls", "nulls-sort", "select l_orderkey, l_linenumber, qty, price from lnull "
                    + "where l_suppkey = 17 order by qty desc, price nulls first, l_orderkey, l_linenumber"),
            new Queries.Query("nulls", "nulls-topk", "select l_orderkey, l_linenumber, disc, shipdate from lnull "
                    + "where l_partkey < 3000 order by disc, shipdate desc nulls last, l_orderkey, l_linenumber limit 25"),
            new Queries.Query("nulls", "nulls-groups-sorted", "select l_linenumber, sum(qty), max(shipdate), count(disc) "
                    + "from lnull group by l_linenumber order by 2 desc nulls last, 1"),
            new Queries.Query("nulls", "nulls-groupkey-number", "select qty, count(*), sum(price), max(shipdate) "
                    + "from lnull group by qty"),
            new Queries.Query("nulls", "nulls-groupkey-date", "select extract(year from shipdate), l_returnflag, "
                    + "count(*), sum(disc) from lnull group by extract(year from shipdate), l_returnflag "
                    + "order by 1 nulls first, 2"),
            new Queries.Query("nulls", "nulls-groupkey", "select shipmode, count(*), sum(qty) from lnull "
                    + "group by shipmode"),
            new Queries.Query("nulls", "nulls-groupkey-sorted", "select shipmode, l_returnflag, count(*), "
                    + "sum(tax) from lnull group by shipmode, l_returnflag order by 1 nulls first, 2"),
            new Queries.Query("nulls", "nulls-groupkey-coalesce", "select coalesce(shipmode, 'NONE'), count(*), "
                    + "max(tax) from lnull group by 1 order by 1"),
            new Queries.Query("nulls", "nulls-mask-null", "select count(*) filter (where shipmode like '%AI%' is not true), "
                    + "count(*) filter (where shipmode is distinct from 'MAIL' and shipmode not like '%R%'), "
                    + "sum(tax) filter (where shipmode like '%SHIP%' or shipmode is null) from lnull"),
            new Queries.Query("nulls", "nulls-like", "select count(*), sum(price) from lnull where shipmode like '%AI%' "
                    + "or not (shipmode like '%R%' or shipmode in ('FOB', 'TRUCK', 'SHIP', 'MAIL', 'RAIL', 'REG AIR', "
                    + "'AIR', 'XX', 'YY'))"),
            // a window over columns that hold NULLs: a string PARTITION BY key and an ORDER BY key that may be NULL,
            // NULL arguments skipped by COUNT, SUM, AVG and MAX
            new Queries.Query("nulls", "nulls-window", "select shipmode, qty, price, "
                    + "rank() over (partition by shipmode order by qty nulls first) rk, "
                    + "count(price) over (partition by shipmode order by qty nulls first) cp, "
                    + "sum(price) over (partition by shipmode) sp, "
                    + "max(price) over (partition by shipmode order by qty nulls first) mp, "
                    + "avg(qty) over (partition by shipmode) aq from lnull where l_orderkey < 200000"));

    /**
     * Combinations of values that {@link #coveringVariants} adds: each applies to the table-scan pipelines that have
     * its first dimension, with those of its other dimensions they have.
     */
    private static final List<Map<String, String>> COMBINATIONS = List.of(
            ordered(CudaVariantSpace.HASH_TABLE, "cuckoo3", CudaVariantSpace.HASH, "murmur"),
            ordered(CudaVariantSpace.MATERIALIZATION, "bitmap", CudaVariantSpace.GRID, "tile", CudaVariantSpace.IPT, "2"),
            ordered(CudaVariantSpace.MATERIALIZATION, "twopass", CudaVariantSpace.PREDICATION, "predicated",
                    CudaVariantSpace.IPT, "16", CudaVariantSpace.TPB, "64"));

    private static Map<String, String> ordered(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private final Database db;
    private final QueryEngine jvm;
    private final QueryEngine gpu;
    private final PrintStream log;
    /** Runs of each prepared GPU query, every answer compared (a later run may reuse what the first left: graphs). */
    private final int repeat;

    public GpuSelfTest(Database db, PrintStream log) {
        this(db, log, 1);
    }

    /** As {@link #GpuSelfTest(Database, PrintStream)}, each GPU query prepared once and run {@code repeat} times. */
    public GpuSelfTest(Database db, PrintStream log, int repeat) {
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be at least 1, not " + repeat);
        }
        this.repeat = repeat;
        this.db = db;
        int cores = java.lang.Runtime.getRuntime().availableProcessors();
        this.jvm = new QueryEngine(db, cores, Device.CPU);
        this.gpu = new QueryEngine(db, cores, Device.GPU);
        this.log = log;
    }

    /**
     * The GPU runtime the checks ran on (the GPU engine's, opened now if no check used it): what the device buffers
     * left between queries are counted against.
     */
    public io.tessera.backend.cuda.runtime.GpuRuntime runtime() {
        return io.tessera.backend.cuda.exec.CudaBackend.runtime(gpu.devices());
    }

    /** Closes both engines' devices, the GPU's runtime with them. */
    @Override
    public void close() {
        jvm.close();
        gpu.close();
    }

    /** Every check of one query; {@code variants}: also run the covering set of genomes. */
    public List<Check> run(String name, String sql, boolean variants) {
        List<Check> out = new ArrayList<>();
        QueryResult expected;
        try {
            expected = jvm.run(jvm.prepare(sql));
        } catch (RuntimeException e) {
            out.add(new Check(name, "default", "cpu", "the JVM backend failed: " + e.getMessage(), null));
            return out;
        }
        out.add(check(name, "default", sql, null, expected));
        if (variants) {
            QueryPlan plan = gpu.plan(sql);
            for (Map.Entry<String, Map<Integer, Genome>> v : coveringVariants(plan).entrySet()) {
                out.add(check(name, v.getKey(), sql, v.getValue(), expected));
            }
        }
        return out;
    }

    private Check check(String name, String variant, String sql, Map<Integer, Genome> genomes, QueryResult expected) {
        try {
            QueryEngine.Prepared p = gpu.prepare(sql, genomes);
            QueryResult r = gpu.run(p);
            String diff = ResultMatch.difference(expected, r, orderColumns(sql));
            for (int i = 1; i < repeat && diff == null; i++) {
                r = gpu.run(p);
                diff = ResultMatch.difference(expected, r, orderColumns(sql));
                if (diff != null) {
                    diff = "run " + (i + 1) + " of the same prepared query: " + diff;
                }
            }
            String device = r.execution().device();
            String jvmOnly = device.equals("cpu") ? String.valueOf(r.execution().notice()) : null;
            Check c = new Check(name, variant, device, diff, jvmOnly);
            log.println((c.passed() ? "PASS " : "FAIL ") + name + " " + variant + " [" + device + "]"
                    + (c.passed() ? "" : ": " + diff) + (jvmOnly == null ? "" : " (" + jvmOnly + ")"));
            return c;
        } catch (RuntimeException e) {
            log.println("FAIL " + name + " " + variant + ": " + e);
            return new Check(name, variant, "gpu", "failed: " + e.getMessage(), null);
        }
    }

    /**
     * Genome sets that together use every value of every CUDA dimension of the plan's pipelines that scan a table or
     * a join table's marked or unmarked rows, and the cut of a device relation to its LIMIT ({@link #variesOnDevice}): variant
     * k of dimension d sets d to its k-th other value in every pipeline that has d (where the constraints allow;
     * a hash function needs a hash table, so a perfect table or dense array moves to one), all else at defaults.
     */
    /**
     * Whether a pipeline's source is one a kernel scans: a table, the marked or unmarked rows of a join table, or
     * the groups of an aggregation that it builds a join table from or aggregates.
     */
    public static boolean scansOnDevice(Pipeline p) {
        return p.source() instanceof io.tessera.plan.Source.TableScan
                || p.source() instanceof io.tessera.plan.Source.JoinTableScan
                || p.source() instanceof io.tessera.plan.Source.RelationScan
                && (p.sink() instanceof Sink.Build || p.sink() instanceof Sink.Aggregate);
    }

    /**
     * Whether the covering variants vary a dimension of a pipeline's genome: any of one that {@link #scansOnDevice},
     * and {@code topk} of one that cuts a device relation to its LIMIT (a sort of a GPU aggregation's groups, which
     * has no kernel whose other dimensions would mean something).
     */
    static boolean variesOnDevice(Pipeline p, String dimension) {
        return scansOnDevice(p) || CudaVariantSpace.cutsRelation(p) && dimension.equals(CudaVariantSpace.TOP_K);
    }

    public static Map<String, Map<Integer, Genome>> coveringVariants(QueryPlan plan) {
        CudaVariantSpace space = CudaVariantSpace.INSTANCE;
        Map<Integer, Genome> defaults = new HashMap<>();
        Map<String, List<String>> values = new LinkedHashMap<>();
        for (Pipeline p : plan.pipelines()) {
            defaults.put(p.id(), space.defaultGenome(plan, p));
            for (Dimension d : space.dimensions(plan, p)) {
                if (variesOnDevice(p, d.name())) {
                    values.putIfAbsent(d.name(), d.values());
                }
            }
        }
        Map<String, Map<Integer, Genome>> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> d : values.entrySet()) {
            for (String value : d.getValue()) {
                Map<Integer, Genome> m = new HashMap<>(defaults);
                boolean moved = false;
                for (Pipeline p : plan.pipelines()) {
                    Genome base = defaults.get(p.id());
                    if (!variesOnDevice(p, d.getKey()) || !base.has(d.getKey())
                            || base.get(d.getKey()).equals(value)) {
                        continue;
                    }
                    Genome g = base.with(d.getKey(), value);
                    if (!space.valid(plan, p, g)) {
                        Genome alt = base.has(CudaVariantSpace.HASH_TABLE) ? g.with(CudaVariantSpace.HASH_TABLE, "linear")
                                : base.has(CudaVariantSpace.AGGREGATION) ? g.with(CudaVariantSpace.AGGREGATION, "shared") : null;
                        if (alt == null || !space.valid(plan, p, alt)) {
                            continue;
                        }
                        g = alt;
                    }
                    m.put(p.id(), g);
                    moved = true;
                }
                if (moved) {
                    out.put(d.getKey() + "=" + value, m);
                }
            }
        }
        // combinations that moving one dimension at a time never reaches: the murmur family of a cuckoo table (the
        // moves above hash with murmur under a linear table), and the two-pass materializations over striped tiles
        // with one tile per block, and with predicated filters over wide tiles
        for (Map<String, String> combo : COMBINATIONS) {
            String first = combo.keySet().iterator().next();
            Map<Integer, Genome> m = new HashMap<>(defaults);
            boolean moved = false;
            for (Pipeline p : plan.pipelines()) {
                Genome g = defaults.get(p.id());
                if (!scansOnDevice(p) || !g.has(first)) {
                    continue;
                }
                for (Map.Entry<String, String> c : combo.entrySet()) {
                    if (g.has(c.getKey())) {
                        g = g.with(c.getKey(), c.getValue());
                    }
                }
                if (space.valid(plan, p, g)) {
                    m.put(p.id(), g);
                    moved = true;
                }
            }
            if (moved) {
                StringBuilder name = new StringBuilder();
                combo.forEach((k, v) -> name.append(name.isEmpty() ? "" : ",").append(k).append('=').append(v));
                out.put(name.toString(), m);
            }
        }
        return out;
    }

    public Database database() {
        return db;
    }

    /** The result columns a query's final ORDER BY sorts by (none when its result is not sorted last). */
    private int[] orderColumns(String sql) {
        QueryPlan plan = gpu.plan(sql);
        for (Pipeline p : plan.pipelines()) {
            if (p.sink() instanceof Sink.Sort s && s.relationId() == plan.resultRelation()) {
                return s.keys().stream().mapToInt(SortKey::column).toArray();
            }
        }
        return new int[0];
    }
}
