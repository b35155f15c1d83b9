package io.tessera.spark;

import org.apache.spark.sql.connector.read.InputPartition;

import java.util.List;

/**
 * One task's part of a table: rows {@code [fromRow, toRow)} of the table in one shard, as of the table's
 * {@code generation} ({@code toRow} -1: the whole table of a shard the driver could not open, read as it is where
 * the task runs), and the query the task runs over them with the values of its {@code ?} marks.
 */
record TablePartition(String shard, String host, String table, long fromRow, long toRow, int generation, String sql,
                      List<Object> values, String device) implements InputPartition {

    boolean wholeShard() {
        return toRow < 0;
    }

    @Override
    public String[] preferredLocations() {
        return host == null ? new String[0] : new String[] {host};
    }
}
