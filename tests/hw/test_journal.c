/* SPDX-License-Identifier: MIT */
/*
 * The crash journal on the model: seeded writes of every kind (PTEs one by
 * one and in ranges, fences, config, aperture bytes through the original
 * translation, through remapped test pages and through a stale TLB), then a
 * "crash" (the undo log thrown away) and a replay of the journal alone. The
 * oracle is a capture taken before the first write: the whole GSM, every
 * fence, config space, and the original pages' bytes read through their CPU
 * pointers (not through the aperture the journal wrote).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "hw/aperture.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/journal.h"
#include "hw/pte.h"
#include "regs/mmio.h"
#include "regs/pci_config.h"
#include "tests/helpers.h"

struct mem_sink {
	uint8_t *buf;
	size_t len, cap;
	unsigned appends;
	int fail_after;		/* -1: never; else the append that fails */
};

static int mem_append(void *ctx, const void *buf, size_t len, struct gtt_err *err)
{
	struct mem_sink *m = ctx;

	if (m->fail_after >= 0 && m->appends >= (unsigned)m->fail_after)
		return gtt_err_set(err, GTT_EIO, "disk full (test)");
	if (m->len + len > m->cap) {
		m->cap = (m->len + len) * 2;
		m->buf = realloc(m->buf, m->cap);
		cr_assert(m->buf);
	}
	memcpy(m->buf + m->len, buf, len);
	m->len += len;
	m->appends++;
	return GTT_OK;
}

static int test_location(void *ctx, char *spec, size_t n)
{
	(void)ctx;
	snprintf(spec, n, "pci:0000:00:02.0");
	return 0;
}

/* The model with a location, as a real device has: journals can be attached to it. */
struct jdev {
	struct hw_device *dev;
	struct hw_backend_ops ops;
	struct mem_sink sink;
	struct hw_journal_sink js;
};

static void jattach(struct jdev *j)
{
	struct gtt_err err = { 0 };

	j->sink = (struct mem_sink){ .fail_after = -1 };
	j->js = (struct hw_journal_sink){ mem_append, &j->sink };
	cr_assert_eq(hw_journal_attach(j->dev, &j->js, NULL, &err), 0, "%s", err.msg);
}

static void jopen_detached(struct jdev *j, const char *spec)
{
	j->dev = t_open(spec);
	j->ops = *j->dev->ops;
	j->ops.location = test_location;
	j->dev->ops = &j->ops;
}

static void jopen(struct jdev *j, const char *spec)
{
	jopen_detached(j, spec);
	jattach(j);
}

struct capture {
	uint8_t *gsm;
	uint32_t fences[64];
	uint8_t cfg[256];
	uint8_t pages[8][4096];
};

static void capture(struct hw_device *dev, struct capture *c, struct hw_page *orig)
{
	struct sim_device *s = t_sim(dev);

	c->gsm = malloc(dev->info.gsm_size);
	for (size_t off = 0; off < dev->info.gsm_size; off += 4) {
		uint32_t v = sim_mmio_read32(s, dev->info.gsm_offset + (uint32_t)off);
		memcpy(c->gsm + off, &v, 4);
	}
	for (unsigned i = 0; i < dev->info.num_fences * 2; i++)
		c->fences[i] = sim_mmio_read32(s, FENCE_REG_GEN6_BASE + 4 * i);
	for (unsigned off = 0; off < 256; off++)
		c->cfg[off] = (uint8_t)sim_cfg_read(s, off, 1);
	for (int p = 0; p < 8; p++)
		memcpy(c->pages[p], orig[p].cpu, 4096);
}

static void same_as(struct hw_device *dev, const struct capture *c, struct hw_page *orig, uint64_t orig_gm)
{
	struct sim_device *s = t_sim(dev);
	uint8_t buf[4096];

	for (size_t off = 0; off < dev->info.gsm_size; off += 4) {
		uint32_t v = sim_mmio_read32(s, dev->info.gsm_offset + (uint32_t)off), w;
		memcpy(&w, c->gsm + off, 4);
		cr_assert_eq(v, w, "GSM dword %zu (PTE %zu) is 0x%08x, was 0x%08x", off / 4, off / dev->info.pte_size, v, w);
	}
	for (unsigned i = 0; i < dev->info.num_fences * 2; i++)
		cr_assert_eq(sim_mmio_read32(s, FENCE_REG_GEN6_BASE + 4 * i), c->fences[i], "fence register %u", i);
	for (unsigned off = 0; off < 256; off++)
		cr_assert_eq((uint8_t)sim_cfg_read(s, off, 1), c->cfg[off], "config byte 0x%02x", off);
	for (int p = 0; p < 8; p++) {
		/* the data path, twice: the pages' own bytes, and the aperture through the restored PTEs */
		cr_assert_eq(memcmp(orig[p].cpu, c->pages[p], 4096), 0, "original page %d (phys 0x%llx) not restored", p,
			     (unsigned long long)orig[p].phys);
		cr_assert_eq(hw_aperture_read(dev, orig_gm + p * 4096u, buf, 4096, NULL), 0);
		cr_assert_eq(memcmp(buf, c->pages[p], 4096), 0, "aperture page at GM 0x%llx", (unsigned long long)(orig_gm + p * 4096u));
	}
	free(c->gsm);
}

static uint64_t pte_for(struct hw_device *dev, uint64_t phys)
{
	uint64_t v;

	cr_assert_eq(hw_pte_encode(dev->info.plat, phys, HW_CACHE_NONE, &v, NULL), 0);
	return v;
}

/* The "machine" before gttlab: 8 pages of its own mapped at orig_gm, with content. */
static void machine_state(struct hw_device *dev, struct hw_page *orig, uint64_t orig_gm, uint64_t seed)
{
	struct gtt_err err = { 0 };

	cr_assert_eq(hw_alloc_test_pages(dev, 8, orig, &err), 0);
	for (int p = 0; p < 8; p++) {
		for (int b = 0; b < 4096; b++)
			((uint8_t *)orig[p].cpu)[b] = (uint8_t)(t_rand(&seed) | 1);
		cr_assert_eq(hw_ggtt_write_pte(dev, orig_gm / 4096 + (uint64_t)p, pte_for(dev, orig[p].phys), &err), 0);
	}
	hw_ggtt_invalidate(dev);
	hw_undo_forget(dev);	/* this is how the machine was found */
}

static void crash_and_replay(struct jdev *j)
{
	struct hw_journal_info info;
	struct gtt_err err = { 0 };

	hw_journal_detach(j->dev);
	hw_undo_forget(j->dev);		/* the process died: only the journal is left */
	cr_assert_eq(hw_journal_replay(j->dev, j->sink.buf, j->sink.len, &info, &err), 0, "%s", err.msg);
	cr_assert(!info.torn);
}

static void run(const char *spec, uint64_t seed)
{
	struct jdev j;
	struct hw_page orig[8], mine[4];
	struct capture c;
	struct gtt_err err = { 0 };
	uint8_t buf[6000];

	jopen_detached(&j, spec);
	struct hw_device *dev = j.dev;
	uint64_t orig_gm = dev->info.aperture_size / 2;
	machine_state(dev, orig, orig_gm, seed);
	capture(dev, &c, orig);
	jattach(&j);		/* gttlab starts here */
	cr_assert_eq(hw_alloc_test_pages(dev, 4, mine, &err), 0);

	for (int op = 0; op < 400; op++) {
		uint64_t r = t_rand(&seed), k = r % 7;
		uint64_t page = (r >> 8) % 8, gm = orig_gm + page * 4096 + ((r >> 16) % 3000);
		size_t len = 1 + (r >> 32) % 2000;
		for (size_t b = 0; b < len; b++)
			buf[b] = (uint8_t)(op + b);
		switch (k) {
		case 0:		/* a PTE anywhere */
			cr_assert_eq(hw_ggtt_write_pte(dev, (r >> 8) % dev->info.n_ptes, pte_for(dev, mine[r % 4].phys), &err), 0);
			break;
		case 1: {	/* a range, across chunk boundaries */
			uint64_t v[700];
			uint64_t first = (r >> 8) % (dev->info.n_ptes - 700);
			for (int i = 0; i < 700; i++)
				v[i] = pte_for(dev, mine[i % 4].phys);
			cr_assert_eq(hw_ggtt_write_range(dev, first, 700, v, &err), 0, "%s", err.msg);
			break;
		}
		case 2: {	/* a fence */
			struct hw_fence f = { (r >> 20) % 64 * 0x10000, 0x8000, 1024, r & 1 ? HW_TILING_Y : HW_TILING_X, true };
			uint64_t v;
			cr_assert_eq(hw_fence_encode(dev->info.plat, 0, &f, &v, &err), 0);
			cr_assert_eq(hw_fence_write(dev, (unsigned)(r >> 12) % dev->info.num_fences, v, &err), 0);
			break;
		}
		case 3:		/* aperture bytes through whatever translation is in effect */
			cr_assert_eq(hw_aperture_write(dev, gm, buf, len, &err), 0, "%s", err.msg);
			break;
		case 4:		/* remap an original page to one of gttlab's, then write through it (stale or not) */
			cr_assert_eq(hw_ggtt_write_pte(dev, orig_gm / 4096 + page, pte_for(dev, mine[r % 4].phys), &err), 0);
			if (r & 2)
				hw_ggtt_invalidate(dev);
			cr_assert_eq(hw_aperture_write(dev, gm, buf, len, &err), 0, "%s", err.msg);
			break;
		case 5:		/* put an original mapping back (as a check's restore would) */
			cr_assert_eq(hw_ggtt_write_pte(dev, orig_gm / 4096 + page, pte_for(dev, orig[page].phys), &err), 0);
			hw_ggtt_invalidate(dev);
			break;
		case 6:		/* config: the command word (decoding stays on) and a scratch dword */
			cr_assert_eq(hw_cfg_write(dev, PCI_CFG_COMMAND, 2, ((uint32_t)(r >> 40) & 0x5) | PCI_CMD_MEM_SPACE), 0);
			cr_assert_eq(hw_cfg_write(dev, 0x40 + 4 * (unsigned)(r % 4), 4, (uint32_t)r), 0);
			break;
		}
	}
	size_t records = hw_journal_records(dev);
	crash_and_replay(&j);
	same_as(dev, &c, orig, orig_gm);
	cr_log_info("%s seed %llu: %zu journal records, %zu bytes", spec, (unsigned long long)seed, records, j.sink.len);
	/* replaying again changes nothing: a restore interrupted by a crash is simply run again */
	struct hw_journal_info info;
	cr_assert_eq(hw_journal_replay(dev, j.sink.buf, j.sink.len, &info, &err), 0, "%s", err.msg);
	capture(dev, &c, orig);
	same_as(dev, &c, orig, orig_gm);
	free(j.sink.buf);
	hw_close(dev);
}

Test(journal, a_crash_anywhere_is_put_back_from_the_journal_alone_skl)
{
	for (uint64_t seed = 1; seed <= 6; seed++)
		run("sim:skl", seed);
}

Test(journal, a_crash_anywhere_is_put_back_from_the_journal_alone_hsw)
{
	for (uint64_t seed = 11; seed <= 14; seed++)
		run("sim:hsw", seed);
}

Test(journal, grows_with_what_is_touched_not_with_how_often)
{
	struct jdev j;
	struct gtt_err err = { 0 };

	jopen(&j, "sim:skl");
	size_t base = hw_journal_records(j.dev);
	cr_expect_eq(base, 2, "a header and GFX_FLSH_CNTL_GEN6 up front");
	for (int i = 0; i < 1000; i++)
		cr_assert_eq(hw_ggtt_write_pte(j.dev, 5000 + i % 512 - 5000 % 512, (uint64_t)i << 12 | 1, &err), 0);
	cr_expect_eq(hw_journal_records(j.dev), base + 1, "1000 writes into one 512-PTE chunk: one record");
	for (int i = 0; i < 100; i++)
		cr_assert_eq(hw_fence_write(j.dev, 3, 0, &err), 0);
	cr_expect_eq(hw_journal_records(j.dev), base + 3, "a fence, written 100 times: its LO and HI");
	uint64_t all[2048];
	for (int i = 0; i < 2048; i++)
		all[i] = (uint64_t)i << 12 | 1;
	cr_assert_eq(hw_ggtt_write_range(j.dev, 0, 2048, all, &err), 0);
	cr_expect_eq(hw_journal_records(j.dev), base + 3 + 4, "2048 PTEs from 0: chunks 0-3");
	cr_expect_eq(j.sink.appends, 5, "the range's chunks reach the journal in one append");
	hw_close(j.dev);
	free(j.sink.buf);
}

Test(journal, nothing_reaches_the_device_before_its_original_is_durable)
{
	struct jdev j;
	struct gtt_err err = { 0 };
	uint64_t v;

	jopen(&j, "sim:skl");
	j.sink.fail_after = (int)j.sink.appends;	/* the next append fails */
	uint32_t before = sim_mmio_read32(t_sim(j.dev), hw_ggtt_pte_offset(j.dev, 77));
	cr_assert_neq(hw_ggtt_write_pte(j.dev, 77, 0xabc001, &err), 0);
	cr_expect(strstr(err.msg, "disk full"), "the refusal names the journal's error: %s", err.msg);
	cr_expect_eq(sim_mmio_read32(t_sim(j.dev), hw_ggtt_pte_offset(j.dev, 77)), before, "PTE 77 written anyway");
	cr_assert_neq(hw_fence_write(j.dev, 2, 0x1000, &err), 0, "after a failed append every write is refused");
	cr_assert_eq(hw_fence_read(j.dev, 2, &v, &err), 0);
	cr_expect_eq(v, 0, "fence 2 written anyway");
	hw_close(j.dev);
	free(j.sink.buf);
}

Test(journal, a_torn_last_record_is_ignored_and_a_damaged_one_before_it_refused)
{
	struct jdev j;
	struct gtt_err err = { 0 };
	struct hw_journal_info info;

	jopen(&j, "sim:skl");
	cr_assert_eq(hw_ggtt_write_pte(j.dev, 10, 0x5001, &err), 0);
	cr_assert_eq(hw_fence_write(j.dev, 1, 0, &err), 0);
	size_t full = j.sink.len;
	cr_assert_eq(hw_journal_scan(j.sink.buf, full, &info, &err), 0, "%s", err.msg);
	cr_expect_eq(info.pte_chunks, 1);
	cr_expect_eq(info.mmio, 2);
	cr_expect(!info.torn);
	/* a crash in the middle of the last append */
	cr_assert_eq(hw_journal_scan(j.sink.buf, full - 5, &info, &err), 0, "%s", err.msg);
	cr_expect(info.torn);
	cr_expect_eq(info.mmio, 1, "the torn record is not counted");
	/* a changed byte in the PTE chunk's data, with records after it: not a journal gttlab wrote */
	size_t at = 0, n = 0;
	while (at < full && n < 2) {	/* header, flush register, then the PTE chunk */
		uint32_t len;
		memcpy(&len, j.sink.buf + at + 8, 4);
		at += HW_JOURNAL_REC_HDR + len;
		n++;
	}
	j.sink.buf[at + HW_JOURNAL_REC_HDR + 3] ^= 0x40;
	cr_assert_eq(hw_journal_scan(j.sink.buf, full, &info, &err), GTT_EIO);
	cr_expect(strstr(err.msg, "damaged and not the last"), "%s", err.msg);
	uint32_t pte10 = sim_mmio_read32(t_sim(j.dev), hw_ggtt_pte_offset(j.dev, 10));
	hw_journal_detach(j.dev);
	cr_assert_eq(hw_journal_replay(j.dev, j.sink.buf, full, &info, &err), GTT_EIO);
	cr_expect_eq(sim_mmio_read32(t_sim(j.dev), hw_ggtt_pte_offset(j.dev, 10)), pte10,
		     "a damaged journal is not replayed at all");
	hw_close(j.dev);
	free(j.sink.buf);
}

Test(journal, a_replay_that_does_not_read_back_names_the_register)
{
	struct jdev j;
	struct gtt_err err = { 0 };
	struct hw_journal_info info;

	jopen(&j, "sim:skl");
	cr_assert_eq(hw_fence_write(j.dev, 0, 0x0001000000000001ull, &err), 0);
	hw_journal_detach(j.dev);
	cr_assert_eq(sim_fault_freeze_after(t_sim(j.dev), FENCE_REG_GEN6_LO(0), 0), 0);
	cr_assert_eq(hw_journal_replay(j.dev, j.sink.buf, j.sink.len, &info, &err), GTT_EIO);
	cr_expect(strstr(err.msg, "FENCE_REG_GEN6_LO_0"), "the fault names the register: %s", err.msg);
	hw_close(j.dev);
	free(j.sink.buf);
}

Test(journal, with_memory_decoding_off_bar_writes_are_refused_not_journaled_as_all_ones)
{
	struct jdev j;
	struct gtt_err err = { 0 };
	struct hw_journal_info info;

	jopen(&j, "sim:skl");
	cr_assert_eq(hw_cfg_write(j.dev, PCI_CFG_COMMAND, 2, PCI_CMD_BUS_MASTER), 0);
	cr_assert_neq(hw_ggtt_write_pte(j.dev, 123, 0x7001, &err), 0);
	cr_expect(strstr(err.msg, "memory decoding is off"), "%s", err.msg);
	cr_assert_eq(hw_cfg_write(j.dev, PCI_CFG_COMMAND, 2, PCI_CMD_MEM_SPACE | PCI_CMD_BUS_MASTER), 0);
	cr_assert_eq(hw_ggtt_write_pte(j.dev, 123, 0x7001, &err), 0, "writes go on once decoding is back: %s", err.msg);
	cr_assert_eq(hw_journal_scan(j.sink.buf, j.sink.len, &info, &err), 0, "%s", err.msg);
	cr_expect_eq(info.pte_chunks, 1);
	cr_expect_eq(info.cfg, 1);
	hw_close(j.dev);
	free(j.sink.buf);
}

/*
 * A journal whose first append never completed (empty, or its header record
 * cut anywhere) is "unstarted": nothing reached the device. Once the header
 * is whole it never is, nor is anything that does not begin like a header.
 */
Test(journal, only_a_header_cut_short_is_unstarted)
{
	struct jdev j;
	struct gtt_err err = { 0 };

	jopen(&j, "sim:tgl");
	cr_assert_eq(hw_ggtt_write_pte(j.dev, 10, 0x5001, &err), 0);
	uint32_t hlen;
	memcpy(&hlen, j.sink.buf + 8, 4);
	size_t header_end = HW_JOURNAL_REC_HDR + hlen;
	cr_assert_gt(j.sink.len, header_end);
	for (size_t n = 0; n < header_end; n++)
		cr_expect(hw_journal_unstarted(j.sink.buf, n), "a header cut at %zu bytes of %zu", n, header_end);
	for (size_t n = header_end; n <= j.sink.len; n++)
		cr_expect(!hw_journal_unstarted(j.sink.buf, n), "a whole header and %zu more bytes", n - header_end);
	uint8_t other[64];
	memcpy(other, j.sink.buf, sizeof(other));
	other[4] = HW_JOURNAL_MMIO;	/* begins with a record that is not a header */
	cr_expect(!hw_journal_unstarted(other, 20));
	cr_expect(!hw_journal_unstarted("not a journal at all", 20));
	hw_close(j.dev);
	free(j.sink.buf);
}

/*
 * A config record's offset is a journal's word, and a journal is input: one at
 * the top of 32 bits made the model's bound check wrap (off + width) and write
 * 4 GiB past its config space. Such a record is refused, and the model itself
 * ignores an access that does not fit, however its end wraps.
 */
Test(journal, a_config_record_outside_config_space_is_refused_and_the_model_ignores_it)
{
	static const uint8_t data[4] = { 0x11, 0x22, 0x33, 0x44 };
	struct hw_journal_rec r = { HW_JOURNAL_CFG, 4, 0, 0, data, 4 };
	static const uint64_t bad[] = { 0xfffffffcull, 0xffffffffull, 4096, 0x100000000ull, 2 };

	cr_assert(hw_journal_rec_valid(&r), "offset 0, width 4");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r.off = bad[i];
		cr_expect(!hw_journal_rec_valid(&r), "a config record at offset 0x%llx was taken", (unsigned long long)bad[i]);
	}
	struct hw_device *dev = t_open("sim:skl");
	struct sim_device *s = t_sim(dev);
	uint32_t id = sim_cfg_read(s, 0, 4);
	sim_cfg_write(s, 0xfffffffcu, 4, 0xdeadbeef);
	sim_cfg_write(s, 0xffffffffu, 1, 0xab);
	cr_expect_eq(sim_cfg_read(s, 0xfffffffcu, 4), 0, "a read past config space reads 0");
	cr_expect_eq(sim_cfg_read(s, 0, 4), id, "config space changed");
	hw_close(dev);
}
