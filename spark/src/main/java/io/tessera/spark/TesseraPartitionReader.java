package io.tessera.spark;

import io.tessera.Tessera;
import io.tessera.api.QueryCancel;
import io.tessera.api.QueryCancelledException;
import io.tessera.api.ResultColumn;
import io.tessera.api.RowSink;
import io.tessera.api.TableSlice;
import io.tessera.exec.Device;
import io.tessera.sql.Parameters;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads one partition: its query runs on a thread of its own, handing its result over a few batches at a time, so a
 * task never holds its whole result as Java objects. Closing the reader early (a LIMIT satisfied, a task killed)
 * cancels the query.
 */
final class TesseraPartitionReader implements PartitionReader<InternalRow> {

    private static final List<Object[]> END = new ArrayList<>();

    private final TablePartition part;
    private final DataType[] types;
    private final BlockingQueue<List<Object[]>> batches = new ArrayBlockingQueue<>(4);
    private final QueryCancel cancel = new QueryCancel();
    private volatile RuntimeException failure;
    private List<Object[]> batch = List.of();
    private int next;
    private boolean ended;
    private InternalRow current;

    TesseraPartitionReader(TablePartition part, StructType schema) {
        this.part = part;
        this.types = new DataType[schema.fields().length];
        for (int i = 0; i < types.length; i++) {
            types[i] = schema.fields()[i].dataType();
        }
        Thread.ofPlatform().daemon().name("tessera-read-" + part.table() + "-" + part.fromRow()).start(this::produce);
    }

    private void produce() {
        Device device = Device.valueOf(part.device().toUpperCase(Locale.ROOT));
        try (OpenDatabases.Handle db = OpenDatabases.acquire(part.shard(), device, part.table(), part.generation())) {
            Tessera t = db.tessera();
            RowSink sink = new RowSink() {
                @Override
                public void start(List<ResultColumn> columns) {
                }

                @Override
                public void rows(List<Object[]> rows) {
                    hand(rows);
                }
            };
            Parameters values = Parameters.of(part.values());
            if (part.wholeShard()) {
                t.query(part.sql(), values, cancel, sink);
            } else {
                t.query(part.sql(), values, cancel, sink,
                        new TableSlice(part.table(), part.fromRow(), part.toRow(), part.generation()));
            }
        } catch (QueryCancelledException e) {
            // closed early: nobody reads on
        } catch (Throwable e) { // whatever stops the query must reach the task, or its rows would end early unnoticed
            failure = new IllegalStateException("Tessera failed reading " + part.table() + " rows " + part.fromRow()
                    + ".." + part.toRow() + " of " + part.shard() + ": " + e.getMessage(), e);
        } finally {
            try {
                hand(END);
            } catch (QueryCancelledException e) {
                // closed: nobody waits for the end
            }
        }
    }

    /** Queues a batch for the reader, waiting while the queue is full, unless the reader was closed. */
    private void hand(List<Object[]> rows) {
        try {
            while (!batches.offer(rows, 50, TimeUnit.MILLISECONDS)) {
                if (cancel.isCancelled()) {
                    throw new QueryCancelledException();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QueryCancelledException();
        }
    }

    @Override
    public boolean next() throws IOException {
        while (next >= batch.size()) {
            if (ended) {
                return false;
            }
            try {
                batch = batches.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while reading " + part.table(), e);
            }
            next = 0;
            if (batch == END) {
                ended = true;
                if (failure != null) {
                    throw failure;
                }
                return false;
            }
        }
        Object[] row = batch.get(next++);
        Object[] values = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            values[i] = SparkTypes.internal(row[i], types[i]);
        }
        current = new GenericInternalRow(values);
        return true;
    }

    @Override
    public InternalRow get() {
        return current;
    }

    @Override
    public void close() {
        cancel.cancel();
        batches.clear();
    }
}
