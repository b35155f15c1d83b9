package io.tessera.spark;

import io.tessera.storage.TableSchema;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NullOrdering;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.aggregate.Max;
import org.apache.spark.sql.connector.expressions.aggregate.Min;
import org.apache.spark.sql.connector.expressions.aggregate.Sum;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the scan builder takes from Spark and what it leaves, and the query and row types that follow. */
class ScanBuilderTest {

    private static final TableSchema SCHEMA = TableSchema.parse("t",
            "k VARCHAR, i INTEGER, b BIGINT, d DOUBLE, m DECIMAL(12,2), dt DATE");
    private static final ConnectorOptions OPTIONS = new ConnectorOptions(List.of("/nowhere"), "t", "cpu", 1000,
            List.of());

    private static TesseraScanBuilder builder() {
        return new TesseraScanBuilder(OPTIONS, SCHEMA);
    }

    private static Aggregation agg(AggregateFunc... functions) {
        return new Aggregation(functions, new Expression[] {Expressions.column("k")});
    }

    @Test
    void partialAggregatesOfIntegersCountsAndOrderedKindsArePushed() {
        TesseraScanBuilder b = builder();
        assertTrue(b.pushAggregation(agg(new Sum(Expressions.column("i"), false), new Sum(Expressions.column("d"), false),
                new Count(Expressions.column("m"), false), new CountStar(), new Min(Expressions.column("dt")),
                new Max(Expressions.column("m")))));
        TesseraScan scan = (TesseraScan) b.build();
        assertEquals(List.of(DataTypes.StringType, DataTypes.LongType, DataTypes.DoubleType, DataTypes.LongType,
                DataTypes.LongType, DataTypes.DateType, DataTypes.createDecimalType(12, 2)),
                List.of(scan.readSchema().fields()).stream().map(f -> f.dataType()).toList());
        assertTrue(scan.description().contains("SELECT \"k\", SUM(\"i\"), SUM(\"d\"), COUNT(\"m\"), COUNT(*), MIN(\"dt\"),"
                + " MAX(\"m\") FROM \"t\" GROUP BY \"k\""), scan.description());
    }

    @Test
    void whatSparkWouldMergeOtherwiseIsLeftToIt() {
        // SUM of DECIMAL: Spark casts each part's sum back to the column's precision, which a part's sum may exceed
        assertFalse(builder().pushAggregation(agg(new Sum(Expressions.column("m"), false))));
        // MIN and MAX of DOUBLE: Spark's NaN is larger than every number
        assertFalse(builder().pushAggregation(agg(new Min(Expressions.column("d")))));
        assertFalse(builder().pushAggregation(agg(new Max(Expressions.column("d")))));
        // DISTINCT
        assertFalse(builder().pushAggregation(agg(new Count(Expressions.column("i"), true))));
        // grouping by something other than a column of the table
        assertFalse(builder().pushAggregation(new Aggregation(new AggregateFunc[] {new CountStar()},
                new Expression[] {Expressions.column("nope")})));
    }

    @Test
    void topNByColumnsIsPushedButNotByDouble() {
        TesseraScanBuilder b = builder();
        assertFalse(b.pushTopN(new SortOrder[] {Expressions.sort(Expressions.column("d"), SortDirection.ASCENDING)}, 3));
        assertTrue(b.pushTopN(new SortOrder[] {
            Expressions.sort(Expressions.column("i"), SortDirection.DESCENDING, NullOrdering.NULLS_FIRST),
            Expressions.sort(Expressions.column("k"), SortDirection.ASCENDING, NullOrdering.NULLS_LAST)}, 3));
        assertTrue(b.build().description().contains("ORDER BY \"i\" DESC NULLS FIRST, \"k\" ASC NULLS LAST LIMIT 3"),
                b.build().description());
    }
}
