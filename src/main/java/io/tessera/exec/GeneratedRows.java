package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.sql.GeneratedColumns;
import io.tessera.sql.RecursiveUnions;
import io.tessera.sql.SqlError;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;

/**
 * A table's generated columns computed for the rows a statement is about to write: {@link GeneratedColumns#computed}
 * planned over the table and run with its scan replaced by those rows, held in the statement's temporary database
 * (as {@link CheckedRows} checks them). An expression that fails on a row (a division by zero, an overflow) fails
 * the statement before anything is committed.
 */
final class GeneratedRows {

    private GeneratedRows() {
    }

    /** {@code rows} (all the table's columns, as a query's result gives them) with the generated columns computed. */
    static List<Object[]> computed(QueryEngine engine, TableSchema schema, List<Object[]> rows, QueryCancel cancel) {
        if (!GeneratedColumns.any(schema) || rows.isEmpty()) {
            return rows;
        }
        Table held = CheckedRows.files(engine).rows("generated", schema.columns(), rows);
        try {
            return ResultRows.of(engine.runLogical(HeldRowScans.over(engine, schema.name(), HeldRowScans.EVERY, held,
                    GeneratedColumns.computed(schema)), cancel));
        } catch (SqlError | ArithmeticException e) {
            // which column's expression failed: each computed alone, in turn
            for (ColumnSchema c : schema.columns()) {
                if (c.isGenerated()) {
                    try {
                        ResultRows.of(engine.runLogical(HeldRowScans.over(engine, schema.name(),
                                HeldRowScans.EVERY, held, GeneratedColumns.computed(schema, c)), cancel));
                    } catch (SqlError | ArithmeticException failed) {
                        throw GeneratedColumns.failed(c, failed);
                    }
                }
            }
            throw e;
        }
    }

    /** The columns a write gives values to: the table's columns that are not generated. */
    static List<ColumnSchema> written(TableSchema schema) {
        return schema.columns().stream().filter(c -> !c.isGenerated()).toList();
    }

    /**
     * The rows of {@code held}, a table of {@code schema}'s {@link #written} columns (a file COPY read), as rows of
     * all its columns with the generated ones computed.
     */
    static List<Object[]> fromWritten(QueryEngine engine, TableSchema schema, Table held, QueryCancel cancel) {
        SqlFrontEnd.LogicalPlan logical = HeldRowScans.swapped(engine, schema.name(), HeldRowScans.EVERY,
                SqlFrontEnd.selectAll(schema.name()), (scan, catalog) -> writtenRead(schema, held, scan, catalog));
        return computed(engine, schema, ResultRows.of(engine.runLogical(logical, cancel)), cancel);
    }

    /**
     * {@code held}'s columns read as {@code scan} reads the table's, a NULL where a generated column is (computed
     * next).
     */
    private static RelNode writtenRead(TableSchema schema, Table held, TableScan scan, CalciteCatalogReader catalog) {
        List<RelDataTypeField> fields = scan.getRowType().getFieldList();
        List<RelDataTypeField> kept = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            if (!schema.columns().get(i).isGenerated()) {
                kept.add(fields.get(i));
            }
        }
        RelDataType keptType = scan.getCluster().getTypeFactory().createStructType(kept);
        RelNode read = RecursiveUnions.scan(scan.getCluster(), catalog, held, keptType);
        RexBuilder rex = scan.getCluster().getRexBuilder();
        List<RexNode> items = new ArrayList<>();
        int k = 0;
        for (int i = 0; i < fields.size(); i++) {
            items.add(schema.columns().get(i).isGenerated() ? rex.makeNullLiteral(fields.get(i).getType())
                    : rex.makeInputRef(read, k++));
        }
        return LogicalProject.create(read, List.of(), items, scan.getRowType());
    }
}
