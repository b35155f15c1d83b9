package io.tessera.backend.cuda.driver;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The arguments of one kernel launch, in the kernel's parameter order. {@link #pack} builds what
 * cuLaunchKernel's kernelParams wants: an array of pointers (void**), entry i pointing to a copy of
 * argument i's value, so a device pointer argument is a pointer to the 8-byte device address and
 * an int argument a pointer to the 4 bytes of the int. Types must match the kernel's parameters
 * exactly: ptr for T*, i32 for int/unsigned, i64 for long long/size_t, f32 for float, f64 for double.
 */
public final class KernelArgs {
    /** The C type of one argument. */
    public enum Kind {
        POINTER(8), INT(4), LONG(8), FLOAT(4), DOUBLE(8);

        final int bytes;

        Kind(int bytes) {
            this.bytes = bytes;
        }

        public int bytes() {
            return bytes;
        }
    }

    /** One argument: its kind and its bits (a float or double as its raw bits). */
    public record Arg(Kind kind, long bits) {
    }

    private final List<Arg> args = new ArrayList<>();

    public static KernelArgs of() {
        return new KernelArgs();
    }

    /** A device buffer's address (a T* parameter). */
    public KernelArgs ptr(DeviceBuffer buffer) {
        return ptr(buffer.address());
    }

    /** A device address (a T* parameter); 0 is a null pointer. */
    public KernelArgs ptr(long deviceAddress) {
        args.add(new Arg(Kind.POINTER, deviceAddress));
        return this;
    }

    /** An int or unsigned int parameter. */
    public KernelArgs i32(int value) {
        args.add(new Arg(Kind.INT, value));
        return this;
    }

    /** A long long, unsigned long long or size_t parameter. */
    public KernelArgs i64(long value) {
        args.add(new Arg(Kind.LONG, value));
        return this;
    }

    /** A float parameter. */
    public KernelArgs f32(float value) {
        args.add(new Arg(Kind.FLOAT, Float.floatToRawIntBits(value)));
        return this;
    }

    /** A double parameter. */
    public KernelArgs f64(double value) {
        args.add(new Arg(Kind.DOUBLE, Double.doubleToRawLongBits(value)));
        return this;
    }

    /** An argument as another launch's arguments hold it. */
    public KernelArgs arg(Arg a) {
        args.add(a);
        return this;
    }

    public int size() {
        return args.size();
    }

    public List<Arg> args() {
        return List.copyOf(args);
    }

    /**
     * The void*[size()] array for cuLaunchKernel, allocated with its value slots (8 bytes each,
     * 8-byte aligned) in {@code arena}, which must outlive the launch call. NULL when there are no
     * arguments.
     */
    public MemorySegment pack(Arena arena) {
        if (args.isEmpty()) {
            return MemorySegment.NULL;
        }
        MemorySegment values = arena.allocate(8L * args.size(), 8);
        MemorySegment pointers = arena.allocate(ADDRESS, args.size());
        for (int i = 0; i < args.size(); i++) {
            Arg a = args.get(i);
            long off = 8L * i;
            switch (a.kind()) {
                case POINTER, LONG -> values.set(JAVA_LONG, off, a.bits());
                case INT -> values.set(JAVA_INT, off, (int) a.bits());
                case FLOAT -> values.set(JAVA_FLOAT, off, Float.intBitsToFloat((int) a.bits()));
                case DOUBLE -> values.set(JAVA_DOUBLE, off, Double.longBitsToDouble(a.bits()));
            }
            pointers.setAtIndex(ADDRESS, i, values.asSlice(off, 8));
        }
        return pointers;
    }

    /** The bytes {@link #packInto} needs for {@code count} arguments: a pointer and an 8-byte value slot each. */
    public static long blockBytes(int count) {
        return 16L * count;
    }

    /**
     * Writes the kernelParams block into {@code block} (at least {@link #blockBytes} bytes, 8-byte aligned, owned by
     * the caller and not used by another launch until cuLaunchKernel has returned): the void*[size()] array of
     * pointers first, then the value slots it points to. Returns {@code block}, or NULL when there are no arguments.
     * A launch that reuses one block this way allocates nothing.
     */
    public MemorySegment packInto(MemorySegment block) {
        int n = args.size();
        if (n == 0) {
            return MemorySegment.NULL;
        }
        if (block.byteSize() < blockBytes(n)) {
            throw new IllegalArgumentException("a block of " + block.byteSize() + " bytes for " + n + " arguments");
        }
        long values = 8L * n;
        long base = block.address();
        for (int i = 0; i < n; i++) {
            Arg a = args.get(i);
            long off = values + 8L * i;
            switch (a.kind()) {
                case POINTER, LONG, DOUBLE -> block.set(JAVA_LONG, off, a.bits());
                case INT, FLOAT -> {
                    block.set(JAVA_LONG, off, 0);
                    block.set(JAVA_INT, off, (int) a.bits());
                }
            }
            block.set(JAVA_LONG, 8L * i, base + off);
        }
        return block;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < args.size(); i++) {
            Arg a = args.get(i);
            if (i > 0) {
                sb.append(", ");
            }
            switch (a.kind()) {
                case POINTER -> sb.append("ptr 0x").append(Long.toHexString(a.bits()));
                case INT -> sb.append("int ").append((int) a.bits());
                case LONG -> sb.append("long ").append(a.bits());
                case FLOAT -> sb.append("float ").append(Float.intBitsToFloat((int) a.bits()));
                case DOUBLE -> sb.append("double ").append(Double.longBitsToDouble(a.bits()));
            }
        }
        return sb.append(')').toString();
    }
}
