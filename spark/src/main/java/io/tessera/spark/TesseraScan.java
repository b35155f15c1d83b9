package io.tessera.spark;

import io.tessera.storage.Table;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A read of one table with what was pushed into it: one partition per run of at most {@code partitionRows} rows of
 * each shard the driver can open, and one for the whole table of each shard it cannot (opened only where its task
 * runs). Its description, which Spark's plans print, is the query each task runs.
 */
final class TesseraScan implements Scan, Batch {

    private final ConnectorOptions options;
    private final StructType readSchema;
    private final ScanQuery query;
    private final List<Predicate> pushed;
    private final String aggregation;

    TesseraScan(ConnectorOptions options, StructType readSchema, ScanQuery query, List<Predicate> pushed,
                String aggregation) {
        this.options = options;
        this.readSchema = readSchema;
        this.query = query;
        this.pushed = List.copyOf(pushed);
        this.aggregation = aggregation;
    }

    @Override
    public StructType readSchema() {
        return readSchema;
    }

    @Override
    public String description() {
        return "Tessera " + query.table() + " (" + options.shards().size() + " shard"
                + (options.shards().size() == 1 ? "" : "s") + ", device " + options.device() + ")"
                + " PushedPredicates: " + Arrays.toString(pushed.toArray())
                + (aggregation == null ? "" : " PushedAggregation: [" + aggregation + "]")
                + (query.orderBy().isEmpty() ? "" : " PushedTopN: " + query.orderBy())
                + (query.limit() < 0 ? "" : " PushedLimit: " + query.limit())
                + " Query: " + query.sql() + (query.values().isEmpty() ? "" : " Values: " + query.values());
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        String sql = query.sql();
        List<Object> values = query.values();
        long step = Math.max(Table.SLICE_ALIGNMENT,
                options.partitionRows() / Table.SLICE_ALIGNMENT * Table.SLICE_ALIGNMENT);
        List<InputPartition> parts = new ArrayList<>();
        for (int s = 0; s < options.shards().size(); s++) {
            String shard = options.shards().get(s);
            String host = options.shardHosts().isEmpty() ? null : options.shardHosts().get(s);
            if (!Files.isDirectory(Path.of(shard))) {
                parts.add(new TablePartition(shard, host, query.table(), 0, -1, -1, sql, values, options.device()));
                continue;
            }
            OpenDatabases.TableState table = OpenDatabases.current(shard,
                    db -> OpenDatabases.TableState.of(TesseraTable.table(db, shard, query.table())));
            long rows = table.rows();
            for (long from = 0; from < rows || from == 0; from += step) {
                long to = Math.min(rows, from + step);
                parts.add(new TablePartition(shard, host, query.table(), from, to, table.generation(), sql, values,
                        options.device()));
            }
        }
        return parts.toArray(new InputPartition[0]);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new TesseraReaderFactory(readSchema);
    }
}
