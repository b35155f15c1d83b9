package io.tessera.plan;

import io.tessera.storage.Table;

import java.util.List;

/**
 * Where a pipeline's rows come from: a stored table (LOOP), a relation an earlier pipeline produced, or the marked or
 * unmarked build rows of a join table that earlier pipelines built and marked.
 */
public sealed interface Source permits Source.TableScan, Source.RelationScan, Source.JoinTableScan {

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

    /**
     * The build rows of join {@code joinId}'s table that a probe marked ({@code matched}) or that none marked: its
     * payload, as {@code columns} (the build side of a semi, anti or outer join that builds its preserved side). It
     * runs after every pipeline that marks the table.
     */
    record JoinTableScan(int joinId, boolean matched, List<ColumnInfo> columns, double estimatedRows) implements Source {
        @Override
        public String toString() {
            return "LOOP j" + joinId + (matched ? " (matched)" : " (unmatched)");
        }
    }
}
