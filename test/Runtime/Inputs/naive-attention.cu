// A plain attention for sage-run's GPU smoke tests: no quantization, one
// warp per query row, features contiguous, every other stride a parameter
// (so one kernel serves any layout). K is smoothed with the token mean
// computed by sage_sum_tokens into a zero-initialized workspace.
// Build: nvcc -arch=sm_80 -ptx naive-attention.cu -o naive-attention.ptx
#include <cuda_fp16.h>
#include <math.h>

constexpr int kDim = 128;

// grid (cdiv(Nk, 64), Hkv, B), block 128: thread d sums feature d over 64
// tokens into kSum[b, hk, d].
extern "C" __global__ void sage_sum_tokens(const __half *k, float *kSum,
                                           int seqK, int headsKV, int sb,
                                           int sh, int sn) {
  int hk = blockIdx.y, b = blockIdx.z, d = threadIdx.x;
  int t0 = blockIdx.x * 64;
  const __half *base = k + (size_t)b * sb + (size_t)hk * sh + d;
  float sum = 0.0f;
  for (int t = t0; t < min(t0 + 64, seqK); ++t)
    sum += __half2float(base[(size_t)t * sn]);
  atomicAdd(&kSum[((size_t)b * headsKV + hk) * kDim + d], sum);
}

// grid (cdiv(Nq, 4), H, B), block 128 (4 warps, one query row each).
extern "C" __global__ void sage_attention(
    const __half *q, const __half *k, const __half *v, const float *kSum,
    __half *o, float *lse, int seqQ, int seqK, int headsKV, int causal,
    int qsb, int qsh, int qsn, int ksb, int ksh, int ksn, int osb, int osh,
    int osn) {
  extern __shared__ float smem[];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int h = blockIdx.y, b = blockIdx.z, heads = gridDim.y;
  int i = blockIdx.x * 4 + warp;
  if (i >= seqQ)
    return;
  int hk = h / (heads / headsKV);
  float *qs = smem + warp * kDim;
  const __half *qRow = q + (size_t)b * qsb + (size_t)h * qsh + (size_t)i * qsn;
  for (int d = lane; d < kDim; d += 32)
    qs[d] = __half2float(qRow[d]);
  __syncwarp();
  const float *mean = kSum + ((size_t)b * headsKV + hk) * kDim;
  const float invK = 1.0f / seqK;
  const float scale = 0.08838834764831845f;
  const __half *kBase = k + (size_t)b * ksb + (size_t)hk * ksh;
  const __half *vBase = v + (size_t)b * ksb + (size_t)hk * ksh;
  float m = -INFINITY, l = 0.0f, acc[4] = {0, 0, 0, 0};
  int last = causal ? min(seqK - 1, i + seqK - seqQ) : seqK - 1;
  for (int j = 0; j <= last; ++j) {
    float part = 0.0f;
    for (int c = 0; c < 4; ++c) {
      int d = lane + 32 * c;
      part += qs[d] * (__half2float(kBase[(size_t)j * ksn + d]) - mean[d] * invK);
    }
    for (int off = 16; off; off >>= 1)
      part += __shfl_xor_sync(0xffffffffu, part, off);
    float s = part * scale;
    float mNew = fmaxf(m, s);
    float alpha = expf(m - mNew);
    float p = expf(s - mNew);
    l = l * alpha + p;
    for (int c = 0; c < 4; ++c)
      acc[c] = acc[c] * alpha +
               p * __half2float(vBase[(size_t)j * ksn + lane + 32 * c]);
    m = mNew;
  }
  float qm = 0.0f;
  for (int c = 0; c < 4; ++c)
    qm += qs[lane + 32 * c] * mean[lane + 32 * c] * invK;
  for (int off = 16; off; off >>= 1)
    qm += __shfl_xor_sync(0xffffffffu, qm, off);
  __half *oRow = o + (size_t)b * osb + (size_t)h * osh + (size_t)i * osn;
  for (int c = 0; c < 4; ++c)
    oRow[lane + 32 * c] = __float2half(l > 0.0f ? acc[c] / l : 0.0f);
  if (lane == 0)
    lse[((size_t)b * heads + h) * seqQ + i] =
        l > 0.0f ? m + logf(l) + scale * qm : -INFINITY;
}
