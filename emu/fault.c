/* emu/fault.c — fault reports in compute-sanitizer's terms: a warp that
 * faults records where (kernel, CTA, thread, PTX line, address) in its SM;
 * at the end of the quantum the scheduler keeps the earliest fault of all
 * SMs (by SM clock, then SM index), so the report does not depend on host
 * threads.  Also the wording of deadlock reports. */
#include "emu/emu-internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The name the program's .file directive gives file number num, or NULL. */
static const char *source_name(const struct mx_program *g, uint32_t num)
{
    for (uint32_t i = 0; num && i < g->nfiles; i++)
        if (g->files[i].num == num)
            return mx_str(g, g->files[i].name);
    return NULL;
}

int emu_fault(struct emu_warp *w, const struct emu_xinsn *x, int status, int lane, uint64_t addr, unsigned size,
              const char *fmt, ...)
{
    struct emu_cta *c = w->cta;
    struct emu_sm *sm = c->sm;
    if (sm->faulted)
        return EX_FAULT; /* the first fault of the SM this quantum stands */
    sm->faulted = 1;
    sm->fault_clock = sm->clock + (sm->running == w ? w->insns - sm->run_insns0 : 0);
    sm->fault_grid = c->grid;
    struct emu_fault *f = &sm->fault;
    memset(f, 0, sizeof *f);
    const struct mx_program *g = w->k->prog;
    f->status = status;
    snprintf(f->kernel, sizeof f->kernel, "%s", mx_str(g, g->funcs[w->k->entry].name));
    memcpy(f->cta, c->ctaid, sizeof f->cta);
    int ln = lane >= 0 ? lane : (w->active ? __builtin_ctz(w->active) : 0);
    uint32_t t = w->warp_id * WARP + (uint32_t)ln;
    const struct emu_launch *l = &c->grid->l;
    f->tid[0] = t % l->block[0];
    f->tid[1] = (t / l->block[0]) % l->block[1];
    f->tid[2] = t / (l->block[0] * l->block[1]);
    f->lane = lane;
    f->warp = w->warp_id;
    f->pc = w->pc;
    const struct mx_insn *in = x ? x->in : NULL;
    f->line = in ? in->line : 0;
    f->loc_file = in ? in->loc_file : 0;
    f->loc_line = in ? in->loc_line : 0;
    const char *src = source_name(g, f->loc_file);
    snprintf(f->source, sizeof f->source, "%s", f->loc_line && src ? src : "");
    f->sass = g->sass_addr != NULL;
    f->sass_addr = in && g->sass_addr && in >= g->insns && in < g->insns + g->ninsns ? g->sass_addr[in - g->insns] : 0;
    f->addr = addr;
    f->size = size;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
    if (status == MX_EMEMFAULT && addr >= MEM_GLOBAL_BASE) {
        int a = emu_alloc_nearest(w->dev, addr);
        if (a >= 0) {
            const struct emu_alloc *al = emu_alloc_at(w->dev, (uint32_t)a);
            const char *rel = addr < al->base ? "before" : "after";
            uint64_t dist = addr < al->base ? al->base - addr : addr - (al->base + al->size);
            snprintf(f->detail, sizeof f->detail, "Address 0x%llx is %llu bytes %s the nearest allocation %s%s%sat 0x%llx of size %llu bytes%s",
                     (unsigned long long)addr, (unsigned long long)dist, rel, al->name[0] ? "'" : "", al->name,
                     al->name[0] ? "' " : "", (unsigned long long)al->base, (unsigned long long)al->size,
                     al->live ? "" : " (freed)");
        }
    }
    return EX_FAULT;
}

void emu_fault_print(FILE *out, const struct emu_fault *f)
{
    if (strcmp(f->message, mx_strstatus(f->status)))
        fprintf(out, "========= %s (%s)\n", f->message, mx_strstatus(f->status));
    else
        fprintf(out, "========= %s\n", f->message);
    if (f->status == MX_ELAUNCH || f->status == MX_ENOTFOUND || f->status == MX_EINVAL) {
        fprintf(out, "=========     kernel %s was not started\n", f->kernel);
        return;
    }
    if (f->sass && f->source[0]) /* (the PTX line is the lowered program's; the source line the cubin's line table's) */
        fprintf(out, "=========     at SASS address 0x%04x (%s:%u; line %u, pc %u of the lowered program) in kernel %s",
                f->sass_addr, f->source, f->loc_line, f->line, f->pc, f->kernel);
    else if (f->sass)
        fprintf(out, "=========     at SASS address 0x%04x (line %u, pc %u of the lowered program) in kernel %s",
                f->sass_addr, f->line, f->pc, f->kernel);
    else
        fprintf(out, "=========     at PTX line %u (pc %u) in kernel %s", f->line, f->pc, f->kernel);
    if (f->loc_line && !f->sass && f->source[0])
        fprintf(out, " (%s:%u)", f->source, f->loc_line);
    else if (f->loc_line && !f->sass)
        fprintf(out, " [source file %u line %u]", f->loc_file, f->loc_line);
    fputc('\n', out);
    fprintf(out, "=========     by thread (%u,%u,%u) in block (%u,%u,%u), warp %u", f->tid[0], f->tid[1], f->tid[2],
            f->cta[0], f->cta[1], f->cta[2], f->warp);
    if (f->lane >= 0)
        fprintf(out, " lane %d", f->lane);
    fputc('\n', out);
    if (f->detail[0])
        fprintf(out, "=========     %s\n", f->detail);
}

uint32_t emu_warp_pc(const struct emu_warp *w)
{
    uint32_t pc = w->state == WS_PARKED ? w->park_pc : w->pc;
    if (w->state == WS_BARRIER && pc > 0)
        pc--;
    if (pc >= w->fend && w->fend > 0)
        pc = w->fend - 1;
    return pc < w->k->prog->ninsns ? pc : 0;
}

/* Where every blocked warp's parked lanes wait, for a deadlock report:
 * "warp 0 waits at PTX line 12 (barrier 0)" when the whole warp waits at one
 * place, "warp 1 lanes 0x0000ffff wait at PTX line 20 (bar.warp.sync
 * 0xffffffff)" for one of its diverged paths; "warp 2 is parked at PTX line
 * 30" for a warp asleep (WS_PARKED, park.c). */
/* "PTX line N", or for a program lowered from machine code "SASS address
 * 0xA", with "(FILE:LINE)" when a line table gives it (the file's base name:
 * a deadlock report lists many warps), of instruction pc. */
static const char *place(const struct mx_program *g, uint32_t pc, char *buf, size_t n)
{
    const struct mx_insn *in = pc < g->ninsns ? &g->insns[pc] : NULL;
    if (!g->sass_addr) {
        snprintf(buf, n, "PTX line %u", in ? in->line : 0);
        return buf;
    }
    const char *src = in && in->loc_line ? source_name(g, in->loc_file) : NULL;
    const char *base = src ? strrchr(src, '/') : NULL;
    if (src)
        snprintf(buf, n, "SASS address 0x%04x (%.60s:%u)", g->sass_addr[pc], base ? base + 1 : src, in->loc_line);
    else
        snprintf(buf, n, "SASS address 0x%04x", in ? g->sass_addr[pc] : 0);
    return buf;
}

/* Appends to p[0..cap), n bytes used: the new n, never past cap - 1. */
static size_t add(char *p, size_t n, size_t cap, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static size_t add(char *p, size_t n, size_t cap, const char *fmt, ...)
{
    if (n + 1 >= cap)
        return n;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(p + n, cap - n, fmt, ap);
    va_end(ap);
    return k < 0 ? n : n + (size_t)k < cap ? n + (size_t)k : cap - 1;
}

void emu_deadlock_detail(const struct emu_cta *c, char *p, size_t cap)
{
    const struct emu_kernel *k = c->grid->k;
    size_t n = 0;
    char at[112];
    for (uint32_t i = 0; i < c->nwarps && n + 120 < cap; i++) {
        const struct emu_warp *w = &c->warps[i];
        if (w->state == WS_PARKED) {
            uint32_t pc = emu_warp_pc(w);
            n = add(p, n, cap, "%swarp %u is parked at %s", n ? "; " : "", i, place(k->prog, pc, at, sizeof at));
            continue;
        }
        if (w->state != WS_BARRIER)
            continue;
        uint32_t live = (w->nthreads == WARP ? FULL_MASK : (1u << w->nthreads) - 1) & ~w->exited;
        for (uint32_t j = w->nsimt; j-- > 0 && n + 120 < cap;) {
            const struct emu_simt *e = &w->simt[j];
            uint32_t lanes = e->mask & ~w->exited;
            if (!e->wait || !lanes)
                continue;
            place(k->prog, e->pc > 0 ? e->pc - 1 : 0, at, sizeof at);
            n = add(p, n, cap, "%swarp %u ", n ? "; " : "", i);
            if (lanes != live)
                n = add(p, n, cap, "lanes 0x%08x wait", lanes);
            else
                n = add(p, n, cap, "waits");
            if (e->wait == WAIT_WARPSYNC)
                n = add(p, n, cap, " at %s (bar.warp.sync 0x%08x)", at, e->need);
            else if (e->wait == WAIT_MBAR)
                n = add(p, n, cap, " at %s (mbarrier at shared offset 0x%x, phase of parity %u)", at, e->need & ~1u,
                        e->need & 1u);
            else
                n = add(p, n, cap, " at %s (barrier %u)", at, e->wait - 1);
        }
    }
}
