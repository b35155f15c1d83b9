package io.tessera.backend.cuda.exec;

import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.gen.CType;
import io.tessera.backend.cuda.gen.CudaKernelSource;
import io.tessera.backend.cuda.gen.KernelParam;
import io.tessera.plan.Source;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;

/**
 * The columns of a relation an earlier kernel left on the device, as a kernel that reads its rows binds them (its
 * {@link KernelParam.Kind#COLUMN} and {@link KernelParam.Kind#COLUMN_NULLS} parameters): the arrays of a
 * MATERIALIZE kernel's rows where they lie ({@link DeviceRows}); an aggregation's groups moved to the host, which
 * computes their final values (an AVG, a NULL over no rows), and the columns the kernel reads copied back into
 * buffers of the run, each of exactly the relation's rows. A column without NULL flags of its own that the kernel
 * reads with flags gets zeroed ones.
 */
final class RelationColumns {

    private record Column(long address, int width) {
    }

    private final Map<Integer, Column> columns = new HashMap<>();
    private final Map<Integer, Long> nulls = new HashMap<>();
    private final long rows;

    private RelationColumns(long rows) {
        this.rows = rows;
    }

    /** Whether kernel {@code k} reads a relation's rows as columns (not a group table slot by slot). */
    static boolean reads(CudaKernelSource k) {
        return k.pipeline().source() instanceof Source.RelationScan
                && k.params().stream().noneMatch(p -> p.kind() == KernelParam.Kind.SCAN_GROUP_ROWS);
    }

    /** The columns kernel {@code k} reads of the relation it scans, on the device now. */
    static RelationColumns bind(CudaQueryRun run, QueryState state, CudaKernelSource k) {
        int rel = ((Source.RelationScan) k.pipeline().source()).relationId();
        Intermediate h = run.leftRelation(rel);
        if (h == null) {
            throw new IllegalStateException("pipeline " + k.pipeline().id() + " reads r" + rel
                    + ", which no kernel of this run left on the device");
        }
        if (h.value() instanceof DeviceRows d) {
            RelationColumns out = new RelationColumns(d.count());
            for (KernelParam p : k.params()) {
                if (p.kind() == KernelParam.Kind.COLUMN) {
                    CType t = d.types().get(p.index());
                    out.columns.put(p.index(), new Column(d.columns()[p.index()].address(), checkedWidth(p, t)));
                } else if (p.kind() == KernelParam.Kind.COLUMN_NULLS) {
                    DeviceBuffer flags = d.nulls()[p.index()];
                    out.nulls.put(p.index(), flags != null ? flags.address() : zeroedFlags(run, d.count()));
                }
            }
            return out;
        }
        RowBuffer rows = ((io.tessera.backend.host.RelationPart) state.moveToHost(h).value()).rows();
        RelationColumns out = new RelationColumns(rows.size);
        for (KernelParam p : k.params()) {
            if (p.kind() == KernelParam.Kind.COLUMN) {
                out.columns.put(p.index(), upload(run, rows, p));
            } else if (p.kind() == KernelParam.Kind.COLUMN_NULLS) {
                out.nulls.put(p.index(), uploadFlags(run, rows, p.index()));
            }
        }
        return out;
    }

    long rows() {
        return rows;
    }

    long address(int column) {
        return column(column).address();
    }

    int width(int column) {
        return column(column).width();
    }

    long nullsAddress(int column) {
        Long a = nulls.get(column);
        if (a == null) {
            throw new IllegalStateException("no NULL flags of relation column " + column + " are bound");
        }
        return a;
    }

    private Column column(int column) {
        Column c = columns.get(column);
        if (c == null) {
            throw new IllegalStateException("relation column " + column + " is not bound");
        }
        return c;
    }

    /** One host column into a buffer of the run, in the element type the kernel reads. */
    private static Column upload(CudaQueryRun run, RowBuffer rows, KernelParam p) {
        int c = p.index();
        int n = rows.size;
        MemorySegment values = switch (rows.kinds[c]) {
            case INT, CODE -> MemorySegment.ofArray(rows.ints[c]);
            case LONG -> MemorySegment.ofArray(rows.longs[c]);
            case DOUBLE -> MemorySegment.ofArray(rows.doubles[c]);
            case BOOL -> MemorySegment.ofArray(rows.bytes[c]);
            case STRING -> throw new IllegalStateException("relation column " + c + " holds strings, which a kernel "
                    + "cannot read (the capability check keeps such a pipeline on the JVM)");
        };
        CType t = switch (rows.kinds[c]) {
            case INT, CODE -> CType.INT;
            case LONG -> CType.LONG;
            case DOUBLE -> CType.DOUBLE;
            default -> CType.BOOL;
        };
        int width = checkedWidth(p, t);
        DeviceBuffer b = run.take((long) n * width);
        if (n > 0) {
            b.copyFromHost(values.asSlice(0, (long) n * width), 0);
        }
        return new Column(b.address(), width);
    }

    /** A host column's NULL bits as flags, one byte per row (1: NULL), in a buffer of the run. */
    private static long uploadFlags(CudaQueryRun run, RowBuffer rows, int column) {
        int n = rows.size;
        if (rows.nulls[column] == null) {
            return zeroedFlags(run, n);
        }
        byte[] flags = new byte[n];
        for (int r = 0; r < n; r++) {
            flags[r] = (byte) (rows.isNull(column, r) ? 1 : 0);
        }
        DeviceBuffer b = run.take(n);
        if (n > 0) {
            b.copyFromHost(MemorySegment.ofArray(flags), 0);
        }
        return b.address();
    }

    private static long zeroedFlags(CudaQueryRun run, long n) {
        DeviceBuffer b = run.take(n);
        b.zero();
        return b.address();
    }

    /** The width of the relation's column in type {@code t}, which must be the type the kernel declares. */
    private static int checkedWidth(KernelParam p, CType t) {
        if (!p.cType().equals("const " + t.memory() + "* __restrict__")) {
            throw new IllegalStateException("relation column " + p.index() + " is " + t + " on the device, but kernel "
                    + "parameter " + p.name() + " is " + p.cType());
        }
        return t == CType.BOOL ? 1 : t.bytes;
    }
}
