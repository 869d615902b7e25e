// gcalc: the positions of a boolean mask's true elements (NumPy's
// nonzero of a flattened mask), in C order, in three launches: each block
// counts its chunk, one block turns the counts into starts (an exclusive
// scan; the total, the result's length, goes last), then each block writes
// its chunk's positions from its start in order. Deterministic. The mask is
// contiguous, one byte per element.
typedef long long i64;
#define GC_MASK_THREADS 256
#define GC_MASK_CHUNK 4096

__device__ __forceinline__ int gc_warp_sum(int v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

// part[b] = the number of true elements in chunk b.
extern "C" __global__ void mask_count(const unsigned char* m, i64 n, i64* part) {
  __shared__ int sw[GC_MASK_THREADS / 32];
  i64 start = (i64)blockIdx.x * GC_MASK_CHUNK;
  int c = 0;
  for (int k = threadIdx.x; k < GC_MASK_CHUNK; k += blockDim.x) {
    i64 j = start + k;
    if (j < n && m[j]) c++;
  }
  c = gc_warp_sum(c);
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  if (lane == 0) sw[w] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int k = 0; k < (int)(blockDim.x >> 5); k++) t += sw[k];
    part[blockIdx.x] = t;
  }
}

// part[0..nb) becomes the exclusive prefix sums and part[nb] the total (one block).
extern "C" __global__ void mask_scan(i64* part, i64 nb) {
  __shared__ i64 s[1024];
  __shared__ i64 carry;
  if (threadIdx.x == 0) carry = 0;
  __syncthreads();
  for (i64 base = 0; base < nb; base += blockDim.x) {
    i64 j = base + threadIdx.x;
    i64 v = j < nb ? part[j] : 0;
    s[threadIdx.x] = v;
    __syncthreads();
    // Hillis-Steele inclusive scan over the block.
    for (int o = 1; o < (int)blockDim.x; o <<= 1) {
      i64 t = threadIdx.x >= (unsigned)o ? s[threadIdx.x - o] : 0;
      __syncthreads();
      s[threadIdx.x] += t;
      __syncthreads();
    }
    if (j < nb) part[j] = carry + s[threadIdx.x] - v;
    __syncthreads();
    if (threadIdx.x == blockDim.x - 1) carry += s[threadIdx.x];
    __syncthreads();
  }
  if (threadIdx.x == 0) part[nb] = carry;
}

// out[start of chunk b + rank] = the flat position of each true element.
extern "C" __global__ void mask_positions(const unsigned char* m, i64 n, const i64* part, i64* out) {
  __shared__ int sw[GC_MASK_THREADS / 32];
  __shared__ i64 base;
  if (threadIdx.x == 0) base = part[blockIdx.x];
  __syncthreads();
  i64 start = (i64)blockIdx.x * GC_MASK_CHUNK;
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
  for (int k = 0; k < GC_MASK_CHUNK; k += blockDim.x) {
    i64 j = start + k + threadIdx.x;
    bool t = j < n && m[j];
    unsigned int ball = __ballot_sync(0xffffffffu, t);
    int before = __popc(ball & ((1u << lane) - 1u));
    if (lane == 0) sw[w] = __popc(ball);
    __syncthreads();
    int prev = 0, total = 0;
    for (int q = 0; q < nw; q++) {
      if (q < w) prev += sw[q];
      total += sw[q];
    }
    if (t) out[base + prev + before] = j;
    __syncthreads();
    if (threadIdx.x == 0) base += total;
    __syncthreads();
  }
}
