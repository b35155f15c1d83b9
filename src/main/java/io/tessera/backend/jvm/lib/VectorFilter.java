package io.tessera.backend.jvm.lib;

import io.tessera.storage.Column;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * A conjunction of comparisons of columns with constants, evaluated with the Vector API (simd=vector): for each
 * block of 64 rows of a morsel, each term compares vectors of the column with the constant and packs the lane
 * masks into one 64-bit word; the words of all terms are ANDed (a term is skipped once the word is 0). The
 * generated pipeline loop then visits only the rows whose bit is set. Columns are read from off-heap segments
 * (stored tables) or from the int[]/long[]/double[] behind heap segments (intermediate relations). A block
 * shorter than 64 rows (the end of a morsel) is compared lane by lane.
 *
 * <p>Needs the {@code jdk.incubator.vector} module in the boot layer ({@code --add-modules jdk.incubator.vector});
 * the variant space offers simd=vector only when it is there.
 */
public final class VectorFilter {

    public static final int EQ = 0;
    public static final int NE = 1;
    public static final int LT = 2;
    public static final int LE = 3;
    public static final int GT = 4;
    public static final int GE = 5;

    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;

    private Term[] terms = new Term[0];

    /** Adds {@code column op constant} over a column of 32-bit integers (INTEGER, DATE, VARCHAR codes). */
    public VectorFilter ints(MemorySegment column, int op, int constant) {
        return add(new IntTerm(column, op, constant));
    }

    /** Adds {@code column op constant} over a column of 64-bit integers (BIGINT, DECIMAL unscaled). */
    public VectorFilter longs(MemorySegment column, int op, long constant) {
        return add(new LongTerm(column, op, constant));
    }

    /** Adds {@code column op constant} over a column of doubles, a constant that is not NaN (NaN above every number). */
    public VectorFilter doubles(MemorySegment column, int op, double constant) {
        return add(new DoubleTerm(column, op, constant));
    }

    private VectorFilter add(Term t) {
        Term[] n = java.util.Arrays.copyOf(terms, terms.length + 1);
        n[terms.length] = t;
        terms = n;
        return this;
    }

    /** One bit per row of {@code [from, to)}, set when every term holds; bit b of word w is row from + 64w + b. */
    public long[] select(long from, long to) {
        int n = (int) (to - from);
        long[] bits = new long[(n + 63) >>> 6];
        for (int w = 0; w < bits.length; w++) {
            long base = from + ((long) w << 6);
            int len = Math.min(64, n - (w << 6));
            long word = len == 64 ? -1L : (1L << len) - 1;
            for (int t = 0; t < terms.length && word != 0; t++) {
                word &= len == 64 ? terms[t].block(base) : terms[t].scalar(base, len);
            }
            bits[w] = word;
        }
        return bits;
    }

    // One case per operator, so that each compare gets a constant operator: the JIT intrinsifies the Vector API
    // only for constant operators (with a variable one every vector would be boxed and compared lane by lane).

    private static long mask(IntVector v, int op, int c) {
        return switch (op) {
            case EQ -> v.compare(VectorOperators.EQ, c).toLong();
            case NE -> v.compare(VectorOperators.NE, c).toLong();
            case LT -> v.compare(VectorOperators.LT, c).toLong();
            case LE -> v.compare(VectorOperators.LE, c).toLong();
            case GT -> v.compare(VectorOperators.GT, c).toLong();
            default -> v.compare(VectorOperators.GE, c).toLong();
        };
    }

    private static long mask(LongVector v, int op, long c) {
        return switch (op) {
            case EQ -> v.compare(VectorOperators.EQ, c).toLong();
            case NE -> v.compare(VectorOperators.NE, c).toLong();
            case LT -> v.compare(VectorOperators.LT, c).toLong();
            case LE -> v.compare(VectorOperators.LE, c).toLong();
            case GT -> v.compare(VectorOperators.GT, c).toLong();
            default -> v.compare(VectorOperators.GE, c).toLong();
        };
    }

    /** A NaN value is above every (non-NaN) constant, as DuckDB orders doubles. */
    private static long mask(DoubleVector v, int op, double c) {
        return switch (op) {
            case EQ -> v.compare(VectorOperators.EQ, c).toLong();
            case NE -> v.compare(VectorOperators.NE, c).toLong();
            case LT -> v.compare(VectorOperators.LT, c).toLong();
            case LE -> v.compare(VectorOperators.LE, c).toLong();
            case GT -> v.compare(VectorOperators.GT, c).or(v.test(VectorOperators.IS_NAN)).toLong();
            default -> v.compare(VectorOperators.GE, c).or(v.test(VectorOperators.IS_NAN)).toLong();
        };
    }

    static boolean holds(int op, int c) {
        return switch (op) {
            case EQ -> c == 0;
            case NE -> c != 0;
            case LT -> c < 0;
            case LE -> c <= 0;
            case GT -> c > 0;
            default -> c >= 0;
        };
    }

    private abstract static class Term {
        final MemorySegment segment;
        final int op;
        /** The array behind a heap segment, or null for an off-heap one. */
        final Object array;
        /** The heap segment's first element within {@link #array}. */
        final int arrayOffset;

        Term(MemorySegment segment, int op, int width) {
            this.segment = segment;
            if (op < EQ || op > GE) {
                throw new IllegalArgumentException("comparison " + op);
            }
            this.op = op;
            this.array = segment.isNative() ? null : segment.heapBase().orElseThrow();
            this.arrayOffset = (int) (segment.address() / width);
        }

        /** The mask of the 64 rows from {@code base}. */
        abstract long block(long base);

        /** The mask of the {@code len} (< 64) rows from {@code base}, lane by lane. */
        abstract long scalar(long base, int len);
    }

    private static final class IntTerm extends Term {
        final int c;
        final int[] ints;

        IntTerm(MemorySegment s, int op, int c) {
            super(s, op, 4);
            this.c = c;
            this.ints = array == null ? null : (int[]) array;
        }

        @Override
        long block(long base) {
            long word = 0;
            int lanes = INTS.length();
            for (int j = 0; j < 64; j += lanes) {
                IntVector v = ints != null ? IntVector.fromArray(INTS, ints, arrayOffset + (int) base + j)
                        : IntVector.fromMemorySegment(INTS, segment, (base + j) << 2, ByteOrder.LITTLE_ENDIAN);
                word |= mask(v, op, c) << j;
            }
            return word;
        }

        @Override
        long scalar(long base, int len) {
            long word = 0;
            for (int j = 0; j < len; j++) {
                int x = ints != null ? ints[arrayOffset + (int) base + j] : segment.get(Column.INT, (base + j) << 2);
                word |= holds(op, Integer.compare(x, c)) ? 1L << j : 0;
            }
            return word;
        }
    }

    private static final class LongTerm extends Term {
        final long c;
        final long[] longs;

        LongTerm(MemorySegment s, int op, long c) {
            super(s, op, 8);
            this.c = c;
            this.longs = array == null ? null : (long[]) array;
        }

        @Override
        long block(long base) {
            long word = 0;
            int lanes = LONGS.length();
            for (int j = 0; j < 64; j += lanes) {
                LongVector v = longs != null ? LongVector.fromArray(LONGS, longs, arrayOffset + (int) base + j)
                        : LongVector.fromMemorySegment(LONGS, segment, (base + j) << 3, ByteOrder.LITTLE_ENDIAN);
                word |= mask(v, op, c) << j;
            }
            return word;
        }

        @Override
        long scalar(long base, int len) {
            long word = 0;
            for (int j = 0; j < len; j++) {
                long x = longs != null ? longs[arrayOffset + (int) base + j] : segment.get(Column.LONG, (base + j) << 3);
                word |= holds(op, Long.compare(x, c)) ? 1L << j : 0;
            }
            return word;
        }
    }

    private static final class DoubleTerm extends Term {
        final double c;
        final double[] doubles;

        DoubleTerm(MemorySegment s, int op, double c) {
            super(s, op, 8);
            this.c = c;
            this.doubles = array == null ? null : (double[]) array;
        }

        @Override
        long block(long base) {
            long word = 0;
            int lanes = DOUBLES.length();
            for (int j = 0; j < 64; j += lanes) {
                DoubleVector v = doubles != null ? DoubleVector.fromArray(DOUBLES, doubles, arrayOffset + (int) base + j)
                        : DoubleVector.fromMemorySegment(DOUBLES, segment, (base + j) << 3, ByteOrder.LITTLE_ENDIAN);
                word |= mask(v, op, c) << j;
            }
            return word;
        }

        @Override
        long scalar(long base, int len) {
            long word = 0;
            for (int j = 0; j < len; j++) {
                double x = doubles != null ? doubles[arrayOffset + (int) base + j] : segment.get(Column.DOUBLE, (base + j) << 3);
                boolean h = switch (op) {
                    case EQ -> x == c;
                    case NE -> x != c;
                    case LT -> x < c;
                    case LE -> x <= c;
                    case GT -> x > c || x != x;
                    default -> x >= c || x != x;
                };
                word |= h ? 1L << j : 0;
            }
            return word;
        }
    }
}
