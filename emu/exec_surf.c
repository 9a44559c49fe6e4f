/* emu/exec_surf.c — surface loads and stores on surface objects (what nvcc
 * emits for cudaSurfaceObject_t): suld.b / sust.b in every geometry
 * (1d, 2d, 3d, a1d, a2d) with .b8/.b16/.b32/.b64 elements, scalar or
 * .v2/.v4, and each out-of-range mode.  A surface is a texture object
 * created with `surface` set (emu_tex_create): the same descriptor table.
 *
 * Rules (PTX ISA, "suld" and "sust"): .b is unformatted: the x coordinate
 * is a byte offset into the row, y and z are rows and slices, and a1d/a2d
 * take the layer first ({layer, x} / {layer, x, y, _}).  An access whose
 * bytes leave the surface follows the mode: .trap faults (compute-sanitizer
 * calls it an illegal address), .clamp moves each coordinate to the nearest
 * position inside (x to the last whole access of the row), .zero reads
 * zeros and drops stores.  An x that is not a multiple of the access size
 * is a misaligned-address fault in every mode.  Surfaces are read and
 * written through device memory at once; with a memory interface the
 * access is one request of the texture path. */
#include "emu/interp.h"
#include "emu/access.h"

#define XF_STORE 0x10 /* flags: sust */

/* Element e of the coordinate vector of lane l (registers or immediates). */
static inline int64_t coord(const struct emu_warp *w, const struct mx_operand *cv, uint32_t e, int l)
{
    if (e >= cv->count)
        return 0;
    const struct mx_operand *o = &w->k->prog->vec[cv->reg + e];
    if (o->kind == MX_OPD_REG)
        return (int32_t)w->regs[(size_t)o->reg * WARP + l];
    if (o->kind == MX_OPD_IMM)
        return (int32_t)o->imm;
    return 0;
}

/* The address lane l accesses (size bytes), or: 0 with *zero set for a
 * .zero access out of range, 0 after a fault. */
static uint64_t surf_addr(struct emu_warp *w, const struct emu_xinsn *x, const struct emu_tex_desc *t, int l,
                          unsigned size, int *zero)
{
    const struct mx_operand *ta = &x->in->opd[x->aux];
    const struct mx_operand *cv = &w->k->prog->vec[ta->reg + 1];
    int g = x->in->mod[MX_MG_GEOM], mode = x->in->mod[MX_MG_SUCLAMP];
    int layered = g == MX_GEOM_A1D || g == MX_GEOM_A2D;
    uint32_t base = layered ? 1 : 0, nd = g == MX_GEOM_3D ? 3 : g == MX_GEOM_2D || g == MX_GEOM_A2D ? 2 : 1;
    int64_t layer = layered ? coord(w, cv, 0, l) : 0;
    int64_t c[3] = { 0, 0, 0 };
    for (uint32_t e = 0; e < nd; e++)
        c[e] = coord(w, cv, base + e, l);
    uint64_t es = (uint64_t)t->channels * (t->bits / 8);
    int64_t lim[3] = { (int64_t)(t->width * es) - (int64_t)size, (int64_t)t->height - 1, (int64_t)t->depth - 1 };
    int64_t llim = (int64_t)(t->layers ? t->layers : 1) - 1;
    *zero = 0;
    if (c[0] % (int64_t)size) {
        emu_fault(w, x, MX_EMISALIGNED, l, (uint64_t)c[0], size,
                  "surface access of %u bytes at byte offset %lld of a row is misaligned", size, (long long)c[0]);
        return 0;
    }
    int out = layer < 0 || layer > llim;
    for (uint32_t e = 0; e < nd; e++)
        out |= c[e] < 0 || c[e] > lim[e];
    if (out) {
        if (mode == MX_SUCLAMP_ZERO) {
            *zero = 1;
            return 0;
        }
        if (mode != MX_SUCLAMP_CLAMP) { /* .trap, and no mode at all */
            emu_fault(w, x, MX_EMEMFAULT, l, (uint64_t)c[0], size,
                      "surface access out of range: layer %lld, (%lld, %lld, %lld) with x in bytes, of a %u x %u x %u "
                      "surface of %u layers with %llu-byte elements", (long long)layer, (long long)c[0],
                      (long long)c[1], (long long)c[2], t->width, t->height, t->depth, t->layers ? t->layers : 1,
                      (unsigned long long)es);
            return 0;
        }
        for (uint32_t e = 0; e < nd; e++)
            c[e] = c[e] < 0 ? 0 : c[e] > lim[e] ? lim[e] : c[e];
        c[0] -= c[0] % (int64_t)size;
        layer = layer < 0 ? 0 : layer > llim ? llim : layer;
    }
    uint64_t slice = t->pitch * t->height;
    return t->base + (uint64_t)layer * slice * t->depth + (uint64_t)c[2] * slice + (uint64_t)c[1] * t->pitch +
           (uint64_t)c[0];
}

/* The surface of lane l's handle, or NULL after a fault. */
static const struct emu_tex_desc *surf_lookup(struct emu_warp *w, const struct emu_xinsn *x, uint64_t h, int l)
{
    if (!h || h > EMU_TEX_MAX || !w->dev->tex_live[h - 1] || !w->dev->tex[h - 1].surface) {
        emu_fault(w, x, MX_EILLEGAL, l, h, 0, "invalid surface object handle 0x%llx (not created, destroyed, or a "
                  "texture)", (unsigned long long)h);
        return NULL;
    }
    return &w->dev->tex[h - 1];
}

/* Opcode: suld.b.geom{.v2,.v4}.{b8,b16,b32,b64}{.trap,.clamp,.zero} d, [surf, {coords}]
 *         sust.b.geom{.v2,.v4}.{b8,b16,b32,b64}{.trap,.clamp,.zero} [surf, {coords}], a
 * Synopsis: d = the bytes at coords (x in bytes) / the bytes at coords = a */
static int h_surf(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m)
{
    const int st = (x->flags & XF_STORE) != 0;
    const uint32_t vs = st ? 1 : 0, nv = x->aux2, es = x->size;
    const unsigned size = nv * es;
    uint32_t href = VREF(w, x, x->aux, 0);
    const uint64_t *hv = (href & REF_CONST) ? CONST_ROW(w, href) : (const uint64_t *)(w->regs + (size_t)href * WARP);
    uint64_t addr[WARP];
    uint32_t zero = 0, mm = m;
    while (mm) {
        int l = __builtin_ctz(mm);
        mm &= mm - 1;
        const struct emu_tex_desc *t = surf_lookup(w, x, hv[l], l);
        int z;
        if (!t || (!(addr[l] = surf_addr(w, x, t, l, size, &z)) && !z))
            return EX_FAULT;
        zero |= (uint32_t)z << l;
    }
    if (__builtin_expect(w->dev->cfg.memif != NULL, 0) && !w->completing && (m & ~zero)) {
        int r = emu_mem_request(w, x, st ? MX_MOP_ST : MX_MOP_LD, MX_MS_TEX, m & ~zero, addr, size, 0);
        if (r)
            return r;
    }
    while (m) {
        int l = __builtin_ctz(m);
        m &= m - 1;
        uint8_t *p = NULL;
        if (!(zero >> l & 1) && !(p = emu_mem_lane(w, x, SP_GLOBAL, addr[l], size, l, st)))
            return EX_FAULT;
        for (uint32_t e = 0; e < nv; e++) {
            uint32_t r = VREF(w, x, vs, e);
            if (st) {
                if (!p)
                    continue; /* .zero: dropped */
                uint64_t v = (r & REF_CONST) ? CONST_ROW(w, r)[l] : w->regs[(size_t)r * WARP + l];
                memcpy(p + e * es, &v, es); /* little-endian host: the low bytes */
            } else if (r != REF_NONE && !(r & REF_CONST)) {
                uint64_t v = 0;
                if (p)
                    memcpy(&v, p + e * es, es);
                w->regs[(size_t)r * WARP + l] = v;
            }
        }
    }
    return EX_NEXT;
}

static emu_fn bind_surf(const struct mx_insn *in, struct emu_xinsn *x)
{
    int st = in->op == MX_OP_SUST;
    int g = in->mod[MX_MG_GEOM];
    uint32_t dims = g == MX_GEOM_1D || g == MX_GEOM_A1D ? 1 : g == MX_GEOM_2D || g == MX_GEOM_A2D ? 2
                  : g == MX_GEOM_3D ? 3 : 0;
    if (!dims || in->mod[MX_MG_SUFMT] != MX_SUFMT_B || in->nopd != 2)
        return NULL; /* formatted (.p) surfaces and cube maps: unsupported, reported by name */
    int ms = st ? 0 : 1, vs = st ? 1 : 0;
    if (in->opd[ms].kind != MX_OPD_TEXADDR || in->opd[ms].count != 2)
        return NULL;
    uint32_t nv = in->opd[vs].kind == MX_OPD_VEC ? in->opd[vs].count : 0;
    if (nv != 1 && nv != 2 && nv != 4)
        return NULL;
    uint32_t es = mx_type_size(in->type[0]);
    if (es != 1 && es != 2 && es != 4 && es != 8)
        return NULL;
    x->aux = (uint32_t)ms;
    x->aux2 = nv;
    x->size = (uint8_t)es;
    x->flags = st ? XF_STORE : 0;
    return h_surf;
}

const struct emu_bind_row emu_bind_surf[] = {
    { MX_OP_SULD, bind_surf },
    { MX_OP_SUST, bind_surf },
    EMU_BIND_END
};
