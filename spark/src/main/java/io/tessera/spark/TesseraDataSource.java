package io.tessera.spark;

import io.tessera.storage.TableSchema;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code spark.read.format("tessera").option("path", dir).option("table", name).load()}: a Tessera table as a
 * Spark DataSource V2 table (docs/SPARK.md). The schema comes from the database, or from the shards the driver can
 * open (which must agree).
 */
public final class TesseraDataSource implements TableProvider, DataSourceRegister {

    @Override
    public String shortName() {
        return "tessera";
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        return SparkTypes.schema(tableSchema(ConnectorOptions.of(options)));
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        ConnectorOptions options = ConnectorOptions.of(new CaseInsensitiveStringMap(properties));
        return new TesseraTable(options, tableSchema(options));
    }

    /** The table's schema in every shard the driver can open; at least one must be open to it. */
    static TableSchema tableSchema(ConnectorOptions options) {
        TableSchema found = null;
        String foundIn = null;
        for (String shard : options.shards()) {
            if (!Files.isDirectory(Path.of(shard))) {
                continue;
            }
            TableSchema s = OpenDatabases.current(shard, db -> TesseraTable.table(db, shard, options.table()).schema());
            if (found == null) {
                found = s;
                foundIn = shard;
            } else if (!found.equals(s)) {
                throw new IllegalArgumentException("shards disagree on table " + options.table() + ": " + found
                        + " in " + foundIn + ", " + s + " in " + shard);
            }
        }
        if (found == null) {
            throw new IllegalArgumentException("none of the Tessera databases " + options.shards()
                    + " is a directory on the driver (" + OpenDatabases.hostName() + "); the driver reads the schema of"
                    + " table " + options.table() + " from at least one of them");
        }
        return found;
    }
}
