/* emu/interp.h — the per-warp interpreter: run loop, SIMT stack, call frames. */
#ifndef MX_EMU_INTERP_H
#define MX_EMU_INTERP_H
#include "emu/emu-internal.h"

/* Sets up frame 0 of a warp for kernel `entry` with lanes `mask`. */
int emu_warp_start(struct emu_warp *w, uint32_t entry, uint32_t mask, uint8_t *kernel_params);
/* Runs up to `budget` warp instructions; returns EX_YIELD, EX_NEXT (budget
 * used up, still ready), EX_WAIT (a request outstanding at w->pc) or EX_FAULT. */
int emu_warp_run(struct emu_warp *w, uint32_t budget);
/* Runs w until one instruction has executed (or it stops): *x gets that
 * instruction (NULL if none ran).  For timing models. */
int emu_warp_step(struct emu_warp *w, const struct emu_xinsn **x);
/* Completes the request a warp waits for: runs the instruction at w->pc
 * again with w->completing set (it was counted when issued). */
int emu_warp_complete(struct emu_warp *w);
void emu_frame_release(struct emu_frame *f);

/* SIMT control, for handlers: */
/* Diverges the current SIMT entry: lanes of masks[i] continue at pcs[i]
 * (n groups; lanes not in any group must not exist), reconverging at rpc. */
int emu_simt_branch(struct emu_warp *w, uint32_t n, const uint32_t *pcs, const uint32_t *masks, uint32_t rpc);
/* Lanes `m` leave the current function (ret) or the kernel (exit). */
int emu_lanes_return(struct emu_warp *w, const struct emu_xinsn *x, uint32_t m);
int emu_lanes_exit(struct emu_warp *w, uint32_t m);
/* Calls function `fi` for lanes m (arguments copied from the call's list). */
int emu_call(struct emu_warp *w, const struct emu_xinsn *x, uint32_t fi, uint32_t m);
#endif
