package io.tessera.spark;

import io.tessera.exec.Device;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a read names: the database ({@code path}) or its shards ({@code shards}, a comma-separated list of database
 * directories, one part of the table each), the {@code table}, the {@code device} each task's query runs on (cpu,
 * gpu, auto), the rows a task reads at most ({@code partitionRows}), and optionally the host of each shard
 * ({@code shardHosts}, in the order of {@code shards}), which Spark prefers for that shard's tasks.
 */
record ConnectorOptions(List<String> shards, String table, String device, long partitionRows, List<String> shardHosts)
        implements Serializable {

    /** Rows a task reads at most unless {@code partitionRows} says otherwise: a few seconds of one task's work. */
    static final long DEFAULT_PARTITION_ROWS = 1L << 23;

    static ConnectorOptions of(CaseInsensitiveStringMap options) {
        String path = options.get("path");
        String shardList = options.get("shards");
        if ((path == null) == (shardList == null)) {
            throw new IllegalArgumentException("the tessera source reads one database: give option path (a database "
                    + "directory) or option shards (a comma-separated list of shard directories), not both");
        }
        List<String> shards = path != null ? List.of(path) : split(shardList);
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("option shards names no directory");
        }
        String table = options.get("table");
        if (table == null || table.isBlank()) {
            throw new IllegalArgumentException("the tessera source needs option table (the table to read)");
        }
        String device = options.getOrDefault("device", "cpu").toLowerCase(Locale.ROOT);
        if (!List.of("cpu", "gpu", "auto").contains(device)) {
            throw new IllegalArgumentException("option device takes cpu, gpu or auto, not '" + device + "'");
        }
        long rows = options.getLong("partitionRows", DEFAULT_PARTITION_ROWS);
        if (rows < 1) {
            throw new IllegalArgumentException("option partitionRows must be positive, got " + rows);
        }
        List<String> hosts = options.containsKey("shardHosts") ? split(options.get("shardHosts")) : List.of();
        if (!hosts.isEmpty() && hosts.size() != shards.size()) {
            throw new IllegalArgumentException("option shardHosts names " + hosts.size() + " hosts for "
                    + shards.size() + " shards");
        }
        return new ConnectorOptions(shards, table, device, rows, hosts);
    }

    private static List<String> split(String list) {
        List<String> out = new ArrayList<>();
        for (String s : list.split(",")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        return out;
    }

    Device deviceKind() {
        return Device.valueOf(device.toUpperCase(Locale.ROOT));
    }
}
