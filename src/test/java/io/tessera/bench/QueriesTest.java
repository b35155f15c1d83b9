package io.tessera.bench;

import io.tessera.storage.Database;
import io.tessera.storage.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueriesTest {

    @Test
    void listsAndLoadsEverySuite() {
        assertEquals(13, Queries.ssb().size());
        assertEquals(java.util.stream.IntStream.rangeClosed(1, 22).mapToObj(i -> "q" + i).toList(), Queries.names("tpch"));
        for (Queries.Query q : Queries.ssb()) {
            assertTrue(q.sql().startsWith("select"), q.name());
            assertFalse(q.sql().endsWith(";"), q.name());
        }
        assertEquals(Queries.sql("ssb", "q2.1"), Queries.sql("SSB", "2.1"));
        assertTrue(Queries.sql("ssb", "q3.4").contains("d_yearmonth = 'Dec1997'"));
        assertTrue(Queries.sql("tpch", "q6").contains("between 0.06 - 0.01 and 0.06 + 0.01"));
        assertThrows(IllegalArgumentException.class, () -> Queries.sql("ssb", "q5.1"));
        assertThrows(IllegalArgumentException.class, () -> Queries.names("tpcds"));
    }

    @Test
    void tpchQ11TakesItsFractionFromTheScaleFactor() {
        String sf1 = Queries.sql("tpch", "q11");
        assertTrue(sf1.contains("sum(ps_supplycost * ps_availqty) * 0.0001\n"), sf1);
        assertEquals(List.of("0.0001", "0.00001", "0.000001", "0.001", "0.00003333", "0.0002"),
                java.util.stream.DoubleStream.of(1, 10, 100, 0.1, 3, 0.5).mapToObj(Queries::q11Fraction).toList());
        for (double sf : new double[] {1, 10, 0.01, 3}) {
            List<Queries.Query> at = Queries.all("tpch", sf);
            for (int i = 0; i < at.size(); i++) {
                Queries.Query q = at.get(i);
                String expected = !q.name().equals("q11") ? Queries.tpch().get(i).sql()
                        : sf1.replace("* 0.0001\n", "* " + Queries.q11Fraction(sf) + "\n");
                assertEquals(expected, q.sql(), q.name() + " at SF " + sf);
            }
            assertEquals(Queries.ssb(), Queries.all("ssb", sf));
        }
        assertTrue(Queries.all("tpch", 10).get(10).sql().contains("* 0.00001\n"));
        assertThrows(IllegalArgumentException.class, () -> Queries.atScale(Queries.tpch().get(10), 0));
    }

    @Test
    void tpchScaleIsTheSupplierRowsOver10000(@TempDir Path dir) {
        io.tessera.exec.TinyTables.write(dir, "supplier", "s_suppkey INTEGER NOT NULL",
                java.util.stream.IntStream.range(0, 25_000).mapToObj(i -> new Object[] {i + 1}).toArray(Object[][]::new));
        try (Database db = Database.open(dir)) {
            assertEquals(2.5, Queries.tpchScale(db));
        }
    }

    @Test
    void ssbQueriesRunOnDuckDbAndFindRows(@TempDir Path dir) {
        TinySsb.build(dir, 7, 20_000);
        try (Database db = Database.open(dir); DuckDbPeer peer = DuckDbPeer.inMemory(db)) {
            for (Queries.Query q : Queries.ssb()) {
                int rows = peer.query(q.sql()).rowCount();
                // the most selective queries (q2.3, q3.3, q3.4) may find nothing in so little data
                if (List.of("q1.1", "q2.1", "q3.1", "q3.2", "q4.1", "q4.2").contains(q.name())) {
                    assertTrue(rows >= 1, q.name() + " returned no rows");
                }
            }
        }
    }

    @Test
    void tpchQueriesAreValidSql() throws Exception {
        try (var c = java.sql.DriverManager.getConnection("jdbc:duckdb:");
             Statement st = c.createStatement()) {
            for (String ddl : TPCH_DDL) {
                st.execute(ddl);
            }
            for (Queries.Query q : Queries.tpch()) {
                st.executeQuery(q.sql()).close();
            }
        }
    }

    @Test
    void everyQueryIsValidForCalcite(@TempDir Path dir) {
        TinySsb.build(dir, 3, 100);
        try (Database db = Database.open(dir)) {
            io.tessera.difftest.CalciteValidator ssb = io.tessera.difftest.CalciteValidator.of(db.tables());
            for (Queries.Query q : Queries.ssb()) {
                assertNull(ssb.validate(q.sql()), q.name());
            }
        }
        List<TableSchema> tpch = TPCH_DDL.stream().map(ddl -> {
            String name = ddl.substring("create table ".length(), ddl.indexOf(' ', "create table ".length()));
            return TableSchema.parse(name, ddl.substring(ddl.indexOf('(') + 1, ddl.lastIndexOf(')')));
        }).toList();
        io.tessera.difftest.CalciteValidator v = new io.tessera.difftest.CalciteValidator(tpch);
        for (Queries.Query q : Queries.tpch()) {
            assertNull(v.validate(q.sql()), q.name());
        }
    }

    /** TPC-H tables with the column types Tessera stores them in. */
    static final List<String> TPCH_DDL = List.of(
            "create table region (r_regionkey integer not null, r_name varchar not null, r_comment varchar not null)",
            "create table nation (n_nationkey integer not null, n_name varchar not null, n_regionkey integer not null,"
                    + " n_comment varchar not null)",
            "create table part (p_partkey bigint not null, p_name varchar not null, p_mfgr varchar not null,"
                    + " p_brand varchar not null, p_type varchar not null, p_size integer not null,"
                    + " p_container varchar not null, p_retailprice decimal(15,2) not null, p_comment varchar not null)",
            "create table supplier (s_suppkey bigint not null, s_name varchar not null, s_address varchar not null,"
                    + " s_nationkey integer not null, s_phone varchar not null, s_acctbal decimal(15,2) not null,"
                    + " s_comment varchar not null)",
            "create table partsupp (ps_partkey integer not null, ps_suppkey integer not null,"
                    + " ps_availqty integer not null, ps_supplycost decimal(15,2) not null, ps_comment varchar not null)",
            "create table customer (c_custkey bigint not null, c_name varchar not null, c_address varchar not null,"
                    + " c_nationkey integer not null, c_phone varchar not null, c_acctbal decimal(15,2) not null,"
                    + " c_mktsegment varchar not null, c_comment varchar not null)",
            "create table orders (o_orderkey bigint not null, o_custkey bigint not null, o_orderstatus varchar not null,"
                    + " o_totalprice decimal(15,2) not null, o_orderdate date not null, o_orderpriority varchar not null,"
                    + " o_clerk varchar not null, o_shippriority integer not null, o_comment varchar not null)",
            "create table lineitem (l_orderkey bigint not null, l_partkey bigint not null, l_suppkey bigint not null,"
                    + " l_linenumber integer not null, l_quantity decimal(15,2) not null,"
                    + " l_extendedprice decimal(15,2) not null, l_discount decimal(15,2) not null,"
                    + " l_tax decimal(15,2) not null, l_returnflag varchar not null, l_linestatus varchar not null,"
                    + " l_shipdate date not null, l_commitdate date not null, l_receiptdate date not null,"
                    + " l_shipinstruct varchar not null, l_shipmode varchar not null, l_comment varchar not null)");
}
