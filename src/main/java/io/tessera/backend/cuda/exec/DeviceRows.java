package io.tessera.backend.cuda.exec;

import io.tessera.backend.HostRows;
import io.tessera.backend.Intermediate;
import io.tessera.backend.ValueKind;
import io.tessera.backend.cuda.DeviceBuffer;
import io.tessera.backend.cuda.gen.CType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * The rows a MATERIALIZE or SORT kernel wrote, on the device: one array per output column in its stored type
 * ({@code types}), and for a column that can be NULL its NULL flags (one byte per row, 1 for NULL; null for a
 * column that never is), {@code count} rows. A later kernel reads them where they are ({@link RelationColumns});
 * the host reads them back when it needs them.
 */
record DeviceRows(CudaQueryRun run, List<CType> types, ValueKind[] kinds, String[] dictionaries,
                  DeviceBuffer[] columns, DeviceBuffer[] nulls, int count) implements Intermediate.OnDevice {

    @Override
    public HostRows toHost() {
        run.makeCurrent();
        int n = count;
        HostRows b = HostRows.allocate(kinds, dictionaries, n);
        try (Arena arena = Arena.ofConfined()) {
            for (int c = 0; c < columns.length; c++) {
                CType t = types.get(c);
                int bytes = t == CType.BOOL ? 1 : t.bytes;
                MemorySegment host = arena.allocate(Math.max(8, (long) n * bytes), 8);
                if (n > 0) {
                    columns[c].copyToHost(host.asSlice(0, (long) n * bytes), 0);
                }
                switch (t) {
                    case INT -> MemorySegment.copy(host, ValueLayout.JAVA_INT, 0, b.ints[c], 0, n);
                    case LONG -> MemorySegment.copy(host, ValueLayout.JAVA_LONG, 0, b.longs[c], 0, n);
                    case DOUBLE -> MemorySegment.copy(host, ValueLayout.JAVA_DOUBLE, 0, b.doubles[c], 0, n);
                    case BOOL -> MemorySegment.copy(host, ValueLayout.JAVA_BYTE, 0, b.bytes[c], 0, n);
                }
                if (nulls[c] != null && n > 0) {
                    MemorySegment flags = arena.allocate(n, 8);
                    nulls[c].copyToHost(flags, 0);
                    for (int r = 0; r < n; r++) {
                        if (flags.get(ValueLayout.JAVA_BYTE, r) != 0) {
                            b.setNull(c, r);
                        }
                    }
                }
            }
        }
        return b;
    }
}
