/* tests/corpus/cuda/arith_int.cu — integer arithmetic of every width:
 * 8/16/32/64-bit add/sub/mul/div/rem, mul.wide/mul.hi, 128-bit products
 * (carry chains emitted by the compiler) and explicit add.cc/addc/madc
 * chains in inline PTX, mul24/sad, min/max/abs/neg and every integer
 * comparison.  Every kernel is total: divisions guard against b == 0 and
 * INT_MIN / -1, so any input is valid.  See ../MANIFEST.md. */

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

/* out[k*n+i], k = 0..11: a+b, a-b, a*b, a/b, a%b, -a, abs(a), min, max,
 * a>>(b&31) (arithmetic), a<<(b&31), a*b+a (mad).  Division by zero
 * gives 0 and INT_MIN/-1 gives INT_MIN (quotient) / 0 (remainder). */
extern "C" __global__ void int32_ops(const int *a, const int *b, int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    bool bad = (y == 0) || (x == (int)0x80000000 && y == -1);
    out[0 * n + i] = x + y;
    out[1 * n + i] = x - y;
    out[2 * n + i] = x * y;
    out[3 * n + i] = bad ? (y == 0 ? 0 : x) : x / y;
    out[4 * n + i] = bad ? 0 : x % y;
    out[5 * n + i] = -x;
    out[6 * n + i] = abs(x);
    out[7 * n + i] = min(x, y);
    out[8 * n + i] = max(x, y);
    out[9 * n + i] = x >> (y & 31);
    out[10 * n + i] = (int)((unsigned)x << (y & 31));
    out[11 * n + i] = x * y + x;
}

/* out[k*n+i], k = 0..9: a/b (0 if b==0), a%b (0 if b==0), a>>(b&31)
 * logical, umulhi(a,b), mulhi((int)a,(int)b), min, max, ~a,
 * (a*b)>>16 via 64-bit product, rotate-left(a, b&31). */
extern "C" __global__ void uint32_ops(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i];
    out[0 * n + i] = y ? x / y : 0u;
    out[1 * n + i] = y ? x % y : 0u;
    out[2 * n + i] = x >> (y & 31);
    out[3 * n + i] = __umulhi(x, y);
    out[4 * n + i] = (unsigned)__mulhi((int)x, (int)y);
    out[5 * n + i] = min(x, y);
    out[6 * n + i] = max(x, y);
    out[7 * n + i] = ~x;
    out[8 * n + i] = (unsigned)(((unsigned long long)x * y) >> 16);
    unsigned r = y & 31;
    out[9 * n + i] = (x << r) | (x >> ((32 - r) & 31));
}

/* out[k*n+i], k = 0..11 on 64-bit ints: a+b, a-b, a*b, a/b, a%b (0 when
 * b==0; INT64_MIN/-1 gives INT64_MIN and 0), a>>(b&63), a<<(b&63),
 * mul64hi(a,b), umul64hi(a,b), min, max, llabs(a). */
extern "C" __global__ void int64_ops(const long long *a, const long long *b, long long *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    long long x = a[i], y = b[i];
    bool bad = (y == 0) || (x == (long long)0x8000000000000000ull && y == -1);
    out[0 * n + i] = x + y;
    out[1 * n + i] = x - y;
    out[2 * n + i] = x * y;
    out[3 * n + i] = bad ? (y == 0 ? 0 : x) : x / y;
    out[4 * n + i] = bad ? 0 : x % y;
    out[5 * n + i] = x >> (y & 63);
    out[6 * n + i] = (long long)((unsigned long long)x << (y & 63));
    out[7 * n + i] = __mul64hi(x, y);
    out[8 * n + i] = (long long)__umul64hi((unsigned long long)x, (unsigned long long)y);
    out[9 * n + i] = min(x, y);
    out[10 * n + i] = max(x, y);
    out[11 * n + i] = llabs(x);
}

/* unsigned 64-bit: out[k*n+i], k = 0..5: a/b, a%b (0 when b==0),
 * a>>(b&63) logical, (a*b) mod 2^64, min(a,b), max(a,b). */
extern "C" __global__ void uint64_ops(const unsigned long long *a, const unsigned long long *b,
                                      unsigned long long *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned long long x = a[i], y = b[i];
    out[0 * n + i] = y ? x / y : 0ull;
    out[1 * n + i] = y ? x % y : 0ull;
    out[2 * n + i] = x >> (y & 63);
    out[3 * n + i] = x * y;
    out[4 * n + i] = min(x, y);
    out[5 * n + i] = max(x, y);
}

/* 8- and 16-bit: s16[i], u8[i] inputs.  out16[k*n+i], k = 0..3:
 * (short)(s16+s16'), (short)(s16*3), (short)(s16>>2), (short)(s16/7)
 * where s16' = s16[(i+1)%n]; out8[k*n+i], k = 0..2: (u8)(u8+200),
 * (u8)(u8*u8), (u8)(u8>>1).  wide[i] = (int)s16[i] * (int)s16[(i+1)%n]
 * (mul.wide.s16). */
extern "C" __global__ void small_int_ops(const short *s16, const unsigned char *u8, short *out16,
                                         unsigned char *out8, int *wide, int n)
{
    int i = GID;
    if (i >= n)
        return;
    short x = s16[i], y = s16[(i + 1) % n];
    unsigned char c = u8[i];
    out16[0 * n + i] = (short)(x + y);
    out16[1 * n + i] = (short)(x * 3);
    out16[2 * n + i] = (short)(x >> 2);
    out16[3 * n + i] = (short)(x / 7);
    out8[0 * n + i] = (unsigned char)(c + 200);
    out8[1 * n + i] = (unsigned char)(c * c);
    out8[2 * n + i] = (unsigned char)(c >> 1);
    wide[i] = (int)x * (int)y;
}

/* out[3*i+0] = (long long)a*b (signed widening), out[3*i+1] =
 * (unsigned long long)(unsigned)a*(unsigned)b, out[3*i+2] =
 * (long long)a*b + c[i] (mad.wide). */
extern "C" __global__ void mul_wide(const int *a, const int *b, const long long *c, long long *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    out[3 * i + 0] = (long long)a[i] * b[i];
    out[3 * i + 1] = (long long)((unsigned long long)(unsigned)a[i] * (unsigned)b[i]);
    out[3 * i + 2] = (long long)a[i] * b[i] + c[i];
}

/* 128-bit arithmetic with unsigned __int128: p = a*b (full 128-bit
 * product), s = p + ((u128)c << 64 | a); out[4*i+0..3] = low(p),
 * high(p), low(s), high(s). */
extern "C" __global__ void u128_ops(const unsigned long long *a, const unsigned long long *b,
                                    const unsigned long long *c, unsigned long long *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned __int128 p = (unsigned __int128)a[i] * b[i];
    unsigned __int128 s = p + (((unsigned __int128)c[i] << 64) | a[i]);
    out[4 * i + 0] = (unsigned long long)p;
    out[4 * i + 1] = (unsigned long long)(p >> 64);
    out[4 * i + 2] = (unsigned long long)s;
    out[4 * i + 3] = (unsigned long long)(s >> 64);
}

/* Explicit carry chains in inline PTX on 3-limb (96-bit) numbers,
 * little-endian limbs a[3*i..3*i+2], b[3*i..].  out[9*i+0..2] = a+b mod
 * 2^96, out[9*i+3..5] = a-b mod 2^96, out[9*i+6..8] = low 96 bits of
 * (a0 + a1*2^32) * (b0 + b1*2^32) computed with mad.lo.cc/madc. */
extern "C" __global__ void carry_chain(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned a0 = a[3 * i], a1 = a[3 * i + 1], a2 = a[3 * i + 2];
    unsigned b0 = b[3 * i], b1 = b[3 * i + 1], b2 = b[3 * i + 2];
    unsigned s0, s1, s2, d0, d1, d2, m0, m1, m2;
    asm("add.cc.u32 %0, %3, %6;\n\t"
        "addc.cc.u32 %1, %4, %7;\n\t"
        "addc.u32 %2, %5, %8;"
        : "=r"(s0), "=r"(s1), "=r"(s2)
        : "r"(a0), "r"(a1), "r"(a2), "r"(b0), "r"(b1), "r"(b2));
    asm("sub.cc.u32 %0, %3, %6;\n\t"
        "subc.cc.u32 %1, %4, %7;\n\t"
        "subc.u32 %2, %5, %8;"
        : "=r"(d0), "=r"(d1), "=r"(d2)
        : "r"(a0), "r"(a1), "r"(a2), "r"(b0), "r"(b1), "r"(b2));
    /* m = a0*b0 + 2^32*(a0*b1 + a1*b0) + 2^64*(a1*b1 + carries), mod 2^96 */
    asm("{\n\t"
        ".reg .u32 t;\n\t"
        "mul.lo.u32 %0, %3, %5;\n\t"
        "mul.hi.u32 %1, %3, %5;\n\t"
        "mad.lo.cc.u32 %1, %3, %6, %1;\n\t"
        "madc.hi.u32 %2, %3, %6, 0;\n\t"
        "mad.lo.cc.u32 %1, %4, %5, %1;\n\t"
        "madc.hi.cc.u32 %2, %4, %5, %2;\n\t"
        "addc.u32 t, 0, 0;\n\t" /* carry out of bit 96: dropped */
        "mad.lo.u32 %2, %4, %6, %2;\n\t"
        "}"
        : "=&r"(m0), "=&r"(m1), "=&r"(m2)
        : "r"(a0), "r"(a1), "r"(b0), "r"(b1));
    out[9 * i + 0] = s0;
    out[9 * i + 1] = s1;
    out[9 * i + 2] = s2;
    out[9 * i + 3] = d0;
    out[9 * i + 4] = d1;
    out[9 * i + 5] = d2;
    out[9 * i + 6] = m0;
    out[9 * i + 7] = m1;
    out[9 * i + 8] = m2;
}

/* out[4*i+0] = __mul24(a,b) (low 32 bits of the 48-bit product of the
 * sign-extended low 24 bits), out[4*i+1] = __umul24(a,b),
 * out[4*i+2] = __sad(a,b,7) = |a-b|+7, out[4*i+3] = __usad(a,b,7). */
extern "C" __global__ void mul24_sad(const int *a, const int *b, int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    out[4 * i + 0] = __mul24(a[i], b[i]);
    out[4 * i + 1] = (int)__umul24((unsigned)a[i], (unsigned)b[i]);
    out[4 * i + 2] = (int)__sad(a[i], b[i], 7u);
    out[4 * i + 3] = (int)__usad((unsigned)a[i], (unsigned)b[i], 7u);
}

/* Comparisons: bit k of flags[i] is the k-th comparison of a[i], b[i]:
 * signed ==,!=,<,<=,>,>= (k 0-5), unsigned <,<=,>,>= (k 6-9), 64-bit
 * signed (a*2^20) < (b*2^20), (u64)a > (u64)b (k 10-11), 16-bit
 * (short)a < (short)b, (unsigned short)a > (unsigned short)b (k 12-13).
 * sel[i] = a < b ? a : b ^ 0x55 (selp). */
extern "C" __global__ void int_compare(const int *a, const int *b, unsigned *flags, int *sel, int n)
{
    int i = GID;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    unsigned ux = (unsigned)x, uy = (unsigned)y;
    long long lx = (long long)x * (1 << 20), ly = (long long)y * (1 << 20);
    unsigned f = 0;
    f |= (unsigned)(x == y) << 0;
    f |= (unsigned)(x != y) << 1;
    f |= (unsigned)(x < y) << 2;
    f |= (unsigned)(x <= y) << 3;
    f |= (unsigned)(x > y) << 4;
    f |= (unsigned)(x >= y) << 5;
    f |= (unsigned)(ux < uy) << 6;
    f |= (unsigned)(ux <= uy) << 7;
    f |= (unsigned)(ux > uy) << 8;
    f |= (unsigned)(ux >= uy) << 9;
    f |= (unsigned)(lx < ly) << 10;
    f |= (unsigned)((unsigned long long)(long long)x > (unsigned long long)(long long)y) << 11;
    f |= (unsigned)((short)x < (short)y) << 12;
    f |= (unsigned)((unsigned short)x > (unsigned short)y) << 13;
    flags[i] = f;
    sel[i] = x < y ? x : (y ^ 0x55);
}

/* C++ template, instantiated for int and long long (mangled names):
 * out[i] = sum_{k=0}^{i} a[k] * (k+1)   (one thread per i, O(n^2)). */
template <typename T>
__global__ void weighted_prefix(const T *a, T *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    T s = 0;
    for (int k = 0; k <= i; ++k)
        s += a[k] * (T)(k + 1);
    out[i] = s;
}
template __global__ void weighted_prefix<int>(const int *, int *, int);
template __global__ void weighted_prefix<long long>(const long long *, long long *, int);

/* Comparisons on 64-bit, 16-bit and double operands, each producing one
 * output word so compilers keep the compare itself.  x = a[i], y = b[i]
 * (64-bit), d = (double)x, e = (double)y.  out[k*n+i], k = 0..11:
 * (u64)x > (u64)y ? x : y,  (u64)x < (u64)y ? 1 : 2,  (u64)x <= (u64)y ? 3 : 4,
 * x <= y (signed) ? 5 : 6,  (short)x > (short)y ? 7 : 8,
 * (short)x < (short)y ? 9 : 10,  (ushort)x > (ushort)y ? 11 : 12,
 * (ushort)x <= (ushort)y ? 13 : 14,  (ushort)x < (ushort)y ? 15 : 16,
 * d >= e ? 17 : 18,  d <= e ? 19 : 20,  !(d < e) ? 21 : 22 (true on NaN). */
extern "C" __global__ void compare_wide(const long long *a, const long long *b, long long *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    long long x = a[i], y = b[i];
    unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
    short sx = (short)x, sy = (short)y;
    unsigned short hx = (unsigned short)x, hy = (unsigned short)y;
    double d = (double)x, e = (double)y;
    out[0 * n + i] = ux > uy ? x : y;
    out[1 * n + i] = ux < uy ? 1 : 2;
    out[2 * n + i] = ux <= uy ? 3 : 4;
    out[3 * n + i] = x <= y ? 5 : 6;
    out[4 * n + i] = sx > sy ? 7 : 8;
    out[5 * n + i] = sx < sy ? 9 : 10;
    out[6 * n + i] = hx > hy ? 11 : 12;
    out[7 * n + i] = hx <= hy ? 13 : 14;
    out[8 * n + i] = hx < hy ? 15 : 16;
    out[9 * n + i] = d >= e ? 17 : 18;
    out[10 * n + i] = d <= e ? 19 : 20;
    out[11 * n + i] = !(d < e) ? 21 : 22;
}

/* 16-bit unsigned arithmetic kept in 16 bits (results stored as
 * ushort).  x = a[i], y = b[i]; out[k*n+i], k = 0..8: x << (y & 15),
 * x | y, x ^ y, ~x, y ? x / y : 0, max(x, y), min(x, y), x * y,
 * (ushort)(w >> 3) where w = c[i] (64-bit). */
extern "C" __global__ void u16_ops(const unsigned short *a, const unsigned short *b, const unsigned long long *c,
                                   unsigned short *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned short x = a[i], y = b[i];
    out[0 * n + i] = (unsigned short)(x << (y & 15));
    out[1 * n + i] = (unsigned short)(x | y);
    out[2 * n + i] = (unsigned short)(x ^ y);
    out[3 * n + i] = (unsigned short)~x;
    out[4 * n + i] = y ? (unsigned short)(x / y) : (unsigned short)0;
    out[5 * n + i] = x > y ? x : y;
    out[6 * n + i] = x < y ? x : y;
    out[7 * n + i] = (unsigned short)(x * y);
    out[8 * n + i] = (unsigned short)(c[i] >> 3);
}

/* Typed forms that real programs write in inline PTX: out[4*i+0] =
 * add.u32 a b, out[4*i+1] = a copied through mov.s32 and a .u64
 * temporary (block-local .reg .s32/.u64 declarations), out[4*i+2] = shr.b32
 * a >> (b & 31) (logical), out[4*i+3] = mad.wide.u32 of a * b + c (low
 * 32 bits of the 64-bit result). */
extern "C" __global__ void typed_asm(const unsigned *a, const unsigned *b, const unsigned long long *c,
                                     unsigned *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned r0, r2, sh = b[i] & 31;
    int r1;
    unsigned long long w;
    asm("add.u32 %0, %1, %2;" : "=r"(r0) : "r"(a[i]), "r"(b[i]));
    asm("{\n\t.reg .s32 t32;\n\t.reg .u64 t64;\n\t"
        "mov.s32 t32, %1;\n\t"
        "cvt.u64.u32 t64, t32;\n\t"
        "cvt.u32.u64 %0, t64;\n\t}"
        : "=r"(r1) : "r"((int)a[i]));
    asm("shr.b32 %0, %1, %2;" : "=r"(r2) : "r"(a[i]), "r"(sh));
    asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(w) : "r"(a[i]), "r"(b[i]), "l"(c[i]));
    out[4 * i + 0] = r0;
    out[4 * i + 1] = (unsigned)r1;
    out[4 * i + 2] = r2;
    out[4 * i + 3] = (unsigned)w;
}

/* Loop bounds and byte scanning, the code shapes that make compilers
 * emit 64-bit <= tests and 16-bit compares.  Launch 1 x 1.
 * out[0] = number of k = lo, lo+st, lo+2st, ... with k <= hi (unsigned,
 * st = step[0] > 0); out[1] = low 32 bits of the sum of k = (long long)lo,
 * lo+3, ... <= (long long)hi (signed); out[2] = sum of the bytes s[0],
 * s[1], ... up to (not including) the first byte <= 32; with h = a[0],
 * g = a[1] (ushort): out[3] = 1 if h > g else 0, out[4] = number of
 * times h can be increased by 3 (as ushort, wrapping) while h <= g, at
 * most 10. */
extern "C" __global__ void loop_bounds(const unsigned long long *step, const unsigned char *s,
                                       const unsigned short *a, int *out, unsigned long long lo,
                                       unsigned long long hi)
{
    int c = 0;
    for (unsigned long long k = lo; k <= hi; k += step[0])
        c++;
    out[0] = c;
    long long sum = 0;
    for (long long k = (long long)lo; k <= (long long)hi; k += 3)
        sum += k;
    out[1] = (int)sum;
    int bytes = 0, i = 0;
    unsigned char ch;
    while ((ch = s[i]) > 32) {
        bytes += ch;
        i++;
    }
    out[2] = bytes;
    unsigned short h = a[0], g = a[1];
    out[3] = h > g ? 1 : 0;
    int r = 0;
    while (h <= g && r < 10) {
        h += 3;
        r++;
    }
    out[4] = r;
}
