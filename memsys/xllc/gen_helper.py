#!/usr/bin/env python3
"""memsys/xllc/gen_helper.py — writes the register-file helper kernel of the
extended LLC (MICRO'22 Morpheus §4.2.1) as PTX: one warp per extended-LLC
set, 32 ways (one per lane), the set's data in 32 data-array registers and
its metadata in one metadata register.  Batch interface (a list of requests
per set, an event record per request); see memsys/xllc/README.md.

    gen_helper.py --imov brx|movind [--break BUG] [-o FILE]     (the rf variant)
    gen_helper.py --store l1|shm [--break BUG] [-o FILE]       (blocks in L1 or shared memory)
    gen_helper.py --store rfl1 --imov brx|movind [...]         (the combined layout: a warp's blocks
                                                                in registers, or in L1 if given an array)
    gen_helper.py --store rf --bdi --imov brx|movind [--break bdi-decode] [-o FILE]
                                                               (the rf variant with BDI compression,
                                                                docs/xllc-bdi.md: xllc_helper_rfbdi_serve)

--imov brx     Indirect-MOV as the paper's Algorithm 2 (brx.idx over a
               32-target switch), base PTX only.
--imov movind  Indirect-MOV as the native instruction of §4.3.2 (our ISA
               extension indirect-mov: movind.b32).
--break BUG    a deliberately broken build for the tests: no-writeback
               (a dirty victim is dropped), no-lru-hit (a hit does not
               refresh the LRU counters), tag-lowbit (the tag compare ignores
               the tag's lowest bit), tag-bit6 (it ignores bit 6: in the
               integrated system, where the blocks of one set lie 2^6 blocks
               apart with 8 partitions of 7 + 1 sets, not bit 0),
               imov-off-by-one (the Indirect-MOV writes go to data-array
               register index + 1 mod 32), atom-lane (an atomic's result is
               written to the next lane's word); with --bdi only bdi-decode
               (the decode of a high or low slot zero-extends its field,
               bfe.u32, instead of sign-extending it) and bdi-epoch (the
               controller's new-epoch flag is ignored: the set never
               re-splits, every register stays uncompressed).

The committed helper_rf_brx.ptx and helper_rf_movind.ptx are this script's
output without --break; tests/meson.build regenerates them and the test
checks the committed files are up to date; likewise helper_rfbdi_brx.ptx
and helper_rfbdi_movind.ptx (--bdi).
"""
import argparse
import sys

BUGS = ("no-writeback", "no-lru-hit", "tag-lowbit", "tag-bit6", "imov-off-by-one", "atom-lane", "bdi-decode",
        "bdi-epoch")
BDI_BUGS = ("bdi-decode", "bdi-epoch")   # the bugs of the --bdi kernel (and only of it)

# Metadata register (one .b64 per lane; lane i = way i):
VALID = 1 << 63
DIRTY = 1 << 62
LRU_SHIFT = 57
LRU_BITS = 5
LRU_ONE = 1 << LRU_SHIFT
LRU_MAX = (1 << LRU_BITS) - 1
TAG_MASK = (1 << LRU_SHIFT) - 1

REQ_SIZE = 160   # {u64 line; u32 op; u32 pad; u32 mask[4]; u8 data[128]}
EV_SIZE = 32     # {u32 hit, way, victim_valid, victim_dirty; u64 victim_line, line}

# The query unit's warp-status-table row (include/mx/morpheus_mmio.h, version 2):
ROW_TAG, ROW_OP, ROW_STATUS, ROW_BUF, ROW_WMASK = 0x00, 0x0c, 0x10, 0x18, 0x20
ROW_WAY, ROW_VFLAGS, ROW_VTAG = 0x30, 0x34, 0x38
OP_ST, OP_FILL, OP_FLUSH, OP_INV, OP_ATOM, OP_PEEK = 1, 4, 5, 6, 7, 8
ST_DONE, ST_HIT = 0x2, 0x4

# The atomics a helper warp executes itself (§4.2.3), by their code (enum mx_atom of include/mx/memreq.h):
# (PTX operation.type, 64-bit, takes a second operand)
ATOMS = [None, ("add.u32", 0, 0), ("add.u64", 1, 0), ("add.f32", 0, 0), ("add.f64", 1, 0),
         ("min.u32", 0, 0), ("min.s32", 0, 0), ("min.u64", 1, 0), ("min.s64", 1, 0),
         ("max.u32", 0, 0), ("max.s32", 0, 0), ("max.u64", 1, 0), ("max.s64", 1, 0),
         ("and.b32", 0, 0), ("or.b32", 0, 0), ("xor.b32", 0, 0), ("and.b64", 1, 0), ("or.b64", 1, 0), ("xor.b64", 1, 0),
         ("exch.b32", 0, 0), ("exch.b64", 1, 0), ("cas.b32", 0, 1), ("cas.b64", 1, 1), ("inc.u32", 0, 0), ("dec.u32", 0, 0)]
ATOM_64 = sum(1 << i for i, a in enumerate(ATOMS) if a and a[1])


class Gen:
    def __init__(self, imov, bug, store="rf"):
        self.imov = imov
        self.bug = bug
        self.store = store       # where the blocks live: rf (data-array registers), l1 (an L1-resident
                                 # global array), shm (shared memory)
        self.out = []
        self.site = 0

    def emit(self, s=""):
        self.out.append(s)

    def label(self, name):
        self.out.append(name + ":")

    # ---- Indirect-MOV (Algorithm 2 / §4.3.2) ----------------------------------------

    def mem_addr(self, idx):
        """%da = this lane's word of block idx in the set's data array (l1, shm)."""
        self.emit(f"  mul.wide.u32 %da, {idx}, 128;")
        self.emit("  add.s64 %da, %da, %dbase;")
        self.emit("  add.s64 %da, %da, %lane4;")

    def imov_read(self, dst, idx, what):
        """dst = data-array register number idx (warp-uniform)."""
        if self.store != "rf":
            sp = "global.ca" if self.store == "l1" else "shared"
            self.emit(f"  // the block's word from the set's data array ({self.store}): {what}")
            self.mem_addr(idx)
            self.emit(f"  ld.{sp}.u32 {dst}, [%da];")
            return
        self.site += 1
        n = self.site
        if self.imov == "movind":
            self.emit(f"  // Indirect-MOV (native, §4.3.2): {what}")
            self.emit(f"  movind.b32 {dst}, %d[{idx}];")
            return
        self.emit(f"  // Indirect-MOV (Algorithm 2, brx.idx): {what}")
        self.switch(n, idx, lambda i: f"mov.b32 {dst}, %d{i};")

    def imov_write(self, idx, src, what):
        """data-array register number idx = src (warp-uniform idx)."""
        off = self.bug == "imov-off-by-one"
        if self.store != "rf":
            sp = "global" if self.store == "l1" else "shared"
            self.emit(f"  // the word into the set's data array ({self.store}): {what}")
            if off:
                self.emit(f"  add.u32 %bug, {idx}, 1;                      // BROKEN: one block too far")
                self.emit("  and.b32 %bug, %bug, 31;")
                idx = "%bug"
            self.mem_addr(idx)
            self.emit(f"  st.{sp}.u32 [%da], {src};")
            return
        self.site += 1
        n = self.site
        if self.imov == "movind":
            self.emit(f"  // Indirect-MOV (native, §4.3.2): {what}")
            if off:
                self.emit(f"  add.u32 %bug, {idx}, 1;                      // BROKEN: one register too far")
                self.emit("  and.b32 %bug, %bug, 31;")
                idx = "%bug"
            self.emit(f"  movind.b32 %d[{idx}], {src};")
            return
        self.emit(f"  // Indirect-MOV (Algorithm 2, brx.idx): {what}")
        if off:
            self.emit("  // BROKEN: case i writes data-array register (i + 1) mod 32")
        self.switch(n, idx, lambda i: f"mov.b32 %d{(i + 1) % 32 if off else i}, {src};")

    def switch(self, n, idx, body):
        p = f"$IM{n}"
        self.emit(f"{p}_T: .branchtargets " + ", ".join(f"{p}_{i}" for i in range(32)) + ";   // Alg. 2 line 2")
        self.emit(f"  brx.idx {idx}, {p}_T;                      // Alg. 2 line 3: jump to L[{idx}]")
        for i in range(32):
            self.label(f"{p}_{i}")
            self.emit(f"  {body(i)}")
            self.emit(f"  bra.uni {p}_E;                           // Alg. 2: return")
        self.label(f"{p}_E")

    # ---- pieces ------------------------------------------------------------------------

    def lane_lru(self):
        """%lru = this lane's LRU counter (metadata bits 57..61)."""
        self.emit(f"  bfe.u64 %x64, %m, {LRU_SHIFT}, {LRU_BITS};")
        self.emit("  cvt.u32.u64 %lru, %x64;")

    def lru_update(self, way, why):
        """The paper's LRU update (Alg. 1 lines 8-12) on true-LRU ranks: the
        used way gets the maximum, the ways more recent than it lose one."""
        self.emit(f"  // LRU update ({why}), Alg. 1 lines 8-12 as ranks: c = counter of way {way};")
        self.emit("  // every way with a counter above c is decremented, way's counter = max (31)")
        self.lane_lru()
        self.emit(f"  shfl.sync.idx.b32 %c, %lru, {way}, 31, 0xffffffff;")
        self.emit("  setp.gt.u32 %pdec, %lru, %c;")
        self.emit(f"  @%pdec sub.s64 %m, %m, {LRU_ONE:#x};   // LRU - 1 (Alg. 1 line 11)")
        self.emit(f"  setp.eq.u32 %pme, %lane, {way};")
        self.emit(f"  @%pme or.b64 %m, %m, {LRU_MAX << LRU_SHIFT:#x};    // LRU = max (Alg. 1 line 9)")

    def merge_store(self):
        """%val = %val with the request's masked bytes (%wdata under %bmask)."""
        self.emit("  // store: bytes under the mask come from the request (val ^= (val ^ wdata) & bmask)")
        self.emit("  xor.b32 %x, %val, %wdata;")
        self.emit("  and.b32 %x, %x, %bmask;")
        self.emit("  xor.b32 %val, %val, %x;")

    def meta_of(self, way):
        """%vm = metadata of lane `way` (broadcast), %vhi its high word."""
        self.emit("  mov.b64 {%mlo, %mhi}, %m;")
        self.emit(f"  shfl.sync.idx.b32 %vlo, %mlo, {way}, 31, 0xffffffff;")
        self.emit(f"  shfl.sync.idx.b32 %vhi, %mhi, {way}, 31, 0xffffffff;")
        self.emit("  mov.b64 %vm, {%vlo, %vhi};")

    def ffs(self, dst, src, line):
        self.emit(f"  brev.b32 %x, {src};                         // {line}: __ffs(x) - 1 = clz(brev(x))")
        self.emit(f"  clz.b32 {dst}, %x;")

    def body(self, P, fill):
        """One request (Algorithm 1, the miss path, stores): expects %aux0 (the
        tag), %line, %pst (a store, with %wdata and %bmask), and with `fill`
        %pfill (a fill: the block is in %val, no lookup).  Jumps to P+RESP (a
        load's block is in %val) or P+EVENT (the answer: %hit, %aux3,
        %vvalid, %vdirty, %vline).  Labels are spelled with P for '$'."""
        e = lambda x="": self.emit(x.replace("$", P))
        bug = self.bug
        e("$LOOKUP:                                         // Algorithm 1: tag lookup")
        e("  shr.u64 %aux0, %line, 7;                      // input: the request's tag in R_aux0 (all lanes)")
        e("  setp.lt.s64 %aux1, %m, 0;                     // Alg. 1 line 2: R_aux1 = Valid(R_M) (bit 63)")
        e(f"  and.b64 %x64, %m, {TAG_MASK:#x};")
        if bug in ("tag-lowbit", "tag-bit6"):
            m = -2 if bug == "tag-lowbit" else -65
            e(f"  and.b64 %x64, %x64, {m};                       // BROKEN: ignore one bit of the tag")
            e(f"  and.b64 %vm, %aux0, {m};")
            e("  setp.eq.and.u64 %aux1, %x64, %vm, %aux1;      // Alg. 1 line 3: R_aux1 &&= (R_aux0 == Tag(R_M))")
        else:
            e("  setp.eq.and.u64 %aux1, %x64, %aux0, %aux1;    // Alg. 1 line 3: R_aux1 &&= (R_aux0 == Tag(R_M))")
        e("  vote.sync.ballot.b32 %aux2, %aux1, 0xffffffff; // Alg. 1 line 4: R_aux2 = __ballot_sync(R_aux1)")
        e("  setp.eq.u32 %p, %aux2, 0;                     // Alg. 1 line 5: if (R_aux2)")
        e("  @%p bra $MISS;")
        self.ffs("%aux3", "%aux2", "Alg. 1 line 6")
        e("  mov.u32 %hit, 1;                              // Alg. 1 lines 7-8: HIT, BLOCK_INDEX = R_aux3")
        e("  mov.u32 %vvalid, 0;")
        e("  mov.u32 %vdirty, 0;")
        e("  mov.b64 %vline, 0;")
        if bug == "no-lru-hit":
            e("  // BROKEN: a hit leaves the LRU counters alone (Alg. 1 lines 8-12 missing)")
            e("  setp.eq.u32 %pme, %lane, %aux3;")
        else:
            self.lru_update("%aux3", "hit")
        e("  // hit: move the block out of its data-array register (§4.2.1 'Handling Extended LLC Hits')")
        self.imov_read("%val", "%aux3", "val = R[R_aux3]")
        e("  @!%pst bra $RESP;")
        self.merge_store()
        self.imov_write("%aux3", "%val", "R[R_aux3] = val")
        e("  @%pme or.b64 %m, %m, " + f"{DIRTY:#x};" + "      // the way is dirty")
        e("  bra.uni $EVENT;")
        e("")
        e("$MISS:                                           // Alg. 1 line 14: HIT = False; §4.2.1 'Handling Extended LLC Misses'")
        e("  mov.u32 %hit, 0;")
        e("  // step 1: bring the block from main memory (ld.global.cg: not kept in L1)")
        e("  add.s64 %a, %line, %lane4;")
        e(("  @!%pfill " if fill else "  ") + "ld.global.cg.u32 %val, [%a];" + ("   // (or a fill brought it)" if fill else ""))
        e("  // step 2: the victim: the first invalid way, else the way with the lowest LRU counter")
        e("  setp.ge.s64 %p, %m, 0;                        // this way is invalid")
        e("  vote.sync.ballot.b32 %msk, %p, 0xffffffff;")
        e("  setp.ne.u32 %p, %msk, 0;")
        e("  @%p bra $VICTIM;")
        self.lane_lru()
        e("  redux.sync.min.u32 %c, %lru, 0xffffffff;")
        e("  setp.eq.u32 %p, %lru, %c;")
        e("  vote.sync.ballot.b32 %msk, %p, 0xffffffff;")
        e("$VICTIM:")
        self.ffs("%aux3", "%msk", "victim way")
        self.meta_of("%aux3")
        e("  shr.u32 %vvalid, %vhi, 31;")
        e("  bfe.u32 %vdirty, %vhi, 30, 1;")
        e(f"  and.b64 %vline, %vm, {TAG_MASK:#x};")
        e("  shl.b64 %vline, %vline, 7;                    // the victim's line address")
        e("  and.b32 %vdirty, %vdirty, %vvalid;")
        e("  setp.ne.u32 %pvd, %vdirty, 0;")
        e("  // step 3: a dirty victim is written back to main memory")
        e("  @!%pvd bra $INSERT;")
        if bug == "no-writeback":
            e("  // BROKEN: the dirty victim is dropped")
        else:
            self.imov_read("%old", "%aux3", "old = R[victim]")
            e("  add.s64 %a, %vline, %lane4;")
            e("  st.global.cg.u32 [%a], %old;")
        e("$INSERT:")
        e("  // step 4: insert the new block with Indirect-MOV (a store merges its bytes first)")
        e("  @!%pst bra $INSERT_MOV;")
        self.merge_store()
        e("$INSERT_MOV:")
        self.imov_write("%aux3", "%val", "R[victim] = val")
        self.lru_update("%aux3", "insertion: the victim's counter is c, 0 if it was invalid")
        e(f"  or.b64 %mnew, %aux0, {VALID | (LRU_MAX << LRU_SHIFT):#x};   // valid, counter max, tag")
        e("  @%pme mov.b64 %m, %mnew;")
        e("  setp.eq.and.u32 %p, %lane, %aux3, %pst;")
        e(f"  @%p or.b64 %m, %m, {DIRTY:#x};         // a store's block is dirty")
        e("  @%pst bra $EVENT;")
        e("")

    def decls(self, serve=False):
        """The registers; the persistent kernel declares only those it uses
        (morpheus xllc characterize counts them)."""
        e = self.emit
        if self.store in ("rf", "rfl1"):
            e("  .reg .b32 %d<32>;     // data-array registers: %d<i> across the warp = the 128-byte block of way i")
        if self.store != "rf":
            e("  .reg .b64 %dbase, %da; // the set's data array (" + ("shared memory" if self.store == "shm"
              else "an L1-resident global array") + "): way i at dbase + 128 i, lane l's word at + 4 l")
        e("  .reg .b64 %m;         // metadata register: lane i = way i {valid:63, dirty:62, lru:61..57, tag:56..0}")
        e("  // auxiliary registers (named after Alg. 1: aux0 tag, aux1 match, aux2 ballot, aux3 block index)")
        e("  .reg .b64 %aux0;      // the request's tag (its block number, line / 128), in every lane")
        e("  .reg .pred %aux1;     // this way is valid and its tag matches")
        e("  .reg .b32 %aux2;      // ballot of aux1 over the warp")
        e("  .reg .b32 %aux3;      // the block index (way) the request uses: the hit way or the victim")
        if serve:
            e("  .reg .b32 %lane, %set, %nsets, %op, %lru, %c, %val, %old, %wdata, %bmask, %x" +
              (", %bug;" if self.bug else ";"))
        else:
            e("  .reg .b32 %lane, %set, %nsets, %nreq, %i, %op, %lru, %c, %val, %old, %wdata, %bmask, %x, %bug;")
        e("  .reg .b32 %mlo, %mhi, %vlo, %vhi, %hit, %vvalid, %vdirty, %nfl, %msk;")
        if serve:
            e("  .reg .b64 %x64, %vm, %line, %vline, %a, %lane4, %mnew;")
        else:
            e("  .reg .b64 %x64, %vm, %line, %vline, %rq, %ev, %rs, %a, %lane4, %mnew;")
        e("  .reg .pred %p, %pdec, %pme, %pst, %plane0, %pvd;")

    def flush_loop(self, P):
        """Writes back every dirty way (lowest first), counting them in %nfl."""
        e = lambda x="": self.emit(x.replace("$", P))
        e(f"  and.b64 %x64, %m, {VALID | DIRTY:#x};")
        e(f"  setp.eq.u64 %p, %x64, {VALID | DIRTY:#x};")
        e("  vote.sync.ballot.b32 %msk, %p, 0xffffffff;")
        e("  mov.u32 %nfl, 0;")
        e("$FL_NEXT:")
        e("  setp.eq.u32 %p, %msk, 0;")
        e("  @%p bra $FL_DONE;")
        self.ffs("%aux3", "%msk", "next dirty way")
        self.imov_read("%old", "%aux3", "old = R[way]")
        self.meta_of("%aux3")
        e(f"  and.b64 %vline, %vm, {TAG_MASK:#x};")
        e("  shl.b64 %vline, %vline, 7;")
        e("  add.s64 %a, %vline, %lane4;")
        e("  st.global.cg.u32 [%a], %old;")
        e("  setp.eq.u32 %pme, %lane, %aux3;")
        e(f"  @%pme and.b64 %m, %m, {((1 << 64) - 1) ^ DIRTY:#x};   // clean now")
        e("  add.u32 %x, %msk, -1;")
        e("  and.b32 %msk, %msk, %x;                       // next set bit")
        e("  add.u32 %nfl, %nfl, 1;")
        e("  bra.uni $FL_NEXT;")
        e("$FL_DONE:")

    def atom_exec(self, e, read, off, pred):
        """One lane's atomic (§4.2.3): the write buffer entry's operands, the
        block read into %val by read(), the operand's old value to the scratch
        word, the PTX atom there, and the lane's new value into %val (its high
        word into the next lane for 64-bit ones); off and pred: registers the
        variant has free for the operand's offset and a predicate; e: the
        caller's emitter (its labels' prefix)."""
        e("  sub.s64 %a, %rb, %lane4;                      // the write buffer entry: {u64 b, u64 c, u32 offset, u32 code}")
        e("  ld.global.u64 %vm, [%a];")
        e("  ld.global.u64 %mnew, [%a+8];")
        e(f"  ld.global.u32 {off}, [%a+16];")
        e("  ld.global.u32 %c, [%a+20];")
        e("  cvt.u32.u64 %wdata, %vm;")
        e("  cvt.u32.u64 %msk, %mnew;")
        read()
        e(f"  shr.u32 %old, {off}, 2;                     // the lane holding the operand's (low) word")
        e("  shfl.sync.idx.b32 %vlo, %val, %old, 31, 0xffffffff;")
        e("  add.u32 %x, %old, 1;")
        e("  and.b32 %x, %x, 31;")
        e("  shfl.sync.idx.b32 %vhi, %val, %x, 31, 0xffffffff;")
        e("  mov.b64 %x64, {%vlo, %vhi};")
        e("  @%plane0 st.global.u64 [%scr], %x64;          // the old value to the scratch word")
        p = "$S_AT"
        names = [f"{p}_{i}" for i in range(len(ATOMS))]
        e(f"{p}_T: .branchtargets " + ", ".join(names) + ";")
        e(f"  brx.idx %c, {p}_T;")
        for i, a in enumerate(ATOMS):
            e(f"{p}_{i}:")
            if a:
                op, is64, has_c = a
                b, c = ("%vm", "%mnew") if is64 else ("%wdata", "%msk")
                d = "%a" if is64 else "%bmask"
                e(f"  @%plane0 atom.global.{op} {d}, [%scr], {b}" + (f", {c};" if has_c else ";"))
            e(f"  bra.uni {p}_E;")
        e(f"{p}_E:")
        e("  ld.global.u64 %x64, [%scr];                   // the new value")
        e("  mov.b64 {%vlo, %vhi}, %x64;")
        if self.bug == "atom-lane":
            e("  add.u32 %x, %old, 1;                        // BROKEN: the result goes one lane too far")
            e("  and.b32 %x, %x, 31;")
            e("  setp.eq.u32 %p, %lane, %x;")
        else:
            e("  setp.eq.u32 %p, %lane, %old;")
        e("  @%p mov.b32 %val, %vlo;")
        e(f"  shr.b32 %x, {ATOM_64:#x}, %c;              // a 64-bit operation: the next lane holds its high word")
        e("  and.b32 %x, %x, 1;")
        e(f"  setp.ne.u32 {pred}, %x, 0;")
        e("  add.u32 %x, %old, 1;")
        e(f"  setp.eq.and.u32 %p, %lane, %x, {pred};")
        e("  @%p mov.b32 %val, %vhi;")

    def serve_prologue(self):
        """The persistent kernels' start: the warp's global number (past the
        last set: exit) and its table entry's row and region."""
        e = self.emit
        e("  mov.u32 %lane, %laneid;")
        e("  mov.u32 %x, %ctaid.x;")
        e("  mov.u32 %set, %ntid.x;")
        e("  mov.u32 %c, %tid.x;")
        e("  mad.lo.u32 %set, %x, %set, %c;")
        e("  shr.u32 %set, %set, 5;                        // the warp's global number")
        e("  ld.param.u32 %nsets, [nwarps];")
        e("  setp.ge.u32 %p, %set, %nsets;")
        e("  @%p bra $S_EXIT;")
        e("  ld.param.u64 %tab, [tab];")
        e("  mad.wide.u32 %tab, %set, 32, %tab;")
        e("  ld.global.u64 %row, [%tab];                   // its warp-status-table row")
        e("  ld.global.u64 %reg, [%tab+8];                 // its partition's region (buffer offsets are relative to it)")

    def serve_kernel(self):
        """The persistent kernel: each warp serves its set's warp-status-table
        row for as long as the device lives, parked between requests."""
        e = self.emit
        e("")
        e("// ---------------------------------------------------------------------------------------------")
        e("// The persistent helper kernel on the cache-mode SMs (query-unit interface): warp g reads its")
        e("// row, its partition's region, its data array and a scratch word from tab[g] = {u64 row, u64 region,")
        e("// u64 data, u64 scratch} (row 0: no set, it exits; data: the l1 and shm variants' array), parks, and")
        e("// on each wake serves the request in its row (include/mx/morpheus_mmio.h v3): LD/ST/FILL/FLUSH/INV/ATOM;")
        e("// the answer goes to")
        e("// the row (way, victim, status DONE|HIT, written last) and a load's block to the row's buffer entry.")
        where = {"rf": "the registers", "l1": "an L1-resident global array", "shm": "shared memory",
                 "rfl1": "the registers (a warp whose data is 0) or an L1-resident global array"}[self.store]
        e(f"// The set's blocks live in {where}, its metadata in a register, for good.")
        e(f".visible .entry xllc_helper_{self.store}_serve(.param .u64 tab, .param .u32 nwarps)")
        e("{")
        self.decls(serve=True)
        e("  .reg .b64 %row, %reg, %rb, %tab, %scr;")
        e("  .reg .b32 %buf, %st, %vfl;")
        e("  .reg .pred %pfill;")
        e("")
        self.serve_prologue()
        if self.store != "rf":
            e("  ld.global.u64 %dbase, [%tab+16];              // its data array")
        e("  ld.global.u64 %scr, [%tab+24];                // its 8 bytes of scratch for atomics")
        e("  setp.eq.u64 %p, %row, 0;")
        e("  @%p bra $S_EXIT;")
        e("  setp.eq.u32 %plane0, %lane, 0;")
        e("  mul.wide.u32 %lane4, %lane, 4;")
        if self.store == "rfl1":
            e("  setp.ne.u64 %p, %dbase, 0;                    // a set of the L1 half of the rf+l1 layout")
            e("  @%p bra $T_WAIT0;")
            self.serve_loop("$S_", "rf")
            e("$T_WAIT0:")
            self.serve_loop("$T_", "l1")
        else:
            self.serve_loop("$S_", self.store)
        e("$S_EXIT:")
        e("  ret;")
        e("}")

    def find_held(self, e, why):
        """Algorithm 1's lookup for ops on a block the set may hold (PEEK, ATOM,
        INV): %aux3 its way and %hit 1, else on to $S_EVENT with no hit and no
        victim (`why` says what that means there)."""
        e("  setp.lt.s64 %aux1, %m, 0;")
        e(f"  and.b64 %x64, %m, {TAG_MASK:#x};")
        e("  setp.eq.and.u64 %aux1, %x64, %aux0, %aux1;")
        e("  vote.sync.ballot.b32 %aux2, %aux1, 0xffffffff;")
        e("  mov.u32 %hit, 0;")
        e("  mov.u32 %aux3, 0;")
        e("  mov.u32 %vvalid, 0;")
        e("  mov.u32 %vdirty, 0;")
        e("  mov.b64 %vline, 0;")
        e("  setp.eq.u32 %p, %aux2, 0;")
        e("  @%p bra $S_EVENT;" + (f"                             // {why}" if why else ""))
        self.ffs("%aux3", "%aux2", "the way")
        e("  mov.u32 %hit, 1;")

    def serve_loop(self, P, store):
        """The service loop of one warp whose blocks live in `store`: labels
        spelled with P for '$S_'."""
        saved = self.store
        self.store = store
        e = lambda x="": self.emit(x.replace("$S_", P))
        e("  mov.b64 %m, 0;                                // the set starts empty")
        if self.store == "rf":
            for i in range(32):
                e(f"  mov.b32 %d{i}, 0;")
        e("")
        e("$S_WAIT:")
        e("  park;                                         // asleep until the controller posts a request")
        e(f"  ld.global.u64 %aux0, [%row+{ROW_TAG}];             // the request's tag")
        e("  shl.b64 %line, %aux0, 7;")
        e(f"  ld.global.u32 %op, [%row+{ROW_OP}];")
        e(f"  ld.global.u32 %buf, [%row+{ROW_BUF}];")
        e("  cvt.u64.u32 %rb, %buf;")
        e("  add.s64 %rb, %rb, %reg;")
        e("  add.s64 %rb, %rb, %lane4;                     // this lane's word of the buffer entry")
        e(f"  setp.eq.u32 %p, %op, {OP_FLUSH};")
        e("  @%p bra $S_FLUSH;")
        e(f"  setp.eq.u32 %p, %op, {OP_INV};")
        e("  @%p bra $S_INV;")
        e(f"  setp.eq.u32 %p, %op, {OP_ATOM};")
        e("  @%p bra $S_ATOM;")
        e(f"  setp.eq.u32 %p, %op, {OP_PEEK};")
        e("  @%p bra $S_PEEK;")
        e(f"  setp.eq.u32 %pfill, %op, {OP_FILL};")
        e(f"  setp.eq.u32 %pst, %op, {OP_ST};             // (the controller splits atomics into LD + ST)")
        e("  @%pfill ld.global.u32 %val, [%rb];           // a fill: the controller read the block from DRAM")
        e("  @%pfill bra $S_MISS;")
        e("  @!%pst bra $S_LOOKUP;")
        e("  // a store: this lane's word from the write buffer entry, its 4 bits of the row's byte mask")
        e("  ld.global.u32 %wdata, [%rb];")
        e("  shr.u32 %x, %lane, 3;")
        e("  mul.wide.u32 %a, %x, 4;")
        e("  add.s64 %a, %row, %a;")
        e(f"  ld.global.u32 %bmask, [%a+{ROW_WMASK}];")
        e("  and.b32 %x, %lane, 7;")
        e("  shl.b32 %x, %x, 2;")
        e("  shr.b32 %bmask, %bmask, %x;")
        e("  and.b32 %bmask, %bmask, 15;")
        e("  mul.lo.u32 %bmask, %bmask, 0x204081;")
        e("  and.b32 %bmask, %bmask, 0x01010101;")
        e("  mul.lo.u32 %bmask, %bmask, 255;")
        e("")
        self.body(P, True)
        e("$S_RESP:                                         // a load: the block to the buffer entry")
        e("  st.global.u32 [%rb], %val;")
        e("$S_EVENT:                                        // the answer, status last (lane 0)")
        e("  shl.b32 %vfl, %vdirty, 1;")
        e("  or.b32 %vfl, %vfl, %vvalid;")
        e("  shr.u64 %x64, %vline, 7;")
        e(f"  @%plane0 st.global.v2.u32 [%row+{ROW_WAY}], {{%aux3, %vfl}};")
        e(f"  @%plane0 st.global.u64 [%row+{ROW_VTAG}], %x64;")
        e("  shl.b32 %st, %hit, 2;")
        e(f"  or.b32 %st, %st, {ST_DONE};")
        e(f"  @%plane0 st.global.u32 [%row+{ROW_STATUS}], %st;")
        e("  bra.uni $S_WAIT;")
        e("")
        e("$S_PEEK:                                         // the block for a load the SM's L1 hit: no LRU change")
        self.find_held(e, "not here: the controller reads DRAM")
        self.imov_read("%val", "%aux3", "val = R[R_aux3]")
        e("  bra.uni $S_RESP;")
        e("")
        e("$S_ATOM:                                         // one lane's atomic, executed here (§4.2.3) on the held block")
        e("  // (registers of the other paths reused: b %vm, c %mnew, code %c, offset %lru, its lane %old)")
        self.find_held(e, "not held (the controller read it just before): say so")
        self.atom_exec(e, lambda: self.imov_read("%val", "%aux3", "every lane's word of the block"), "%lru", "%pvd")
        self.imov_write("%aux3", "%val", "the block with the lane's result")
        e("  setp.eq.u32 %pme, %lane, %aux3;")
        e(f"  @%pme or.b64 %m, %m, {DIRTY:#x};                // the way is dirty")
        e("  bra.uni $S_EVENT;")
        e("")
        e("$S_INV:                                          // drop one block (the host wrote its line), written back if dirty")
        self.find_held(e, "not here: nothing to do")
        e("  mov.u32 %vvalid, 1;")
        e("  mov.b64 %vline, %line;")
        self.meta_of("%aux3")
        e("  bfe.u32 %vdirty, %vhi, 30, 1;")
        e("  setp.ne.u32 %pvd, %vdirty, 0;")
        e("  @!%pvd bra $S_INV_LRU;")
        self.imov_read("%old", "%aux3", "old = R[way]")
        e("  add.s64 %a, %line, %lane4;")
        e("  st.global.cg.u32 [%a], %old;")
        e("$S_INV_LRU:")
        e("  // the ranks of the valid ways stay the top ones: those below the dropped way's move up")
        self.lane_lru()
        e("  shfl.sync.idx.b32 %c, %lru, %aux3, 31, 0xffffffff;")
        e("  setp.lt.u32 %pdec, %lru, %c;")
        e("  setp.lt.and.s64 %pdec, %m, 0, %pdec;")
        e(f"  @%pdec add.s64 %m, %m, {LRU_ONE:#x};")
        e("  setp.eq.u32 %pme, %lane, %aux3;")
        e("  @%pme mov.b64 %m, 0;")
        e("  bra.uni $S_EVENT;")
        e("")
        e("$S_FLUSH:                                        // write every dirty block back; they stay, clean")
        self.flush_loop(P)
        e("  mov.u32 %x, 0;")
        e(f"  @%plane0 st.global.v2.u32 [%row+{ROW_WAY}], {{%nfl, %x}};")
        e(f"  @%plane0 st.global.u32 [%row+{ROW_STATUS}], {ST_DONE};")
        e("  bra.uni $S_WAIT;")
        self.store = saved

    def mem_kernel(self):
        """The l1, shm and rf+l1 variants: the persistent kernel alone (no batch kernel)."""
        e = self.emit
        e("//")
        if self.store == "rfl1":
            e(f"// memsys/xllc/helper_rfl1_{self.imov}.ptx — GENERATED by memsys/xllc/gen_helper.py --store rfl1 "
              f"--imov {self.imov}" + (f" --break {self.bug}" if self.bug else "") + "; do not edit.")
            e("// The extended LLC's rf+l1 helper kernel (MICRO'22 Morpheus §4.2.2, the combined layout): one warp")
            e("// per set; a warp given no data array keeps its blocks in its data-array registers (Indirect-MOV: "
              + ("brx.idx" if self.imov == "brx" else "movind") + "),")
            e("// the others in an L1-resident global array.")
        else:
            e(f"// memsys/xllc/helper_{self.store}.ptx — GENERATED by memsys/xllc/gen_helper.py --store {self.store}"
              + (f" --break {self.bug}" if self.bug else "") + "; do not edit.")
            e("// The extended LLC's " + ("L1" if self.store == "l1" else "shared-memory") + " helper kernel (MICRO'22 "
              "Morpheus §4.2.2): one warp per set, lane i holds way i's metadata in a register, the blocks live in")
            e("// " + ("an array in global memory accessed with ld.global.ca / st.global (kept in the SM's L1)."
                       if self.store == "l1" else "the CTA's shared memory, 4 KiB per warp."))
        if self.bug:
            e(f"// DELIBERATELY BROKEN ({self.bug}): for the tests only.")
        e("//")
        e(".version 7.8")
        e(".target sm_86")
        e(".address_size 64")
        self.serve_kernel()
        return "\n".join(self.out) + "\n"

    # ---- the kernel ----------------------------------------------------------------

    def kernel(self):
        if self.store != "rf":
            return self.mem_kernel()
        e = self.emit
        bug = self.bug
        e("//")
        e(f"// memsys/xllc/helper_rf_{self.imov}.ptx — GENERATED by memsys/xllc/gen_helper.py --imov {self.imov}"
          + (f" --break {bug}" if bug else "") + "; do not edit.")
        e("// The extended LLC's register-file helper kernel (MICRO'22 Morpheus §4.2.1), batch interface:")
        e("// warp g (global) serves extended-LLC set g; lane i holds way i.  Layout and interface:")
        e("// memsys/xllc/README.md.  Indirect-MOV: "
          + ("brx.idx over 32 targets (Algorithm 2)." if self.imov == "brx" else "the native movind instruction (§4.3.2)."))
        if bug:
            e(f"// DELIBERATELY BROKEN ({bug}): for the tests only.")
        e("//")
        e(".version 7.8")
        e(".target sm_86")
        e(".address_size 64")
        e("")
        e("// reqs:   nsets x nreq requests of " + str(REQ_SIZE) + " bytes: {u64 line; u32 op (0 load, 1 store); u32 0;")
        e("//         u32 mask[4] (bit b: byte b is stored); u8 data[128]}, set s's i-th at s * nreq + i")
        e("// events: one " + str(EV_SIZE) + "-byte record per request: {u32 hit, way, victim_valid, victim_dirty;")
        e("//         u64 victim_line, line}")
        e("// resp:   128 bytes per request: a load's block (stores leave theirs alone)")
        e("// flushed: u32 per set: dirty blocks written back by the final flush (flush != 0)")
        e(".visible .entry xllc_helper_rf(.param .u64 reqs, .param .u64 events, .param .u64 resp,")
        e("                               .param .u64 flushed, .param .u32 nsets, .param .u32 nreq,")
        e("                               .param .u32 flush)")
        e("{")
        self.decls()
        e("")
        e("  // --- which set: the warp's global number ---")
        e("  mov.u32 %lane, %laneid;")
        e("  mov.u32 %x, %ctaid.x;")
        e("  mov.u32 %set, %ntid.x;")
        e("  mov.u32 %c, %tid.x;")
        e("  mad.lo.u32 %set, %x, %set, %c;")
        e("  shr.u32 %set, %set, 5;")
        e("  ld.param.u32 %nsets, [nsets];")
        e("  setp.ge.u32 %p, %set, %nsets;")
        e("  @%p bra $EXIT;")
        e("  ld.param.u32 %nreq, [nreq];")
        e("  setp.eq.u32 %plane0, %lane, 0;")
        e("  mul.wide.u32 %lane4, %lane, 4;                // this lane's 4 bytes of a block")
        e("  // --- the set starts empty: every way invalid, clean, counter 0 ---")
        e("  mov.b64 %m, 0;")
        for i in range(32):
            e(f"  mov.b32 %d{i}, 0;")
        e("  mov.u32 %i, 0;")
        e("")
        e("$REQ:                                            // for each request of the set")
        e("  setp.ge.u32 %p, %i, %nreq;")
        e("  @%p bra $FLUSH;")
        e("  mad.lo.u32 %x, %set, %nreq, %i;               // request number in the whole batch")
        e("  ld.param.u64 %rq, [reqs];")
        e(f"  mad.wide.u32 %rq, %x, {REQ_SIZE}, %rq;")
        e("  ld.param.u64 %ev, [events];")
        e(f"  mad.wide.u32 %ev, %x, {EV_SIZE}, %ev;")
        e("  ld.param.u64 %rs, [resp];")
        e("  mad.wide.u32 %rs, %x, 128, %rs;")
        e("  add.s64 %rs, %rs, %lane4;")
        e("  ld.global.u64 %line, [%rq];")
        e("  ld.global.u32 %op, [%rq+8];")
        e("  setp.ne.u32 %pst, %op, 0;")
        e("  @!%pst bra $LOOKUP;")
        e("  // a store: this lane's data word and its 4 mask bits as a byte mask")
        e("  add.s64 %a, %rq, %lane4;")
        e("  ld.global.u32 %wdata, [%a+32];")
        e("  shr.u32 %x, %lane, 3;")
        e("  mul.wide.u32 %a, %x, 4;")
        e("  add.s64 %a, %rq, %a;")
        e("  ld.global.u32 %bmask, [%a+16];")
        e("  and.b32 %x, %lane, 7;")
        e("  shl.b32 %x, %x, 2;")
        e("  shr.b32 %bmask, %bmask, %x;")
        e("  and.b32 %bmask, %bmask, 15;")
        e("  mul.lo.u32 %bmask, %bmask, 0x204081;         // bit k -> bit 8k")
        e("  and.b32 %bmask, %bmask, 0x01010101;")
        e("  mul.lo.u32 %bmask, %bmask, 255;               // bit 8k -> byte k all ones")
        e("")
        self.body("$", False)
        e("$RESP:                                           // a load: the block to the response buffer")
        e("  st.global.u32 [%rs], %val;")
        e("$EVENT:                                          // the event record (lane 0)")
        e("  @%plane0 st.global.v4.u32 [%ev], {%hit, %aux3, %vvalid, %vdirty};")
        e("  @%plane0 st.global.v2.u64 [%ev+16], {%vline, %line};")
        e("  add.u32 %i, %i, 1;")
        e("  bra.uni $REQ;")
        e("")
        e("$FLUSH:                                          // write every dirty block back, lowest way first")
        e("  ld.param.u32 %x, [flush];")
        e("  setp.eq.u32 %p, %x, 0;")
        e("  @%p bra $EXIT;")
        self.flush_loop("$")
        e("  ld.param.u64 %a, [flushed];")
        e("  mul.wide.u32 %x64, %set, 4;")
        e("  add.s64 %a, %a, %x64;")
        e("  @%plane0 st.global.u32 [%a], %nfl;")
        e("$EXIT:")
        e("  ret;")
        e("}")
        self.serve_kernel()
        return "\n".join(self.out) + "\n"


# ---- the BDI-compressed rf variant (docs/xllc-bdi.md) ------------------------------------

# Metadata of a slot (docs/xllc-bdi.md "Metadata and LRU"): lane s % 32 of %m[s / 32], .b64
B_RANK_SHIFT = 55
B_RANK_BITS = 7
B_RANK_ONE = 1 << B_RANK_SHIFT
B_RANK_MAX = (1 << B_RANK_BITS) - 1
B_TAG_MASK = (1 << B_RANK_SHIFT) - 1
NDATA = 32                 # W: data registers of a set
NMETA = 4                  # metadata (and base) registers: 4 W slots, 32 per register
OP_LDA, OP_STA = 9, 10     # the read and the write half of an atomic (docs/xllc-bdi.md)
OP_EPOCH, OP_MASK = 0x100, 0xff  # an access's flag: it begins the set's new epoch (include/mx/morpheus_mmio.h v3)


class BdiGen(Gen):
    """xllc_helper_rfbdi_serve: the rf kernel with BDI-compressed blocks
    (docs/xllc-bdi.md, the contract shared with the native model in
    memsys/xllc.c).  A set is 32 data registers %d0..%d31 holding 128 slots
    (slot s: register s / 4, sub-slot s % 4), 4 metadata registers %m0..%m3
    and 4 base registers %b0..%b3 (slot s: lane s % 32 of register s / 32).
    The slot the request is about is always %aux3 (warp-uniform, 0..127)."""

    def __init__(self, imov, bug):
        super().__init__(imov, bug, "rf")
        self.nlab = 0

    def emit(self, s=""):
        """As Gen.emit, with a trailing comment aligned at column 48."""
        code, sep, note = s.partition("//")
        if sep and code.strip():
            s = f"{code.rstrip():<47} // {note.strip()}"
        self.out.append(s)

    def uniq(self, name):
        self.nlab += 1
        return f"$S_{name}{self.nlab}"

    # ---- per-J registers ----------------------------------------------------------------

    def select(self, dst, regs, j, mov="mov.b32"):
        """dst = regs[j] for a warp-uniform register number j (0..3)."""
        self.emit(f"  {mov} {dst}, {regs}0;")
        for J in range(1, NMETA):
            self.emit(f"  setp.eq.u32 %q, {j}, {J};")
            self.emit(f"  @%q {mov} {dst}, {regs}{J};")

    def lane_size(self, dst, r, nh, nhl):
        """dst = the size of this lane's slot in data register r (its sub-slot is
        lane % 4) under the split (nh, nhl = nH + nL): 1 high, 2 low, 4 raw, 0
        unusable (docs/xllc-bdi.md "Where a block lives")."""
        self.emit(f"  setp.lt.u32 %q, {r}, {nhl};")
        self.emit(f"  selp.u32 {dst}, %szl, %szu, %q;               // low: 2 for sub-slots 0, 1; raw: 4 for 0")
        self.emit(f"  setp.lt.u32 %q, {r}, {nh};")
        self.emit(f"  @%q mov.u32 {dst}, 1;                          // high: every sub-slot")

    def sizes(self):
        """%sz<J> = the size of this lane's slot 32 J + lane (data register 8 J + lane / 4)."""
        self.emit("  // this lane's slots 32 J + lane: their sizes under the split (0: unusable)")
        for J in range(NMETA):
            self.emit(f"  add.u32 %x, %lr, {8 * J};")
            self.lane_size(f"%sz{J}", "%x", "%nH", "%nHL")

    def rank(self, dst, m):
        """dst = the LRU rank of metadata m (bits 61..55)."""
        self.emit(f"  bfe.u64 %x64, {m}, {B_RANK_SHIFT}, {B_RANK_BITS};")
        self.emit(f"  cvt.u32.u64 {dst}, %x64;")

    def first_slot(self, pred, found, none):
        """%aux3 = the lowest slot whose lane satisfies pred(J) (which sets %p),
        one ballot per metadata register; on to `found`, or `none` if no slot
        does (none=None: one always does)."""
        for J in range(NMETA):
            pred(J)
            self.emit("  vote.sync.ballot.b32 %aux2, %p, 0xffffffff;")
            self.emit(f"  mov.u32 %j32, {32 * J};                        // its first slot")
            if J == NMETA - 1 and none is None:
                self.emit(f"  bra.uni {found};")
            else:
                self.emit("  setp.ne.u32 %p, %aux2, 0;")
                self.emit(f"  @%p bra {found};")
        if none is not None:
            self.emit(f"  bra.uni {none};")

    def found_slot(self, label):
        """The tail of first_slot: %aux3 += ffs(ballot), then the slot's parts."""
        self.label(label)
        self.ffs("%x", "%aux2", "the slot's lane")
        self.emit("  add.u32 %aux3, %j32, %x;")
        self.slot_parts()

    def match(self, J):
        """%p: this lane's slot of %m<J> is valid and holds the request's tag (Alg. 1 lines 2-3)."""
        self.emit(f"  setp.lt.s64 %p, %m{J}, 0;                     // Alg. 1 line 2: valid (bit 63)")
        self.emit(f"  and.b64 %x64, %m{J}, {B_TAG_MASK:#x};")
        self.emit("  setp.eq.and.u64 %p, %x64, %aux0, %p;         // Alg. 1 line 3: the tag matches")

    def lookup(self, hit, miss):
        """Algorithm 1 over the four metadata registers: a tag is in at most one slot."""
        self.emit("  // Algorithm 1 over m0..m3 (4 ballots): the valid slot holding the tag, if any")
        self.first_slot(self.match, hit, miss)

    # ---- one slot (%aux3) ----------------------------------------------------------------

    def slot_parts(self):
        """%sj, %sl: the slot's metadata register and lane; %own: the metadata
        register whose lane this lane holds for the slot (4: none)."""
        self.emit("  shr.u32 %sj, %aux3, 5;                        // slot s: metadata m[s / 32], lane s % 32")
        self.emit("  and.b32 %sl, %aux3, 31;")
        self.emit("  setp.eq.u32 %q, %lane, %sl;")
        self.emit(f"  selp.u32 %own, %sj, {NMETA}, %q;")

    def owner(self, what, instr):
        """instr(J) on the slot's own metadata / base lane only."""
        self.emit(f"  // {what}: on the slot's lane of its register only")
        for J in range(NMETA):
            self.emit(f"  setp.eq.u32 %q, %own, {J};")
            self.emit(f"  @%q {instr(J)}")

    def meta_of(self):
        """%vm = the slot's metadata (broadcast), %vhi its high word."""
        self.select("%vm", "%m", "%sj", "mov.b64")
        self.emit("  mov.b64 {%mlo, %mhi}, %vm;")
        self.emit("  shfl.sync.idx.b32 %vlo, %mlo, %sl, 31, 0xffffffff;")
        self.emit("  shfl.sync.idx.b32 %vhi, %mhi, %sl, 31, 0xffffffff;")
        self.emit("  mov.b64 %vm, {%vlo, %vhi};")

    def level(self):
        """The slot's place: %sr its data register, %z its size (1 high, 2 low,
        4 raw), %len, %pos its field of each lane's word (raw: the whole word)."""
        self.emit("  // the slot's level from its register and the split (docs/xllc-bdi.md \"Where a block lives\")")
        self.emit("  shr.u32 %sr, %aux3, 2;                        // data register s / 4")
        self.emit("  mov.u32 %z, 4;")
        self.emit("  setp.lt.u32 %q, %sr, %nHL;")
        self.emit("  @%q mov.u32 %z, 2;")
        self.emit("  setp.lt.u32 %q, %sr, %nH;")
        self.emit("  @%q mov.u32 %z, 1;")
        self.emit("  shl.b32 %len, %z, 3;                          // field: 8, 16 or 32 bits")
        self.emit("  and.b32 %pos, %aux3, 3;")
        self.emit("  mul.lo.u32 %pos, %pos, %len;                  // at bit len * (s % 4)")

    def decode(self, dst, what):
        """dst = this lane's word of the slot's block: base + sign_extend(field), raw: the word."""
        self.emit(f"  // decode {what} (docs/xllc-bdi.md \"Compressibility\"): base + sign-extended field")
        self.level()
        self.select("%bs", "%b", "%sj")
        self.emit("  shfl.sync.idx.b32 %bs, %bs, %sl, 31, 0xffffffff;   // the slot's base (raw: 0)")
        self.imov_read("%w", "%sr", "w = R[s / 4]")
        if self.bug == "bdi-decode":
            self.emit(f"  bfe.u32 {dst}, %w, %pos, %len;                // BROKEN: the field zero-extended")
        else:
            self.emit(f"  bfe.s32 {dst}, %w, %pos, %len;                // the field, sign-extended (raw: len 32, the word)")
        self.emit(f"  add.u32 {dst}, {dst}, %bs;")

    def encode(self, src, what):
        """The slot's block = src (every lane's word), at the slot's level:
        deltas from lane 0's word bfi'd into the field, or the word itself;
        the base into the slot's lane of its base register."""
        done = self.uniq("ENC")
        self.emit(f"  // encode {what} at the slot's level: high/low: d = w - w_0 into the field, base w_0; raw: w, base 0")
        self.level()
        self.emit(f"  shfl.sync.idx.b32 %bs, {src}, 0, 31, 0xffffffff;")
        self.emit("  setp.eq.u32 %q, %z, 4;")
        self.emit("  @%q mov.u32 %bs, 0;")
        self.emit(f"  sub.u32 %w, {src}, %bs;")
        self.emit(f"  @%q bra.uni {done};                          // raw: the word is the register's")
        self.imov_read("%x", "%sr", "the register's other sub-slots")
        self.emit("  bfi.b32 %w, %w, %x, %pos, %len;")
        self.label(done)
        self.imov_write("%sr", "%w", "R[s / 4] = w")
        self.owner("the slot's base", lambda J: f"mov.b32 %b{J}, %bs;")

    def use(self, why):
        """LRU use of the slot (docs/xllc-bdi.md "Metadata and LRU"): c = its rank,
        every slot ranked above c loses one, the slot gets 127."""
        self.emit(f"  // use the slot ({why}):")
        self.emit(f"  // c = its rank (0 if invalid); ranks above c lose one; the slot gets {B_RANK_MAX}")
        self.meta_of()
        self.rank("%cr", "%vm")
        for J in range(NMETA):
            self.rank("%x", f"%m{J}")
            self.emit("  setp.gt.u32 %p, %x, %cr;")
            self.emit(f"  @%p sub.s64 %m{J}, %m{J}, {B_RANK_ONE:#x};")
        self.owner(f"rank {B_RANK_MAX}", lambda J: f"or.b64 %m{J}, %m{J}, {B_RANK_MAX << B_RANK_SHIFT:#x};")

    def drop(self, why):
        """Drop the slot: every valid slot ranked below it gains one; its metadata becomes 0."""
        self.emit(f"  // drop the slot ({why}): valid slots ranked below it gain one, its metadata = 0")
        self.meta_of()
        self.rank("%cr", "%vm")
        for J in range(NMETA):
            self.rank("%x", f"%m{J}")
            self.emit("  setp.lt.u32 %p, %x, %cr;")
            self.emit(f"  setp.lt.and.s64 %p, %m{J}, 0, %p;")
            self.emit(f"  @%p add.s64 %m{J}, %m{J}, {B_RANK_ONE:#x};")
        self.owner("metadata 0", lambda J: f"mov.b64 %m{J}, 0;")

    def write_back(self, tag):
        """The slot's block (decoded) to DRAM at the line of `tag` (.b64)."""
        self.decode("%old", "the block to write back")
        self.emit(f"  shl.b64 %a, {tag}, 7;")
        self.emit("  add.s64 %a, %a, %lane4;")
        self.emit("  st.global.cg.u32 [%a], %old;                  // written back to DRAM")

    def compress(self):
        """%c = the compressibility of the block in %val: 1, 2 or 4 (docs/xllc-bdi.md "Compressibility")."""
        self.emit("  // c of the block: base = w_0, d = w - base; every d in [-128, 127]: 1, in [-32768, 32767]: 2, else 4")
        self.emit("  shfl.sync.idx.b32 %x, %val, 0, 31, 0xffffffff;")
        self.emit("  sub.u32 %x, %val, %x;")
        self.emit("  add.u32 %w, %x, 128;")
        self.emit("  setp.lt.u32 %p, %w, 256;")
        self.emit("  vote.sync.all.pred %p, %p, 0xffffffff;")
        self.emit("  add.u32 %w, %x, 32768;")
        self.emit("  setp.lt.u32 %q, %w, 65536;")
        self.emit("  vote.sync.all.pred %q, %q, 0xffffffff;")
        self.emit("  mov.u32 %c, 4;")
        self.emit("  @%q mov.u32 %c, 2;")
        self.emit("  @%p mov.u32 %c, 1;")

    def count(self):
        """cnt[c] += 1."""
        for z in (1, 2, 4):
            self.emit(f"  setp.eq.u32 %p, %c, {z};")
            self.emit(f"  @%p add.u32 %cnt{z}, %cnt{z}, 1;               // cnt[{z}] += 1")

    def slot_loop(self, name, pred, body):
        """For every slot whose lane satisfies pred (sets %p from %mj, this lane's
        slot of m[jj], and %szj its size), lowest slot first: body() with %aux3 the
        slot and its parts.  pred is evaluated once per metadata register."""
        top, nxt, jnext = (self.uniq(name + x) for x in ("_J", "_NEXT", "_JNEXT"))
        self.emit("  mov.u32 %jj, 0;")
        self.label(top)
        self.select("%mj", "%m", "%jj", "mov.b64")
        self.select("%szj", "%sz", "%jj")
        pred()
        self.emit("  vote.sync.ballot.b32 %msk, %p, 0xffffffff;")
        self.label(nxt)
        self.emit("  setp.eq.u32 %p, %msk, 0;")
        self.emit(f"  @%p bra.uni {jnext};")
        self.ffs("%x", "%msk", "the next slot")
        self.emit("  shl.b32 %aux3, %jj, 5;")
        self.emit("  add.u32 %aux3, %aux3, %x;")
        self.slot_parts()
        body()
        self.emit("  add.u32 %x, %msk, -1;")
        self.emit("  and.b32 %msk, %msk, %x;                       // next set bit")
        self.emit(f"  bra.uni {nxt};")
        self.label(jnext)
        self.emit("  add.u32 %jj, %jj, 1;")
        self.emit(f"  setp.lt.u32 %p, %jj, {NMETA};")
        self.emit(f"  @%p bra.uni {top};")

    # ---- the epoch's re-split -----------------------------------------------------------

    def resplit(self):
        e = self.emit
        e("  // ---- the epoch's re-split (docs/xllc-bdi.md \"The epoch's re-split\") ----")
        e("  // wH = cnt[1], wL = 2 cnt[2], wU = 4 cnt[4], T = wH + wL + wU (64-bit: no overflow)")
        e("  cvt.u64.u32 %x64, %cnt1;                      // x64 = wH")
        e("  mul.wide.u32 %vm, %cnt2, 2;                   // vm = wL")
        e("  mul.wide.u32 %a, %cnt4, 4;")
        e("  add.s64 %a, %a, %x64;")
        e("  add.s64 %a, %a, %vm;                          // a = T")
        e("  setp.eq.u64 %p, %a, 0;")
        e("  @%p bra.uni $S_RS_RESET;                      // T = 0: the split stays")
        e(f"  mul.lo.u64 %x64, %x64, {NDATA - 1};")
        e("  div.u64 %x64, %x64, %a;")
        e(f"  cvt.u32.u64 %nH2, %x64;                       // nH' = floor((W - 1) wH / T)")
        e(f"  mul.lo.u64 %vm, %vm, {NDATA - 1};")
        e("  div.u64 %vm, %vm, %a;")
        e(f"  cvt.u32.u64 %nL2, %vm;                        // nL' = floor((W - 1) wL / T)")
        e("  add.u32 %nHL2, %nH2, %nL2;")
        e("  // every valid slot whose register changes level (its size changes): written back if dirty,")
        e("  // dropped, lowest slot first (decoded at its old level: the split changes after)")
        e("  mov.u32 %nwb, 0;")
        e("  mov.u32 %ndr, 0;")

        def pred():
            e("  shl.b32 %x, %jj, 3;")
            e("  add.u32 %x, %x, %lr;                          // this lane's slot's register")
            self.lane_size("%y", "%x", "%nH2", "%nHL2")
            e("  setp.ne.u32 %p, %y, %szj;                     // its size changes: its register's level does")
            e("  setp.lt.and.s64 %p, %mj, 0, %p;               // and it is valid")

        def body():
            skip = self.uniq("RS_CLEAN")
            self.meta_of()
            e(f"  and.b64 %x64, %vm, {DIRTY:#x};")
            e("  setp.eq.u64 %p, %x64, 0;                      // clean")
            e(f"  @%p bra.uni {skip};")
            e(f"  and.b64 %vtag, %vm, {B_TAG_MASK:#x};")
            self.write_back("%vtag")
            e("  add.u32 %nwb, %nwb, 1;")
            self.label(skip)
            self.drop("its register changes level")
            e("  add.u32 %ndr, %ndr, 1;")

        self.slot_loop("RS", pred, body)
        e("  mov.u32 %nH, %nH2;                            // the new split")
        e("  mov.u32 %nL, %nL2;")
        e("  add.u32 %nHL, %nH2, %nL2;")
        self.sizes()
        e("  shl.b32 %vrs, %nwb, 8;                        // the answer's VFLAGS bits 8..15: written back")
        e("  shl.b32 %x, %ndr, 16;")
        e("  or.b32 %vrs, %vrs, %x;                        // bits 16..23: dropped")
        e("$S_RS_RESET:                                     // the counts age by half")
        e("  shr.u32 %cnt1, %cnt1, 1;")
        e("  shr.u32 %cnt2, %cnt2, 1;")
        e("  shr.u32 %cnt4, %cnt4, 1;")

    # ---- placement ------------------------------------------------------------------------

    def place(self):
        """$S_PLACE: a block (%val) of compressibility %c placed, dirty if %pdirty;
        then on to $S_EVENT (a store) or $S_RESP (a load's answer)."""
        e = self.emit
        e("$S_PLACE:                                        // docs/xllc-bdi.md \"An access\", step 4: place")
        e("  // key of this lane's slot of each m[J]: 255 not a candidate (size < c), an invalid candidate")
        e("  // its size (1, 2, 4), a valid one 16 + its rank; the lowest key wins, then the lowest slot")
        for J in range(NMETA):
            self.rank(f"%key{J}", f"%m{J}")
            e(f"  add.u32 %key{J}, %key{J}, 16;")
            e(f"  setp.gt.s64 %p, %m{J}, -1;")
            e(f"  @%p mov.u32 %key{J}, %sz{J};                 // invalid: the smallest size first")
            e(f"  setp.lt.u32 %p, %sz{J}, %c;")
            e(f"  @%p mov.u32 %key{J}, 255;                    // too small (or unusable): no candidate")
            if J == 0:
                e("  mov.u32 %kmin, %key0;")
            else:
                e(f"  min.u32 %kmin, %kmin, %key{J};")
        e("  redux.sync.min.u32 %kmin, %kmin, 0xffffffff;  // always < 255: one register stays raw")

        def pred(J):
            e(f"  setp.eq.u32 %p, %key{J}, %kmin;")

        self.first_slot(pred, "$S_PLACE_AT", None)
        self.found_slot("$S_PLACE_AT")
        e("  // the victim (the slot's old block, if valid): written back if dirty, replaced")
        self.meta_of()
        e("  shr.u32 %vvalid, %vhi, 31;")
        e("  bfe.u32 %vdirty, %vhi, 30, 1;")
        e("  and.b32 %vdirty, %vdirty, %vvalid;")
        e(f"  and.b64 %vtag, %vm, {B_TAG_MASK:#x};")
        e("  setp.eq.u32 %p, %vdirty, 0;")
        e("  @%p bra.uni $S_PLACE_ENC;")
        self.write_back("%vtag")
        e("$S_PLACE_ENC:")
        self.encode("%val", "the block")
        self.use("placed: c is the victim's rank")
        e(f"  and.b64 %mnew, %aux0, {B_TAG_MASK:#x};")
        e(f"  or.b64 %mnew, %mnew, {VALID | (B_RANK_MAX << B_RANK_SHIFT):#x};   // valid, rank {B_RANK_MAX}, the tag")
        e(f"  @%pdirty or.b64 %mnew, %mnew, {DIRTY:#x};        // ST, LDA: dirty")
        self.owner("the slot's metadata", lambda J: f"mov.b64 %m{J}, %mnew;")
        e("  @%pst bra.uni $S_EVENT;")
        e("  bra.uni $S_RESP;")
        e("")

    # ---- the kernel -------------------------------------------------------------------------

    def decls(self, serve=True):
        e = self.emit
        e("  .reg .b32 %d<32>;     // data registers: %d<r> holds slots 4r .. 4r+3 (high: 4 x 8-bit, low: 2 x 16-bit fields, raw: 1 word)")
        e("  .reg .b64 %m<4>;      // metadata: slot s at %m<s/32> lane s%32 {valid:63, dirty:62, rank:61..55, tag:54..0}")
        e("  .reg .b32 %b<4>;      // bases: slot s's base at %b<s/32> lane s%32 (raw: 0)")
        e("  .reg .b32 %sz<4>;     // the size of this lane's slot 32 J + lane under the split (1, 2, 4; 0: unusable)")
        e("  .reg .b32 %nH, %nL, %nHL, %n, %cnt1, %cnt2, %cnt4;   // split (nHL = nH + nL), a new epoch's flag, cnt[c]")
        e("  .reg .b32 %lr, %szl, %szu;   // lane / 4 (register of the lane's slot in its group of 8); low, raw size of its sub-slot")
        e("  .reg .b64 %aux0;      // the request's tag (its block number, line / 128), in every lane")
        e("  .reg .b32 %aux2;      // a ballot")
        e("  .reg .b32 %aux3;      // the slot the request uses (0..127)")
        e("  .reg .b32 %j32;       // 32 J: the first slot of the metadata register a search found")
        e("  .reg .b32 %sj, %sl, %own, %sr, %z, %len, %pos, %bs;  // the slot: m[sj] lane sl, ours if own = J; register sr, size z, field, base")
        e("  .reg .b32 %lane, %set, %nsets, %op, %buf, %st, %c, %cr, %val, %old, %w, %wdata, %bmask, %x, %y;")
        e("  .reg .b32 %mlo, %mhi, %vlo, %vhi, %hit, %vvalid, %vdirty, %vfl, %vrs, %nfl, %msk, %jj, %szj, %kmin;")
        e("  .reg .b32 %key<4>, %nH2, %nL2, %nHL2, %nwb, %ndr;")
        e("  .reg .b64 %x64, %vm, %mj, %vtag, %a, %lane4, %mnew, %row, %reg, %rb, %tab, %scr;")
        e("  .reg .pred %p, %q, %pst, %psta, %plda, %pfill, %pdirty, %plane0;")

    def kernel(self):
        e = self.emit
        bug = self.bug
        e("//")
        e(f"// memsys/xllc/helper_rfbdi_{self.imov}.ptx — GENERATED by memsys/xllc/gen_helper.py --store rf --bdi "
          f"--imov {self.imov}" + (f" --break {bug}" if bug else "") + "; do not edit.")
        e("// The extended LLC's register-file helper kernel with BDI compression (MICRO'22 Morpheus §4.3.1):")
        e("// one warp per set, 32 data registers of 4 slots each (high: 32-byte, low: 64-byte, raw: 128-byte")
        e("// blocks), the split among the levels re-chosen every epoch.  The definition (shared with the native")
        e("// model, memsys/xllc.c): docs/xllc-bdi.md.  Indirect-MOV: "
          + ("brx.idx over 32 targets (Algorithm 2)." if self.imov == "brx" else "the native movind instruction (§4.3.2)."))
        if bug:
            e(f"// DELIBERATELY BROKEN ({bug}): for the tests only.")
        e("//")
        e(".version 7.8")
        e(".target sm_86")
        e(".address_size 64")
        e("")
        e("// Warp g reads tab[g] = {u64 row, u64 region, u64 E, u64 scratch}: its warp-status-table row, its")
        e("// partition's query-unit region, the epoch length E in cycles (memsys.bdi_epoch: for the reader; the")
        e("// controller, which has the clock, flags an access that begins a new epoch) and 8 bytes of scratch for")
        e("// atomics (row 0: no set, it exits); it parks, and on each wake serves the request in its row")
        e("// (include/mx/morpheus_mmio.h v3): LD 0, ST 1, FILL 4, FLUSH 5, INV 6, ATOM 7, PEEK 8, LDA 9 (the read")
        e("// half of an atomic), STA 10 (its write half: the bytes merged in place), an access's op with 0x100")
        e("// when it begins the set's new epoch (re-split first).  The answer goes to the row")
        e("// (WAY: the slot 0..127, VFLAGS: bit 0 a victim, bit 1 written back, bits 8..15 / 16..23 the epoch's")
        e("// re-split's write-backs / drops; VTAG; status DONE|HIT last), a load's block to the buffer entry.")
        e(".visible .entry xllc_helper_rfbdi_serve(.param .u64 tab, .param .u32 nwarps)")
        e("{")
        self.decls()
        e("")
        self.serve_prologue()
        e("  ld.global.u64 %scr, [%tab+24];                // its 8 bytes of scratch for atomics")
        e("  setp.eq.u64 %p, %row, 0;")
        e("  @%p bra $S_EXIT;")
        e("  setp.eq.u32 %plane0, %lane, 0;")
        e("  mul.wide.u32 %lane4, %lane, 4;")
        e("  // lane l holds slot 32 J + l of m[J], b[J]: data register 8 J + l / 4, sub-slot l % 4")
        e("  shr.u32 %lr, %lane, 2;")
        e("  and.b32 %x, %lane, 3;")
        e("  setp.lt.u32 %p, %x, 2;")
        e("  selp.u32 %szl, 2, 0, %p;                      // a low register: sub-slots 0, 1")
        e("  setp.eq.u32 %p, %x, 0;")
        e("  selp.u32 %szu, 4, 0, %p;                      // a raw register: sub-slot 0")
        e("  // the set starts empty, every register raw (split (0, 0)), a new epoch")
        for J in range(NMETA):
            e(f"  mov.b64 %m{J}, 0;")
        for J in range(NMETA):
            e(f"  mov.b32 %b{J}, 0;")
        for i in range(NDATA):
            e(f"  mov.b32 %d{i}, 0;")
        e("  mov.u32 %nH, 0;")
        e("  mov.u32 %nL, 0;")
        e("  mov.u32 %nHL, 0;")
        e("  mov.u32 %n, 0;")
        e("  mov.u32 %cnt1, 0;")
        e("  mov.u32 %cnt2, 0;")
        e("  mov.u32 %cnt4, 0;")
        self.sizes()
        e("")
        e("$S_WAIT:")
        e("  park;                                         // asleep until the controller posts a request")
        e(f"  ld.global.u64 %aux0, [%row+{ROW_TAG}];             // the request's tag")
        e(f"  ld.global.u32 %op, [%row+{ROW_OP}];")
        if self.bug == "bdi-epoch":
            e("  mov.u32 %n, 0;                                // BROKEN: the new-epoch flag ignored")
        else:
            e(f"  and.b32 %n, %op, {OP_EPOCH};                  // an access that begins the set's new epoch")
        e(f"  and.b32 %op, %op, {OP_MASK};")
        e(f"  ld.global.u32 %buf, [%row+{ROW_BUF}];")
        e("  cvt.u64.u32 %rb, %buf;")
        e("  add.s64 %rb, %rb, %reg;")
        e("  add.s64 %rb, %rb, %lane4;                     // this lane's word of the buffer entry")
        e("  mov.u32 %hit, 0;                              // the answer so far: no hit, no victim, no re-split")
        e("  mov.u32 %aux3, 0;")
        e("  mov.u32 %vvalid, 0;")
        e("  mov.u32 %vdirty, 0;")
        e("  mov.b64 %vtag, 0;")
        e("  mov.u32 %vrs, 0;")
        e(f"  setp.eq.u32 %p, %op, {OP_FLUSH};")
        e("  @%p bra $S_FLUSH;")
        e(f"  setp.eq.u32 %p, %op, {OP_INV};")
        e("  @%p bra $S_INV;")
        e(f"  setp.eq.u32 %p, %op, {OP_ATOM};")
        e("  @%p bra $S_ATOM;")
        e(f"  setp.eq.u32 %p, %op, {OP_PEEK};")
        e("  @%p bra $S_PEEK;")
        e(f"  setp.eq.u32 %pfill, %op, {OP_FILL};")
        e(f"  setp.eq.u32 %pst, %op, {OP_ST};")
        e(f"  setp.eq.u32 %plda, %op, {OP_LDA};")
        e(f"  setp.eq.u32 %psta, %op, {OP_STA};")
        e("  or.pred %p, %pst, %psta;")
        e("  @!%p bra $S_ACCESS;")
        e("  // ST, STA: this lane's word from the write buffer entry, its 4 bits of the row's byte mask")
        e("  ld.global.u32 %wdata, [%rb];")
        e("  shr.u32 %x, %lane, 3;")
        e("  mul.wide.u32 %a, %x, 4;")
        e("  add.s64 %a, %row, %a;")
        e(f"  ld.global.u32 %bmask, [%a+{ROW_WMASK}];")
        e("  and.b32 %x, %lane, 7;")
        e("  shl.b32 %x, %x, 2;")
        e("  shr.b32 %bmask, %bmask, %x;")
        e("  and.b32 %bmask, %bmask, 15;")
        e("  mul.lo.u32 %bmask, %bmask, 0x204081;         // bit k -> bit 8k")
        e("  and.b32 %bmask, %bmask, 0x01010101;")
        e("  mul.lo.u32 %bmask, %bmask, 255;               // bit 8k -> byte k all ones")
        e("  @%psta bra $S_STA;")
        e("")
        e("$S_ACCESS:                                       // LD, ST, FILL, LDA (anything else reads as LD): docs/xllc-bdi.md \"An access\"")
        e("  or.pred %pdirty, %pst, %plda;                 // the block ends dirty")
        e("  @%pfill ld.global.u32 %val, [%rb];           // a fill: the controller read the block from DRAM")
        e("  // step 1: the epoch: re-split first when the access begins a new one (MX_MMIO_OP_EPOCH)")
        e("  setp.eq.u32 %p, %n, 0;")
        e("  @%p bra.uni $S_COUNT;")
        self.resplit()
        e("$S_COUNT:")
        e("  @%pfill bra.uni $S_MISS;                     // a fill: a predicted miss (no lookup: the set does not hold it)")
        e("  // step 2: lookup")
        self.lookup("$S_HIT", "$S_MISS")
        self.found_slot("$S_HIT")
        e("  mov.u32 %hit, 1;")
        self.decode("%val", "the held block")
        e("  @%pst bra.uni $S_HIT_ST;")
        e("  @%plda bra.uni $S_HIT_LDA;")
        e("  // LD hit: c of the held block, cnt[c] += 1, answer, use the slot")
        self.compress()
        self.count()
        self.use("an LD hit")
        e("  bra.uni $S_RESP;")
        e("")
        e("$S_HIT_ST:                                       // ST hit: merge, c of the result, in place if the slot is large enough")
        self.merge_store()
        self.compress()
        self.count()
        e("  setp.lt.u32 %p, %z, %c;                       // (%z: the slot's size, from the decode)")
        e("  @%p bra.uni $S_MOVE;")
        self.encode("%val", "the stored block in place (its base updated)")
        self.owner("dirty", lambda J: f"or.b64 %m{J}, %m{J}, {DIRTY:#x};")
        self.use("an ST hit")
        e("  bra.uni $S_EVENT;")
        e("")
        e("$S_HIT_LDA:                                      // LDA hit: c = 4, cnt[4] += 1; moves unless raw; dirty")
        e("  mov.u32 %c, 4;")
        e("  add.u32 %cnt4, %cnt4, 1;                      // cnt[4] += 1")
        e("  setp.ne.u32 %p, %z, 4;")
        e("  @%p bra.uni $S_MOVE;")
        self.owner("dirty (its atomics follow)", lambda J: f"or.b64 %m{J}, %m{J}, {DIRTY:#x};")
        self.use("an LDA hit")
        e("  bra.uni $S_RESP;")
        e("")
        e("$S_MOVE:                                         // the slot is too small: drop it (no write-back), place the block")
        self.drop("a move: not a victim")
        e("  bra.uni $S_PLACE;")
        e("")
        e("$S_MISS:                                         // LD miss, FILL, ST miss, LDA miss: the block, c, cnt[c] += 1, place")
        e("  shl.b64 %a, %aux0, 7;                         // the line")
        e("  add.s64 %a, %a, %lane4;")
        e("  @!%pfill ld.global.cg.u32 %val, [%a];        // from DRAM (not kept in L1); a fill brought it")
        e("  @!%pst bra.uni $S_MISS_C;")
        self.merge_store()
        e("$S_MISS_C:")
        e("  mov.u32 %c, 4;                                // LDA: c = 4 (kept raw for its atomics)")
        e("  @%plda bra.uni $S_MISS_CNT;")
        self.compress()
        e("$S_MISS_CNT:")
        self.count()
        self.place()
        e("$S_RESP:                                         // a load: the block to the buffer entry")
        e("  st.global.u32 [%rb], %val;")
        e("$S_EVENT:                                        // the answer, status last (lane 0)")
        e("  shl.b32 %vfl, %vdirty, 1;")
        e("  or.b32 %vfl, %vfl, %vvalid;")
        e("  or.b32 %vfl, %vfl, %vrs;                      // the re-split's write-backs and drops")
        e(f"  @%plane0 st.global.v2.u32 [%row+{ROW_WAY}], {{%aux3, %vfl}};")
        e(f"  @%plane0 st.global.u64 [%row+{ROW_VTAG}], %vtag;")
        e("  shl.b32 %st, %hit, 2;")
        e(f"  or.b32 %st, %st, {ST_DONE};")
        e(f"  @%plane0 st.global.u32 [%row+{ROW_STATUS}], %st;")
        e("  bra.uni $S_WAIT;")
        e("")
        self.held_ops()
        e("$S_EXIT:")
        e("  ret;")
        e("}")
        return "\n".join(self.out) + "\n"

    def find_held(self, e, why):
        """The lookup for the non-accesses (PEEK, ATOM, STA, INV): %aux3 the
        slot and %hit 1, else on to $S_EVENT with no hit and no victim."""
        self.emit(f"  // lookup; not held: {why}")
        found = self.uniq("HELD")
        self.lookup(found, "$S_EVENT")
        self.found_slot(found)
        self.emit("  mov.u32 %hit, 1;")

    def held_ops(self):
        """PEEK, ATOM, STA, INV, FLUSH: no counter, no re-split (docs/xllc-bdi.md "Non-accesses")."""
        e = self.emit
        e("$S_PEEK:                                         // the block for a load the SM's L1 hit: no LRU change")
        self.find_held(e, "the controller reads DRAM")
        self.decode("%val", "the held block")
        e("  bra.uni $S_RESP;")
        e("")
        e("$S_STA:                                          // the write half of an atomic: the bytes merged in place, dirty, no LRU change")
        self.find_held(e, "say so")
        self.decode("%val", "the held block")
        self.merge_store()
        self.encode("%val", "the block in place")
        self.owner("dirty", lambda J: f"or.b64 %m{J}, %m{J}, {DIRTY:#x};")
        e("  bra.uni $S_EVENT;")
        e("")
        e("$S_ATOM:                                         // one lane's atomic, executed here (§4.2.3) on the held block")
        e("  // (registers of the other paths reused: b %vm, c %mnew, offset %y, code %c, its lane %old)")
        self.find_held(e, "the controller read it just before: say so")
        self.atom_exec(e, lambda: self.decode("%val", "every lane's word of the block (raw since its LDA)"), "%y", "%q")
        self.encode("%val", "the block with the lane's result")
        self.owner("dirty", lambda J: f"or.b64 %m{J}, %m{J}, {DIRTY:#x};")
        e("  bra.uni $S_EVENT;")
        e("")
        e("$S_INV:                                          // drop one block (the host wrote its line), written back if dirty")
        self.find_held(e, "nothing to do")
        e("  mov.u32 %vvalid, 1;                           // the answer: HIT, its slot, itself as the victim")
        e("  mov.b64 %vtag, %aux0;")
        self.meta_of()
        e("  bfe.u32 %vdirty, %vhi, 30, 1;")
        e("  setp.eq.u32 %p, %vdirty, 0;")
        e("  @%p bra.uni $S_INV_DROP;")
        self.write_back("%aux0")
        e("$S_INV_DROP:")
        self.drop("INV")
        e("  bra.uni $S_EVENT;")
        e("")
        e("$S_FLUSH:                                        // write every dirty block back, lowest slot first; they stay, clean")
        e("  mov.u32 %nfl, 0;")

        def pred():
            e(f"  and.b64 %x64, %mj, {VALID | DIRTY:#x};")
            e(f"  setp.eq.u64 %p, %x64, {VALID | DIRTY:#x};       // valid and dirty")

        def body():
            self.meta_of()
            e(f"  and.b64 %vtag, %vm, {B_TAG_MASK:#x};")
            self.write_back("%vtag")
            self.owner("clean now", lambda J: f"and.b64 %m{J}, %m{J}, {((1 << 64) - 1) ^ DIRTY:#x};")
            e("  add.u32 %nfl, %nfl, 1;")

        self.slot_loop("FL", pred, body)
        e("  mov.u32 %x, 0;")
        e(f"  @%plane0 st.global.v2.u32 [%row+{ROW_WAY}], {{%nfl, %x}};   // WAY: how many")
        e(f"  @%plane0 st.global.u32 [%row+{ROW_STATUS}], {ST_DONE};")
        e("  bra.uni $S_WAIT;")
        e("")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--imov", choices=("brx", "movind"))
    ap.add_argument("--store", choices=("rf", "l1", "shm", "rfl1"), default="rf")
    ap.add_argument("--bdi", action="store_true", help="BDI-compressed blocks (docs/xllc-bdi.md; --store rf only)")
    ap.add_argument("--break", dest="bug", choices=BUGS)
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args(argv)
    if a.store in ("rf", "rfl1") and not a.imov:
        ap.error("--imov brx|movind is needed for the rf and rfl1 variants")
    if a.store in ("l1", "shm") and a.imov:
        ap.error("--imov is for the rf and rfl1 variants only (l1 and shm address their blocks in memory)")
    if a.bdi and a.store != "rf":
        ap.error("--bdi is for the rf variant only (docs/xllc-bdi.md: l1, shm and rfl1 are not compressed)")
    if a.bug and (a.bug in BDI_BUGS) != a.bdi:
        ap.error(f"--break {a.bug} is " + ("for --bdi only" if not a.bdi else "not a bug of the --bdi kernel")
                 + " (--bdi: " + ", ".join(BDI_BUGS) + ")")
    text = (BdiGen(a.imov, a.bug) if a.bdi else Gen(a.imov, a.bug, a.store)).kernel()
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
