package io.tessera.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;

/** Sent to the executors: makes the reader of each partition, whose rows have the scan's read schema. */
record TesseraReaderFactory(StructType readSchema) implements PartitionReaderFactory {

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        return new TesseraPartitionReader((TablePartition) partition, readSchema);
    }
}
