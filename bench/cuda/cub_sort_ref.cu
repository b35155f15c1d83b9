// cub_sort_ref.cu: the reference that `tessera bench gpu-sort` measures its radix sort against. CUB's
// cub::DeviceRadixSort::SortPairs sorts the same keys (64-bit, made by the same generator as the bench's: the
// SplitMix64 finalizer of seed * 0x9E3779B97F4A7C15 + i, cut to the low `bits` bits) with their row numbers
// (32-bit values), warm, `runs` times; the median is printed as one line the bench reads:
//
//   cub_sort rows=N bits=B runs=R median_ms=X keys_per_s=Y checksum=C sorted=1
//
// checksum is the sum over i of (i + 1) * row[i] of the sorted rows, modulo 2^64: a stable sort of the same keys
// gives the bench's sort the same number. Build: nvcc -O3 -std=c++17 -arch=sm_90 -o cub_sort_ref cub_sort_ref.cu
// (bench/cuda/build-cub-ref.sh writes .device/cub_sort_ref, which scripts/gpu-run.sh carries to the GPU machine).

#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                                    \
    do {                                                                                               \
        cudaError_t e_ = (call);                                                                       \
        if (e_ != cudaSuccess) {                                                                       \
            std::fprintf(stderr, "cub_sort_ref: %s: %s\n", #call, cudaGetErrorString(e_));             \
            std::exit(1);                                                                              \
        }                                                                                              \
    } while (0)

__host__ __device__ unsigned long long Mix(unsigned long long z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

__global__ void MakeKeys(unsigned long long* keys, unsigned int* rows, long long n, unsigned long long seed, int bits) {
    const unsigned long long mask = bits >= 64 ? ~0ULL : ((1ULL << bits) - 1ULL);
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        keys[i] = Mix(seed * 0x9E3779B97F4A7C15ULL + (unsigned long long)i) & mask;
        rows[i] = (unsigned int)i;
    }
}

static long long Arg(int argc, char** argv, const char* name, long long fallback) {
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0) return std::atoll(argv[i + 1]);
    }
    return fallback;
}

int main(int argc, char** argv) {
    const long long n = Arg(argc, argv, "--rows", 100000000LL);
    const int bits = (int)Arg(argc, argv, "--bits", 64);
    const int runs = (int)Arg(argc, argv, "--runs", 5);
    const unsigned long long seed = (unsigned long long)Arg(argc, argv, "--seed", 42);
    if (n < 1 || n > 2147483647LL || bits < 1 || bits > 64 || runs < 1) {
        std::fprintf(stderr, "cub_sort_ref: --rows 1..2^31-1, --bits 1..64, --runs >= 1\n");
        return 2;
    }
    unsigned long long *keys_in, *keys_out;
    unsigned int *rows_in, *rows_out;
    CHECK(cudaMalloc(&keys_in, n * sizeof(unsigned long long)));
    CHECK(cudaMalloc(&keys_out, n * sizeof(unsigned long long)));
    CHECK(cudaMalloc(&rows_in, n * sizeof(unsigned int)));
    CHECK(cudaMalloc(&rows_out, n * sizeof(unsigned int)));
    MakeKeys<<<4096, 256>>>(keys_in, rows_in, n, seed, bits);
    CHECK(cudaGetLastError());
    size_t temp_bytes = 0;
    CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys_in, keys_out, rows_in, rows_out, (int)n, 0, bits));
    void* temp;
    CHECK(cudaMalloc(&temp, temp_bytes));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys_in, keys_out, rows_in, rows_out, (int)n, 0, bits));
    std::vector<float> ms;
    for (int r = 0; r < runs; ++r) {
        CHECK(cudaEventRecord(start));
        CHECK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys_in, keys_out, rows_in, rows_out, (int)n, 0, bits));
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, start, stop));
        ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    const float median = ms[ms.size() / 2];
    std::vector<unsigned long long> k(n);
    std::vector<unsigned int> v(n);
    CHECK(cudaMemcpy(k.data(), keys_out, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(v.data(), rows_out, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    int sorted = 1;
    unsigned long long checksum = 0;
    for (long long i = 0; i < n; ++i) {
        checksum += (unsigned long long)(i + 1) * v[i];
        if (i > 0 && (k[i - 1] > k[i] || (k[i - 1] == k[i] && v[i - 1] > v[i]))) sorted = 0;
    }
    std::printf("cub_sort rows=%lld bits=%d runs=%d median_ms=%.4f keys_per_s=%.6e checksum=%llu sorted=%d\n", n, bits,
                runs, median, n / (median / 1e3), checksum, sorted);
    cudaFree(temp);
    cudaFree(keys_in);
    cudaFree(keys_out);
    cudaFree(rows_in);
    cudaFree(rows_out);
    return sorted ? 0 : 1;
}
