/* emu/exec_tex.c — texture fetches on texture objects (unified texture mode,
 * what nvcc emits for cudaTextureObject_t): tex.{1d,2d,3d}.v4.{f32,s32,u32}
 * .{s32,f32} and txq.{width,height,depth}.b32; plus the device's table of
 * texture descriptors (emu_tex_create/destroy, emu.h).  Layered textures
 * (tex.a1d/a2d) take the layer as the first, integer coordinate, clamped to
 * the layers; each layer is a slice, never filtered across.
 *
 * The texture operand is [%rd_handle, {coords}]: a MX_OPD_TEXADDR whose
 * first element is the 64-bit handle register and whose second is a VEC of
 * coordinates.  The binder sees neither the program nor the coordinate
 * vector (bind_insn leaves REF_NONE for a nested VEC), so the handler reads
 * the coordinate elements from prog->vec.
 *
 * Fetch rules (CUDA C++ Programming Guide, "Texture Fetching"):
 *  - normalized coordinates are scaled by the size first; wrap uses frac(x),
 *    mirror frac(x) or 1 - frac(x) when floor(x) is odd (both only with
 *    normalized coordinates: with unnormalized ones they act as clamp);
 *  - point: tex(x) = T[floor(x)];
 *  - linear: x_B = x - 0.5, i = floor(x_B), alpha = frac(x_B) held in 9-bit
 *    fixed point with 8 fractional bits (alpha is rounded to a multiple of
 *    1/256, so 1.0 is representable), tex(x) = (1-alpha) T[i] + alpha T[i+1],
 *    and the bilinear / trilinear products of those weights in 2D / 3D; the
 *    weighted sum is formed in f32 in the order the guide writes it.  This
 *    is the guide's model of the hardware's 9-bit weights; a host program can
 *    reproduce it bit for bit (tests/cuda/texture.cu does);
 *  - clamp limits the texel index to [0, N-1], border reads texels outside
 *    as 0, wrap takes it modulo N, mirror reflects it;
 *  - 1D linear memory (tex1Dfetch) takes integer coordinates, no filtering,
 *    and reads 0 outside [0, width);
 *  - cudaReadModeNormalizedFloat maps 8/16-bit unsigned integers to [0,1]
 *    (v / (2^n - 1)) and signed ones to [-1,1] (max(v / (2^(n-1) - 1), -1)).
 * Channels a texture lacks read as 0 (alpha as 1).  A .b32 result (the SASS
 * path's TEX and TLD, which name no result type: frontend/sass_lower.c)
 * is what the format gives: floats for float formats and normalized reads,
 * integers otherwise. */
#include "emu/interp.h"
#include "emu/access.h"

#include <math.h>
#include <pthread.h>

static pthread_mutex_t tex_lock = PTHREAD_MUTEX_INITIALIZER;

int emu_tex_create(struct emu_device *dev, const struct emu_tex_desc *d, uint64_t *handle)
{
    *handle = 0;
    if (!d || d->dims < 1 || d->dims > 3 || !d->width || (d->channels != 1 && d->channels != 2 && d->channels != 4)
        || (d->bits != 8 && d->bits != 16 && d->bits != 32) || d->kind > EMU_TEX_FLOAT
        || (d->kind == EMU_TEX_FLOAT && d->bits == 8))
        return MX_EINVAL;
    for (int i = 0; i < 3; i++)
        if (d->addr[i] > EMU_TEX_BORDER)
            return MX_EINVAL;
    pthread_mutex_lock(&tex_lock);
    for (uint32_t i = 0; i < EMU_TEX_MAX; i++)
        if (!dev->tex_live[i]) {
            dev->tex[i] = *d;
            if (!dev->tex[i].height || d->dims < 2)
                dev->tex[i].height = 1;
            if (!dev->tex[i].depth || d->dims < 3)
                dev->tex[i].depth = 1;
            if (!dev->tex[i].pitch)
                dev->tex[i].pitch = (uint64_t)d->width * d->channels * (d->bits / 8);
            dev->tex_live[i] = 1;
            pthread_mutex_unlock(&tex_lock);
            *handle = (uint64_t)i + 1;
            return MX_OK;
        }
    pthread_mutex_unlock(&tex_lock);
    return MX_ENOMEM;
}

int emu_tex_destroy(struct emu_device *dev, uint64_t handle)
{
    if (!handle || handle > EMU_TEX_MAX)
        return MX_EINVAL;
    pthread_mutex_lock(&tex_lock);
    int rc = dev->tex_live[handle - 1] ? MX_OK : MX_EINVAL;
    dev->tex_live[handle - 1] = 0;
    pthread_mutex_unlock(&tex_lock);
    return rc;
}

int emu_tex_get(struct emu_device *dev, uint64_t handle, struct emu_tex_desc *d)
{
    if (!handle || handle > EMU_TEX_MAX || !dev->tex_live[handle - 1])
        return MX_EINVAL;
    *d = dev->tex[handle - 1];
    return MX_OK;
}

static const struct emu_tex_desc *tex_lookup(struct emu_warp *w, const struct emu_xinsn *x, uint64_t h, int l)
{
    if (!h || h > EMU_TEX_MAX || !w->dev->tex_live[h - 1] || w->dev->tex[h - 1].surface) {
        emu_fault(w, x, MX_EILLEGAL, l, h, 0, "invalid texture object handle 0x%llx (not created, destroyed, or a "
                  "surface)", (unsigned long long)h);
        return NULL;
    }
    return &w->dev->tex[h - 1];
}

/* ------------------------------------------------------------ texels */

static float half_to_float(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023;
    float f;
    if (e == 0)
        f = ldexpf((float)m, -24);
    else if (e == 31)
        f = m ? NAN : INFINITY;
    else
        f = ldexpf((float)(m | 1024), (int)e - 25);
    uint32_t b;
    memcpy(&b, &f, 4);
    b |= s;
    memcpy(&f, &b, 4);
    return f;
}

/* One texel as 4 channels: floats (conv == 1) or integer bits (conv == 0).
 * Returns 0 after a fault. */
static int texel(struct emu_warp *w, const struct emu_xinsn *x, const struct emu_tex_desc *t, int l, int64_t i,
                 int64_t j, int64_t k, int as_float, uint32_t out[4])
{
    unsigned cb = t->bits / 8, es = cb * t->channels;
    uint64_t a = t->base + (uint64_t)k * t->pitch * t->height + (uint64_t)j * t->pitch + (uint64_t)i * es;
    if (w->tex_probe) { /* h_tex asks which texels a fetch reads: the first of each lane */
        if (!(w->tex_probe_mask >> l & 1))
            w->tex_probe[l] = a;
        w->tex_probe_mask |= 1u << l;
        w->tex_probe_bytes = (uint8_t)es;
        memset(out, 0, 4 * sizeof *out);
        return 1;
    }
    const uint8_t *p = emu_mem_lane(w, x, SP_GLOBAL, a, es, l, 0);
    if (!p)
        return 0;
    out[0] = out[1] = out[2] = 0;
    out[3] = as_float ? 0x3f800000u : 1u;
    for (unsigned c = 0; c < t->channels; c++) {
        uint32_t raw;
        if (cb == 1)
            raw = p[c];
        else if (cb == 2) {
            uint16_t v;
            memcpy(&v, p + 2 * c, 2);
            raw = v;
        } else
            memcpy(&raw, p + 4 * c, 4);
        if (!as_float) {
            out[c] = t->kind == EMU_TEX_SIGNED ? (uint32_t)(int32_t)sext(raw, t->bits)
                   : t->kind == EMU_TEX_FLOAT && cb == 2 ? (uint32_t)bits_f32(half_to_float((uint16_t)raw)) : raw;
            continue;
        }
        float f;
        if (t->kind == EMU_TEX_FLOAT)
            f = cb == 2 ? half_to_float((uint16_t)raw) : f32_of(raw);
        else if (t->kind == EMU_TEX_SIGNED) {
            int32_t v = (int32_t)sext(raw, t->bits);
            if (t->read_normalized && cb < 4) {
                f = (float)v / (float)((1 << (t->bits - 1)) - 1);
                f = f < -1.0f ? -1.0f : f;
            } else
                f = (float)v;
        } else {
            if (t->read_normalized && cb < 4)
                f = (float)raw / (float)((1u << t->bits) - 1);
            else
                f = (float)raw;
        }
        out[c] = (uint32_t)bits_f32(f);
    }
    return 1;
}

/* Index i in a dimension of n texels after the address mode; -1 = border. */
static int64_t address(int64_t i, int64_t n, int mode)
{
    switch (mode) {
    case EMU_TEX_WRAP: i %= n; return i < 0 ? i + n : i;
    case EMU_TEX_MIRROR: {
        int64_t p = i % (2 * n);
        p = p < 0 ? p + 2 * n : p;
        return p >= n ? 2 * n - 1 - p : p;
    }
    case EMU_TEX_BORDER: return i < 0 || i >= n ? -1 : i;
    default: return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

static int64_t floor_i(float u)
{
    if (!(u > -1e9f)) /* NaN too */
        return -1000000000;
    if (u > 1e9f)
        return 1000000000;
    return (int64_t)floorf(u);
}

/* ------------------------------------------------------------ handlers */

#define XF_COORD_F32 0x10 /* flags: float coordinates */
#define XF_DST_F32 0x20   /* flags: f32 results */
#define XF_HAS_PRED 0x40  /* flags: {d}|p form: aux2 = predicate slot */
#define XF_LAYERED 0x80   /* flags: a1d/a2d/acube: the first coordinate is the layer */
#define TEX_CUBE 1        /* x->off: tex.cube/acube (a direction picks a face) */
#define TEX_NATIVE 2      /* x->off: tex.b32, results as the texture's format gives them */

/* Coordinate value of element e (0..dims-1) of the coordinate vector, lane l. */
static inline uint64_t coord(const struct emu_warp *w, const struct mx_operand *cv, uint32_t e, int l)
{
    if (e >= cv->count)
        return 0;
    const struct mx_operand *o = &w->k->prog->vec[cv->reg + e];
    if (o->kind == MX_OPD_REG)
        return w->regs[(size_t)o->reg * WARP + l];
    if (o->kind == MX_OPD_IMM)
        return (uint64_t)o->imm;
    return 0;
}

/* Opcode: tex.{1d,2d,3d}[.level|.grad].v4.{f32,s32,u32,b32}.{s32,f32} d[|p], [tex, {coords}] (lod/gradients ignored: no mipmaps)
 * Synopsis: d = filtered texels of texture object `tex` at coords (see the header for the fetch rules) */
static int tex_lanes(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m);

/* Opcode: tex.geom.v4.dtype.ctype d, [tex, coords]   Synopsis: d = the texture's (filtered) texels at coords */
static int h_tex(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    if (__builtin_expect(w->dev->cfg.memif != NULL, 0) && !w->completing) {
        /* a request for the texel each lane reads first: found by a pass that reads nothing */
        uint64_t addr[WARP];
        w->tex_probe = addr;
        w->tex_probe_mask = 0;
        int r = tex_lanes(w, x, m);
        uint32_t pm = w->tex_probe_mask;
        w->tex_probe = NULL;
        if (r != EX_NEXT)
            return r;
        if (pm && (r = emu_mem_request(w, x, MX_MOP_LD, MX_MS_TEX, pm, addr, w->tex_probe_bytes, 0)))
            return r;
    }
    return tex_lanes(w, x, m);
}

/* The fetches of lanes m (with w->tex_probe set: which texels they read,
 * destination registers untouched). */
static int tex_lanes(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint32_t ms = x->aux, dims = x->size;
    const struct mx_operand *ta = &x->in->opd[ms];
    const struct mx_operand *cv = &w->k->prog->vec[ta->reg + 1];
    uint32_t href = VREF(w, x, ms, 0);
    const uint64_t *hv = (href & REF_CONST) ? CONST_ROW(w, href) : (const uint64_t *)(w->regs + (size_t)href * WARP);
    uint64_t *d[4];
    for (int c = 0; c < 4; c++) {
        uint32_t r = VREF(w, x, 0, c);
        d[c] = r == REF_NONE || (r & REF_CONST) ? NULL : w->regs + (size_t)r * WARP;
    }
    const int native = (x->off & TEX_NATIVE) != 0;
    const uint32_t c0 = (x->flags & XF_LAYERED) ? 1 : 0; /* coordinates after the layer */
    while (m) {
        int l = __builtin_ctz(m);
        m &= m - 1;
        const struct emu_tex_desc *t = tex_lookup(w, x, hv[l], l);
        if (!t)
            return EX_FAULT;
        /* .b32 (the SASS path's TEX / TLD, which name no result type): floats
           where the format is a float or read as normalized, else integers */
        const int as_float = native ? t->kind == EMU_TEX_FLOAT || t->read_normalized : (x->flags & XF_DST_F32) != 0;
        uint32_t res[4] = { 0, 0, 0, 0 };
        const int64_t size[3] = { t->width, t->height, t->depth };
        const uint32_t nd = dims < t->dims ? dims : t->dims;
        /* a layered texture's layer: the integer first coordinate, clamped (layers are slices) */
        int64_t layer = 0;
        if (c0 && !(x->off & TEX_CUBE)) {
            int64_t ly = (int32_t)coord(w, cv, 0, l), nl = t->layers ? t->layers : 1;
            layer = ly < 0 ? 0 : ly >= nl ? nl - 1 : ly;
        }
        if (!(x->flags & XF_COORD_F32)) {
            /* integer coordinates: no filtering, no normalization */
            int64_t idx[3] = { 0, 0, layer };
            int border = 0;
            for (uint32_t e = 0; e < nd; e++) {
                int64_t i = (int32_t)coord(w, cv, c0 + e, l);
                if (t->linear_mem)
                    idx[e] = i < 0 || i >= size[e] ? -1 : i;
                else
                    idx[e] = address(i, size[e], t->addr[e] == EMU_TEX_BORDER ? EMU_TEX_BORDER : EMU_TEX_CLAMP);
                border |= idx[e] < 0;
            }
            if (!border && !texel(w, x, t, l, idx[0], idx[1], idx[2], as_float, res))
                return EX_FAULT;
        } else {
            /* float coordinates */
            float u[3] = { 0, 0, 0 };
            int mode[3] = { EMU_TEX_CLAMP, EMU_TEX_CLAMP, EMU_TEX_CLAMP };
            if (x->off & TEX_CUBE) {
                /* a direction (x, y, z): the face of its largest component, and (s, t) on it
                 * (CUDA C++ Programming Guide, "Cubemap Textures"); faces are layers 6c..6c+5
                 * of cubemap c; an edge clamps to its own face (no seamless filtering) */
                float v[3], av[3];
                for (int e = 0; e < 3; e++)
                    v[e] = f32_of(coord(w, cv, c0 + (uint32_t)e, l)), av[e] = fabsf(v[e]);
                int face;
                float sc, tc, ma;
                if (av[0] >= av[1] && av[0] >= av[2])
                    face = v[0] >= 0 ? 0 : 1, ma = av[0], sc = v[0] >= 0 ? -v[2] : v[2], tc = -v[1];
                else if (av[1] >= av[2])
                    face = v[1] >= 0 ? 2 : 3, ma = av[1], sc = v[0], tc = v[1] >= 0 ? v[2] : -v[2];
                else
                    face = v[2] >= 0 ? 4 : 5, ma = av[2], sc = v[2] >= 0 ? v[0] : -v[0], tc = -v[1];
                if (!(ma > 0))
                    ma = 1.0f;
                u[0] = (sc / ma + 1.0f) * 0.5f * (float)size[0];
                u[1] = (tc / ma + 1.0f) * 0.5f * (float)size[1];
                int64_t ncube = (t->layers ? t->layers : 1) / 6, cl = c0 ? (int32_t)coord(w, cv, 0, l) : 0;
                cl = cl < 0 ? 0 : cl >= ncube ? ncube - 1 : cl;
                layer = cl * 6 + face;
            }
            for (uint32_t e = 0; !(x->off & TEX_CUBE) && e < nd; e++) {
                float c = f32_of(coord(w, cv, c0 + e, l));
                mode[e] = t->addr[e];
                if (t->norm_coords) {
                    if (mode[e] == EMU_TEX_WRAP)
                        c = c - floorf(c);
                    else if (mode[e] == EMU_TEX_MIRROR) {
                        float fl = floorf(c);
                        c = c - fl;
                        if (isfinite(fl) && fmodf(fl, 2.0f) != 0.0f)
                            c = 1.0f - c;
                    }
                    c *= (float)size[e];
                } else if (mode[e] == EMU_TEX_WRAP || mode[e] == EMU_TEX_MIRROR)
                    mode[e] = EMU_TEX_CLAMP; /* wrap/mirror need normalized coordinates */
                u[e] = c;
            }
            if (!t->filter_linear || !as_float) {
                int64_t idx[3] = { 0, 0, layer };
                int border = 0;
                for (uint32_t e = 0; e < nd; e++) {
                    idx[e] = address(floor_i(u[e]), size[e], mode[e]);
                    border |= idx[e] < 0;
                }
                if (!border && !texel(w, x, t, l, idx[0], idx[1], idx[2], as_float, res))
                    return EX_FAULT;
            } else {
                /* linear: per dimension two indices and 9-bit (1.8 fixed point) weights */
                int64_t i0[3] = { 0, 0, 0 }, i1[3] = { 0, 0, 0 };
                float wt[3][2] = { { 1, 0 }, { 1, 0 }, { 1, 0 } };
                for (uint32_t e = 0; e < nd; e++) {
                    float xb = u[e] - 0.5f;
                    int64_t i = floor_i(xb);
                    float frac = xb - floorf(xb);
                    if (!isfinite(frac))
                        frac = 0.0f;
                    int a9 = (int)rintf(frac * 256.0f); /* 0..256 */
                    wt[e][0] = (float)(256 - a9) * (1.0f / 256.0f);
                    wt[e][1] = (float)a9 * (1.0f / 256.0f);
                    i0[e] = address(i, size[e], mode[e]);
                    i1[e] = address(i + 1, size[e], mode[e]);
                }
                float acc[4] = { 0, 0, 0, 0 };
                const uint32_t ncorner = 1u << nd;
                /* corner order as the guide writes it: x fastest, then y, then z */
                for (uint32_t cn = 0; cn < ncorner; cn++) {
                    float wgt = 1.0f;
                    int64_t id[3] = { 0, 0, layer };
                    int border = 0;
                    for (uint32_t e = 0; e < nd; e++) {
                        int hi = (cn >> e) & 1;
                        wgt *= wt[e][hi];
                        id[e] = hi ? i1[e] : i0[e];
                        border |= id[e] < 0;
                    }
                    uint32_t tv[4] = { 0, 0, 0, 0 };
                    if (!border && !texel(w, x, t, l, id[0], id[1], id[2], 1, tv))
                        return EX_FAULT;
                    for (int c = 0; c < 4; c++)
                        acc[c] = cn ? acc[c] + wgt * f32_of(tv[c]) : wgt * f32_of(tv[c]);
                }
                for (int c = 0; c < 4; c++)
                    res[c] = (uint32_t)bits_f32(acc[c]);
            }
        }
        for (int c = 0; c < 4; c++)
            if (d[c] && !w->tex_probe)
                d[c][l] = res[c];
    }
    return EX_NEXT;
}

static int h_tex_pred(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    int rc = h_tex(w, x, m);
    if (rc == EX_NEXT)
        w->preds[x->aux2] |= m; /* every texel is resident */
    return rc;
}

static emu_fn bind_tex(const struct mx_insn *in, struct emu_xinsn *x)
{
    int dt = in->type[0], ct = in->type[1];
    if (dt != MX_T_F32 && dt != MX_T_S32 && dt != MX_T_U32 && dt != MX_T_B32)
        return NULL;
    if (ct != MX_T_F32 && ct != MX_T_S32)
        return NULL;
    int g = in->mod[MX_MG_GEOM];
    int cube = g == MX_GEOM_CUBE || g == MX_GEOM_ACUBE;
    uint32_t dims = g == MX_GEOM_1D || g == MX_GEOM_A1D ? 1 : g == MX_GEOM_2D || g == MX_GEOM_A2D || cube ? 2
                  : g == MX_GEOM_3D ? 3 : 0;
    if (cube && ct != MX_T_F32)
        return NULL;
    if (!dims)
        return NULL;
    if (in->mod[MX_MG_TEXMODE] == MX_TEXMODE_BASE)
        return NULL;
    if (in->opd[0].kind != MX_OPD_VEC || in->opd[0].count != 4)
        return NULL;
    int ms = -1, ps = -1;
    for (int s = 1; s < in->nopd; s++) {
        if (in->opd[s].kind == MX_OPD_TEXADDR) {
            ms = s;
            break;
        }
        if (in->opd[s].kind == MX_OPD_PRED)
            ps = s;
    }
    /* unified mode only: [tex, {coords}] (no separate sampler) */
    if (ms < 0 || in->opd[ms].count != 2)
        return NULL;
    x->aux = (uint32_t)ms;
    x->size = (uint8_t)dims;
    x->flags = (uint8_t)((ct == MX_T_F32 ? XF_COORD_F32 : 0) | (dt == MX_T_F32 ? XF_DST_F32 : 0) |
                         (g == MX_GEOM_A1D || g == MX_GEOM_A2D || g == MX_GEOM_ACUBE ? XF_LAYERED : 0));
    x->off = (cube ? TEX_CUBE : 0) | (dt == MX_T_B32 ? TEX_NATIVE : 0);
    if (ps >= 0) {
        x->flags |= XF_HAS_PRED;
        x->aux2 = in->opd[ps].reg;
        return h_tex_pred;
    }
    return h_tex;
}

/* Opcode: txq.{width,height,depth}.b32 d, [tex]   Synopsis: d = size of texture object `tex` in a dimension */
static int h_txq(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const uint64_t *a = SRC(1);
    uint64_t *d = DST(0);
    while (m) {
        int l = __builtin_ctz(m);
        m &= m - 1;
        const struct emu_tex_desc *t = tex_lookup(w, x, a[l] + (uint64_t)x->off, l);
        if (!t)
            return EX_FAULT;
        d[l] = x->aux2 == 0 ? t->width : x->aux2 == 1 ? t->height : t->depth;
    }
    return EX_NEXT;
}

static emu_fn bind_txq(const struct mx_insn *in, struct emu_xinsn *x)
{
    int q = in->mod[MX_MG_TXQ];
    if (in->opd[1].kind != MX_OPD_ADDR || in->opd[1].reg == MX_NONE || in->opd[1].sym != MX_NONE)
        return NULL;
    x->aux2 = q == MX_TXQ_WIDTH ? 0 : q == MX_TXQ_HEIGHT ? 1 : q == MX_TXQ_DEPTH ? 2 : 3;
    return x->aux2 < 3 ? h_txq : NULL;
}

const struct emu_bind_row emu_bind_tex[] = {
    { MX_OP_TEX, bind_tex },
    { MX_OP_TXQ, bind_txq },
    EMU_BIND_END
};
