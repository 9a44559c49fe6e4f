/* tests/corpus/cuda/control.cu — control flow: non-inlined device
 * functions with scalar, pointer and struct parameters and return values,
 * recursion, function pointers and virtual calls (indirect call through
 * .callprototype), switch statements, an explicit brx.idx jump table in
 * inline PTX, loops kept rolled (.pragma "nounroll"), divergence and
 * reconvergence, early exit, trap, launch bounds.  See ../MANIFEST.md. */

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

/* ---- device functions -------------------------------------------------- */
__device__ __noinline__ int clamp_add(int a, int b, int lo, int hi)
{
    int s = a + b;
    return s < lo ? lo : s > hi ? hi : s;
}

__device__ __noinline__ float lerp3(float a, float b, float t, float *side)
{
    *side = a * b;
    return a + t * (b - a);
}

__device__ __noinline__ double dpoly(double x, long long k)
{
    return x * x * 0.5 + (double)k;
}

struct Vec3 {
    float x, y, z;
};
struct Pair64 {
    long long lo;
    long long hi;
};

/* struct by value in and out (.param .align 4 .b8 [12], retval .b8[12]) */
__device__ __noinline__ Vec3 cross(Vec3 a, Vec3 b)
{
    Vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return r;
}

__device__ __noinline__ Pair64 split_mul(long long a, long long b)
{
    Pair64 p = {a * b, __mul64hi(a, b)};
    return p;
}

__device__ __noinline__ long long pair_sum(Pair64 p)
{
    return p.lo + p.hi;
}

__device__ __noinline__ void no_result(int *p, int v)
{
    if (v & 1)
        *p += v;
    else
        *p -= v;
}

/* x = a[i], y = b[i].  out[8*i+k]:
 * k=0 clamp(x+y, -100, 100) + (x odd ? x : -x)   (clamp_add, no_result)
 * k=1 (int)(x + 0.25f*(y-x)) in float            (lerp3)
 * k=2 (int)((float)x * (float)y)                  (lerp3's pointer output)
 * k=3 (int)(x*x*0.5 + y) in double                (dpoly)
 * k=4..6 cross((x,y,1), (y,1,x)) in float, truncated: (y*x - 1,
 *        1*y - x*x, x*1 - y*y)                    (struct by value in/out)
 * k=7 (int)((long long)x*y + x + y)                (split_mul returns a 2 x i64
 *        struct {x*y, mul64hi(x,y)}; pair_sum takes {x*y, x+y} by value) */
extern "C" __global__ void calls(const int *a, const int *b, int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    out[8 * i + 0] = clamp_add(x, y, -100, 100);
    float side;
    out[8 * i + 1] = (int)lerp3((float)x, (float)y, 0.25f, &side);
    out[8 * i + 2] = (int)side;
    out[8 * i + 3] = (int)dpoly((double)x, (long long)y);
    Vec3 va = {(float)x, (float)y, 1.0f}, vb = {(float)y, 1.0f, (float)x};
    Vec3 c = cross(va, vb);
    out[8 * i + 4] = (int)c.x;
    out[8 * i + 5] = (int)c.y;
    out[8 * i + 6] = (int)c.z;
    Pair64 p = split_mul(x, y);
    Pair64 q = {p.lo + (p.hi - __mul64hi(x, y)), (long long)x + y};
    out[8 * i + 7] = (int)pair_sum(q);
    no_result(&out[8 * i + 0], x);
}

/* ---- recursion ----------------------------------------------------------- */
__device__ __noinline__ int fib(int k)
{
    return k < 2 ? k : fib(k - 1) + fib(k - 2);
}

__device__ __noinline__ unsigned long long ackermann_small(unsigned m, unsigned long long n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ackermann_small(m - 1, 1);
    return ackermann_small(m - 1, ackermann_small(m, n - 1));
}

__device__ int depth_sum(const int *tree, int node, int count)
{
    /* implicit binary tree in an array: sum of the subtree */
    if (node >= count)
        return 0;
    return tree[node] + depth_sum(tree, 2 * node + 1, count) + depth_sum(tree, 2 * node + 2, count);
}

/* out[3*i+0] = fib(k) with k = in[i] % 16 (k >= 0); out[3*i+1] =
 * A(2, k % 4) (Ackermann: 2n+3); out[3*i+2] = sum of tree[] over the
 * subtree rooted at node i%count of the implicit binary heap layout
 * (children 2j+1, 2j+2). */
extern "C" __global__ void recursion(const int *in, const int *tree, int count, int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    int k = in[i] % 16;
    out[3 * i + 0] = fib(k);
    out[3 * i + 1] = (int)ackermann_small(2, (unsigned long long)(k % 4));
    out[3 * i + 2] = depth_sum(tree, i % count, count);
}

/* ---- function pointers ------------------------------------------------- */
typedef int (*binop_t)(int, int);
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_max(int a, int b) { return a > b ? a : b; }
__device__ binop_t g_ops[4] = {op_add, op_sub, op_mul, op_max}; /* generic(op_*) initialisers */

typedef float (*unop_t)(float);
__device__ float f_sq(float x) { return x * x; }
__device__ float f_neg(float x) { return -x; }

/* out[i] = g_ops[sel[i] & 3](a[i], b[i]) + (int)u(a[i]) where u = f_sq
 * if sel[i] & 4 else f_neg, with both selections made at run time. */
extern "C" __global__ void func_ptrs(const int *sel, const int *a, const int *b, int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    binop_t f = g_ops[sel[i] & 3];
    unop_t u = (sel[i] & 4) ? f_sq : f_neg;
    out[i] = f(a[i], b[i]) + (int)u((float)a[i]);
}

/* ---- virtual calls -------------------------------------------------------- */
struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual int sides() const { return 0; }
};
struct Square : Shape {
    float s;
    __device__ Square(float v) : s(v) {}
    __device__ float area() const override { return s * s; }
    __device__ int sides() const override { return 4; }
};
struct Tri : Shape {
    float b, h;
    __device__ Tri(float x, float y) : b(x), h(y) {}
    __device__ float area() const override { return 0.5f * b * h; }
    __device__ int sides() const override { return 3; }
};
__device__ __noinline__ float describe(const Shape *s, int *nsides)
{
    *nsides = s->sides();
    return s->area();
}

/* out[i] = area + 1000 * sides of a Square(a[i]) if kind[i] is even,
 * else a Tri(a[i], 2): area = a^2 or a (as float). */
extern "C" __global__ void virtual_calls(const int *kind, const float *a, float *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    Square sq(a[i]);
    Tri tr(a[i], 2.0f);
    const Shape *s = (kind[i] & 1) ? (const Shape *)&tr : (const Shape *)&sq;
    int ns;
    float ar = describe(s, &ns);
    out[i] = ar + 1000.0f * (float)ns;
}

/* ---- switch and jump tables ------------------------------------------ */
/* out[i] by k = in[i] (any int), x = k * 7:
 * k 0: x+1, 1: x*3, 2: x^0x55, 3: x-100, 4: x<<2, 5: -x, 6: x/3,
 * 7: x%5, 8: x|0xf0, 9: ~x, 10: x*x, 11: 42; default: -1. */
extern "C" __global__ void switch_dense(const int *in, int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    int k = in[i], x = k * 7, r;
    switch (k) {
    case 0: r = x + 1; break;
    case 1: r = x * 3; break;
    case 2: r = x ^ 0x55; break;
    case 3: r = x - 100; break;
    case 4: r = x << 2; break;
    case 5: r = -x; break;
    case 6: r = x / 3; break;
    case 7: r = x % 5; break;
    case 8: r = x | 0xf0; break;
    case 9: r = ~x; break;
    case 10: r = x * x; break;
    case 11: r = 42; break;
    default: r = -1; break;
    }
    out[i] = r;
}

/* An explicit jump table: brx.idx over .branchtargets in inline PTX.
 * out[i] = {10, 20, 30, 40}[in[i] & 3] + in[i]. */
extern "C" __global__ void brx_table(const int *in, int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    unsigned k = (unsigned)in[i] & 3u;
    int r;
    asm volatile("{\n\t"
                 ".reg .u32 %%bt_r;\n\t"
                 "bt_tab: .branchtargets bt_0, bt_1, bt_2, bt_3;\n\t"
                 "brx.idx %1, bt_tab;\n"
                 "bt_0:\n\t mov.u32 %%bt_r, 10;\n\t bra.uni bt_end;\n"
                 "bt_1:\n\t mov.u32 %%bt_r, 20;\n\t bra.uni bt_end;\n"
                 "bt_2:\n\t mov.u32 %%bt_r, 30;\n\t bra.uni bt_end;\n"
                 "bt_3:\n\t mov.u32 %%bt_r, 40;\n"
                 "bt_end:\n\t mov.u32 %0, %%bt_r;\n\t"
                 "}"
                 : "=r"(r) : "r"(k));
    out[i] = r + in[i];
}

/* ---- loops and divergence ---------------------------------------------- */
/* out[i] = collatz steps of in[i] (> 0) to reach 1, capped at 1000
 * (while loop, data-dependent trip count); out2[i] = sum over j<in[i]%64
 * of j*j (loop kept rolled with #pragma unroll 1); out3[i] = the first k
 * in [0,32) with bit k of in[i] set, or 99 (break), skipping odd k for
 * negative inputs (continue). */
extern "C" __global__ void loops(const int *in, int *out, int *out2, int *out3, int n)
{
    int i = GID;
    if (i >= n)
        return;
    long long v = in[i];
    int steps = 0;
    while (v != 1 && steps < 1000) {
        v = (v & 1) ? 3 * v + 1 : v / 2;
        ++steps;
    }
    out[i] = steps;
    int s = 0, m = in[i] % 64;
#pragma unroll 1
    for (int j = 0; j < m; ++j)
        s += j * j;
    out2[i] = s;
    int first = 99;
    for (int k = 0; k < 32; ++k) {
        if (in[i] < 0 && (k & 1))
            continue;
        if ((in[i] >> k) & 1) {
            first = k;
            break;
        }
    }
    out3[i] = first;
}

/* Nested divergence with a goto and a do-while: out[i] = f(in[i]) with
 * x = in[i]: if x < 0 -> -x*2; else if x % 3 == 0 -> x/3 repeated while
 * divisible by 3 (do-while); else if x is a multiple of 5 -> jumps to the
 * common tail with x + 1000; else x + 7.  Finally +1 for odd i. */
extern "C" __global__ void divergence(const int *in, int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    int x = in[i], r;
    if (x < 0) {
        r = -x * 2;
    } else if (x % 3 == 0 && x != 0) {
        r = x;
        do {
            r /= 3;
        } while (r % 3 == 0 && r != 0);
    } else {
        if (x % 5 == 0) {
            r = x + 1000;
            goto tail;
        }
        r = x + 7;
    }
tail:
    if (i & 1)
        r += 1;
    out[i] = r;
}

/* ---- early exit, trap, launch bounds ---------------------------------- */
/* mode 0: out[i] = i for every thread.  mode 1: threads with odd i
 * execute the PTX exit instruction first, so only even i write (odd
 * slots keep their old value).  mode 2: thread 0 executes trap (the
 * launch fails); other threads may or may not have written. */
extern "C" __global__ void exit_trap(int *out, int mode, int n)
{
    int i = GID;
    if (i >= n)
        return;
    if (mode == 1 && (i & 1))
        asm volatile("exit;");
    if (mode == 2 && i == 0)
        __trap();
    out[i] = i;
}

/* .maxntid 128 and .minnctapersm 4: out[i] = in[i] * 2 + blockDim.x,
 * launched with at most 128 threads per block. */
extern "C" __global__ void __launch_bounds__(128, 4) bounded(const int *in, int *out, int n)
{
    int i = GID;
    if (i < n)
        out[i] = in[i] * 2 + (int)blockDim.x;
}

/* Predicate logic on booleans: out[i] = ((a>0) && (b>0)) | ((a>0) ^
 * (b<0)) << 1 | (!(a==b) || (a<-5)) << 2, computed so that compilers
 * keep and/or/xor/not on .pred registers. */
extern "C" __global__ void pred_logic(const int *a, const int *b, int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    bool p = a[i] > 0, q = b[i] > 0, r = b[i] < 0, e = a[i] == b[i], s = a[i] < -5;
    int v = 0;
    if (p && q)
        v |= 1;
    if (p != r)
        v |= 2;
    if (!e || s)
        v |= 4;
    out[i] = v;
}

/* C++ template with a non-type parameter and a functor: out[i] =
 * apply<Op, N>(in[i]) = Op applied N times: Twice -> in*2^N (N = 3),
 * AddK<5> -> in + 5*N (N = 4). */
struct Twice {
    __device__ int operator()(int v) const { return v * 2; }
};
template <int K>
struct AddK {
    __device__ int operator()(int v) const { return v + K; }
};
template <typename Op, int N>
__global__ void apply_n(const int *in, int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    Op op;
    int v = in[i];
#pragma unroll
    for (int k = 0; k < N; ++k)
        v = op(v);
    out[i] = v;
}
template __global__ void apply_n<Twice, 3>(const int *, int *, int);
template __global__ void apply_n<AddK<5>, 4>(const int *, int *, int);

namespace mx {
/* a kernel inside a namespace (mangled _ZN2mx...): out[i] = in[i] ^ key */
__global__ void xor_key(const unsigned *in, unsigned *out, unsigned key, int n)
{
    int i = GID;
    if (i < n)
        out[i] = in[i] ^ key;
}
} // namespace mx

#ifdef __NVCC__
/* nvcc only: clang 19 does compile alloca, but prints it as
 * "alloca.u64 %rd, %rd, 0", whose zero alignment ptxas rejects.
 * Dynamic stack allocation (PTX alloca): each thread allocates m =
 * 1 + (in[i] & 15) ints on its stack, fills buf[k] = k * in[i], and
 * stores out[i] = sum over k of buf[(k * 7) % m] = in[i] * m*(m-1)/2. */
extern "C" __global__ void dynamic_alloca(const int *in, int *out, int n)
{
    int i = GID;
    if (i >= n)
        return;
    int m = 1 + (in[i] & 15);
    int *buf = (int *)alloca(m * sizeof(int));
    for (int k = 0; k < m; ++k)
        buf[k] = k * in[i];
    int s = 0;
    for (int k = 0; k < m; ++k)
        s += buf[(k * 7) % m];
    out[i] = s;
}
#endif
