package io.tessera.data.io;

import io.tessera.storage.TableSchema;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Parser throughput on a .tbl file without the table writer: chunks read into memory first, then parsed into
 * row batches on 1..N threads. Run after {@code ./mvnw test-compile}:
 * {@code java -cp target/classes:target/test-classes:target/lib/* io.tessera.data.io.ImportBenchmark FILE "COLUMNS" [THREADS...]}
 */
public final class ImportBenchmark {

    private ImportBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        TableSchema schema = TableSchema.parse("bench", args.length > 1 ? args[1] : LineorderTblGenerator.COLUMNS);
        List<byte[]> chunks = new ArrayList<>();
        List<Integer> ends = new ArrayList<>();
        long bytes = load(file, chunks, ends);
        List<Integer> threads = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            threads.add(Integer.parseInt(args[i]));
        }
        if (threads.isEmpty()) {
            threads.add(1);
            threads.add(Runtime.getRuntime().availableProcessors());
        }
        for (int round = 0; round < 3; round++) {
            for (int t : threads) {
                ExecutorService pool = Executors.newFixedThreadPool(t);
                long t0 = System.nanoTime();
                List<Future<ChunkParser.Result>> fs = new ArrayList<>();
                for (int c = 0; c < chunks.size(); c++) {
                    byte[] b = chunks.get(c);
                    int end = ends.get(c);
                    fs.add(pool.submit(() -> new ChunkParser(schema, ImportFormat.TBL, (byte) '|', InvalidUtf8.ERROR).parse(b, 0, end, false)));
                }
                long rows = 0;
                for (Future<ChunkParser.Result> f : fs) {
                    ChunkParser.Result r = f.get();
                    if (r.failed()) {
                        throw new IllegalStateException(r.error());
                    }
                    rows += r.batch().rowCount();
                }
                double s = (System.nanoTime() - t0) / 1e9;
                pool.shutdown();
                System.out.printf(Locale.ROOT, "round %d: %d thread%s: %d rows, %.1f MB in %.2f s: %.1f MB/s (%.1f MB/s per thread)%n",
                        round + 1, t, t == 1 ? "" : "s", rows, bytes / 1e6, s, bytes / 1e6 / s, bytes / 1e6 / s / t);
            }
        }
    }

    private static long load(Path file, List<byte[]> chunks, List<Integer> ends) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            long pos = 0;
            while (pos < size) {
                int want = (int) Math.min(8 << 20, size - pos);
                byte[] b = new byte[want];
                ByteBuffer bb = ByteBuffer.wrap(b);
                while (bb.hasRemaining() && ch.read(bb, pos + bb.position()) > 0) {
                    // read on
                }
                int end = pos + want >= size ? want : TableImporter.recordBoundary(b, want, ImportFormat.TBL);
                chunks.add(b);
                ends.add(end);
                pos += end;
            }
            return size;
        }
    }
}
