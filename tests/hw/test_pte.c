/* SPDX-License-Identifier: MIT */
/*
 * PTE encode/decode for every platform. Golden values come from the macros
 * quoted in docs/hardware.md §2 (GEN6_GTT_ADDR_ENCODE, HSW_GTT_ADDR_ENCODE,
 * gen8: addr | PRESENT), written out here, not from hw/pte.c.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "hw/aperture.h"
#include "hw/ggtt.h"
#include "hw/pte.h"
#include "regs/platform.h"
#include "tests/helpers.h"

/* the kernel macros work on the 32-bit PTE: truncate as the u32 assignment does */
static uint64_t doc_gen6(uint64_t a) { return (uint32_t)(a | ((a >> 28) & 0xff0)); }
static uint64_t doc_hsw(uint64_t a) { return (uint32_t)(a | ((a >> 28) & 0x7f0)); }

Test(pte, golden_literals)
{
	uint64_t pte;
	struct gtt_err err = { 0 };

	/* snb, llc: 0x12_3456_7000 -> 0x34567000 | 0x12 << 4 | CACHE_LLC | VALID */
	cr_assert_eq(hw_pte_encode(gtt_platform_by_name("snb"), 0x1234567000ull, HW_CACHE_LLC, &pte, &err), 0);
	cr_expect_eq(pte, 0x34567125ull, "snb pte 0x%llx", (unsigned long long)pte);
	/* ivb, l3-llc: cache value 3 << 1 */
	cr_assert_eq(hw_pte_encode(gtt_platform_by_name("ivb"), 0xff00001000ull, HW_CACHE_L3_LLC, &pte, &err), 0);
	cr_expect_eq(pte, 0x00001ff7ull);
	/* hsw, none: HSW_PTE_UNCACHED = 0, bits 38:32 in 10:4 */
	cr_assert_eq(hw_pte_encode(gtt_platform_by_name("hsw"), 0x7f80000000ull, HW_CACHE_NONE, &pte, &err), 0);
	cr_expect_eq(pte, 0x800007f1ull);
	/* hsw, llc: HSW_WB_LLC_AGE3 = 0x4 */
	cr_assert_eq(hw_pte_encode(gtt_platform_by_name("hsw"), 0x1000ull, HW_CACHE_LLC, &pte, &err), 0);
	cr_expect_eq(pte, 0x1005ull);
	/* skl: address in place, present bit */
	cr_assert_eq(hw_pte_encode(gtt_platform_by_name("skl"), 0x7ffffff000ull, HW_CACHE_LLC, &pte, &err), 0);
	cr_expect_eq(pte, 0x7ffffff001ull);
}

Test(pte, round_trip_every_platform_with_high_bits)
{
	uint64_t seed = 42;

	for (size_t i = 0; i < gtt_num_platforms; i++) {
		const struct gtt_platform *p = &gtt_platforms[i];
		uint64_t top = (1ull << p->phys_addr_bits) - 4096;
		uint64_t addrs[64] = { 0, 0x1000, 0xfffff000ull, 0x100000000ull, top, top & ~0xffffffffull };
		for (int k = 6; k < 64; k++)
			addrs[k] = t_rand(&seed) & top;
		for (int k = 0; k < 64; k++) {
			uint64_t a = addrs[k], pte, want;
			struct hw_pte d;
			struct gtt_err err = { 0 };
			cr_assert_eq(hw_pte_encode(p, a, HW_CACHE_NONE, &pte, &err), 0, "%s: %s", p->name, err.msg);
			switch (p->pte_format) {
			case PTE_FORMAT_SNB:
			case PTE_FORMAT_IVB: want = doc_gen6(a) | 0x2 | 0x1; break;
			case PTE_FORMAT_HSW: want = doc_hsw(a) | 0x1; break;
			default: want = a | 1; break;
			}
			cr_expect_eq(pte, want, "%s addr 0x%llx: pte 0x%llx, doc formula 0x%llx", p->name,
				     (unsigned long long)a, (unsigned long long)pte, (unsigned long long)want);
			hw_pte_decode(p, pte, &d);
			cr_expect(d.valid);
			cr_expect_eq(d.addr, a, "%s decode 0x%llx -> 0x%llx", p->name,
				     (unsigned long long)pte, (unsigned long long)d.addr);
		}
	}
}

Test(pte, rejects_bad_addresses_and_levels)
{
	uint64_t pte = 0x5a5a;
	struct gtt_err err = { 0 };

	cr_expect_eq(hw_pte_encode(gtt_platform_by_name("skl"), 0x1234, HW_CACHE_NONE, &pte, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "0x1234") && strstr(err.msg, "4 KiB aligned"), "%s", err.msg);
	cr_expect_eq(hw_pte_encode(gtt_platform_by_name("hsw"), 1ull << 39, HW_CACHE_NONE, &pte, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "0x8000000000") && strstr(err.msg, "39"), "%s", err.msg);
	cr_expect_eq(hw_pte_encode(gtt_platform_by_name("snb"), 1ull << 40, HW_CACHE_NONE, &pte, &err), GTT_EINVAL);
	cr_expect_eq(hw_pte_encode(gtt_platform_by_name("snb"), 0x1000, HW_CACHE_WT, &pte, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "wt"), "%s", err.msg);
	cr_expect_eq(pte, 0x5a5a, "a failed encode must not write its output");
}

Test(pte, decode_invalid_and_cache_names)
{
	struct hw_pte d;

	hw_pte_decode(gtt_platform_by_name("hsw"), 0x12345806, &d);
	cr_expect(!d.valid);
	cr_expect_str_eq(d.cache, "wb-ellc-llc-age0");
	cr_expect_eq(d.addr, 0x12345000ull, "HSW bit 11 is cache control, not address bit 39");
	hw_pte_decode(gtt_platform_by_name("ivb"), 0x12345007, &d);
	cr_expect_str_eq(d.cache, "l3+llc");
	hw_pte_decode(gtt_platform_by_name("skl"), 0xfff0000000000000ull, &d);
	cr_expect(!d.valid);
	cr_expect_eq(d.addr, 0, "bits above 38 are not address bits on gen8/9");
}

Test(pte, with_addr_keeps_control_bits_and_nothing_else)
{
	uint64_t out;
	const struct gtt_platform *skl = gtt_platform_by_name("skl"), *hsw = gtt_platform_by_name("hsw");

	/* a guest's bits above the address field must not reach the host PTE */
	cr_assert_eq(hw_pte_with_addr(skl, (0x3full << 39) | (3ull << 12) | 1, 0x400000000ull, &out, NULL), 0);
	cr_expect_eq(out, 0x400000001ull, "0x%llx", (unsigned long long)out);
	/* hsw: cache control 0x806 kept, the new address's high bits in 10:4 */
	cr_assert_eq(hw_pte_with_addr(hsw, 0x12345807, 0x7f00001000ull, &out, NULL), 0);
	cr_expect_eq(out, 0x00001ff7ull | 0x800, "0x%llx", (unsigned long long)out);
}

/*
 * Bits above the gen8+ address field (38:12, docs/hardware.md §2.3) are not
 * address bits: the decoder ignores them, and the aperture reaches the page
 * bits 38:12 name. Both sides, so a widened mask in regs/ cannot pass unseen.
 */
Test(pte, gen8_bits_above_38_are_not_address_bits)
{
	const struct gtt_platform *skl = gtt_platform_by_name("skl");
	struct hw_device *dev = t_open("sim:skl");
	struct hw_page pg;
	struct hw_pte d;
	char buf[8] = { 0 };

	for (unsigned bit = 39; bit < 64; bit++) {
		hw_pte_decode(skl, (1ull << bit) | 0x5000 | 1, &d);
		cr_expect(d.valid && d.addr == 0x5000, "bit %u decoded into the address: 0x%llx", bit,
			  (unsigned long long)d.addr);
	}
	cr_assert_eq(hw_alloc_test_pages(dev, 1, &pg, NULL), 0);
	memcpy(pg.cpu, "page38", 7);
	cr_assert_eq(hw_ggtt_write_pte(dev, 7, pg.phys | 1ull << 39 | 1, NULL), 0);
	hw_ggtt_invalidate(dev);
	cr_assert_eq(hw_aperture_read(dev, 7 * 4096, buf, 7, NULL), 0);
	cr_expect_str_eq(buf, "page38", "the aperture does not reach the page bits 38:12 name");
	uint64_t pte;
	cr_assert_eq(hw_ggtt_read_pte(dev, 7, &pte, NULL), 0);
	hw_pte_decode(skl, pte, &d);
	cr_expect_eq(d.addr, pg.phys, "decode of what the GGTT holds names 0x%llx, the aperture reached 0x%llx",
		     (unsigned long long)d.addr, (unsigned long long)pg.phys);
	hw_undo_restore(dev, NULL);
	hw_free_test_pages(dev, 1, &pg);
	hw_close(dev);
}

/*
 * gen6/7 keep physical address bits 39:32 in PTE bits 11:4 (docs/hardware.md
 * §2.1): turning a guest PTE into a host one must carry bit 39 too.
 */
Test(pte, with_addr_carries_bit_39_on_gen6_and_gen7)
{
	static const char *const plats[] = { "snb", "ivb" };
	for (int k = 0; k < 2; k++) {
		const struct gtt_platform *p = gtt_platform_by_name(plats[k]);
		uint64_t out;
		struct hw_pte d;
		/* a guest PTE whose bits 11:4 name another high frame; the host page has bit 39 set */
		cr_assert_eq(hw_pte_with_addr(p, 0x000017f3, 0x8000002000ull, &out, NULL), 0);
		cr_expect_eq(out, doc_gen6(0x8000002000ull) | 0x3, "%s: 0x%llx", plats[k], (unsigned long long)out);
		hw_pte_decode(p, out, &d);
		cr_expect_eq(d.addr, 0x8000002000ull, "%s: decodes to 0x%llx", plats[k], (unsigned long long)d.addr);
	}
}

/*
 * Haswell's bit 11 is cache control (bit 3 of the 4-bit control value: the
 * eLLC write-back levels set it, docs/hardware.md §2.2), not address bit 39:
 * such an entry must still reach its page through the aperture (the model's
 * side of the HSW format, docs/model.md).
 */
Test(pte, hsw_ellc_entries_reach_their_page)
{
	struct hw_device *dev = t_open("sim:hsw");
	struct hw_page pg;
	uint64_t pte;
	char buf[8] = { 0 };

	cr_assert_eq(hw_alloc_test_pages(dev, 1, &pg, NULL), 0);
	memcpy(pg.cpu, "wt-page", 8);
	/* HSW_WB_ELLC_LLC_AGE3: control 0x8, i.e. PTE bit 11, written out */
	pte = doc_hsw(pg.phys) | 0x800 | 1;
	cr_assert_eq(hw_ggtt_write_pte(dev, 11, pte, NULL), 0);
	hw_ggtt_invalidate(dev);
	cr_assert_eq(hw_aperture_read(dev, 11 * 4096, buf, 8, NULL), 0);
	cr_expect_str_eq(buf, "wt-page", "the aperture went elsewhere through an eLLC entry");
	hw_undo_restore(dev, NULL);
	hw_free_test_pages(dev, 1, &pg);
	hw_close(dev);
}

/*
 * Haswell's two i915 encoders (intel_ggtt.c): hsw_pte_encode, for a part
 * without eDRAM (0x0412, the model's), writes HSW_WB_LLC_AGE3 for every
 * level but none, write-through included; iris_pte_encode (HAS_EDRAM) writes
 * HSW_WT_ELLC_LLC_AGE3 for wt and HSW_WB_ELLC_LLC_AGE3 for the other cached
 * levels. HSW_CACHEABILITY_CONTROL(b) = ((b & 7) << 1) | ((b & 8) << 8):
 * WB_LLC_AGE3 (2) = 0x4, WB_ELLC_LLC_AGE3 (8) = 0x800, WT_ELLC_LLC_AGE3 (7) = 0xe.
 */
Test(pte, haswell_write_through_as_i915_encodes_it_with_and_without_edram)
{
	const struct gtt_platform *hsw = gtt_platform_by_name("hsw");
	struct gtt_err err = { 0 };
	uint64_t pte;

	cr_assert_eq(hw_pte_encode(hsw, 0x1000, HW_CACHE_WT, &pte, &err), 0, "%s", err.msg);
	cr_expect_eq(pte, 0x1000 | 0x4 | 1, "no eDRAM: WT is WB LLC age 3, 0x%llx", (unsigned long long)pte);
	cr_assert_eq(hw_pte_encode(hsw, 0x1000, HW_CACHE_LLC, &pte, &err), 0);
	cr_expect_eq(pte, 0x1000 | 0x4 | 1);
	cr_assert_eq(hw_pte_encode(hsw, 0x1000, HW_CACHE_NONE, &pte, &err), 0);
	cr_expect_eq(pte, 0x1000 | 1);
	cr_assert_eq(hw_pte_encode_edram(hsw, 0x1000, HW_CACHE_WT, &pte, &err), 0, "%s", err.msg);
	cr_expect_eq(pte, 0x1000 | 0xe | 1, "eDRAM: WT eLLC+LLC age 3, 0x%llx", (unsigned long long)pte);
	cr_assert_eq(hw_pte_encode_edram(hsw, 0x1000, HW_CACHE_L3_LLC, &pte, &err), 0);
	cr_expect_eq(pte, 0x1000 | 0x800 | 1, "eDRAM: WB eLLC+LLC age 3, 0x%llx", (unsigned long long)pte);
	cr_expect_eq(hw_pte_encode_edram(gtt_platform_by_name("ivb"), 0x1000, HW_CACHE_WT, &pte, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "eDRAM"), "%s", err.msg);
	/* gen8+: eDRAM or not, no cache bits */
	cr_assert_eq(hw_pte_encode_edram(gtt_platform_by_name("skl"), 0x1000, HW_CACHE_WT, &pte, &err), 0);
	cr_expect_eq(pte, 0x1001);
}

/* Every name decode gives for what an i915 encoder writes is a --cache name that writes the same bits back. */
Test(pte, decoded_cache_names_encode_back_to_the_same_bits)
{
	static const enum hw_cache levels[] = { HW_CACHE_NONE, HW_CACHE_LLC, HW_CACHE_L3_LLC, HW_CACHE_WT };
	struct gtt_err err = { 0 };

	for (size_t k = 0; k < gtt_num_platforms; k++) {
		const struct gtt_platform *p = &gtt_platforms[k];
		for (int ed = 0; ed < 2; ed++)
			for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
				uint64_t pte, again;
				bool named_edram = false;
				enum hw_cache back;
				struct hw_pte d;
				int rc = ed ? hw_pte_encode_edram(p, 0x5000, levels[i], &pte, &err)
					    : hw_pte_encode(p, 0x5000, levels[i], &pte, &err);
				if (rc)
					continue;	/* a level the platform's encoder refuses */
				hw_pte_decode(p, pte, &d);
				cr_assert_eq(hw_cache_parse(d.cache, &back, &named_edram, &err), 0, "%s: '%s': %s", p->name,
					     d.cache, err.msg);
				rc = (ed || named_edram) ? hw_pte_encode_edram(p, 0x5000, back, &again, &err)
							 : hw_pte_encode(p, 0x5000, back, &again, &err);
				cr_expect_eq(rc, 0, "%s", err.msg);
				cr_expect_eq(again, pte, "%s%s level %zu: 0x%llx decodes as '%s', which encodes 0x%llx", p->name,
					     ed ? " (eDRAM)" : "", i, (unsigned long long)pte, d.cache, (unsigned long long)again);
			}
	}
	enum hw_cache c;
	cr_expect_eq(hw_cache_parse("wb-llc-age0", &c, NULL, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "no i915 encoder writes it"), "%s", err.msg);
	cr_expect_eq(hw_cache_parse("reserved (3)", &c, NULL, &err), GTT_EINVAL);
	cr_expect_eq(hw_cache_parse("writeback", &c, NULL, &err), GTT_EINVAL);
}
