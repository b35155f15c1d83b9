package io.tessera.sql;

import io.tessera.storage.Column;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Table;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;

/** A stored table as Calcite sees it: row type, row count, and the columns known to be unique. */
final class CatalogTable extends AbstractTable implements CatalogTableAccess, org.apache.calcite.schema.Wrapper {

    private final Table table;

    CatalogTable(Table table) {
        this.table = table;
    }

    @Override
    public Table table() {
        return table;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory f) {
        RelDataTypeFactory.Builder b = f.builder();
        for (ColumnSchema c : table.schema().columns()) {
            b.add(c.name(), f.createTypeWithNullability(sqlType(f, c.type()), c.nullable()));
        }
        return b.build();
    }

    static RelDataType sqlType(RelDataTypeFactory f, DataType t) {
        if (t.isMap()) {
            return f.createMapType(f.createTypeWithNullability(sqlType(f, t.mapKey()), false),
                    f.createTypeWithNullability(sqlType(f, t.mapValue()), true));
        }
        if (t.isList()) {
            return f.createArrayType(f.createTypeWithNullability(sqlType(f, t.element()), true), -1);
        }
        if (t.isStruct()) {
            List<RelDataType> types = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (io.tessera.storage.StructField field : t.fields()) {
                types.add(f.createTypeWithNullability(sqlType(f, field.type()), true));
                // an unnamed struct's fields as Calcite names those of row(...)
                names.add(field.name().isEmpty() ? "EXPR$" + names.size() : field.name());
            }
            return f.createStructType(org.apache.calcite.rel.type.StructKind.PEEK_FIELDS_NO_EXPAND, types, names);
        }
        return switch (t.kind()) {
            case INTEGER -> f.createSqlType(t.equals(DataType.SMALLINT) ? SqlTypeName.SMALLINT
                    : t.equals(DataType.TINYINT) ? SqlTypeName.TINYINT : SqlTypeName.INTEGER);
            case BIGINT -> f.createSqlType(SqlTypeName.BIGINT);
            case DOUBLE -> f.createSqlType(t.isReal() ? SqlTypeName.REAL : SqlTypeName.DOUBLE);
            case DECIMAL -> f.createSqlType(SqlTypeName.DECIMAL, t.precision(), t.scale());
            case DATE -> f.createSqlType(SqlTypeName.DATE);
            case TIMESTAMP -> f.createSqlType(SqlTypeName.TIMESTAMP, TesseraTypeSystem.TIMESTAMP_PRECISION);
            case TIMESTAMP_TZ -> f.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                    TesseraTypeSystem.TIMESTAMP_PRECISION);
            case TIME -> f.createSqlType(SqlTypeName.TIME, TesseraTypeSystem.TIMESTAMP_PRECISION);
            case BOOLEAN -> f.createSqlType(SqlTypeName.BOOLEAN);
            case VARCHAR -> t.isInterval() ? TimestampFunctions.intervalType(f, false)
                    : t.isBlob() ? f.createSqlType(SqlTypeName.VARBINARY, Integer.MAX_VALUE)
                    : t.isUuid() ? f.createSqlType(SqlTypeName.UUID)
                    : f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE);
        };
    }

    @Override
    public Statistic getStatistic() {
        List<ImmutableBitSet> keys = new ArrayList<>();
        for (int i = 0; i < table.columns().size(); i++) {
            Column c = table.column(i);
            if (c.stats().unique() && c.stats().nullCount() == 0 && table.rowCount() > 0) {
                keys.add(ImmutableBitSet.of(i));
            }
        }
        return Statistics.of(Math.max(1, table.rowCount()), keys);
    }

    @Override
    public <C> C unwrap(Class<C> type) {
        return type.isInstance(this) ? type.cast(this) : null;
    }
}
