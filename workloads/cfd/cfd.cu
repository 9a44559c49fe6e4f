/* workloads/cfd/cfd.cu — finite-volume solver of the 3D Euler equations on
 * an unstructured grid, in the style of Rodinia's cfd (euler3d): every cell
 * has four faces, each with an area-weighted normal and either a neighbour
 * cell or a boundary tag (wall or far field).  Per iteration the host saves
 * the state (device-to-device copy), launches cfd_step_factor once and then,
 * for each of the three Runge-Kutta stages, cfd_flux (central flux plus
 * scalar artificial dissipation, gathering the neighbours' five variables
 * through the neighbour list) and cfd_time_step.  Arrays are structure of
 * arrays (variable v of cell i at v * n + i); the free-stream state sits in
 * __constant__ memory.  The mesh is a jittered quadrilateral sheet whose
 * cells are numbered in a locally shuffled order, so the neighbour loads
 * are irregular as in a real unstructured mesh.  Every product that meets
 * a sum is an explicit fmaf (on both sides), division and sqrtf are
 * correctly rounded on both sides, so the state is compared bit for bit
 * with the plain C reference.
 * Written from the method's description (no code from Rodinia). */
#ifndef MX_CUDA_CLANG /* clang's device-only PTX build (mx_cuda_clang.h) sees the kernels only */
#include "mx_workload.h"
#endif

#define CFD_NVAR 5   /* density, momentum x y z, energy density */
#define CFD_NNB 4    /* faces (neighbours) per cell */
#define CFD_RK 3     /* Runge-Kutta stages per iteration */
#define CFD_BLOCK 128
#define CFD_WALL (-1)
#define CFD_FARFIELD (-2)
#define CFD_GAMMA 1.4f
#define CFD_SMOOTH 0.2f /* artificial dissipation coefficient */

enum { V_RHO = 0, V_MX = 1, V_MY = 2, V_MZ = 3, V_E = 4 };

/* Free-stream state and its flux contributions, set by the host. */
__constant__ float ff_var[CFD_NVAR];
__constant__ float ff_fc[12]; /* mx: xx xy xz, my: yx yy yz, mz: zx zy zz, energy: x y z */

/* Primitive quantities of one cell's state. */
struct cfd_prim {
    float vx, vy, vz; /* velocity */
    float ssq;        /* speed squared */
    float ie;         /* internal energy density e - rho |v|^2 / 2 */
    float p;          /* pressure (gamma - 1) ie */
    float c;          /* speed of sound */
};

static __device__ __forceinline__ cfd_prim cfd_primitives(float rho, float mx, float my, float mz, float e)
{
    cfd_prim q;
    q.vx = mx / rho;
    q.vy = my / rho;
    q.vz = mz / rho;
    q.ssq = fmaf(q.vx, q.vx, fmaf(q.vy, q.vy, q.vz * q.vz));
    q.ie = fmaf(-0.5f * rho, q.ssq, e);
    q.p = (CFD_GAMMA - 1.0f) * q.ie;
    q.c = sqrtf(CFD_GAMMA * q.p / rho);
    return q;
}

/* step_factor[i] = 0.5 / (sqrt(volume) (|v| + c)): the local time step. */
__global__ void cfd_step_factor(const float *vars, const float *areas, float *step_factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    cfd_prim q = cfd_primitives(vars[V_RHO * n + i], vars[V_MX * n + i], vars[V_MY * n + i], vars[V_MZ * n + i],
                                vars[V_E * n + i]);
    step_factor[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(q.ssq) + q.c));
}

/* Net flux into every cell through its four faces.  nbr[j * n + i] is the
 * neighbour across face j (or CFD_WALL / CFD_FARFIELD), normals[(j * 3 + d)
 * * n + i] component d of that face's outward area-weighted normal. */
__global__ void cfd_flux(const int *nbr, const float *normals, const float *vars, float *fluxes, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float rho = vars[V_RHO * n + i], mx = vars[V_MX * n + i], my = vars[V_MY * n + i];
    float mz = vars[V_MZ * n + i], e = vars[V_E * n + i];
    cfd_prim q = cfd_primitives(rho, mx, my, mz, e);
    float speed = sqrtf(q.ssq);
    /* this cell's flux contributions (momentum tensor + p I, energy flux) */
    float fxx = fmaf(mx, q.vx, q.p), fxy = mx * q.vy, fxz = mx * q.vz;
    float fyx = my * q.vx, fyy = fmaf(my, q.vy, q.p), fyz = my * q.vz;
    float fzx = mz * q.vx, fzy = mz * q.vy, fzz = fmaf(mz, q.vz, q.p);
    float dep = fmaf(CFD_GAMMA - 1.0f, q.ie, e); /* e + p */
    float fex = q.vx * dep, fey = q.vy * dep, fez = q.vz * dep;

    float f_rho = 0.0f, f_mx = 0.0f, f_my = 0.0f, f_mz = 0.0f, f_e = 0.0f;
    for (int j = 0; j < CFD_NNB; j++) {
        int nb = nbr[j * n + i];
        float nx = normals[(j * 3 + 0) * n + i], ny = normals[(j * 3 + 1) * n + i];
        float nz = normals[(j * 3 + 2) * n + i];
        float len = sqrtf(fmaf(nx, nx, fmaf(ny, ny, nz * nz)));
        float hx = 0.5f * nx, hy = 0.5f * ny, hz = 0.5f * nz;
        if (nb >= 0) {
            float rho_n = vars[V_RHO * n + nb], mx_n = vars[V_MX * n + nb], my_n = vars[V_MY * n + nb];
            float mz_n = vars[V_MZ * n + nb], e_n = vars[V_E * n + nb];
            cfd_prim r = cfd_primitives(rho_n, mx_n, my_n, mz_n, e_n);
            float dep_n = fmaf(CFD_GAMMA - 1.0f, r.ie, e_n);
            /* dissipation, proportional to the state jump across the face */
            float k = -(len * (CFD_SMOOTH * 0.5f)) * (((speed + q.c) + sqrtf(r.ssq)) + r.c);
            f_rho = fmaf(k, rho - rho_n, f_rho);
            f_mx = fmaf(k, mx - mx_n, f_mx);
            f_my = fmaf(k, my - my_n, f_my);
            f_mz = fmaf(k, mz - mz_n, f_mz);
            f_e = fmaf(k, e - e_n, f_e);
            /* central flux: the mean of both cells' fluxes through the face */
            f_rho = fmaf(hx, mx_n + mx, f_rho);
            f_rho = fmaf(hy, my_n + my, f_rho);
            f_rho = fmaf(hz, mz_n + mz, f_rho);
            f_mx = fmaf(hx, fmaf(mx_n, r.vx, r.p) + fxx, f_mx);
            f_mx = fmaf(hy, fmaf(mx_n, r.vy, fxy), f_mx);
            f_mx = fmaf(hz, fmaf(mx_n, r.vz, fxz), f_mx);
            f_my = fmaf(hx, fmaf(my_n, r.vx, fyx), f_my);
            f_my = fmaf(hy, fmaf(my_n, r.vy, r.p) + fyy, f_my);
            f_my = fmaf(hz, fmaf(my_n, r.vz, fyz), f_my);
            f_mz = fmaf(hx, fmaf(mz_n, r.vx, fzx), f_mz);
            f_mz = fmaf(hy, fmaf(mz_n, r.vy, fzy), f_mz);
            f_mz = fmaf(hz, fmaf(mz_n, r.vz, r.p) + fzz, f_mz);
            f_e = fmaf(hx, fmaf(r.vx, dep_n, fex), f_e);
            f_e = fmaf(hy, fmaf(r.vy, dep_n, fey), f_e);
            f_e = fmaf(hz, fmaf(r.vz, dep_n, fez), f_e);
        } else if (nb == CFD_WALL) {
            /* slip wall: only the pressure pushes */
            f_mx = fmaf(nx, q.p, f_mx);
            f_my = fmaf(ny, q.p, f_my);
            f_mz = fmaf(nz, q.p, f_mz);
        } else if (nb == CFD_FARFIELD) {
            f_rho = fmaf(hx, ff_var[V_MX] + mx, f_rho);
            f_rho = fmaf(hy, ff_var[V_MY] + my, f_rho);
            f_rho = fmaf(hz, ff_var[V_MZ] + mz, f_rho);
            /* (off-diagonal and energy terms fused: own product + free stream) */
            f_mx = fmaf(hx, ff_fc[0] + fxx, f_mx);
            f_mx = fmaf(hy, fmaf(mx, q.vy, ff_fc[1]), f_mx);
            f_mx = fmaf(hz, fmaf(mx, q.vz, ff_fc[2]), f_mx);
            f_my = fmaf(hx, fmaf(my, q.vx, ff_fc[3]), f_my);
            f_my = fmaf(hy, ff_fc[4] + fyy, f_my);
            f_my = fmaf(hz, fmaf(my, q.vz, ff_fc[5]), f_my);
            f_mz = fmaf(hx, fmaf(mz, q.vx, ff_fc[6]), f_mz);
            f_mz = fmaf(hy, fmaf(mz, q.vy, ff_fc[7]), f_mz);
            f_mz = fmaf(hz, ff_fc[8] + fzz, f_mz);
            f_e = fmaf(hx, fmaf(q.vx, dep, ff_fc[9]), f_e);
            f_e = fmaf(hy, fmaf(q.vy, dep, ff_fc[10]), f_e);
            f_e = fmaf(hz, fmaf(q.vz, dep, ff_fc[11]), f_e);
        }
    }
    fluxes[V_RHO * n + i] = f_rho;
    fluxes[V_MX * n + i] = f_mx;
    fluxes[V_MY * n + i] = f_my;
    fluxes[V_MZ * n + i] = f_mz;
    fluxes[V_E * n + i] = f_e;
}

/* Runge-Kutta stage `stage`: vars = old + step_factor / (RK + 1 - stage) * flux. */
__global__ void cfd_time_step(int stage, int n, const float *old_vars, float *vars, const float *step_factor,
                              const float *fluxes)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float f = step_factor[i] / (float)(CFD_RK + 1 - stage);
    for (int v = 0; v < CFD_NVAR; v++)
        vars[v * n + i] = fmaf(f, fluxes[v * n + i], old_vars[v * n + i]);
}

/* ---- host ------------------------------------------------------------- */
#ifndef MX_CUDA_CLANG

/* Plain C reference: primitives of one state (same operations as the kernel). */
static void ref_prim(const float *s, float *v, float *ssq, float *ie, float *p, float *c)
{
    v[0] = s[V_MX] / s[V_RHO];
    v[1] = s[V_MY] / s[V_RHO];
    v[2] = s[V_MZ] / s[V_RHO];
    *ssq = fmaf(v[0], v[0], fmaf(v[1], v[1], v[2] * v[2]));
    *ie = fmaf(-0.5f * s[V_RHO], *ssq, s[V_E]);
    *p = (CFD_GAMMA - 1.0f) * *ie;
    *c = sqrtf(CFD_GAMMA * *p / s[V_RHO]);
}

/* Plain C reference of one iteration over all cells. */
static void cfd_reference_iteration(const int *nbr, const float *normals, const float *areas, float *vars,
                                    float *old_vars, float *step_factor, float *fluxes, int n, const float *ffv,
                                    const float *fff)
{
    memcpy(old_vars, vars, sizeof(float) * CFD_NVAR * n);
    for (int i = 0; i < n; i++) {
        float s[CFD_NVAR], u[3], ssq, ie, p, c;
        for (int v = 0; v < CFD_NVAR; v++)
            s[v] = vars[v * n + i];
        ref_prim(s, u, &ssq, &ie, &p, &c);
        step_factor[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(ssq) + c));
    }
    for (int stage = 0; stage < CFD_RK; stage++) {
        for (int i = 0; i < n; i++) {
            float s[CFD_NVAR], v[3], ssq, ie, p, c;
            for (int k = 0; k < CFD_NVAR; k++)
                s[k] = vars[k * n + i];
            ref_prim(s, v, &ssq, &ie, &p, &c);
            float speed = sqrtf(ssq);
            /* own flux contributions, rows: momentum x, y, z, energy */
            float dep = fmaf(CFD_GAMMA - 1.0f, ie, s[V_E]);
            float fc[4][3];
            for (int m = 0; m < 3; m++)
                for (int d = 0; d < 3; d++)
                    fc[m][d] = m == d ? fmaf(s[V_MX + m], v[d], p) : s[V_MX + m] * v[d];
            for (int d = 0; d < 3; d++)
                fc[3][d] = v[d] * dep;
            float acc[CFD_NVAR] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
            for (int j = 0; j < CFD_NNB; j++) {
                int nb = nbr[j * n + i];
                float nrm[3] = {normals[(j * 3 + 0) * n + i], normals[(j * 3 + 1) * n + i],
                                normals[(j * 3 + 2) * n + i]};
                float len = sqrtf(fmaf(nrm[0], nrm[0], fmaf(nrm[1], nrm[1], nrm[2] * nrm[2])));
                float h[3] = {0.5f * nrm[0], 0.5f * nrm[1], 0.5f * nrm[2]};
                if (nb >= 0) {
                    float t[CFD_NVAR], u[3], tsq, tie, tp, tc;
                    for (int k = 0; k < CFD_NVAR; k++)
                        t[k] = vars[k * n + nb];
                    ref_prim(t, u, &tsq, &tie, &tp, &tc);
                    float dep_n = fmaf(CFD_GAMMA - 1.0f, tie, t[V_E]);
                    float k = -(len * (CFD_SMOOTH * 0.5f)) * (((speed + c) + sqrtf(tsq)) + tc);
                    for (int q = 0; q < CFD_NVAR; q++)
                        acc[q] = fmaf(k, s[q] - t[q], acc[q]);
                    for (int d = 0; d < 3; d++)
                        acc[V_RHO] = fmaf(h[d], t[V_MX + d] + s[V_MX + d], acc[V_RHO]);
                    for (int m = 0; m < 3; m++) /* momentum row m */
                        for (int d = 0; d < 3; d++) {
                            float sum = m == d ? fmaf(t[V_MX + m], u[d], tp) + fc[m][d]
                                               : fmaf(t[V_MX + m], u[d], fc[m][d]);
                            acc[V_MX + m] = fmaf(h[d], sum, acc[V_MX + m]);
                        }
                    for (int d = 0; d < 3; d++)
                        acc[V_E] = fmaf(h[d], fmaf(u[d], dep_n, fc[3][d]), acc[V_E]);
                } else if (nb == CFD_WALL) {
                    for (int d = 0; d < 3; d++)
                        acc[V_MX + d] = fmaf(nrm[d], p, acc[V_MX + d]);
                } else if (nb == CFD_FARFIELD) {
                    for (int d = 0; d < 3; d++)
                        acc[V_RHO] = fmaf(h[d], ffv[V_MX + d] + s[V_MX + d], acc[V_RHO]);
                    for (int m = 0; m < 3; m++)
                        for (int d = 0; d < 3; d++) {
                            float sum = m == d ? fff[m * 3 + d] + fc[m][d] : fmaf(s[V_MX + m], v[d], fff[m * 3 + d]);
                            acc[V_MX + m] = fmaf(h[d], sum, acc[V_MX + m]);
                        }
                    for (int d = 0; d < 3; d++)
                        acc[V_E] = fmaf(h[d], fmaf(v[d], dep, fff[9 + d]), acc[V_E]);
                }
            }
            for (int k = 0; k < CFD_NVAR; k++)
                fluxes[k * n + i] = acc[k];
        }
        for (int i = 0; i < n; i++) {
            float f = step_factor[i] / (float)(CFD_RK + 1 - stage);
            for (int v = 0; v < CFD_NVAR; v++)
                vars[v * n + i] = fmaf(f, fluxes[v * n + i], old_vars[v * n + i]);
        }
    }
}

int main(int argc, char **argv)
{
    struct mxw w;
    mxw_init(&w, "cfd", argc, argv);
    /* Mesh W x H cells, iterations.  Rodinia's meshes have 97K and 193K
     * cells and run 2000 iterations; medium is large's mesh (25 MiB, several
     * times a 5 MiB LLC) for one iteration, to keep the run short. */
    static const int cfg[4][3] = {{64, 64, 3}, {512, 384, 1}, {512, 384, 50}, {512, 192, 1}};
    const int W = cfg[w.size][0], H = cfg[w.size][1], iters = cfg[w.size][2], n = W * H;

    int *nbr = (int *)malloc(sizeof(int) * CFD_NNB * n), *id = (int *)malloc(sizeof(int) * n);
    float *normals = (float *)malloc(sizeof(float) * CFD_NNB * 3 * n), *areas = (float *)malloc(sizeof(float) * n);
    float *vars = (float *)malloc(sizeof(float) * CFD_NVAR * n), *got = (float *)malloc(sizeof(float) * CFD_NVAR * n);
    float *old_vars = (float *)malloc(sizeof(float) * CFD_NVAR * n), *fluxes = (float *)malloc(sizeof(float) * CFD_NVAR * n);
    float *step = (float *)malloc(sizeof(float) * n);
    /* face normals: xf[(y * (W + 1) + x)] between cells x-1 and x of row y
     * (pointing +x), yf[y * W + x] between rows y-1 and y (pointing +y) */
    float (*xf)[3] = (float (*)[3])malloc(sizeof(float) * 3 * (W + 1) * H);
    float (*yf)[3] = (float (*)[3])malloc(sizeof(float) * 3 * W * (H + 1));
    if (!nbr || !id || !normals || !areas || !vars || !got || !old_vars || !fluxes || !step || !xf || !yf)
        mxw_fail(&w, "out of host memory");

    /* Cell numbering: row-major, then shuffled within runs of 256 ids. */
    for (int c = 0; c < n; c++)
        id[c] = c;
    for (int base = 0; base < n; base += 256) {
        int len = n - base < 256 ? n - base : 256;
        for (int k = len - 1; k > 0; k--) {
            int r = (int)mxw_randu(&w, k + 1), t = id[base + k];
            id[base + k] = id[base + r];
            id[base + r] = t;
        }
    }
    for (int f = 0; f < (W + 1) * H; f++) {
        xf[f][0] = 1.0f + 0.2f * (mxw_randf(&w) - 0.5f);
        xf[f][1] = 0.1f * (mxw_randf(&w) - 0.5f);
        xf[f][2] = 0.05f * (mxw_randf(&w) - 0.5f);
    }
    for (int f = 0; f < W * (H + 1); f++) {
        yf[f][0] = 0.1f * (mxw_randf(&w) - 0.5f);
        yf[f][1] = 1.0f + 0.2f * (mxw_randf(&w) - 0.5f);
        yf[f][2] = 0.05f * (mxw_randf(&w) - 0.5f);
    }
    /* Faces of a cell: left, right (far field at the sheet's ends), down, up
     * (walls at its sides); outward normals. */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int i = id[y * W + x];
            int nb[CFD_NNB] = {x > 0 ? id[y * W + x - 1] : CFD_FARFIELD, x < W - 1 ? id[y * W + x + 1] : CFD_FARFIELD,
                               y > 0 ? id[(y - 1) * W + x] : CFD_WALL, y < H - 1 ? id[(y + 1) * W + x] : CFD_WALL};
            const float *fn[CFD_NNB] = {xf[y * (W + 1) + x], xf[y * (W + 1) + x + 1], yf[y * W + x], yf[(y + 1) * W + x]};
            const float sign[CFD_NNB] = {-1.0f, 1.0f, -1.0f, 1.0f};
            for (int j = 0; j < CFD_NNB; j++) {
                nbr[j * n + i] = nb[j];
                for (int d = 0; d < 3; d++)
                    normals[(j * 3 + d) * n + i] = sign[j] * fn[j][d];
            }
            areas[i] = 1.0f + 0.3f * (mxw_randf(&w) - 0.5f);
        }

    /* Free stream: Mach 0.5 at 3 degrees angle of attack, density 1.4,
     * pressure 1 (so the speed of sound is 1); computed in double. */
    const double g = 1.4, mach = 0.5, aoa = 3.0 * 3.14159265358979323846 / 180.0, rho_ff = 1.4, p_ff = 1.0;
    double v_ff[3] = {mach * cos(aoa), mach * sin(aoa), 0.0};
    double e_ff = p_ff / (g - 1.0) + 0.5 * rho_ff * (v_ff[0] * v_ff[0] + v_ff[1] * v_ff[1]);
    float ffv[CFD_NVAR] = {(float)rho_ff, (float)(rho_ff * v_ff[0]), (float)(rho_ff * v_ff[1]),
                           (float)(rho_ff * v_ff[2]), (float)e_ff};
    float fff[12];
    for (int m = 0; m < 3; m++)
        for (int d = 0; d < 3; d++)
            fff[m * 3 + d] = (float)(rho_ff * v_ff[m] * v_ff[d] + (m == d ? p_ff : 0.0));
    for (int d = 0; d < 3; d++)
        fff[9 + d] = (float)(v_ff[d] * (e_ff + p_ff));
    /* Initial state: the free stream disturbed by a few per cent per cell. */
    for (int i = 0; i < n; i++) {
        double rho = rho_ff * (1.0 + 0.04 * (mxw_randf(&w) - 0.5)), v[3], p = p_ff * (1.0 + 0.04 * (mxw_randf(&w) - 0.5));
        for (int d = 0; d < 3; d++)
            v[d] = v_ff[d] + 0.05 * (mxw_randf(&w) - 0.5);
        vars[V_RHO * n + i] = (float)rho;
        for (int d = 0; d < 3; d++)
            vars[(V_MX + d) * n + i] = (float)(rho * v[d]);
        vars[V_E * n + i] = (float)(p / (g - 1.0) + 0.5 * rho * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
    }

    int *d_nbr;
    float *d_normals, *d_areas, *d_vars, *d_old, *d_flux, *d_step;
    size_t vbytes = sizeof(float) * CFD_NVAR * n;
    MXW_CUDA(&w, cudaMalloc((void **)&d_nbr, sizeof(int) * CFD_NNB * n));
    MXW_CUDA(&w, cudaMalloc((void **)&d_normals, sizeof(float) * CFD_NNB * 3 * n));
    MXW_CUDA(&w, cudaMalloc((void **)&d_areas, sizeof(float) * n));
    MXW_CUDA(&w, cudaMalloc((void **)&d_vars, vbytes));
    MXW_CUDA(&w, cudaMalloc((void **)&d_old, vbytes));
    MXW_CUDA(&w, cudaMalloc((void **)&d_flux, vbytes));
    MXW_CUDA(&w, cudaMalloc((void **)&d_step, sizeof(float) * n));
    MXW_CUDA(&w, cudaMemcpy(d_nbr, nbr, sizeof(int) * CFD_NNB * n, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_normals, normals, sizeof(float) * CFD_NNB * 3 * n, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_areas, areas, sizeof(float) * n, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpy(d_vars, vars, vbytes, cudaMemcpyHostToDevice));
    MXW_CUDA(&w, cudaMemcpyToSymbol(ff_var, ffv, sizeof ffv));
    MXW_CUDA(&w, cudaMemcpyToSymbol(ff_fc, fff, sizeof fff));
    int blocks = (n + CFD_BLOCK - 1) / CFD_BLOCK;
    for (int it = 0; it < iters; it++) {
        MXW_CUDA(&w, cudaMemcpy(d_old, d_vars, vbytes, cudaMemcpyDeviceToDevice));
        cfd_step_factor<<<blocks, CFD_BLOCK>>>(d_vars, d_areas, d_step, n);
        MXW_LAUNCHED(&w);
        for (int stage = 0; stage < CFD_RK; stage++) {
            cfd_flux<<<blocks, CFD_BLOCK>>>(d_nbr, d_normals, d_vars, d_flux, n);
            MXW_LAUNCHED(&w);
            cfd_time_step<<<blocks, CFD_BLOCK>>>(stage, n, d_old, d_vars, d_step, d_flux);
            MXW_LAUNCHED(&w);
        }
    }
    MXW_CUDA(&w, cudaMemcpy(got, d_vars, vbytes, cudaMemcpyDeviceToHost));
    MXW_CUDA(&w, cudaFree(d_nbr));
    MXW_CUDA(&w, cudaFree(d_normals));
    MXW_CUDA(&w, cudaFree(d_areas));
    MXW_CUDA(&w, cudaFree(d_vars));
    MXW_CUDA(&w, cudaFree(d_old));
    MXW_CUDA(&w, cudaFree(d_flux));
    MXW_CUDA(&w, cudaFree(d_step));

    for (int it = 0; it < iters; it++)
        cfd_reference_iteration(nbr, normals, areas, vars, old_vars, step, fluxes, n, ffv, fff);
    double mass = 0.0;
    for (int i = 0; i < n; i++)
        mass += vars[V_RHO * n + i];
    for (size_t k = 0; k < (size_t)CFD_NVAR * n; k++)
        if (!isfinite(vars[k]))
            mxw_fail(&w, "the reference solution is not finite at variable %zu", k);
    if (!w.quiet)
        printf("cfd: %d cells (%dx%d sheet), %d iterations x %d stages, mean density %.6f\n", n, W, H, iters, CFD_RK,
               mass / n);
    mxw_check_exact(&w, "variables", got, vars, (size_t)CFD_NVAR * n, sizeof(float));
    free(nbr);
    free(id);
    free(normals);
    free(areas);
    free(vars);
    free(got);
    free(old_vars);
    free(fluxes);
    free(step);
    free(xf);
    free(yf);
    mxw_pass(&w);
    return 0;
}
#endif /* !MX_CUDA_CLANG */
