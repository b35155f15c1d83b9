package io.tessera.backend.cuda.exec;

import io.tessera.backend.Intermediate;
import io.tessera.backend.ValueKind;
import io.tessera.backend.host.RelationPart;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.gen.CType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The rows a MATERIALIZE or SORT kernel wrote, on the device: one array per output column in its stored type
 * ({@code types}), and for a column that can be NULL its NULL flags (one byte per row, 1 for NULL; null for a
 * column that never is), {@code count} rows. A later kernel reads them where they are ({@link RelationColumns});
 * the host reads them back when it needs them.
 */
record DeviceRows(CudaQueryRun run, List<CType> types, ValueKind[] kinds, String[] dictionaries,
                  DeviceBuffer[] columns, DeviceBuffer[] nulls, int count) implements Intermediate.OnDevice {

    /**
     * The rows on the host: each column read back with one copy and taken into its array whole, its NULL flags (where
     * it has them) with one more copy, turned into NULL bits ({@link ColumnDecoding}).
     */
    @Override
    public RelationPart toHost() {
        run.makeCurrent();
        int n = count;
        RelationPart part = RelationPart.allocate(kinds, dictionaries, n);
        RowBuffer b = part.rows();
        if (n == 0) {
            return part;
        }
        try (Arena arena = Arena.ofConfined()) {
            for (int c = 0; c < columns.length; c++) {
                CType t = types.get(c);
                int bytes = t == CType.BOOL ? 1 : t.bytes;
                MemorySegment host = arena.allocate((long) n * bytes, 8);
                columns[c].copyToHost(host, 0);
                ColumnDecoding.values(host, t, n, b, c);
                if (nulls[c] != null) {
                    MemorySegment flags = arena.allocate(n, 8);
                    nulls[c].copyToHost(flags, 0);
                    b.nulls[c] = ColumnDecoding.nullBits(flags, n);
                }
            }
        }
        return part;
    }
}
