/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for the guests' side of the request channel: the input
 * is a program of 8-byte steps (op, vGPU, 16-bit offset, 32-bit value) run on
 * a Dom0 runtime with three vGPUs over a simulated Skylake opened once:
 * PVINFO writes at any offset with any value, serves, policy periods, steal
 * rates, guest PTE writes and switches. Beyond ASan/UBSan, after every step
 * each vGPU's PVINFO range words must be its range and lie in high memory,
 * a refused write must not move it; at the end the runtime's restore must
 * read back (dom0_fini) and, every eighth input, the whole GSM (read here)
 * be as found.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dom0/dom0.h"
#include "env/env_posix.h"
#include "harness/backends.h"
#include "hw/ggtt.h"
#include "hw/pte.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NV	3
#define PV_OFF(reg)	((reg) - VGT_PVINFO_PAGE)

static struct hw_device *dev;
static uint64_t *gsm_before, *gsm_now;

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "fuzz_pvinfo: %s%s%s\n", what, msg ? ": " : "", msg ? msg : "");
	abort();
}

static void setup(void)
{
	struct gtt_err err = { 0 };

	if (hw_open(gtt_env_posix(GTT_LOG_ERROR), "sim:skl", gtt_posix_backends, gtt_num_posix_backends, NULL, &dev, &err))
		die("cannot open sim:skl", err.msg);
	gsm_before = calloc(dev->info.n_ptes, sizeof(uint64_t));
	gsm_now = calloc(dev->info.n_ptes, sizeof(uint64_t));
	if (!gsm_before || !gsm_now || hw_ggtt_read_range(dev, 0, dev->info.n_ptes, gsm_before, &err))
		die("cannot read the GSM", err.msg);
}

static void consistent(struct dom0_runtime *rt, const int *id)
{
	const struct dom0_layout *l = dom0_layout(rt);

	for (int k = 0; k < NV; k++) {
		struct dom0_vgpu_info in;
		uint32_t base = 0, size = 0;
		if (dom0_vgpu_info(rt, id[k], &in))
			die("a vGPU vanished", NULL);
		dom0_pvinfo_read(rt, id[k], PV_OFF(VGT_IF_NONMAPPABLE_BASE), &base, NULL);
		dom0_pvinfo_read(rt, id[k], PV_OFF(VGT_IF_NONMAPPABLE_SIZE), &size, NULL);
		if (in.first_slot + in.slots > l->num_slots)
			die("a vGPU holds slots past the end of high memory", NULL);
		if (base != (uint32_t)in.high_base || size != (uint32_t)in.high_size)
			die("PVINFO's non-mappable range is not the vGPU's", NULL);
	}
}

static void step(struct dom0_runtime *rt, const int *id, const uint8_t *s)
{
	int k = id[s[1] % NV];
	uint32_t off = (uint32_t)s[2] | (uint32_t)s[3] << 8, val;
	struct dom0_vgpu_info a, b;

	memcpy(&val, s + 4, 4);
	switch (s[0] % 8) {
	case 0: case 1: case 2:
		dom0_vgpu_info(rt, k, &a);
		if (dom0_pvinfo_write(rt, k, off % 0x1400, val, NULL)) {
			dom0_vgpu_info(rt, k, &b);
			if (a.first_slot != b.first_slot || a.slots != b.slots)
				die("a refused PVINFO write moved the vGPU", NULL);
		}
		break;
	case 3:
		/* a well-formed request with the fuzzer's count: code from the offset's low bits */
		dom0_pvinfo_write(rt, k, PV_OFF(GTTLAB_IF_GM_CODE), 1 + off % 3, NULL);
		dom0_pvinfo_write(rt, k, PV_OFF(GTTLAB_IF_GM_COUNT), val % 64, NULL);
		dom0_pvinfo_write(rt, k, PV_OFF(VGT_IF_G2V_NOTIFY), GTTLAB_G2V_GM_REQUEST, NULL);
		/* fall through: and serve it */
	case 4:
		if (dom0_serve_requests(rt, NULL, NULL))
			die("serving failed", NULL);
		break;
	case 5:
		dom0_policy_steal(rt, k, val, NULL);
		if (dom0_run_quanta(rt, 1 + off % 64, NULL, NULL, NULL))
			die("run failed", NULL);
		break;
	case 6: {
		struct dom0_vgpu_info in;
		uint64_t pte = 0;
		dom0_vgpu_info(rt, k, &in);
		hw_pte_encode(dev->info.plat, (uint64_t)(val % 96) << 12, HW_CACHE_NONE, &pte, NULL);
		dom0_guest_pte_write(rt, k, in.high_base / 4096 + off * 7u % (in.high_size / 4096 + 1), pte, NULL);
		break;
	}
	default:
		if (dom0_switch(rt, k, NULL, NULL))
			die("switch failed", NULL);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dom0_runtime *rt = NULL;
	struct gtt_err err = { 0 };
	int id[NV];

	if (!dev)
		setup();
	if (dom0_init(dev, &(struct dom0_config){ 0 }, &rt, &err))
		die("dom0_init", err.msg);
	for (int k = 0; k < NV; k++) {
		struct dom0_vgpu_params p = { .low_size = 1 << 20, .high_slots = 1 + (unsigned)k, .mem_pages = 64 };
		if (dom0_vgpu_create(rt, &p, &id[k], &err))
			die("create", err.msg);
	}
	if (dom0_policy_set(rt, &(struct dom0_policy){ .copy_ns_per_pte = 50 }, 0, &err))
		die("policy", err.msg);
	for (size_t i = 0; i + 8 <= size && i < 8 * 512; i += 8) {
		step(rt, id, data + i);
		consistent(rt, id);
	}
	if (dom0_fini(rt, &err))
		die("dom0_fini did not read back", err.msg);
	/* the runtime's own read-back judged every input; the whole GSM, read here, every eighth */
	static unsigned n;
	if (n++ % 8)
		return 0;
	if (hw_ggtt_read_range(dev, 0, dev->info.n_ptes, gsm_now, &err))
		die("cannot read the GSM", err.msg);
	if (memcmp(gsm_before, gsm_now, dev->info.n_ptes * sizeof(uint64_t)))
		die("the GSM is not as found after dom0_fini", NULL);
	return 0;
}
