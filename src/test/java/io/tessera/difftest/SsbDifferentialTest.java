package io.tessera.difftest;

import io.tessera.bench.Queries;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The 13 SSB queries, and queries of the same shapes with other constants, other dimension columns and other
 * aggregates (the engine must answer any query of these shapes, not only the fixed texts), in Tessera and in
 * DuckDB on generated SSB data ({@code -Dtessera.difftest.ssbSf}, default 0.01). Needs
 * {@link BenchmarkData#buildSsb}.
 */
class SsbDifferentialTest extends BenchmarkDifferentialTest {

    /** {@code -Dtessera.difftest.ssbSf}, default 0.01. */
    @Override
    double scaleFactor() {
        return Double.parseDouble(System.getProperty("tessera.difftest.ssbSf", "0.01"));
    }

    @Override
    void build(Path dir, double sf) {
        BenchmarkData.buildSsb(dir, sf);
    }

    static List<String> queries() {
        List<String> out = new ArrayList<>();
        for (Queries.Query q : Queries.ssb()) {
            out.add(q.sql());
        }
        out.addAll(VARIANTS);
        return out;
    }

    @ParameterizedTest
    @MethodSource("queries")
    void agreesWithDuckDb(String sql) {
        harness.check(sql);
    }

    static final List<String> VARIANTS = List.of(
            // Q1 shape: other constants, other aggregates
            "select sum(lo_extendedprice * lo_discount) as revenue from lineorder, ddate where lo_orderdate = d_datekey"
                    + " and d_year = 1997 and lo_discount between 4 and 6 and lo_quantity < 30",
            "select count(*), min(lo_revenue), max(lo_revenue), avg(cast(lo_quantity as double)) from lineorder, ddate"
                    + " where lo_orderdate = d_datekey and d_yearmonthnum = 199712 and lo_discount between 0 and 2",
            "select sum(lo_revenue) from lineorder, ddate where lo_orderdate = d_datekey and d_weeknuminyear = 20"
                    + " and d_year = 1996 and lo_quantity between 1 and 10",
            // Q2 shape
            "select sum(lo_revenue), d_year, p_brand1 from lineorder, ddate, part, supplier"
                    + " where lo_orderdate = d_datekey and lo_partkey = p_partkey and lo_suppkey = s_suppkey"
                    + " and p_category = 'MFGR#35' and s_region = 'EUROPE'"
                    + " group by d_year, p_brand1 order by d_year, p_brand1",
            "select sum(lo_revenue), count(*), d_year, p_brand1 from lineorder, ddate, part, supplier"
                    + " where lo_orderdate = d_datekey and lo_partkey = p_partkey and lo_suppkey = s_suppkey"
                    + " and p_brand1 between 'MFGR#1101' and 'MFGR#1140' and s_region = 'AFRICA'"
                    + " group by d_year, p_brand1 order by d_year, p_brand1",
            "select sum(lo_supplycost), d_year, p_color from lineorder, ddate, part, supplier"
                    + " where lo_orderdate = d_datekey and lo_partkey = p_partkey and lo_suppkey = s_suppkey"
                    + " and p_mfgr = 'MFGR#4' and s_nation = 'CANADA'"
                    + " group by d_year, p_color order by d_year, p_color",
            // Q3 shape
            "select c_nation, s_nation, d_year, sum(lo_revenue) as revenue from customer, lineorder, supplier, ddate"
                    + " where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_orderdate = d_datekey"
                    + " and c_region = 'EUROPE' and s_region = 'AMERICA' and d_year >= 1993 and d_year <= 1996"
                    + " group by c_nation, s_nation, d_year order by d_year asc, revenue desc",
            "select c_city, s_city, d_year, sum(lo_revenue) as revenue from customer, lineorder, supplier, ddate"
                    + " where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_orderdate = d_datekey"
                    + " and c_nation = 'CHINA' and s_nation = 'JAPAN' and d_year >= 1992 and d_year <= 1998"
                    + " group by c_city, s_city, d_year order by d_year asc, revenue desc",
            "select c_mktsegment, s_region, d_year, sum(lo_revenue) as revenue, count(distinct lo_custkey)"
                    + " from customer, lineorder, supplier, ddate"
                    + " where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_orderdate = d_datekey"
                    + " and d_sellingseason = 'Christmas'"
                    + " group by c_mktsegment, s_region, d_year order by d_year asc, revenue desc",
            // Q4 shape
            "select d_year, c_nation, sum(lo_revenue - lo_supplycost) as profit from ddate, customer, supplier, part,"
                    + " lineorder where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_partkey = p_partkey"
                    + " and lo_orderdate = d_datekey and c_region = 'ASIA' and s_region = 'ASIA'"
                    + " and (p_mfgr = 'MFGR#3' or p_mfgr = 'MFGR#4') group by d_year, c_nation order by d_year, c_nation",
            "select d_year, d_month, p_container, sum(lo_revenue - lo_supplycost) as profit, max(lo_quantity)"
                    + " from ddate, customer, supplier, part, lineorder where lo_custkey = c_custkey"
                    + " and lo_suppkey = s_suppkey and lo_partkey = p_partkey and lo_orderdate = d_datekey"
                    + " and c_region = 'AFRICA' and s_region = 'EUROPE' and d_year = 1995"
                    + " group by d_year, d_month, p_container order by d_year, d_month, p_container",
            "select d_year, s_city, p_brand1, count(*) from ddate, customer, supplier, part, lineorder"
                    + " where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_partkey = p_partkey"
                    + " and lo_orderdate = d_datekey and c_region = 'EUROPE' and s_nation = 'GERMANY'"
                    + " and (d_year = 1992 or d_year = 1993) and p_category = 'MFGR#22'"
                    + " group by d_year, s_city, p_brand1 order by d_year, s_city, p_brand1");
}
