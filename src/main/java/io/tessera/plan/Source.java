package io.tessera.plan;

import io.tessera.storage.Table;

import java.util.List;

/** Where a pipeline's rows come from: a stored table (LOOP), or a relation an earlier pipeline produced. */
public sealed interface Source permits Source.TableScan, Source.RelationScan {

    List<ColumnInfo> columns();

    /** Estimated rows, for EXPLAIN and for the planner. */
    double estimatedRows();

    record TableScan(Table table, List<ColumnInfo> columns) implements Source {
        @Override
        public double estimatedRows() {
            return table.rowCount();
        }

        @Override
        public String toString() {
            return "LOOP " + table.name();
        }
    }

    record RelationScan(int relationId, List<ColumnInfo> columns, double estimatedRows) implements Source {
        @Override
        public String toString() {
            return "LOOP r" + relationId;
        }
    }
}
