package io.tessera.difftest;

import io.tessera.bench.Queries;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * TPC-H Q15 as the specification writes it, through a view ({@code CREATE VIEW revenue0 ...; select ...; DROP VIEW
 * revenue0}), in Tessera and in DuckDB on the same data, with the validation parameters; and the WITH form of the
 * query that the benchmarks run gives the same rows.
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
}
