package io.tessera.backend.cuda.exec;

import io.tessera.backend.cuda.driver.KernelArgs;
import io.tessera.backend.cuda.gen.KernelParam;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a pipeline's launches bind to its kernel's parameters, by what each parameter is (its kind, column, join,
 * aggregate) rather than by its place: variants of one pipeline list their parameters in the order their code first
 * reads them (a probe order, a late gather), so the same buffers are bound to each variant's list in its own order.
 * The source columns are bound by base address and element width, so that a launch can cover any range of rows;
 * the row count and the pass are given per launch.
 */
final class KernelBindings {

    private record Key(KernelParam.Kind kind, int index, int sub) {
        static Key of(KernelParam p) {
            return new Key(p.kind(), p.index(), p.sub());
        }
    }

    private record Column(long address, int width) {
    }

    private final Map<Key, KernelArgs.Arg> bound = new HashMap<>();
    private final Map<Integer, Column> columns = new HashMap<>();
    /** The NULL flags of source columns that have them, by column, one byte a row. */
    private final Map<Integer, Column> nullFlags = new HashMap<>();
    /**
     * The device copies of masks of dictionary codes and of maps of codes, by their words (variants may number them
     * differently).
     */
    private final Map<KernelParam.Words, Long> masks = new HashMap<>();

    void ptr(KernelParam p, long deviceAddress) {
        bind(p, new KernelArgs.Arg(KernelArgs.Kind.POINTER, deviceAddress));
    }

    void i64(KernelParam p, long value) {
        bind(p, new KernelArgs.Arg(KernelArgs.Kind.LONG, value));
    }

    void i32(KernelParam p, int value) {
        bind(p, new KernelArgs.Arg(KernelArgs.Kind.INT, value));
    }

    /**
     * Source column {@code p.index()}'s values ({@link KernelParam.Kind#COLUMN}) or NULL flags ({@link
     * KernelParam.Kind#COLUMN_NULLS}, one byte a row) at {@code deviceAddress}, {@code width} bytes a row: a launch
     * over later rows reads from further in.
     */
    void column(KernelParam p, long deviceAddress, int width) {
        switch (p.kind()) {
            case COLUMN -> columns.put(p.index(), new Column(deviceAddress, width));
            case COLUMN_NULLS -> nullFlags.put(p.index(), new Column(deviceAddress, width));
            default -> throw new IllegalArgumentException(p + " is not a source column");
        }
    }

    /** The device copy of a {@link KernelParam.Kind#CODE_MASK}'s bits or a {@link KernelParam.Kind#CODE_MAP}'s codes. */
    void mask(KernelParam p, long deviceAddress) {
        masks.put(p.words(), deviceAddress);
    }

    /** Whether the bits of this mask parameter are on the device already. */
    boolean hasMask(KernelParam p) {
        return masks.containsKey(p.words());
    }

    /** A constant's argument: the kernel source carries its value, so every variant binds its own. */
    private static KernelArgs.Arg constant(KernelParam p) {
        return switch (p.cType()) {
            case "const long long" -> new KernelArgs.Arg(KernelArgs.Kind.LONG, ((Number) p.value()).longValue());
            case "const int" -> new KernelArgs.Arg(KernelArgs.Kind.INT, Math.toIntExact(((Number) p.value()).longValue()));
            case "const double" -> new KernelArgs.Arg(KernelArgs.Kind.DOUBLE,
                    Double.doubleToRawLongBits(((Number) p.value()).doubleValue()));
            default -> throw new IllegalStateException("constant " + p.name() + " of C type " + p.cType());
        };
    }

    private void bind(KernelParam p, KernelArgs.Arg a) {
        switch (p.kind()) {
            case ROWS, PASS, COLUMN, COLUMN_NULLS, CONSTANT, CODE_MASK, CODE_MAP -> throw new IllegalArgumentException(p.kind() + " is given per launch");
            default -> bound.put(Key.of(p), a);
        }
    }

    /**
     * The arguments of a launch of a kernel with parameters {@code params} over rows {@code [first, first + rows)} of
     * the source, pass {@code pass}. Throws when the kernel has a parameter nothing was bound to (a variant whose
     * sink or tables differ from those the buffers were made for).
     */
    KernelArgs args(List<KernelParam> params, int pass, long first, long rows) {
        KernelArgs out = KernelArgs.of();
        for (KernelParam p : params) {
            switch (p.kind()) {
                case ROWS -> out.i64(rows);
                case PASS -> out.i32(pass);
                case CONSTANT -> out.arg(constant(p));
                case CODE_MASK, CODE_MAP -> {
                    Long address = masks.get(p.words());
                    if (address == null) {
                        throw new IllegalStateException("no mask of codes is bound to " + p.name());
                    }
                    out.ptr(address);
                }
                case COLUMN, COLUMN_NULLS -> {
                    Column c = (p.kind() == KernelParam.Kind.COLUMN ? columns : nullFlags).get(p.index());
                    if (c == null) {
                        throw new IllegalStateException("no source column " + p.index() + " is bound (" + p.name() + ")");
                    }
                    out.ptr(c.address() + first * c.width());
                }
                default -> {
                    KernelArgs.Arg a = bound.get(Key.of(p));
                    if (a == null) {
                        throw new IllegalStateException("nothing is bound to parameter " + p.name() + " (" + p.kind()
                                + "): the kernel's sink or tables differ from those its buffers were made for");
                    }
                    out.arg(a);
                }
            }
        }
        return out;
    }
}
