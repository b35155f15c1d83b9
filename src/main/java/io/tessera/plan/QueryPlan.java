package io.tessera.plan;

import java.util.List;

/**
 * A query cut into pipelines, in an order where every pipeline runs after those whose hash tables and
 * relations it reads. The answer is relation {@code resultRelation}, whose columns are {@code resultColumns}.
 * {@code values} holds relations known at planning time (VALUES rows), by relation id.
 */
public record QueryPlan(List<Pipeline> pipelines, int resultRelation, List<ColumnInfo> resultColumns,
                        java.util.Map<Integer, List<Object[]>> values) {

    /**
     * The table of this name that a pipeline scans, or null: a table the query read from a file lives outside the
     * database, so its columns' dictionaries are found here first.
     */
    public io.tessera.storage.Table scannedTable(String name) {
        for (Pipeline p : pipelines) {
            if (p.source() instanceof Source.TableScan ts && ts.table().name().equals(name)) {
                return ts.table();
            }
        }
        return null;
    }

    public String explain() {
        StringBuilder sb = new StringBuilder();
        for (Pipeline p : pipelines) {
            sb.append(p).append('\n');
        }
        sb.append("result: r").append(resultRelation).append(' ').append(resultColumns.stream().map(ColumnInfo::name).toList());
        return sb.toString();
    }
}
