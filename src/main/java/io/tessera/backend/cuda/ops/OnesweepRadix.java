package io.tessera.backend.cuda.ops;

import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.KernelArgs;

import java.util.List;

/**
 * The passes of {@link LargeSort}'s radix sort by a onesweep-style scatter (the {@link RadixScatter}s but
 * {@link RadixScatter#LOOKBACK}, the onesweep and the staged kernels alike): one clear before the sort readies the
 * tile states of every pass (each pass tags its states with its number and takes tile numbers from a counter of its
 * own) and every word's digit counts; per word, one launch counts its digits (unless the plan counted them in its
 * read of the word) and one turns the counts into starts; per pass, one launch. The last pass writes the result's
 * 64-bit row numbers itself when every row is kept.
 */
final class OnesweepRadix {

    private static final int DIGITS = 1 << RadixPasses.DIGIT_BITS;
    private static final int PLACES = 64 / RadixPasses.DIGIT_BITS;
    /** 64-bit words of one word's digit counts: PLACES rows of DIGITS 32-bit counts. */
    private static final int TOTALS_WORDS = PLACES * DIGITS / 2;
    /** Bytes of one word's digit counts (and then starts): PLACES rows of DIGITS 32-bit numbers. */
    static final long TOTALS_BYTES = TOTALS_WORDS * 8L;
    private static final int TOTALS_GRID = 1024;
    private static final int THREADS = 256;

    private final CudaKernel clear;
    private final CudaKernel digitTotals;
    private final CudaKernel starts;
    private final CudaKernel gatherKeys;

    OnesweepRadix(CudaKernel clear, CudaKernel digitTotals, CudaKernel starts, CudaKernel gatherKeys) {
        this.clear = clear;
        this.digitTotals = digitTotals;
        this.starts = starts;
        this.gatherKeys = gatherKeys;
    }

    /**
     * Sorts the row numbers of {@code rows} rows by the key words at {@code words} (word {@code j} of row {@code i}
     * at word {@code j * rows + i}) through {@code passes}, each pass a launch of {@code scatter}. Returns the device
     * address of the sorted 32-bit row numbers (a buffer of {@code taken}, which the caller hands back after use),
     * or 0 when {@code keep == rows} and the last pass wrote all of them, 64-bit, to {@code outIndex}.
     * {@code counted}: a word whose digits are counted already (by the plan's read), or null.
     */
    long sort(CudaKernel scatter, RadixScatter kind, long words, long rows, RadixPasses passes, long keep,
              LargeSort.Counted counted, LargeSort.Scratch scratch, List<DeviceBuffer> taken, DeviceBuffer outIndex) {
        long tiles = kind.tiles(rows);
        int passCount = passes.passes();
        long stateWords = tiles * DIGITS;
        long counters = stateWords; // a tile counter per pass after the states
        long totalsAt = counters + passCount; // then each word's digit counts
        long allWords = totalsAt + (long) passes.varyingWords() * TOTALS_WORDS;
        DeviceBuffer state = LargeSort.take(scratch, taken, allWords * 8);
        DeviceBuffer[] keyBufs = {LargeSort.take(scratch, taken, rows * 8), LargeSort.take(scratch, taken, rows * 8)};
        DeviceBuffer[] rowBufs = {LargeSort.take(scratch, taken, rows * 4), LargeSort.take(scratch, taken, rows * 4)};
        clear.launch(LargeSort.grid(allWords), THREADS, KernelArgs.of().ptr(state).i64(allWords));
        long keysIn = 0;
        long rowsIn = 0; // null: the rows in their order
        int nextKeys = 0;
        int nextRows = 0;
        int pass = 0;
        int wordIndex = 0;
        for (RadixPasses.Word w : passes.words()) {
            long word = words + w.word() * rows * 8;
            if (pass == 0) {
                keysIn = word;
            } else {
                DeviceBuffer gathered = keyBufs[nextKeys];
                gatherKeys.launch(LargeSort.grid(rows), THREADS, KernelArgs.of().ptr(word).ptr(rowsIn).i64(rows).ptr(gathered));
                keysIn = gathered.address();
                nextKeys ^= 1;
            }
            int digits = 0;
            for (int shift : w.shifts()) {
                digits |= 1 << (shift / RadixPasses.DIGIT_BITS);
            }
            // a word counted by the plan, in the rows' first order: the counts do not depend on the order
            boolean precounted = counted != null && counted.word() == w.word();
            long totals = precounted ? counted.totals().address()
                    : state.address() + (totalsAt + (long) wordIndex * TOTALS_WORDS) * 8;
            if (!precounted) {
                digitTotals.launch((int) Math.min(TOTALS_GRID, tiles), THREADS, KernelArgs.of().ptr(keysIn).i64(rows)
                        .i32(digits).ptr(totals));
            }
            starts.launch(1, DIGITS, KernelArgs.of().ptr(totals));
            for (int shift : w.shifts()) {
                boolean last = pass == passCount - 1;
                long direct = last && keep == rows ? outIndex.address() : 0;
                DeviceBuffer keysOut = keyBufs[nextKeys];
                DeviceBuffer rowsOut = rowBufs[nextRows];
                long passStarts = totals + (long) (shift / RadixPasses.DIGIT_BITS) * DIGITS * 4;
                scatter.launch((int) tiles, kind.threads(), kind.dynamicShared(), null, KernelArgs.of().ptr(keysIn).ptr(rowsIn).i64(rows).i32(shift)
                        .ptr(passStarts).ptr(state).i32(pass + 1).ptr(state.address() + (counters + pass) * 8)
                        .ptr(keysOut).ptr(rowsOut).ptr(direct));
                keysIn = keysOut.address();
                rowsIn = direct != 0 ? 0 : rowsOut.address();
                nextKeys ^= 1;
                nextRows ^= 1;
                pass++;
            }
            wordIndex++;
        }
        return rowsIn;
    }

}
