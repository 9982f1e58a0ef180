/* SPDX-License-Identifier: MIT */
/*
 * gttlab dump ggtt|fences. The GGTT dump compresses runs as IGT's intel_gtt
 * does: a linear run (consecutive PTEs mapping consecutive pages), a constant
 * run (PTEs naming the same page, such as scratch), or a single entry; unlike
 * intel_gtt, a run never mixes valid and invalid PTEs or cache bits.
 */
#include "cli/cli.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/pte.h"
#include "hosted/picture.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"usage: gttlab dump ggtt [--start A] [--end B] [--device D] [--json]\n"
	"       gttlab dump ggtt --svg FILE [--device D]\n"
	"       gttlab dump fences [--device D] [--json]\n"
	"ggtt: the PTEs for GGTT addresses [A, B), 4 KiB aligned, default the whole\n"
	"GGTT, as runs: 'linear' (consecutive pages), 'constant' (one page), or single.\n"
	"--svg FILE: the whole GGTT as a picture (SVG): the Dom0 layout's regions (host\n"
	"low, guest low, fence pool, reserved, host high, slots), scratch and mapped\n"
	"entries, the surfaces the display scans out. Reads only.\n"
	"fences: every fence register with its decoded fields.\n";

struct run {
	uint64_t first, n;		/* PTE indices */
	struct hw_pte pte0;
	uint64_t raw0;
	bool linear;
};

static void print_run(struct cli *c, struct json *j, const struct run *r)
{
	uint64_t start = r->first * 4096, end = (r->first + r->n) * 4096 - 1;
	const char *kind = r->n == 1 ? "single" : r->linear ? "linear" : "constant";
	uint64_t phys_end = r->linear ? r->pte0.addr + (r->n - 1) * 4096 : r->pte0.addr;

	if (c->json) {
		json_object_begin(j, NULL);
		json_hex(j, "start", start, 8);
		json_hex(j, "end", end, 8);
		json_u64(j, "ptes", r->n);
		json_str(j, "kind", kind);
		json_hex(j, "phys_start", r->pte0.addr, 0);
		json_hex(j, "phys_end", phys_end, 0);
		json_hex(j, "first_pte", r->raw0, 0);
		json_bool(j, "valid", r->pte0.valid);
		json_object_end(j);
		return;
	}
	const char *inval = r->pte0.valid ? "" : " (not valid)";
	if (r->n == 1)
		printf("0x%08" PRIx64 ": 0x%" PRIx64 "%s\n", start, r->pte0.addr, inval);
	else if (r->linear)
		printf("0x%08" PRIx64 " - 0x%08" PRIx64 ": linear from 0x%" PRIx64 " to 0x%" PRIx64 " (%" PRIu64 " PTEs)%s\n",
		       start, end - 4095, r->pte0.addr, phys_end, r->n, inval);
	else
		printf("0x%08" PRIx64 " - 0x%08" PRIx64 ": constant 0x%" PRIx64 " (%" PRIu64 " PTEs)%s\n",
		       start, end - 4095, r->pte0.addr, r->n, inval);
}

struct ggtt_args {
	uint64_t start, end;
	bool have_end;		/* else the end of the GGTT, known once the device is open */
	const char *svg;	/* --svg FILE: the map instead of the runs */
};

/* Parsed before the device is opened: a typo never opens a real device. */
static int ggtt_args(int argc, char **argv, struct ggtt_args *a)
{
	const char *v, *start_s = NULL, *end_s = NULL;

	for (int i = 2; i < argc; i++) {
		int m;
		if ((m = cli_opt(argc, argv, &i, "--svg", &v))) {
			if (m < 0)
				return EXIT_USAGE;
			if (a->svg)
				return cli_twice("--svg", a->svg, v);
			if (!v[0])
				return cli_error("--svg: the file name is empty");
			a->svg = v;
		} else if ((m = cli_opt(argc, argv, &i, "--start", &v))) {
			if (m < 0)
				return EXIT_USAGE;
			if (start_s)
				return cli_twice("--start", start_s, v);
			if (cli_parse_u64("start", v, &a->start))
				return EXIT_USAGE;
			start_s = v;
		} else if ((m = cli_opt(argc, argv, &i, "--end", &v))) {
			if (m < 0)
				return EXIT_USAGE;
			if (end_s)
				return cli_twice("--end", end_s, v);
			if (cli_parse_u64("end", v, &a->end))
				return EXIT_USAGE;
			end_s = v;
			a->have_end = true;
		} else {
			return cli_error("dump ggtt: unexpected '%s' (options: --start --end --svg)", argv[i]);
		}
	}
	if (a->svg && (start_s || end_s))
		return cli_error("dump ggtt --svg draws the whole GGTT; --start and --end do not go with it");
	if (a->start % 4096)
		return cli_error("start 0x%" PRIx64 " is not 4 KiB aligned (one PTE maps 4 KiB)", a->start);
	if (a->have_end && a->end % 4096)
		return cli_error("end 0x%" PRIx64 " is not 4 KiB aligned (one PTE maps 4 KiB)", a->end);
	return 0;
}

/* --svg: the GGTT as a map, with the regions the Dom0 runtime's default layout gives this device. */
static int dump_svg(struct hw_device *dev, const char *path)
{
	static struct picture_map m;
	struct dom0_layout l;
	struct gtt_err err = { 0 };

	memset(&m, 0, sizeof(m));
	if (dom0_layout_for(&dev->info, NULL, &l, &err))
		return cli_report(&err);
	snprintf(m.title, sizeof(m.title), "GGTT of %s (%s): %llu MiB, aperture %llu MiB, Dom0 layout %u slots of %llu MiB",
		 dev->name, dev->info.plat->name, (unsigned long long)(dev->info.ggtt_size >> 20),
		 (unsigned long long)(dev->info.aperture_size >> 20), l.num_slots, (unsigned long long)(l.slot_size >> 20));
	if (picture_map_from_device(dev, NULL, &l, NULL, &m, &err))
		return cli_report(&err);
	FILE *f = output_open(path);
	if (!f)
		return cli_error("--svg '%s': cannot create it: %s", path, strerror(errno));
	picture_ggtt_svg(f, &m);
	if (output_close(f))
		return cli_error("--svg '%s': cannot write it: %s", path, strerror(errno));
	return EXIT_OK;
}

static int dump_ggtt(struct cli *c, struct hw_device *dev, const struct ggtt_args *a)
{
	if (a->svg)
		return dump_svg(dev, a->svg);
	
	uint64_t start = a->start, end = a->have_end ? a->end : dev->info.ggtt_size;
	struct gtt_err err = { 0 };

	if (end > dev->info.ggtt_size || start >= end)
		return cli_error("range 0x%" PRIx64 "..0x%" PRIx64 " is not a non-empty part of the 0x%" PRIx64 "-byte GGTT",
				 start, end, dev->info.ggtt_size);

	struct json j;
	json_init(&j, stdout);
	if (c->json) {
		json_object_begin(&j, NULL);
		json_str(&j, "device", dev->name);
		json_array_begin(&j, "runs");
	}
	const size_t chunk = 4096;
	uint64_t *ptes = malloc(chunk * sizeof(*ptes));
	struct run r = { 0 };
	bool have = false;
	if (!ptes)
		return cli_error("out of memory");
	for (uint64_t idx = start / 4096; idx < end / 4096;) {
		size_t n = end / 4096 - idx < chunk ? (size_t)(end / 4096 - idx) : chunk;
		if (hw_ggtt_read_range(dev, idx, n, ptes, &err)) {
			free(ptes);
			return cli_report(&err);
		}
		for (size_t k = 0; k < n; k++, idx++) {
			struct hw_pte d;
			hw_pte_decode(dev->info.plat, ptes[k], &d);
			if (have) {
				bool same_kind = d.valid == r.pte0.valid && d.cache_bits == r.pte0.cache_bits;
				bool lin = d.addr == r.pte0.addr + r.n * 4096;
				bool cst = d.addr == r.pte0.addr;
				if (same_kind && ((r.n == 1 && (lin || cst)) || (r.n > 1 && (r.linear ? lin : cst)))) {
					if (r.n == 1)
						r.linear = lin;
					r.n++;
					continue;
				}
				print_run(c, &j, &r);
			}
			r = (struct run){ .first = idx, .n = 1, .pte0 = d, .raw0 = ptes[k] };
			have = true;
		}
	}
	if (have)
		print_run(c, &j, &r);
	free(ptes);
	if (c->json) {
		json_array_end(&j);
		json_object_end(&j);
		json_finish(&j);
	}
	return EXIT_OK;
}

static int dump_fences(struct cli *c, struct hw_device *dev)
{
	struct gtt_err err = { 0 };
	struct json j;

	json_init(&j, stdout);
	if (c->json) {
		json_object_begin(&j, NULL);
		json_str(&j, "device", dev->name);
		json_array_begin(&j, "fences");
	}
	for (unsigned i = 0; i < dev->info.num_fences; i++) {
		uint64_t val;
		struct hw_fence f;
		if (hw_fence_read(dev, i, &val, &err))
			return cli_report(&err);
		hw_fence_decode(dev->info.plat, val, &f);
		if (c->json) {
			json_object_begin(&j, NULL);
			json_u64(&j, "index", i);
			json_hex(&j, "value", val, 16);
			json_bool(&j, "valid", f.valid);
			json_hex(&j, "start", f.start, 8);
			json_hex(&j, "end", f.start + f.size - 1, 8);
			json_u64(&j, "size", f.size);
			json_u64(&j, "stride", f.stride);
			json_str(&j, "tiling", hw_tiling_name(f.tiling));
			json_object_end(&j);
		} else if (!f.valid) {
			printf("fence %2u: 0x%016" PRIx64 " disabled\n", i, val);
		} else {
			printf("fence %2u: 0x%016" PRIx64 " %s-tiled 0x%08" PRIx64 "-0x%08" PRIx64 " (%" PRIu64 " bytes) stride %u\n",
			       i, val, hw_tiling_name(f.tiling), f.start, f.start + f.size - 1, f.size, f.stride);
		}
	}
	if (c->json) {
		json_array_end(&j);
		json_object_end(&j);
		json_finish(&j);
	}
	return EXIT_OK;
}

int cmd_dump(struct cli *c, int argc, char **argv)
{
	struct hw_device *dev;
	int rc;

	if (c->help) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	if (argc < 2)
		return cli_error("dump: what to dump, 'ggtt' or 'fences'? (gttlab dump --help)");
	if (strcmp(argv[1], "ggtt") && strcmp(argv[1], "fences"))
		return cli_error("dump: '%s' is not 'ggtt' or 'fences' (gttlab dump --help)", argv[1]);
	bool ggtt = !strcmp(argv[1], "ggtt");
	struct ggtt_args a = { 0 };
	if (ggtt && ggtt_args(argc, argv, &a))
		return EXIT_USAGE;
	if (!ggtt && argc > 2)
		return cli_error("dump fences: unexpected '%s' (it takes no arguments)", argv[2]);
	if (cli_open(c, &dev))
		return EXIT_USAGE;
	rc = ggtt ? dump_ggtt(c, dev, &a) : dump_fences(c, dev);
	cli_close(dev);
	return rc;
}
