/* tests/corpus/cuda/bits.cu — bit manipulation: logic ops, shifts,
 * brev/clz/popc/ffs, bfe/bfi (which compilers derive from shift-and-mask
 * code), prmt (__byte_perm), funnel shifts (shf), bfind, and through
 * inline PTX the forms no CUDA C idiom reaches: bmsk, lop3, fns, szext,
 * dp4a/dp2a, vabsdiff4 and friends.  See ../MANIFEST.md. */

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

/* out[k*n+i], k = 0..15, x = a[i], y = b[i], s = y & 31:
 * x&y, x|y, x^y, ~x & y, x<<s, x>>s, __brev(x), __clz(x), __popc(x),
 * __ffs(x), __byte_perm(x, y, 0x5140), __funnelshift_l(x, y, s),
 * __funnelshift_r(x, y, s), (x >> 7) & 0x3ff (bit-field extract),
 * (x & ~0xff00) | ((y & 0xff) << 8) (bit-field insert),
 * 31 - __clz(x) (index of the highest set bit, -1 when x == 0). */
extern "C" __global__ void bits32(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], s = y & 31;
    out[0 * n + i] = x & y;
    out[1 * n + i] = x | y;
    out[2 * n + i] = x ^ y;
    out[3 * n + i] = ~x & y;
    out[4 * n + i] = x << s;
    out[5 * n + i] = x >> s;
    out[6 * n + i] = __brev(x);
    out[7 * n + i] = (unsigned)__clz((int)x);
    out[8 * n + i] = (unsigned)__popc(x);
    out[9 * n + i] = (unsigned)__ffs((int)x);
    out[10 * n + i] = __byte_perm(x, y, 0x5140);
    out[11 * n + i] = __funnelshift_l(x, y, s);
    out[12 * n + i] = __funnelshift_r(x, y, s);
    out[13 * n + i] = (x >> 7) & 0x3ff;
    out[14 * n + i] = (x & ~0xff00u) | ((y & 0xffu) << 8);
    out[15 * n + i] = (unsigned)(31 - __clz((int)x));
}

/* Signed field extraction and 64-bit bit ops.  out[k*n+i], k = 0..9,
 * x = a[i] (64-bit), y = b[i]: ((int)(unsigned)x << 12) >> 20 (signed
 * 12-bit field at bit 8), __brevll(x), __clzll(x), __popcll(x),
 * __ffsll(x), x << (y & 63), x >> (y & 63) (logical), rotate-left(x,
 * y & 63), (x >> 20) & 0xfffff, (x & ~(0xffffull << 24)) | ((y & 0xffff)
 * << 24). */
extern "C" __global__ void bits64(const unsigned long long *a, const unsigned long long *b,
                                  long long *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned long long x = a[i], y = b[i];
    unsigned r = (unsigned)(y & 63);
    out[0 * n + i] = ((int)((unsigned)x << 12)) >> 20;
    out[1 * n + i] = (long long)__brevll(x);
    out[2 * n + i] = __clzll((long long)x);
    out[3 * n + i] = __popcll(x);
    out[4 * n + i] = __ffsll((long long)x);
    out[5 * n + i] = (long long)(x << r);
    out[6 * n + i] = (long long)(x >> r);
    out[7 * n + i] = (long long)((x << r) | (x >> ((64 - r) & 63)));
    out[8 * n + i] = (long long)((x >> 20) & 0xfffffull);
    out[9 * n + i] = (long long)((x & ~(0xffffull << 24)) | ((y & 0xffffull) << 24));
}

/* The rest of the bit family through inline PTX.  x = a[i], y = b[i],
 * z = c[i].  out[k*n+i]:
 *  0 bfe.u32 x, 4, 9            1 bfe.s32 x, 4, 9
 *  2 bfi.b32 y into x at 8, 12  3 bfind.u32 x        4 bfind.s32 x
 *  5 bfind.shiftamt.u32 x       6 bmsk.clamp.b32 y&31, z&63
 *  7 bmsk.wrap.b32 y&31, z&63   8 lop3.b32 x, y, z, 0xe8 (majority)
 *  9 fns.b32 x, y&31, 1 (position of the (y&31)-th set bit of x, or
 *    0xffffffff)                10 szext.clamp.s32 x, y&63
 * 11 szext.wrap.u32 x, y&63     12 prmt.b32.f4e x, y, z
 * 13 prmt.b32.rc8 x, y, z       14 shf.l.clamp.b32 x, y, z
 * 15 shf.r.clamp.b32 x, y, z. */
extern "C" __global__ void bits_asm(const unsigned *a, const unsigned *b, const unsigned *c,
                                    unsigned *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], z = c[i];
    unsigned y5 = y & 31, z6 = z & 63, y6 = y & 63;
    unsigned r[16];
    asm("bfe.u32 %0, %1, 4, 9;" : "=r"(r[0]) : "r"(x));
    asm("bfe.s32 %0, %1, 4, 9;" : "=r"(r[1]) : "r"(x));
    asm("bfi.b32 %0, %1, %2, 8, 12;" : "=r"(r[2]) : "r"(y), "r"(x));
    asm("bfind.u32 %0, %1;" : "=r"(r[3]) : "r"(x));
    asm("bfind.s32 %0, %1;" : "=r"(r[4]) : "r"(x));
    asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r[5]) : "r"(x));
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r[6]) : "r"(y5), "r"(z6));
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r[7]) : "r"(y5), "r"(z6));
    asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(r[8]) : "r"(x), "r"(y), "r"(z));
    asm("fns.b32 %0, %1, %2, 1;" : "=r"(r[9]) : "r"(x), "r"(y5));
    asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r[10]) : "r"(x), "r"(y6));
    asm("szext.wrap.u32 %0, %1, %2;" : "=r"(r[11]) : "r"(x), "r"(y6));
    asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r[12]) : "r"(x), "r"(y), "r"(z));
    asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r[13]) : "r"(x), "r"(y), "r"(z));
    asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r[14]) : "r"(x), "r"(y), "r"(z));
    asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r[15]) : "r"(x), "r"(y), "r"(z));
#pragma unroll
    for (int k = 0; k < 16; ++k)
        out[k * n + i] = r[k];
}

/* Packed byte/halfword arithmetic.  x = a[i], y = b[i], z = c[i] (as
 * 4 bytes / 2 halfwords).  out[k*n+i]:
 *  0 __dp4a(x, y, z) signed: z + sum of the 4 products of signed bytes
 *  1 dp4a.u32.u32 (unsigned bytes)
 *  2 dp2a.lo.s32.s32: z + x.h0*y.b0 + x.h1*y.b1 (signed)
 *  3 vabsdiff4.u32.u32.u32.add: z + sum |x.bk - y.bk| (unsigned bytes)
 *  4 vadd4.u32.u32.u32.sat: per-byte saturating unsigned add of x and y
 *  5 vmax2.s32.s32.s32: per-halfword signed max
 *  6 vset4.u32.u32.ne: per-byte (x.bk != y.bk) ? 1 : 0
 *  7 sad.u32 x, y, z = |x - y| + z. */
extern "C" __global__ void simd_video(const unsigned *a, const unsigned *b, const unsigned *c,
                                      unsigned *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], z = c[i];
    unsigned r1, r2, r3, r4, r5, r6, r7;
    unsigned r0 = (unsigned)__dp4a((int)x, (int)y, (int)z);
    asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r1) : "r"(x), "r"(y), "r"(z));
    asm("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(r2) : "r"(x), "r"(y), "r"(z));
    asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r3) : "r"(x), "r"(y), "r"(z));
    asm("vadd4.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(r4) : "r"(x), "r"(y), "r"(0u));
    asm("vmax2.s32.s32.s32 %0, %1, %2, %3;" : "=r"(r5) : "r"(x), "r"(y), "r"(0u));
    asm("vset4.u32.u32.ne %0, %1, %2, %3;" : "=r"(r6) : "r"(x), "r"(y), "r"(0u));
    asm("sad.u32 %0, %1, %2, %3;" : "=r"(r7) : "r"(x), "r"(y), "r"(z));
    out[0 * n + i] = r0;
    out[1 * n + i] = r1;
    out[2 * n + i] = r2;
    out[3 * n + i] = r3;
    out[4 * n + i] = r4;
    out[5 * n + i] = r5;
    out[6 * n + i] = r6;
    out[7 * n + i] = r7;
}

#ifdef __NVCC__
/* nvcc only (clang has no SIMD-within-a-word intrinsics): the CUDA
 * __v*4/__v*2 functions, which nvcc expands into ordinary integer code or
 * video instructions.  out[k*n+i], k = 0..5: __vabsdiffu4(x,y) (per-byte
 * |x-y|), __vadd4(x,y) (per-byte wrapping add), __vsub2(x,y) (per-halfword
 * wrapping sub), __vcmpeq4(x,y) (per-byte 0xff if equal else 0),
 * __vmaxs2(x,y) (per-halfword signed max), __sad(x,y,0). */
extern "C" __global__ void simd_intrinsics(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i];
    out[0 * n + i] = __vabsdiffu4(x, y);
    out[1 * n + i] = __vadd4(x, y);
    out[2 * n + i] = __vsub2(x, y);
    out[3 * n + i] = __vcmpeq4(x, y);
    out[4 * n + i] = __vmaxs2(x, y);
    out[5 * n + i] = __sad((int)x, (int)y, 0u);
}
#endif

/* Hash mixing, the kind of code that makes compilers emit shf/prmt/lop3
 * on their own: out[i] = fmix32(a[i] ^ (i * 0x9e3779b9)) where fmix32 is
 * h ^= h >> 16; h *= 0x85ebca6b; h ^= h >> 13; h *= 0xc2b2ae35;
 * h ^= h >> 16, then rotated left by 13 and byte-swapped. */
extern "C" __global__ void hash_mix(const unsigned *a, unsigned *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned h = a[i] ^ ((unsigned)i * 0x9e3779b9u);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    h = (h << 13) | (h >> 19);
    h = (h >> 24) | ((h >> 8) & 0xff00u) | ((h << 8) & 0xff0000u) | (h << 24);
    out[i] = h;
}
