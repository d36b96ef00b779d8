/* Wide loads and stores: 128-bit SSE2 everywhere, 256-bit AVX when the
 * (virtual) CPU reports AVX. Both aligned and line-straddling accesses. */
#include <stdio.h>
#include <stdint.h>
#include <immintrin.h>

#define N 16384   /* floats per buffer */

static _Alignas(64) float a[N];
static _Alignas(64) float b[N + 16];
static _Alignas(64) float out[N + 16];

static uint64_t sse2_pass(void)
{
    /* Aligned 16-byte integer loads/stores. */
    const __m128i *pa = (const __m128i *)a;
    __m128i acc = _mm_setzero_si128();
    for (int i = 0; i < N / 4; i++)
        acc = _mm_xor_si128(acc, _mm_load_si128(pa + i));
    /* Unaligned 16-byte copies at an odd byte offset: many straddle. */
    const char *s = (const char *)b;
    char *d = (char *)out;
    for (int i = 0; i + 32 < N * 4; i += 48) {
        __m128i v = _mm_loadu_si128((const __m128i *)(s + i + 3));
        _mm_storeu_si128((__m128i *)(d + i + 7), v);
    }
    /* Float arithmetic on aligned data. */
    __m128 f = _mm_setzero_ps();
    for (int i = 0; i < N; i += 4)
        f = _mm_add_ps(f, _mm_mul_ps(_mm_load_ps(a + i), _mm_load_ps(b + i)));
    float lanes[4];
    _mm_storeu_ps(lanes, f);
    uint64_t r = (uint64_t)_mm_cvtsi128_si64(acc);
    return r ^ (uint64_t)(lanes[0] + lanes[1] + lanes[2] + lanes[3]);
}

__attribute__((target("avx"))) static uint64_t avx_pass(void)
{
    __m256 acc = _mm256_setzero_ps();
    for (int i = 0; i < N; i += 8) {
        __m256 x = _mm256_load_ps(a + i);
        __m256 y = _mm256_loadu_ps(b + i + 1);     /* misaligned by 4 bytes */
        acc = _mm256_add_ps(acc, _mm256_mul_ps(x, y));
        _mm256_store_ps(out + i, _mm256_add_ps(x, y));
    }
    /* 256-bit integer loads/stores that straddle lines (odd offsets). */
    const char *s = (const char *)a;
    char *d = (char *)out;
    for (int i = 0; i + 96 < N * 4; i += 80) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(s + i + 45));
        _mm256_storeu_si256((__m256i *)(d + i + 50), v);
    }
    float lanes[8];
    _mm256_storeu_ps(lanes, acc);
    _mm256_zeroupper();
    float t = 0;
    for (int i = 0; i < 8; i++)
        t += lanes[i];
    return (uint64_t)t;
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = (float)(i & 15);
        b[i] = (float)((i * 3) & 7);
    }
    b[N - 1] = 1.0f;
    uint64_t r1 = sse2_pass();
    int have_avx = __builtin_cpu_supports("avx");
    uint64_t r2 = have_avx ? avx_pass() : 0;
    uint64_t chk = 0;
    for (int i = 0; i < N; i += 64)
        chk += (uint64_t)out[i];
    printf("simd: sse2=%llu avx=%s:%llu chk=%llu\n", (unsigned long long)r1,
           have_avx ? "yes" : "no", (unsigned long long)r2,
           (unsigned long long)chk);
    return 0;
}
