package io.tessera.spark;

import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.util.Locale;
import java.util.Set;

/** A Tessera table (of one database, or the union of its shards) as Spark reads it. */
final class TesseraTable implements SupportsRead {

    private final ConnectorOptions options;
    private final TableSchema schema;

    TesseraTable(ConnectorOptions options, TableSchema schema) {
        this.options = options;
        this.schema = schema;
    }

    @Override
    public String name() {
        return "tessera." + schema.name();
    }

    // Spark 4 prefers columns(), whose default reads this; some of its code still calls schema() itself
    @Override
    @SuppressWarnings("deprecation")
    public StructType schema() {
        return SparkTypes.schema(schema);
    }

    @Override
    public Set<TableCapability> capabilities() {
        return Set.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap ignored) {
        return new TesseraScanBuilder(options, schema);
    }

    /** The named table of an open database, failing with the database named when it has none. */
    static Table table(Database db, String directory, String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (!db.hasTable(lower)) {
            throw new IllegalArgumentException("no table " + name + " in Tessera database " + directory);
        }
        return db.table(lower);
    }
}
