// Window functions over rows sorted by their PARTITION BY then ORDER BY keys (WindowScan launches these kernels):
// flags where a partition and a peer group start, their first positions by a max-scan, their ends scattered to
// their first positions, and segmented inclusive scans (sum with overflow checks, max, min) whose value at a frame's
// last position is the frame's aggregate. Every scan is data-parallel: a tile per block scanned in registers, warp
// shuffles and shared memory; the tiles' totals scanned the same way; then each tile's carry added to its positions
// before its first segment start.
#ifndef TESSERA_WINDOW_CUH
#define TESSERA_WINDOW_CUH

#define TESSERA_WINDOW_THREADS 256
#define TESSERA_WINDOW_ITEMS 4
#define TESSERA_WINDOW_TILE (TESSERA_WINDOW_THREADS * TESSERA_WINDOW_ITEMS)
#define TESSERA_WINDOW_WARPS (TESSERA_WINDOW_THREADS / 32)
#define TESSERA_WINDOW_MASK 0xffffffffu

// the scans' operations
#define TESSERA_WINDOW_SUM 0
#define TESSERA_WINDOW_MAX 1
#define TESSERA_WINDOW_MIN 2

// what tessera_window_load writes per row
#define TESSERA_WINDOW_LOAD_VALUE 0
#define TESSERA_WINDOW_LOAD_PRESENT 1
#define TESSERA_WINDOW_LOAD_FLAG 2

// the functions of tessera_window_result
#define TESSERA_WINDOW_ROW_NUMBER 0
#define TESSERA_WINDOW_RANK 1
#define TESSERA_WINDOW_SCANNED 2
#define TESSERA_WINDOW_COUNT_STAR 3
#define TESSERA_WINDOW_COUNT 4
#define TESSERA_WINDOW_SUM_OR_NULL 5
#define TESSERA_WINDOW_SUM_OR_ZERO 6
#define TESSERA_WINDOW_AVG 7
#define TESSERA_WINDOW_EXTREME 8

// the frames: the whole partition, up to the row's last peer, up to the row
#define TESSERA_WINDOW_FRAME_PARTITION 0
#define TESSERA_WINDOW_FRAME_PEERS 1
#define TESSERA_WINDOW_FRAME_ROW 2

__device__ __forceinline__ long long tessera_window_identity(int op) {
    return op == TESSERA_WINDOW_MAX ? (-9223372036854775807LL - 1) : op == TESSERA_WINDOW_MIN ? 9223372036854775807LL : 0LL;
}

// a op b; a sum that leaves the 64-bit range sets *overflow (the host then evaluates the window itself)
__device__ __forceinline__ long long tessera_window_op(int op, long long a, long long b, int* overflow) {
    if (op == TESSERA_WINDOW_MAX) return a > b ? a : b;
    if (op == TESSERA_WINDOW_MIN) return a < b ? a : b;
    const long long r = (long long)((unsigned long long)a + (unsigned long long)b);
    if (((a ^ r) & (b ^ r)) < 0) *overflow = 1;
    return r;
}

// flags[i] |= row i's value differs from row i - 1's (NULL equal to NULL; doubles equal as ==, every NaN equal);
// flags[0] = 1. bytes 0: no column, only the first flag.
extern "C" __global__ void tessera_window_differs(const unsigned char* __restrict__ col, int bytes, int dbl,
                                                  const unsigned char* __restrict__ nulls, long long n,
                                                  unsigned char* __restrict__ flags) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        if (i == 0) {
            flags[0] = 1;
            continue;
        }
        if (bytes == 0) continue;
        const int na = nulls != nullptr && nulls[i - 1] != 0;
        const int nb = nulls != nullptr && nulls[i] != 0;
        int differs = na != nb;
        if (!differs && !na) {
            if (bytes == 8 && dbl) {
                const double a = reinterpret_cast<const double*>(col)[i - 1];
                const double b = reinterpret_cast<const double*>(col)[i];
                differs = !(a == b || (a != a && b != b));
            } else if (bytes == 8) {
                differs = reinterpret_cast<const long long*>(col)[i - 1] != reinterpret_cast<const long long*>(col)[i];
            } else if (bytes == 4) {
                differs = reinterpret_cast<const int*>(col)[i - 1] != reinterpret_cast<const int*>(col)[i];
            } else {
                differs = (col[i - 1] != 0) != (col[i] != 0);
            }
        }
        if (differs) flags[i] = 1;
    }
}

// out[i] per mode: VALUE the column's value as a 64-bit integer (fill where it is NULL), PRESENT 1 where it is not
// NULL, FLAG 1 where the byte is not 0
extern "C" __global__ void tessera_window_load(const unsigned char* __restrict__ col, int bytes,
                                               const unsigned char* __restrict__ nulls, long long n, int mode,
                                               long long fill, long long* __restrict__ out) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const int isNull = nulls != nullptr && nulls[i] != 0;
        long long v;
        if (mode == TESSERA_WINDOW_LOAD_PRESENT) {
            v = isNull ? 0 : 1;
        } else if (mode == TESSERA_WINDOW_LOAD_FLAG) {
            v = col[i] != 0 ? 1 : 0;
        } else if (isNull) {
            v = fill;
        } else {
            v = bytes == 8 ? reinterpret_cast<const long long*>(col)[i] : (long long)reinterpret_cast<const int*>(col)[i];
        }
        out[i] = v;
    }
}

// out[i] = i where flags[i] is set, else 0: their max-scan gives each row the first position of its run
extern "C" __global__ void tessera_window_positions(const unsigned char* __restrict__ flags, long long n,
                                                    long long* __restrict__ out) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        out[i] = flags[i] != 0 ? i : 0;
    }
}

// ends[s] = the position after the last row of the run that starts at s (starts: each row's run's first position)
extern "C" __global__ void tessera_window_ends(const long long* __restrict__ starts, long long n,
                                               long long* __restrict__ ends) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        if (i == n - 1 || starts[i + 1] != starts[i]) ends[starts[i]] = i + 1;
    }
}

// One tile per block: values[] scanned in place within the tile (segments start where starts[] is set; starts null:
// one segment), the tile's total and whether a segment starts in it written for the scan of the tiles.
extern "C" __global__ void __launch_bounds__(TESSERA_WINDOW_THREADS)
tessera_window_scan_tile(long long* __restrict__ values, const unsigned char* __restrict__ starts, long long n, int op,
                         long long* __restrict__ tile_values, unsigned char* __restrict__ tile_starts,
                         int* __restrict__ overflow) {
    __shared__ long long warp_v[TESSERA_WINDOW_WARPS];
    __shared__ int warp_f[TESSERA_WINDOW_WARPS];
    const int lane = (int)threadIdx.x & 31;
    const int warp = (int)threadIdx.x >> 5;
    const long long base = (long long)blockIdx.x * TESSERA_WINDOW_TILE + (long long)threadIdx.x * TESSERA_WINDOW_ITEMS;
    const long long id = tessera_window_identity(op);
    long long v[TESSERA_WINDOW_ITEMS];
    int f[TESSERA_WINDOW_ITEMS];
    long long acc = id;
    int any = 0;
#pragma unroll
    for (int j = 0; j < TESSERA_WINDOW_ITEMS; ++j) {
        const long long idx = base + j;
        v[j] = idx < n ? values[idx] : id;
        f[j] = idx < n && starts != nullptr && starts[idx] != 0;
        acc = f[j] ? v[j] : tessera_window_op(op, acc, v[j], overflow);
        any |= f[j];
    }
    // the threads' (start seen, value) pairs scanned across the warp: a later pair with a start keeps its value
    long long wv = acc;
    int wf = any;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const long long ov = __shfl_up_sync(TESSERA_WINDOW_MASK, wv, d);
        const int of = __shfl_up_sync(TESSERA_WINDOW_MASK, wf, d);
        if (lane >= d) {
            wv = wf ? wv : tessera_window_op(op, ov, wv, overflow);
            wf |= of;
        }
    }
    if (lane == 31) {
        warp_v[warp] = wv;
        warp_f[warp] = wf;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        // the warps' totals into exclusive prefixes, and the tile's total
        long long pv = id;
        int pf = 0;
        for (int w = 0; w < TESSERA_WINDOW_WARPS; ++w) {
            const long long tv = warp_v[w];
            const int tf = warp_f[w];
            warp_v[w] = pv;
            warp_f[w] = pf;
            pv = tf ? tv : tessera_window_op(op, pv, tv, overflow);
            pf |= tf;
        }
        tile_values[blockIdx.x] = pv;
        tile_starts[blockIdx.x] = pf ? 1 : 0;
    }
    __syncthreads();
    long long ev = __shfl_up_sync(TESSERA_WINDOW_MASK, wv, 1);
    int ef = __shfl_up_sync(TESSERA_WINDOW_MASK, wf, 1);
    if (lane == 0) {
        ev = id;
        ef = 0;
    }
    acc = ef ? ev : tessera_window_op(op, warp_v[warp], ev, overflow);
#pragma unroll
    for (int j = 0; j < TESSERA_WINDOW_ITEMS; ++j) {
        const long long idx = base + j;
        acc = f[j] ? v[j] : tessera_window_op(op, acc, v[j], overflow);
        if (idx < n) values[idx] = acc;
    }
}

// Tile blockIdx.x + 1: the scanned total of the tiles before it combined into its positions before its first start.
extern "C" __global__ void __launch_bounds__(TESSERA_WINDOW_THREADS)
tessera_window_scan_carry(long long* __restrict__ values, const unsigned char* __restrict__ starts, long long n, int op,
                          const long long* __restrict__ tile_values, int* __restrict__ overflow) {
    __shared__ int first;
    const long long tile = (long long)blockIdx.x + 1;
    const long long from = tile * TESSERA_WINDOW_TILE;
    if (threadIdx.x == 0) first = TESSERA_WINDOW_TILE;
    __syncthreads();
    if (starts != nullptr) {
        for (int j = (int)threadIdx.x; j < TESSERA_WINDOW_TILE; j += TESSERA_WINDOW_THREADS) {
            if (from + j < n && starts[from + j] != 0) atomicMin(&first, j);
        }
    }
    __syncthreads();
    const long long carry = tile_values[tile - 1];
    for (int j = (int)threadIdx.x; j < first; j += TESSERA_WINDOW_THREADS) {
        if (from + j < n) values[from + j] = tessera_window_op(op, carry, values[from + j], overflow);
    }
}

// One function's value per row: its partition's first position (part_start) and end (part_end at that position),
// its peer group's likewise, the frame's last position by frame, and from it the function's value; scanned and
// present are the scans of the argument (or of the peer starts for DENSE_RANK) and of its non-NULL flags. A SUM
// whose magnitude reaches limit (10^precision of a DECIMAL; -1: none) sets *error, as the host's check would fail.
// AVG: the exact sum to the nearest double, divided by the count, then by scale (10^scale of a DECIMAL, else 1).
extern "C" __global__ void tessera_window_result(int fn, int frame, long long n,
                                                 const long long* __restrict__ part_start,
                                                 const long long* __restrict__ part_end,
                                                 const long long* __restrict__ peer_start,
                                                 const long long* __restrict__ peer_end,
                                                 const long long* __restrict__ scanned,
                                                 const long long* __restrict__ present, long long limit, double scale,
                                                 unsigned char* __restrict__ out, int bytes,
                                                 unsigned char* __restrict__ out_nulls, int* __restrict__ error) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const long long ps = part_start[i];
        const long long qs = peer_start[i];
        const long long last = frame == TESSERA_WINDOW_FRAME_PARTITION ? part_end[ps] - 1
                : frame == TESSERA_WINDOW_FRAME_PEERS ? peer_end[qs] - 1 : i;
        long long v = 0;
        int isNull = 0;
        if (fn == TESSERA_WINDOW_ROW_NUMBER) {
            v = i - ps + 1;
        } else if (fn == TESSERA_WINDOW_RANK) {
            v = qs - ps + 1;
        } else if (fn == TESSERA_WINDOW_SCANNED) {
            v = scanned[i];
        } else if (fn == TESSERA_WINDOW_COUNT_STAR) {
            v = last - ps + 1;
        } else if (fn == TESSERA_WINDOW_COUNT) {
            v = present[last];
        } else if (present[last] == 0) {
            isNull = fn != TESSERA_WINDOW_SUM_OR_ZERO;
        } else if (fn == TESSERA_WINDOW_AVG) {
            const double avg = __ddiv_rn(__ll2double_rn(scanned[last]), __ll2double_rn(present[last]));
            v = __double_as_longlong(__ddiv_rn(avg, scale));
        } else {
            v = scanned[last];
            if (fn != TESSERA_WINDOW_EXTREME && limit >= 0 && (v >= limit || v <= -limit)) *error = 1;
        }
        if (bytes == 8) {
            reinterpret_cast<long long*>(out)[i] = v;
        } else {
            reinterpret_cast<int*>(out)[i] = (int)v;
        }
        if (out_nulls != nullptr) out_nulls[i] = isNull ? 1 : 0;
    }
}

#endif
