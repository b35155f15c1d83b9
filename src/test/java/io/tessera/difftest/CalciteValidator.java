package io.tessera.difftest;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.Planner;

import java.util.List;

/**
 * Validates SQL texts with Tessera's parser and plain Calcite's validator against a catalog of Tessera tables (names
 * as stored, unquoted names matched without regard to case): a check that generated and benchmark queries are valid
 * SQL for the parser and validator the engine is built on, independent of the engine.
 */
public final class CalciteValidator {

    private final FrameworkConfig config;

    public CalciteValidator(List<TableSchema> tables) {
        SchemaPlus root = Frameworks.createRootSchema(true);
        for (TableSchema t : tables) {
            List<ColumnSchema> cols = t.columns();
            root.add(t.name(), new AbstractTable() {
                @Override
                public RelDataType getRowType(RelDataTypeFactory f) {
                    RelDataTypeFactory.Builder b = f.builder();
                    for (ColumnSchema c : cols) {
                        b.add(c.name(), f.createTypeWithNullability(type(f, c.type()), c.nullable()));
                    }
                    return b.build();
                }
            });
        }
        config = Frameworks.newConfigBuilder()
                .defaultSchema(root)
                .parserConfig(SqlParser.config().withParserFactory(io.tessera.sql.parser.TesseraParserImpl.FACTORY)
                        .withCaseSensitive(false).withUnquotedCasing(Casing.UNCHANGED)
                        .withQuotedCasing(Casing.UNCHANGED))
                .build();
    }

    public static CalciteValidator of(List<Table> tables) {
        return new CalciteValidator(tables.stream().map(Table::schema).toList());
    }

    private static RelDataType type(RelDataTypeFactory f, DataType t) {
        return switch (t.kind()) {
            case INTEGER -> f.createSqlType(SqlTypeName.INTEGER);
            case BIGINT -> f.createSqlType(SqlTypeName.BIGINT);
            case DOUBLE -> f.createSqlType(SqlTypeName.DOUBLE);
            case DECIMAL -> f.createSqlType(SqlTypeName.DECIMAL, t.precision(), t.scale());
            case DATE -> f.createSqlType(SqlTypeName.DATE);
            case TIMESTAMP -> f.createSqlType(SqlTypeName.TIMESTAMP, 6);
            case TIMESTAMP_TZ -> f.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 6);
            case TIME -> f.createSqlType(SqlTypeName.TIME, 6);
            case BOOLEAN -> f.createSqlType(SqlTypeName.BOOLEAN);
            case VARCHAR -> f.createSqlType(SqlTypeName.VARCHAR);
        };
    }

    /** Null when valid, else Calcite's message. */
    public String validate(String sql) {
        Planner p = Frameworks.getPlanner(config);
        try {
            p.validate(p.parse(sql));
            return null;
        } catch (Exception e) {
            Throwable c = e;
            while (c.getCause() != null && c.getCause() != c) {
                c = c.getCause();
            }
            return String.valueOf(c.getMessage()).lines().findFirst().orElse("");
        } finally {
            p.close();
        }
    }
}
