package io.tessera.spark;

import io.tessera.Tessera;
import io.tessera.bench.DuckDbPeer;
import io.tessera.bench.Queries;
import io.tessera.storage.Database;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The 13 SSB queries through Spark SQL in local mode over the connector (each table a temporary view read in parts)
 * give DuckDB's answers; the plans show what was pushed into Tessera.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkSsbTest {

    private static final double SF = 0.01;
    /** lineorder (about 60,000 rows at this scale) is read in 4 parts, the dimensions in 1 each. */
    private static final long PARTITION_ROWS = 16_384;

    SparkSession spark;
    DuckDbPeer duck;
    Path db;

    @BeforeAll
    void start(@TempDir Path dir) {
        db = dir.resolve("ssb");
        try (Database d = Database.openOrCreate(db)) {
            new io.tessera.data.ssb.SsbGenerator(SF, io.tessera.data.ssb.SsbGenerator.DEFAULT_SEED).generate(d,
                    io.tessera.data.Progress.silent());
        }
        try (Tessera t = Tessera.open(db)) {
            duck = DuckDbPeer.inMemory(t.database());
        }
        spark = SparkSession.builder().master("local[2]").appName("tessera-ssb")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
        for (String table : List.of("lineorder", "ddate", "customer", "supplier", "part")) {
            spark.read().format("tessera").option("path", db.toString()).option("table", table)
                    .option("partitionRows", PARTITION_ROWS).load().createOrReplaceTempView(table);
        }
    }

    @AfterAll
    void stop() {
        if (spark != null) {
            spark.stop();
        }
        if (duck != null) {
            duck.close();
        }
    }

    @Test
    void ssbQueriesGiveDuckDbsAnswers() {
        for (Queries.Query q : Queries.ssb()) {
            List<Row> rows = spark.sql(q.sql()).collectAsList();
            String diff = Rows.difference(Rows.of(duck.query(q.sql())), Rows.of(rows), false);
            assertNull(diff, q.name() + ": " + diff);
        }
        // the data is not empty where it matters: q1.1's revenue and q4.1's groups
        assertFalse(Rows.of(spark.sql(Queries.sql("ssb", "q4.1")).collectAsList()).isEmpty());
    }

    private String plan(Dataset<Row> df) {
        return df.queryExecution().executedPlan().toString();
    }

    @Test
    void filtersAndColumnsArePushedIntoTessera() {
        String sql = "select lo_orderkey, lo_revenue from lineorder where lo_quantity < 10 and lo_shipmode = 'AIR'";
        Dataset<Row> df = spark.sql(sql);
        String plan = plan(df);
        assertTrue(plan.contains("SELECT \"lo_orderkey\", \"lo_revenue\" FROM \"lineorder\" WHERE"), plan);
        assertTrue(plan.contains("(\"lo_quantity\" < ?)") && plan.contains("(\"lo_shipmode\" = ?)"), plan);
        assertTrue(plan.contains("Values: [10, AIR]"), plan);
        assertFalse(plan.contains("Filter ("), "every predicate ran in Tessera: " + plan);
        assertNull(Rows.difference(Rows.of(duck.query(sql)), Rows.of(df.collectAsList()), false));
        // a string made to end the literal early is one value: it matches no row, and every row stays unmatched
        Dataset<Row> hostile = spark.read().table("lineorder")
                .filter(org.apache.spark.sql.functions.col("lo_shipmode").equalTo("AIR' OR '1'='1"));
        assertTrue(plan(hostile).contains("WHERE (\"lo_shipmode\" = ?)"), plan(hostile));
        assertEquals(0, hostile.count());
    }

    @Test
    void whatTesseraCannotEvaluateStaysInSpark() {
        String sql = "select lo_orderkey from lineorder where lower(lo_shipmode) = 'air' and lo_discount = 3";
        Dataset<Row> df = spark.sql(sql);
        String plan = plan(df);
        assertTrue(plan.contains("Filter (") && plan.contains("lower(lo_shipmode"), plan);
        assertTrue(plan.contains("WHERE (\"lo_discount\" = ?)") && plan.contains("Values: [3]"), plan);
        assertNull(Rows.difference(Rows.of(duck.query(sql)), Rows.of(df.collectAsList()), false));
    }

    @Test
    void partialAggregationRunsInTessera() {
        String sql = "select lo_shipmode, sum(lo_revenue), count(*), min(lo_orderdate), max(lo_discount)"
                + " from lineorder where lo_discount > 2 group by lo_shipmode";
        Dataset<Row> df = spark.sql(sql);
        String plan = plan(df);
        assertTrue(plan.contains("PushedAggregation: [\"lo_shipmode\", SUM(\"lo_revenue\"), COUNT(*), MIN(\"lo_orderdate\"), MAX(\"lo_discount\") GROUP BY \"lo_shipmode\"]"), plan);
        assertNull(Rows.difference(Rows.of(duck.query(sql)), Rows.of(df.collectAsList()), false));
        // without grouping: one row per part, merged by Spark
        String total = "select sum(lo_revenue), count(*) from lineorder where lo_orderdate >= 19950101";
        Dataset<Row> t = spark.sql(total);
        assertTrue(plan(t).contains("PushedAggregation: [SUM(\"lo_revenue\"), COUNT(*)]"), plan(t));
        assertNull(Rows.difference(Rows.of(duck.query(total)), Rows.of(t.collectAsList()), false));
        // AVG: Spark asks for SUM and COUNT of each part and divides
        String avg = "select lo_shipmode, avg(lo_quantity) from lineorder group by lo_shipmode";
        Dataset<Row> a = spark.sql(avg);
        assertTrue(plan(a).contains("SUM(\"lo_quantity\")"), plan(a));
        assertNull(Rows.difference(Rows.of(duck.query(avg)), Rows.of(a.collectAsList()), false));
    }

    @Test
    void limitAndTopNRunInEachTask() {
        String top = "select lo_orderkey, lo_linenumber, lo_revenue from lineorder order by lo_revenue desc,"
                + " lo_orderkey, lo_linenumber limit 5";
        Dataset<Row> df = spark.sql(top);
        String plan = plan(df);
        assertTrue(plan.contains("ORDER BY \"lo_revenue\" DESC NULLS LAST, \"lo_orderkey\" ASC NULLS FIRST,"
                + " \"lo_linenumber\" ASC NULLS FIRST LIMIT 5"), plan);
        assertNull(Rows.difference(Rows.of(duck.query(top)), Rows.of(df.collectAsList()), true));
        Dataset<Row> limited = spark.sql("select lo_orderkey from lineorder where lo_quantity = 7 limit 7");
        assertTrue(plan(limited).contains("LIMIT 7"), plan(limited));
        assertEquals(7, limited.collectAsList().size());
    }

    @Test
    void shardsReadAsOneTable(@TempDir Path dir) {
        Path out = dir.resolve("shards");
        try (Database d = Database.open(db)) {
            io.tessera.data.Sharder.shard(d, out, 3, List.of("lo_custkey", "c_custkey"));
        }
        String shards = out.resolve("shard-0") + "," + out.resolve("shard-1") + "," + out.resolve("shard-2");
        SparkSession session = spark.newSession();
        for (String table : List.of("lineorder", "ddate", "customer", "supplier", "part")) {
            session.read().format("tessera").option("shards", shards).option("table", table)
                    .option("partitionRows", PARTITION_ROWS).load().createOrReplaceTempView(table);
        }
        for (String name : List.of("q1.1", "q4.1")) {
            String sql = Queries.sql("ssb", name);
            assertNull(Rows.difference(Rows.of(duck.query(sql)), Rows.of(session.sql(sql).collectAsList()), false),
                    name);
        }
        Dataset<Row> lineorder = session.sql("select lo_orderkey from lineorder");
        assertTrue(plan(lineorder).contains("3 shards"), plan(lineorder));
        assertEquals(((Number) duck.query("select count(*) from lineorder").get(0, 0)).longValue(), lineorder.count());
        // a shard missing where its task runs fails that task, naming the directory
        Dataset<Row> missing = session.read().format("tessera").option("shards", shards + "," + dir.resolve("gone"))
                .option("table", "part").load();
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, missing::collectAsList);
        StringBuilder messages = new StringBuilder();
        for (Throwable c = e; c != null; c = c.getCause()) {
            messages.append(c.getMessage()).append('\n');
        }
        assertTrue(messages.toString().contains("no Tessera database directory " + dir.resolve("gone")), messages.toString());
    }

    @Test
    void partsOfTheTableAreTasks() {
        Dataset<Row> df = spark.sql("select * from lineorder");
        int parts = df.rdd().getNumPartitions();
        long rows = ((Number) duck.query("select count(*) from lineorder").get(0, 0)).longValue();
        assertEquals((rows + PARTITION_ROWS - 1) / PARTITION_ROWS, parts);
        assertEquals(rows, df.count());
        assertTrue(plan(df).toLowerCase(Locale.ROOT).contains("tessera lineorder"), plan(df));
        // the same read declared in SQL
        spark.sql("CREATE OR REPLACE TEMPORARY VIEW lineorder_sql USING tessera OPTIONS (path '" + db
                + "', table 'lineorder')");
        assertEquals(rows, spark.sql("select * from lineorder_sql").count());
    }
}
