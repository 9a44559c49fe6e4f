/* tests/cuda/virtual_calls.cu — calls through pointers whose targets differ
 * between the lanes of a warp: virtual functions of three classes
 * (objects made with device new), a table of function pointers indexed per
 * lane inside a loop, and a call under a branch that leaves some lanes out;
 * every value checked against the host. */
#define MX_TEST "virtual_calls"
#include "mx_check.h"

struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual int sides() const { return 0; }
    __device__ virtual ~Shape() {}
};
struct Sq : Shape {
    float s;
    __device__ Sq(float s) : s(s) {}
    __device__ float area() const override { return s * s; }
    __device__ int sides() const override { return 4; }
};
struct Tri : Shape {
    float b;
    __device__ Tri(float b) : b(b) {}
    __device__ float area() const override { return 0.5f * b * b; }
    __device__ int sides() const override { return 3; }
};
struct Ci : Shape {
    float r;
    __device__ Ci(float r) : r(r) {}
    __device__ float area() const override { return 3.0f * r * r; }
};

typedef int (*op_t)(int, int);
__device__ int add(int a, int b) { return a + b; }
__device__ int mul(int a, int b) { return a * b; }
__device__ int sub(int a, int b) { return a - b; }
__device__ int mix(int a, int b) { return (a ^ b) + 7; }
__device__ op_t ops[4] = { add, mul, sub, mix };

__global__ void shapes(float *area, int *sides, int *acc, int *guarded)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Shape *s = i % 3 == 0 ? (Shape *)new Sq(i) : i % 3 == 1 ? (Shape *)new Tri(i) : (Shape *)new Ci(i);
    area[i] = s->area();
    sides[i] = s->sides();
    delete s;
    int v = i;
    for (int k = 0; k < 5; k++) /* the target changes per lane and per iteration */
        v = ops[(i + k) & 3](v, k + 1) & 0xffff;
    acc[i] = v;
    guarded[i] = -1;
    if (i % 5 != 2) /* some lanes stay out of the call */
        guarded[i] = ops[i & 3](i, 10);
}

int main(void)
{
    const int N = 96;
    float *area;
    int *sides, *acc, *guarded;
    CK(cudaMallocManaged(&area, N * sizeof *area, cudaMemAttachGlobal));
    CK(cudaMallocManaged(&sides, N * sizeof *sides, cudaMemAttachGlobal));
    CK(cudaMallocManaged(&acc, N * sizeof *acc, cudaMemAttachGlobal));
    CK(cudaMallocManaged(&guarded, N * sizeof *guarded, cudaMemAttachGlobal));
    shapes<<<N / 48, 48>>>(area, sides, acc, guarded);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < N; i++) {
        float f = (float)i;
        float wa = i % 3 == 0 ? f * f : i % 3 == 1 ? 0.5f * f * f : 3.0f * f * f;
        int ws = i % 3 == 0 ? 4 : i % 3 == 1 ? 3 : 0;
        int v = i;
        for (int k = 0; k < 5; k++) {
            int b = k + 1;
            switch ((i + k) & 3) {
            case 0: v = v + b; break;
            case 1: v = v * b; break;
            case 2: v = v - b; break;
            default: v = (v ^ b) + 7; break;
            }
            v &= 0xffff;
        }
        int wg = i % 5 == 2 ? -1 : (i & 3) == 0 ? i + 10 : (i & 3) == 1 ? i * 10 : (i & 3) == 2 ? i - 10 : (i ^ 10) + 7;
        EXPECT(area[i] == wa && sides[i] == ws, "object %d: area %g sides %d, expected %g %d", i, area[i], sides[i], wa, ws);
        EXPECT(acc[i] == v, "lane %d: function-pointer loop gave %d, expected %d", i, acc[i], v);
        EXPECT(guarded[i] == wg, "lane %d: guarded call gave %d, expected %d", i, guarded[i], wg);
    }
    return mx_pass();
}
