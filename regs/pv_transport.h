/* SPDX-License-Identifier: MIT */
/*
 * The paravirtual transport between a guest's gttlab and `gttlab dom0 serve`
 * (docs/transport.md): QEMU's ivshmem-doorbell device (PCI 1af4:1110; BAR0
 * its registers, BAR2 the shared memory) carries each access the guest
 * makes to its vGPU to the host runtime's trap paths and the answer back.
 * This header is the layout both sides build from; every field is little
 * endian, at the offset given, and nothing else is in the shared memory.
 *
 *   0                  header (one page): the host's, read-only to guests
 *   MAILBOX(k)         guest k's mailbox, k its ivshmem ID (IVPosition)
 *   RAM(k)             guest k's memory: the pages its vGPU maps
 *
 * A request: the guest fills its mailbox's request words, then writes REQ_SEQ
 * (one more than the last), then rings the host's doorbell (Doorbell =
 * host ID << 16 | PV_VECTOR). The host answers in the answer words and then
 * writes ANS_SEQ = REQ_SEQ; a guest waits for that. One request at a time.
 */
#ifndef REGS_PV_TRANSPORT_H
#define REGS_PV_TRANSPORT_H

/* ivshmem-doorbell (QEMU docs/specs/ivshmem-spec.rst) */
#define IVSHMEM_PCI_VENDOR		0x1af4
#define IVSHMEM_PCI_DEVICE		0x1110
#define IVSHMEM_REG_BAR			0	/* registers, 256 bytes */
#define IVSHMEM_SHM_BAR			2	/* the shared memory */
#define IVSHMEM_REG_INTR_MASK		0x00
#define IVSHMEM_REG_INTR_STATUS		0x04
#define IVSHMEM_REG_IVPOSITION		0x08	/* the device's ID (0-65535) */
#define IVSHMEM_REG_DOORBELL		0x0c	/* bits 31:16 peer ID, 15:0 vector */
#define IVSHMEM_PROTOCOL_VERSION	0	/* the server's first message */

/* The header (offset 0). */
#define PV_MAGIC			0x3176506261626c74ull	/* "tlbabPv1" little endian: 74 6c 62 61 62 50 76 31 */
#define PV_VERSION			2	/* 2: stamps carry a keyed tag (PV_MB_STAMP_KEY) */
#define PV_HDR_MAGIC			0x000	/* u64 PV_MAGIC once the host is ready */
#define PV_HDR_VERSION			0x008	/* u32 PV_VERSION */
#define PV_HDR_HOST_ID			0x00c	/* u32 the host's ivshmem ID: the peer a guest rings */
#define PV_HDR_MAX_GUESTS		0x010	/* u32 mailboxes 1..MAX_GUESTS exist (ID 0 is the host's) */
#define PV_HDR_RAM_PAGES		0x014	/* u32 4 KiB pages of each guest's memory */
#define PV_HDR_HEARTBEAT		0x018	/* u64 the host's serve loop counts up while it lives */
#define PV_HDR_STATE			0x020	/* u32 PV_HOST_* */
#define PV_HOST_SERVING			1
#define PV_HOST_STOPPED			2	/* the host left in order: no answer comes any more */
#define PV_HDR_FEATURES			0x024	/* u32 PV_FEAT_*: what the host's device offers */
#define PV_FEAT_GPU_SIDE		(1u << 0)	/* GPU-side access (PV_OP_GPU_*): the model has one, a real GPU here not */
#define PV_VECTOR			0	/* the one interrupt vector used, both ways */

#define PV_PAGE				4096ull
#define PV_DATA_MAX			(64ull << 10)	/* bytes one request or answer carries */
#define PV_MAILBOX_SIZE			(PV_DATA_MAX + PV_PAGE)
#define PV_MAILBOX(k)			(PV_PAGE + (unsigned long long)(k) * PV_MAILBOX_SIZE)
/* guest k's memory, after the mailboxes of max guests, each ram_pages long */
#define PV_RAM(k, max, ram_pages)	(PV_MAILBOX((max) + 1) + (unsigned long long)(k) * (ram_pages) * PV_PAGE)
#define PV_SHM_SIZE(max, ram_pages)	PV_RAM((max) + 1, max, ram_pages)

/* A mailbox: offsets inside it. */
#define PV_MB_STATE			0x000	/* u32 host: PV_GUEST_* */
#define PV_MB_VGT_ID			0x004	/* u32 host: the vGPU's id in the host runtime */
#define PV_MB_REQ_SEQ			0x008	/* u64 guest: written last */
#define PV_MB_ANS_SEQ			0x010	/* u64 host: written last, = REQ_SEQ answered */
#define PV_MB_OP			0x018	/* u32 guest: PV_OP_* */
#define PV_MB_WIDTH			0x01c	/* u32 guest: bytes of a config access, or a BAR number */
#define PV_MB_ADDR			0x020	/* u64 guest: offset, graphics address */
#define PV_MB_LEN			0x028	/* u64 guest: bytes of data (at most PV_DATA_MAX), or a value written */
#define PV_MB_STATUS			0x030	/* i32 host: GTT_OK or a gtt error code */
#define PV_MB_VALUE			0x038	/* u64 host: a value read; bar_info's base */
#define PV_MB_VALUE2			0x040	/* u64 host: bar_info's size */
#define PV_MB_MSG			0x048	/* char[PV_MSG_MAX] host: why, NUL-terminated */
#define PV_MSG_MAX			256
#define PV_MB_STAMP_KEY			0x148	/* u64[2] host: this guest's stamp key, made for it alone at its connect */
#define PV_MB_DATA			PV_PAGE	/* u8[PV_DATA_MAX] both ways */

#define PV_GUEST_FREE			0	/* no vGPU behind this mailbox */
#define PV_GUEST_READY			1	/* the host created the vGPU: requests are served */
#define PV_GUEST_GONE			2	/* the host reclaimed it (the guest disconnected) */

/* Operations: one hw_backend_ops call each (hw/backend.h). */
#define PV_OP_CFG_READ			1	/* WIDTH, ADDR -> VALUE */
#define PV_OP_CFG_WRITE			2	/* WIDTH, ADDR, LEN = value */
#define PV_OP_MMIO_READ32		3	/* ADDR -> VALUE */
#define PV_OP_MMIO_WRITE32		4	/* ADDR, LEN = value */
#define PV_OP_MMIO_READ64		5
#define PV_OP_MMIO_WRITE64		6
#define PV_OP_AP_READ			7	/* ADDR, LEN -> DATA */
#define PV_OP_AP_WRITE			8	/* ADDR, LEN, DATA */
#define PV_OP_GPU_READ			9	/* ADDR (graphics address), LEN -> DATA */
#define PV_OP_GPU_WRITE			10	/* ADDR, LEN, DATA */
#define PV_OP_BAR_INFO			11	/* WIDTH = bar -> VALUE base, VALUE2 size */
#define PV_OP_HOST_AUDIT		12	/* -> STATUS, MSG why */
#define PV_OP_PTE_WRITE			13	/* ADDR (BAR0 offset), WIDTH = PTE size, LEN = count, DATA = entries */
#define PV_OP_PTE_READ			14	/* ADDR, WIDTH, LEN = count -> DATA */
#define PV_OP_MAX			14

/*
 * The stamp the guest suite puts at the start of each page it tags
 * (checks/checks_guest_common.c): u64 PV_TAG_MAGIC, u32 the writer's
 * vgt_id, u32 the tag, then u64 SipHash-2-4 (env/siphash.h) of those 8
 * bytes of vgt_id and tag under the writer's stamp key (PV_MB_STAMP_KEY:
 * only the host and that guest know it). The host finds in what a guest
 * reads whose bytes they are: another guest's stamp whose tag verifies under
 * that guest's key is a leak; one that does not is a forgery, counted apart.
 */
#define PV_TAG_MAGIC			0x6761745f62616c74ull	/* "tlab_tag" little endian */
#define PV_STAMP_SIZE			24

#endif
