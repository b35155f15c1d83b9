// Hand-written kernels over tessera_crystal.cuh (and the join tables of tessera_query.cuh): the
// reference shapes for the CUDA code generator,
// the kernels of the GPU smoke check and of the bandwidth probe, and (since every template below is
// instantiated) the compile test of the header in CI.
//
// Every kernel is extern "C" (unmangled names for cuModuleGetFunction), walks the tiles of its
// input with a grid-stride loop (any grid size is correct; one block per tile is the Crystal
// default) and must be launched with blockDim.x == the BLOCK_THREADS it was compiled for.

#include "tessera_crystal.cuh"
#include "tessera_query.cuh"

using namespace tessera;

#ifndef SAMPLE_BLOCK_THREADS
#define SAMPLE_BLOCK_THREADS 128
#endif
#ifndef SAMPLE_ITEMS_PER_THREAD
#define SAMPLE_ITEMS_PER_THREAD 4
#endif
#define BT SAMPLE_BLOCK_THREADS
#define IPT SAMPLE_ITEMS_PER_THREAD
#define TILE (BT * IPT)

// Rows in the tile that starts at row `first` of a column of `rows` rows.
__device__ __forceinline__ int tile_rows(long long first, long long rows) {
    const long long left = rows - first;
    return left < TILE ? (int)left : TILE;
}

// SSB Q1.1 over the lineorder columns (the date join folded into a range of lo_orderdate, as in
// Crystal's version of the query):
//   SELECT SUM(lo_extendedprice * lo_discount) FROM lineorder
//   WHERE lo_orderdate BETWEEN date_lo AND date_hi
//     AND lo_discount BETWEEN disc_lo AND disc_hi AND lo_quantity < qty_below
// *revenue must be zero before the launch.
extern "C" __global__ void __launch_bounds__(BT)
ssb_q11(const int* __restrict__ lo_orderdate, const int* __restrict__ lo_discount,
        const int* __restrict__ lo_quantity, const int* __restrict__ lo_extendedprice, long long rows,
        int date_lo, int date_hi, int disc_lo, int disc_hi, int qty_below,
        unsigned long long* __restrict__ revenue) {
    const long long tiles = (rows + TILE - 1) / TILE;
    unsigned long long sum = 0;
    for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const long long first = tile * TILE;
        const int tile_size = tile_rows(first, rows);
        int flags[IPT];
        int items[IPT];
        int discount[IPT];

        BlockLoad<BT, IPT>(lo_orderdate + first, items, tile_size);
        BlockPredBetween<BT, IPT>(items, date_lo, date_hi, flags, tile_size);

        BlockLoadSel<BT, IPT>(lo_quantity + first, items, flags, tile_size);
        BlockPredAndLT<BT, IPT>(items, qty_below, flags, tile_size);

        BlockLoadSel<BT, IPT>(lo_discount + first, discount, flags, tile_size);
        BlockPredAndBetween<BT, IPT>(discount, disc_lo, disc_hi, flags, tile_size);

        BlockLoadSel<BT, IPT>(lo_extendedprice + first, items, flags, tile_size);
#pragma unroll
        for (int i = 0; i < IPT; ++i) {
            if (flags[i]) sum += (unsigned long long)((long long)items[i] * (long long)discount[i]);
        }
    }
    BlockAggregate<BT>(sum, revenue);
}

// Read bandwidth: sums every 32-bit word of `vectors` int4 vectors (as unsigned values) into
// *sink, so that the result can be checked (a buffer filled with cuMemsetD32(v) sums to
// 4 * vectors * v). Launch with 256 threads per block.
extern "C" __global__ void __launch_bounds__(256)
tessera_read_bandwidth(const int4* __restrict__ data, long long vectors, unsigned long long* __restrict__ sink) {
    unsigned long long acc = 0;
    const long long stride = (long long)gridDim.x * 256;
    long long i = (long long)blockIdx.x * 256 + threadIdx.x;
    // Four independent loads in flight per thread before any of them is used.
    for (; i + 3 * stride < vectors; i += 4 * stride) {
        const int4 a = data[i];
        const int4 b = data[i + stride];
        const int4 c = data[i + 2 * stride];
        const int4 d = data[i + 3 * stride];
        acc += (unsigned long long)((unsigned)a.x) + (unsigned)a.y + (unsigned)a.z + (unsigned)a.w;
        acc += (unsigned long long)((unsigned)b.x) + (unsigned)b.y + (unsigned)b.z + (unsigned)b.w;
        acc += (unsigned long long)((unsigned)c.x) + (unsigned)c.y + (unsigned)c.z + (unsigned)c.w;
        acc += (unsigned long long)((unsigned)d.x) + (unsigned)d.y + (unsigned)d.z + (unsigned)d.w;
    }
    for (; i < vectors; i += stride) {
        const int4 a = data[i];
        acc += (unsigned long long)((unsigned)a.x) + (unsigned)a.y + (unsigned)a.z + (unsigned)a.w;
    }
    BlockAggregate<256>(acc, sink);
}

// Crystal's Q0: SELECT y FROM R WHERE y > cutoff, written compacted to out[0 .. *count).
// BlockScan + BlockReserve + BlockShuffle + BlockStore: one atomic per tile, coalesced writes.
// *count must be zero before the launch; the order of the output rows is unspecified.
extern "C" __global__ void __launch_bounds__(BT)
tessera_select_gt(const int* __restrict__ y, long long rows, int cutoff, int* __restrict__ out,
                  unsigned long long* __restrict__ count) {
    __shared__ int buffer[TILE];
    const long long tiles = (rows + TILE - 1) / TILE;
    for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const long long first = tile * TILE;
        const int tile_size = tile_rows(first, rows);
        int items[IPT];
        int flags[IPT];
        int offsets[IPT];
        int selected;
        BlockLoad<BT, IPT>(y + first, items, tile_size);
        BlockPredGT<BT, IPT>(items, cutoff, flags, tile_size);
        BlockScanFlags<BT, IPT>(flags, offsets, selected);
        const unsigned long long base = BlockReserve<BT>(count, selected);
        BlockShuffle<BT, IPT>(items, flags, offsets, buffer);
        BlockStore<BT, IPT>(items, out + base, selected);
    }
}

// A star-join probe: SUM(value) and COUNT(*) over fact rows whose key is found in a perfect table
// (perfect != 0) or a linear-probing table (perfect == 0, murmur hash), with the fact filter
// key >= key_floor. *sum and *matches must be zero before the launch.
extern "C" __global__ void __launch_bounds__(BT)
tessera_probe_sum(const int* __restrict__ fact_key, long long rows, int key_floor, int perfect,
                  const HashSlot<int, int>* __restrict__ table, int key_min, long long slots, int log2_slots,
                  long long* __restrict__ sum, unsigned long long* __restrict__ matches) {
    const long long tiles = (rows + TILE - 1) / TILE;
    long long thread_sum = 0;
    unsigned long long thread_matches = 0;
    for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const long long first = tile * TILE;
        const int tile_size = tile_rows(first, rows);
        int keys[IPT];
        int values[IPT];
        int flags[IPT];
        BlockLoad<BT, IPT>(fact_key + first, keys, tile_size);
        BlockInitFlags<BT, IPT>(flags, tile_size);
        BlockPredAndGE<BT, IPT>(keys, key_floor, flags, tile_size);
        if (perfect) {
            BlockLookupPerfect<BT, IPT>(keys, values, flags, table, key_min, slots);
        } else {
            BlockLookupLinear<BT, IPT, HashMurmur>(keys, values, flags, table, log2_slots, (int)TESSERA_EMPTY_KEY);
        }
        thread_sum += ThreadSum<BT, IPT, long long>(values, flags);
#pragma unroll
        for (int i = 0; i < IPT; ++i) thread_matches += flags[i] ? 1u : 0u;
    }
    BlockAggregate<BT>(thread_sum, sum);
    BlockAggregate<BT>(thread_matches, matches);
}

// The remaining primitives, instantiated so that the compile test covers them: 8-byte loads and
// vector groups, OR predicates, semi-join and multiply-shift probes, tile stores and double sums.
extern "C" __global__ void __launch_bounds__(BT)
tessera_primitives(const long long* __restrict__ a, const double* __restrict__ b, long long rows,
                   const int* __restrict__ key_set, int key_min, long long slots,
                   const HashSlot<long long, double>* __restrict__ table, int log2_slots,
                   long long* __restrict__ copy, double* __restrict__ total) {
    const long long tiles = (rows + TILE - 1) / TILE;
    double thread_total = 0.0;
    for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const long long first = tile * TILE;
        const int tile_size = tile_rows(first, rows);
        long long la[IPT];
        double db[IPT];
        int keys[IPT];
        double payload[IPT];
        int flags[IPT];
        BlockLoad<BT, IPT>(a + first, la, tile_size);
        BlockStoreTile<BT, IPT>(la, copy + first, tile_size);
        BlockPredLE<BT, IPT>(la, 10ll, flags, tile_size);
        BlockPredOrEQ<BT, IPT>(la, 42ll, flags, tile_size);
        BlockPredOrBetween<BT, IPT>(la, 100ll, 200ll, flags, tile_size);
        BlockPredAndNEQ<BT, IPT>(la, 7ll, flags, tile_size);
        BlockLoadSel<BT, IPT>(b + first, db, flags, tile_size);
        BlockPredAndGT<BT, IPT>(db, 0.5, flags, tile_size);
#pragma unroll
        for (int i = 0; i < IPT; ++i) keys[i] = (int)la[i];
        BlockLookupPerfectExists<BT, IPT>(keys, flags, key_set, key_min, slots);
        BlockLookupLinear<BT, IPT, HashMultiplyShift>(la, payload, flags, table, log2_slots,
                                                     (long long)TESSERA_EMPTY_KEY);
        thread_total += ThreadSum<BT, IPT, double>(payload, flags);
        thread_total += ThreadSum<BT, IPT, double>(db, flags);
    }
    BlockAggregate<BT>(thread_total, total);
}

// Cuckoo join tables (ht=cuckoo2..4) as a BUILD kernel's first pass fills them: every thread
// inserts keys[i] (keys may repeat, as in the key-only table of a semi join) into a table of
// 2^log2_slots ints that holds TESSERA_EMPTY_KEY where free, with `ways` (2..4) hash functions of the
// multiply-shift (murmur == 0) or murmur family. *error must be zero before the launch.
template <int K>
__device__ __forceinline__ void CuckooInsertOf(int* table, int key, int log2_slots, int murmur, int& err) {
    if (murmur) {
        q::CuckooInsert<K, HashMurmur>(table, key, (int)TESSERA_EMPTY_KEY, log2_slots, err);
    } else {
        q::CuckooInsert<K, HashMultiplyShift>(table, key, (int)TESSERA_EMPTY_KEY, log2_slots, err);
    }
}
extern "C" __global__ void __launch_bounds__(BT)
tessera_cuckoo_insert(int* __restrict__ table, const int* __restrict__ keys, long long n, int log2_slots, int ways,
                      int murmur, int* __restrict__ error) {
    int err = 0;
    for (long long i = (long long)blockIdx.x * BT + threadIdx.x; i < n; i += (long long)gridDim.x * BT) {
        const int key = keys[i];
        if (ways == 2) {
            CuckooInsertOf<2>(table, key, log2_slots, murmur, err);
        } else if (ways == 3) {
            CuckooInsertOf<3>(table, key, log2_slots, murmur, err);
        } else {
            CuckooInsertOf<4>(table, key, log2_slots, murmur, err);
        }
    }
    if (err) atomicOr(error, err);
}

// The slot of every key in such a table, or -1, as a probe (or the payload pass of a build) finds it.
template <int K>
__device__ __forceinline__ long long CuckooFindOf(const int* table, int key, int log2_slots, int murmur) {
    return murmur ? q::CuckooFind<K, HashMurmur, int>(table, key, (int)TESSERA_EMPTY_KEY, log2_slots)
                  : q::CuckooFind<K, HashMultiplyShift, int>(table, key, (int)TESSERA_EMPTY_KEY, log2_slots);
}
extern "C" __global__ void __launch_bounds__(BT)
tessera_cuckoo_find(const int* __restrict__ table, const int* __restrict__ keys, long long n, int log2_slots, int ways,
                    int murmur, long long* __restrict__ slots) {
    for (long long i = (long long)blockIdx.x * BT + threadIdx.x; i < n; i += (long long)gridDim.x * BT) {
        const int key = keys[i];
        slots[i] = ways == 2 ? CuckooFindOf<2>(table, key, log2_slots, murmur)
                 : ways == 3 ? CuckooFindOf<3>(table, key, log2_slots, murmur)
                             : CuckooFindOf<4>(table, key, log2_slots, murmur);
    }
}
