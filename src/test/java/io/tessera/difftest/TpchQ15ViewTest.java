package io.tessera.difftest;

import io.tessera.bench.Queries;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TPC-H queries where the specification's text differs from the one the benchmarks run (which DuckDB, their peer,
 * must also run): Q15 as the specification writes it, through a view ({@code CREATE VIEW revenue0 ...; select ...;
 * DROP VIEW revenue0}), in Tessera and in DuckDB on the same data, with the validation parameters, and the WITH form
 * of the query that the benchmarks run gives the same rows; Q1 with the specification's {@code interval '90' day
 * (3)}, which DuckDB's parser refuses, gives Tessera's rows of the benchmark text (checked against DuckDB by
 * {@link TpchDifferentialTest}).
 */
class TpchQ15ViewTest extends TpchDifferentialBase {

    static final String CREATE_VIEW = """
            create view revenue0 (supplier_no, total_revenue) as
              select
                l_suppkey,
                sum(l_extendedprice * (1 - l_discount))
              from lineitem
              where l_shipdate >= date '1996-01-01'
                and l_shipdate < date '1996-01-01' + interval '3' month
              group by l_suppkey""";

    static final String QUERY = """
            select
              s_suppkey,
              s_name,
              s_address,
              s_phone,
              total_revenue
            from supplier, revenue0
            where s_suppkey = supplier_no
              and total_revenue = (select max(total_revenue) from revenue0)
            order by s_suppkey""";

    @Test
    void q15ThroughAViewAgreesWithDuckDb() {
        String withForm = Queries.sql("tpch", "q15");
        tessera.query(CREATE_VIEW);
        duck.execute(CREATE_VIEW);
        try {
            assertFalse(tessera.query(QUERY).rows().isEmpty());
            harness.check(QUERY);
        } finally {
            tessera.query("drop view revenue0");
            duck.execute("drop view revenue0");
        }
        // the view is gone; the WITH form the benchmarks run gives the same answer
        harness.check(withForm);
    }

    @Test
    void q1WithTheIntervalPrecisionOfTheSpecification() {
        String benchmark = Queries.sql("tpch", "q1");
        String specification = benchmark.replace("interval '90' day", "interval '90' day (3)");
        assertTrue(specification.contains("- interval '90' day (3)\n"), specification);
        java.util.List<java.util.List<Object>> rows = tessera.query(specification).rows().stream()
                .map(java.util.Arrays::asList).toList();
        assertFalse(rows.isEmpty());
        assertEquals(tessera.query(benchmark).rows().stream().map(java.util.Arrays::asList).toList(), rows);
    }
}
