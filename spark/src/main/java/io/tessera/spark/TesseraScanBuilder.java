package io.tessera.spark;

import io.tessera.storage.TableSchema;
import io.tessera.storage.TypeKind;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.NamedReference;
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
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownTopN;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.util.ArrayList;
import java.util.List;

/**
 * Takes what Spark pushes into a read of one table: the columns it needs, the predicates Tessera can evaluate as
 * Spark does ({@link PredicateSql}), a partial aggregation (MIN, MAX, SUM of integers and doubles, COUNT: each task's
 * Tessera query aggregates its rows, Spark merges the parts), and a LIMIT or top-N that each task applies to its rows
 * before Spark applies it to all. What it declines stays in Spark.
 */
final class TesseraScanBuilder implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownV2Filters,
        SupportsPushDownAggregates, SupportsPushDownLimit, SupportsPushDownTopN {

    private final ConnectorOptions options;
    private final TableSchema schema;
    private final PredicateSql predicates;
    private StructType required;
    private final List<Predicate> pushed = new ArrayList<>();
    private final List<Condition> where = new ArrayList<>();
    private List<String> aggregateSelect; // null: no aggregation pushed
    private List<String> groupBy = List.of();
    private StructType aggregateSchema;
    private String aggregateText;
    private List<String> orderBy = List.of();
    private int limit = -1;

    TesseraScanBuilder(ConnectorOptions options, TableSchema schema) {
        this.options = options;
        this.schema = schema;
        this.predicates = new PredicateSql(schema);
        this.required = SparkTypes.schema(schema);
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        required = requiredSchema;
    }

    @Override
    public Predicate[] pushPredicates(Predicate[] all) {
        List<Predicate> rest = new ArrayList<>();
        for (Predicate p : all) {
            Condition sql = predicates.sql(p);
            if (sql == null) {
                rest.add(p);
            } else {
                pushed.add(p);
                where.add(sql);
            }
        }
        return rest.toArray(new Predicate[0]);
    }

    @Override
    public Predicate[] pushedPredicates() {
        return pushed.toArray(new Predicate[0]);
    }

    @Override
    public boolean supportCompletePushDown(Aggregation aggregation) {
        return false; // each task aggregates only its part of the table
    }

    @Override
    public boolean pushAggregation(Aggregation aggregation) {
        List<String> select = new ArrayList<>();
        List<String> groups = new ArrayList<>();
        List<StructField> fields = new ArrayList<>();
        for (Expression g : aggregation.groupByExpressions()) {
            String c = column(g);
            if (c == null) {
                return false;
            }
            groups.add(c);
            select.add(c);
            fields.add(DataTypes.createStructField("group_col_" + (groups.size() - 1), typeOf(g), true));
        }
        for (AggregateFunc f : aggregation.aggregateExpressions()) {
            String item;
            DataType type;
            switch (f) {
                case CountStar ignored -> {
                    item = "COUNT(*)";
                    type = DataTypes.LongType;
                }
                case Count c when !c.isDistinct() && column(c.column()) != null -> {
                    item = "COUNT(" + column(c.column()) + ")";
                    type = DataTypes.LongType;
                }
                // MIN and MAX of DOUBLE are left to Spark, whose NaN is larger than any number
                case Min m when column(m.column()) != null && kind(m.column()) != TypeKind.DOUBLE -> {
                    item = "MIN(" + column(m.column()) + ")";
                    type = typeOf(m.column());
                }
                case Max m when column(m.column()) != null && kind(m.column()) != TypeKind.DOUBLE -> {
                    item = "MAX(" + column(m.column()) + ")";
                    type = typeOf(m.column());
                }
                // SUM of DECIMAL is left to Spark: Spark casts each part's sum back to the column's precision
                case Sum s when !s.isDistinct() && column(s.column()) != null && sumType(kind(s.column())) != null -> {
                    item = "SUM(" + column(s.column()) + ")";
                    type = sumType(kind(s.column()));
                }
                default -> {
                    return false;
                }
            }
            select.add(item);
            fields.add(DataTypes.createStructField("agg_func_" + (select.size() - groups.size() - 1), type, true));
        }
        aggregateSelect = select;
        groupBy = groups;
        aggregateSchema = DataTypes.createStructType(fields);
        aggregateText = String.join(", ", select) + (groups.isEmpty() ? "" : " GROUP BY " + String.join(", ", groups));
        return true;
    }

    private static DataType sumType(TypeKind kind) {
        return switch (kind) {
            case INTEGER, BIGINT -> DataTypes.LongType;
            case DOUBLE -> DataTypes.DoubleType;
            default -> null;
        };
    }

    @Override
    public boolean pushLimit(int n) {
        limit = n;
        return true;
    }

    @Override
    public boolean isPartiallyPushed() {
        return true; // each task limits its own rows; Spark limits (and orders) the union
    }

    @Override
    public boolean pushTopN(SortOrder[] orders, int n) {
        if (aggregateSelect != null) {
            return false;
        }
        List<String> keys = new ArrayList<>();
        for (SortOrder o : orders) {
            String c = column(o.expression());
            // DOUBLE keys are left to Spark, which orders NaN above every number
            if (c == null || kind(o.expression()) == TypeKind.DOUBLE) {
                return false;
            }
            keys.add(c + (o.direction() == SortDirection.ASCENDING ? " ASC" : " DESC")
                    + (o.nullOrdering() == NullOrdering.NULLS_FIRST ? " NULLS FIRST" : " NULLS LAST"));
        }
        orderBy = keys;
        limit = n;
        return true;
    }

    @Override
    public Scan build() {
        List<String> select;
        StructType readSchema;
        if (aggregateSelect != null) {
            select = aggregateSelect;
            readSchema = aggregateSchema;
        } else {
            select = new ArrayList<>();
            for (StructField f : required.fields()) {
                select.add(SqlText.column(schema, f.name()));
            }
            readSchema = required;
        }
        ScanQuery query = new ScanQuery(schema.name(), select, where, groupBy, orderBy, limit);
        return new TesseraScan(options, readSchema, query, pushed, aggregateText);
    }

    private String column(Expression e) {
        if (!(e instanceof NamedReference ref) || ref.fieldNames().length != 1) {
            return null;
        }
        return SqlText.column(schema, ref.fieldNames()[0]);
    }

    private TypeKind kind(Expression e) {
        return schema.column(((NamedReference) e).fieldNames()[0]).type().kind();
    }

    private DataType typeOf(Expression e) {
        return SparkTypes.of(schema.column(((NamedReference) e).fieldNames()[0]).type());
    }
}
