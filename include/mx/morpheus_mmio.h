/* include/mx/morpheus_mmio.h — the memory-mapped layout of one Morpheus
 * query unit (MICRO'22 §4.1.3): the contract between the controller of an
 * LLC partition (memsys/morpheus.c) and the helper kernel's warps, which
 * read and write it with plain ld/st.  One region per LLC partition:
 *
 *   [0, 64)                          header (sizes and offsets below)
 *   [64, 64 + rows * 64)             warp status table, one 64-byte row per
 *                                    extended-LLC set of the partition
 *   rbuf_off + i * 128, i < rbufs    read data buffer entries (helper -> controller)
 *   wbuf_off + i * 128, i < wbufs    write data buffer entries (controller -> helper)
 *
 * Little-endian; every u32 field is 4-byte aligned, every u64 8-byte
 * aligned, buffer entries 128-byte aligned.  docs/morpheus-controller.md
 * describes the protocol on the status word. */
#ifndef MX_MORPHEUS_MMIO_H
#define MX_MORPHEUS_MMIO_H

#define MX_MMIO_MAGIC 0x5551584du   /* "MXQU" read as a little-endian u32 */
#define MX_MMIO_VERSION 3u

/* Header: u32 fields at these byte offsets. */
#define MX_MMIO_HDR_MAGIC 0x00      /* MX_MMIO_MAGIC */
#define MX_MMIO_HDR_VERSION 0x04    /* MX_MMIO_VERSION */
#define MX_MMIO_HDR_PART 0x08       /* LLC partition this region belongs to */
#define MX_MMIO_HDR_ROWS 0x0c       /* warp-status-table rows = extended sets of the partition */
#define MX_MMIO_HDR_RBUFS 0x10      /* read data buffer entries */
#define MX_MMIO_HDR_WBUFS 0x14      /* write data buffer entries */
#define MX_MMIO_HDR_WST_OFF 0x18    /* byte offset of row 0 (= MX_MMIO_HDR_SIZE) */
#define MX_MMIO_HDR_RBUF_OFF 0x1c   /* byte offset of read buffer entry 0 */
#define MX_MMIO_HDR_WBUF_OFF 0x20   /* byte offset of write buffer entry 0 */
#define MX_MMIO_HDR_BYTES 0x24      /* size of the whole region */
#define MX_MMIO_HDR_SIZE 64

/* Warp-status-table row r at MX_MMIO_ROW(r); fields at these offsets. */
#define MX_MMIO_ROW_TAG 0x00        /* u64: the request's block number (line address / 128) */
#define MX_MMIO_ROW_ORIGIN 0x08     /* u32: the SM that issued the request */
#define MX_MMIO_ROW_OP 0x0c         /* u32: enum mx_mop (LD, ST, ATOM, RED) or MX_MMIO_OP_FILL */
#define MX_MMIO_ROW_STATUS 0x10     /* u32: the doorbell/status word, MX_MMIO_ST_* bits */
#define MX_MMIO_ROW_SEQ 0x14        /* u32: requests posted to this row so far (the latest one's number) */
#define MX_MMIO_ROW_BUF 0x18        /* u32: byte offset in the region of the request's buffer entry */
#define MX_MMIO_ROW_SECTORS 0x1c    /* u32: 32-byte sectors the request touches (bit i: sector i) */
#define MX_MMIO_ROW_WMASK 0x20      /* u32[4]: a store's bytes: bit b of the 128 = byte b of the block is written */
/* The answer, written by whoever served the request (the helper warp, or
 * the native model), before DONE: */
#define MX_MMIO_ROW_WAY 0x30        /* u32: the way used (the hit way, or where the block went); FLUSH: blocks
                                       written back */
#define MX_MMIO_ROW_VFLAGS 0x34     /* u32: the victim: MX_MMIO_V_VALID (a block was evicted), MX_MMIO_V_WB
                                       (it was dirty and written back to DRAM); BDI: the blocks the set's
                                       re-split before this access wrote back (MX_MMIO_V_SPLIT_WB) and
                                       dropped (MX_MMIO_V_SPLIT_DROPS) */
#define MX_MMIO_ROW_VTAG 0x38       /* u64: the victim's block number */
#define MX_MMIO_ROW_SIZE 64

#define MX_MMIO_V_VALID 0x1u
#define MX_MMIO_V_WB 0x2u
#define MX_MMIO_V_SPLIT_WB(v) ((v) >> 8 & 0xffu)
#define MX_MMIO_V_SPLIT_DROPS(v) ((v) >> 16 & 0xffu)

/* A fill: the controller read the block from DRAM after a predicted miss
 * and hands it (in the write buffer) to the set's warp to insert. */
#define MX_MMIO_OP_FILL 4u
/* Write back every dirty block of the set; they stay, clean (the device
 * goes idle: the host may read device memory next).  The answer's WAY
 * field: how many were written back. */
#define MX_MMIO_OP_FLUSH 5u
/* Drop the block of the row's tag if the set holds it, written back first
 * if dirty (the host wrote its line while the device was idle).  The
 * answer: HIT if it was there, its way, and itself as the victim. */
#define MX_MMIO_OP_INV 6u
/* One lane's atomic on a block the set holds (§4.2.3: the owning warp
 * executes it): the write buffer entry holds {u64 b; u64 c; u32 offset of
 * the operand in the block; u32 code: enum mx_atom of mx/memreq.h}.  The
 * answer: HIT and the way (a miss is an error: the controller read the
 * block just before). */
#define MX_MMIO_OP_ATOM 7u
/* The block for a load whose SM's L1 held it (the emulator's L1 keeps no
 * data, the set has the freshest copy): no LRU change, no insertion; the
 * answer: HIT and the block in the read buffer, or a miss (the controller
 * reads DRAM).  Not an extended-LLC access: counted nowhere. */
#define MX_MMIO_OP_PEEK 8u
/* BDI (docs/xllc-bdi.md): the read half of an atomic, a load whose block
 * the set keeps uncompressed (and dirty) for the ATOM requests that follow. */
#define MX_MMIO_OP_LDA 9u
/* BDI: the write half of an atomic the warp does not execute itself: the
 * write buffer's bytes under WMASK into the held block, in place, dirty; no
 * LRU change.  The answer: HIT and the way. */
#define MX_MMIO_OP_STA 10u
/* BDI: a flag OR-ed into the op of an access (LD, ST, FILL, LDA): the set's
 * first access in a new epoch of memsys.bdi_epoch cycles, so it re-splits its
 * registers first (docs/xllc-bdi.md).  The controller has the request's
 * clock and decides; the op proper is the low byte (MX_MMIO_OP_MASK). */
#define MX_MMIO_OP_EPOCH 0x100u
#define MX_MMIO_OP_MASK 0xffu
#define MX_MMIO_ATOM_B 0
#define MX_MMIO_ATOM_C 8
#define MX_MMIO_ATOM_OFFSET 16
#define MX_MMIO_ATOM_CODE 20

/* Status bits.  The controller writes the row's fields, then sets BUSY
 * (the doorbell); the helper warp serves the request, writes HIT if the
 * set held the block and sets DONE; the controller takes the response and
 * clears BUSY (DONE and HIT stay as the last result until the next post). */
#define MX_MMIO_ST_BUSY 0x1u
#define MX_MMIO_ST_DONE 0x2u
#define MX_MMIO_ST_HIT 0x4u

#define MX_MMIO_BUF_SIZE 128        /* bytes of a data buffer entry (one extended-LLC block) */

#define MX_MMIO_ROW(r) (MX_MMIO_HDR_SIZE + (r) * MX_MMIO_ROW_SIZE)
/* Buffers start at the first 128-byte boundary after the table. */
#define MX_MMIO_RBUF_OFF(rows) ((MX_MMIO_ROW(rows) + MX_MMIO_BUF_SIZE - 1) / MX_MMIO_BUF_SIZE * MX_MMIO_BUF_SIZE)
#define MX_MMIO_RBUF(rows, i) (MX_MMIO_RBUF_OFF(rows) + (i) * MX_MMIO_BUF_SIZE)
#define MX_MMIO_WBUF_OFF(rows, rbufs) (MX_MMIO_RBUF_OFF(rows) + (rbufs) * MX_MMIO_BUF_SIZE)
#define MX_MMIO_WBUF(rows, rbufs, i) (MX_MMIO_WBUF_OFF(rows, rbufs) + (i) * MX_MMIO_BUF_SIZE)
#define MX_MMIO_BYTES(rows, rbufs, wbufs) (MX_MMIO_WBUF_OFF(rows, rbufs) + (wbufs) * MX_MMIO_BUF_SIZE)

#endif
