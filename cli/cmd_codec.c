/* SPDX-License-Identifier: MIT */
/* gttlab encode/decode pte/fence: the hw/ codecs, with no device touched. */
#include "cli/cli.h"
#include "hw/fence.h"
#include "hw/pte.h"
#include "regs/fence_reg.h"

#include <inttypes.h>
#include <string.h>

static const char encode_help[] =
	"usage: gttlab encode pte ADDR [--platform P] [--cache LEVEL] [--edram]\n"
	"       gttlab encode fence --start A --size S --stride P --tiling x|y\n"
	"                           [--platform P] [--aperture SIZE]\n"
	"Encode a GGTT PTE for the physical page ADDR, or a gen6+ fence register\n"
	"value (printed as 0x%016x). The platform defaults to the --device's when it\n"
	"is the model or a vGPU on it (its eDRAM too: sim:hsw,edram), else skl; the\n"
	"aperture to that platform's simulated aperture.\n"
	"LEVEL: none, llc, l3-llc, wt, or a name 'decode pte' prints (uncached, l3+llc,\n"
	"wb-llc-age3, wb-ellc-llc-age3, wt-ellc-llc-age3): the same bits come back.\n"
	"On Haswell the encoder is i915's for a part without eDRAM (hsw_pte_encode:\n"
	"every cached level is WB LLC age 3); --edram, or an eLLC name, takes the\n"
	"eDRAM part's (iris_pte_encode).\n"
	"Numbers: decimal or 0x hex, optional K/M/G suffix.\n";

static const char decode_help[] =
	"usage: gttlab decode pte VALUE [--platform P]\n"
	"       gttlab decode fence VALUE [--platform P]\n"
	"Decode a PTE (valid, address, cache bits) or a fence register value (start,\n"
	"end, size, stride, tiling, valid).\n";

/* Options take effect once; a second one is more likely a mistake than an override. */
/*
 * An option-looking word: "-x" or "--x", but not "-" alone nor "-1", which
 * is a (negative, so refused by the number grammar) value, not an option.
 */
static bool is_option(const char *a)
{
	return a[0] == '-' && a[1] && !(a[1] >= '0' && a[1] <= '9');
}

static int encode_pte(struct cli *c, int argc, char **argv)
{
	const char *plat = NULL, *cache = NULL, *addr_s = NULL, *v;
	uint64_t addr, pte;
	enum hw_cache level;
	bool edram = false, named_edram = false;
	struct gtt_err err = { 0 };

	for (int i = 2; i < argc; i++) {
		int m;
		if (!strcmp(argv[i], "--edram")) {
			if (edram)
				return cli_twice("--edram", NULL, NULL);
			edram = true;
		} else if ((m = cli_opt(argc, argv, &i, "--platform", &v))) {
			if (m < 0)
				return EXIT_USAGE;
			if (plat)
				return cli_twice("--platform", plat, v);
			plat = v;
		} else if ((m = cli_opt(argc, argv, &i, "--cache", &v))) {
			if (m < 0)
				return EXIT_USAGE;
			if (cache)
				return cli_twice("--cache", cache, v);
			cache = v;
		} else if (is_option(argv[i])) {
			return cli_error("encode pte: unknown option '%s'", argv[i]);
		} else if (!addr_s) {
			addr_s = argv[i];
		} else {
			return cli_error("encode pte: one address only, got also '%s'", argv[i]);
		}
	}
	if (!addr_s)
		return cli_error("encode pte: missing ADDR (a 4 KiB-aligned physical address)");
	if (!cache)
		cache = "none";
	const struct gtt_platform *p = cli_platform(c, plat);
	if (!p || cli_parse_u64("address", addr_s, &addr))
		return EXIT_USAGE;
	if (hw_cache_parse(cache, &level, &named_edram, &err))
		return cli_report(&err);
	bool device_edram = !plat && c->spec.edram;	/* the device's model, sim:hsw,edram, when no --platform is named */
	if ((edram || device_edram) && !strcmp(cache, "wb-llc-age3"))
		return cli_error("--cache wb-llc-age3 is what a part without eDRAM writes; %s says this one has it",
				 edram ? "--edram" : c->device);
	edram |= device_edram;
	edram |= named_edram;	/* a name only an eDRAM part's encoder writes says so itself */
	if (edram ? hw_pte_encode_edram(p, addr, level, &pte, &err) : hw_pte_encode(p, addr, level, &pte, &err))
		return cli_report(&err);
	int digits = (int)p->pte_size * 2;
	if (c->json) {
		struct json j;
		json_init(&j, stdout);
		json_object_begin(&j, NULL);
		json_str(&j, "platform", p->name);
		json_hex(&j, "addr", addr, 0);
		json_str(&j, "cache", cache);
		json_bool(&j, "edram", edram);
		json_hex(&j, "pte", pte, digits);
		json_object_end(&j);
		json_finish(&j);
	} else {
		printf("0x%0*" PRIx64 "\n", digits, pte);
	}
	return EXIT_OK;
}

static int encode_fence(struct cli *c, int argc, char **argv)
{
	const char *plat = NULL, *start_s = NULL, *size_s = NULL, *stride_s = NULL, *tiling_s = NULL,
		   *ap_s = NULL, *v;
	struct hw_fence f = { .valid = true };
	uint64_t stride, ap, val;
	struct gtt_err err = { 0 };

	for (int i = 2; i < argc; i++) {
		static const char *const names[] = { "--platform", "--start", "--size", "--stride", "--tiling", "--aperture" };
		const char **dst[] = { &plat, &start_s, &size_s, &stride_s, &tiling_s, &ap_s };
		int m = 0;
		for (unsigned k = 0; k < 6 && !m; k++) {
			if ((m = cli_opt(argc, argv, &i, names[k], &v)) <= 0)
				continue;
			if (*dst[k])
				return cli_twice(names[k], *dst[k], v);
			*dst[k] = v;
		}
		if (m < 0)
			return EXIT_USAGE;
		if (!m)
			return cli_error("encode fence: unexpected '%s' (options: --start --size --stride --tiling --platform --aperture)",
					 argv[i]);
	}
	if (!start_s || !size_s || !stride_s || !tiling_s)
		return cli_error("encode fence: --start, --size, --stride and --tiling are all required");
	const struct gtt_platform *p = cli_platform(c, plat);
	if (!p || cli_parse_u64("start", start_s, &f.start) || cli_parse_u64("size", size_s, &f.size) ||
	    cli_parse_u64("stride", stride_s, &stride))
		return EXIT_USAGE;
	if (stride > UINT32_MAX)
		return cli_error("stride %" PRIu64 " exceeds the %s maximum of %u bytes", stride, p->name,
				 p->fence_max_pitch_val * 128);
	f.stride = (uint32_t)stride;
	if (!strcmp(tiling_s, "x"))
		f.tiling = HW_TILING_X;
	else if (!strcmp(tiling_s, "y"))
		f.tiling = HW_TILING_Y;
	else
		return cli_error("tiling '%s' is not x or y (fences detile only X and Y)", tiling_s);
	ap = p->sim_aperture_size;
	if (ap_s && cli_parse_u64("aperture", ap_s, &ap))
		return EXIT_USAGE;
	/* hw/ takes 0 as "no aperture to check against"; a user's 0 is a mistake */
	if (ap_s && (!ap || (ap & (ap - 1))))
		return cli_error("aperture %s is not a power of two (BAR2's size is)", ap_s);
	if (ap_s && (ap < p->aperture_min || ap > p->aperture_max))
		return cli_error("aperture %s: %s's BAR2 (GMADR) is a power of two from %u MiB to %llu MiB", ap_s, p->name,
				 p->aperture_min >> 20, ((unsigned long long)p->aperture_max + 1) >> 20);
	if (hw_fence_encode(p, ap, &f, &val, &err))
		return cli_report(&err);
	if (c->json) {
		struct json j;
		json_init(&j, stdout);
		json_object_begin(&j, NULL);
		json_str(&j, "platform", p->name);
		json_hex(&j, "value", val, 16);
		json_object_end(&j);
		json_finish(&j);
	} else {
		printf("0x%016" PRIx64 "\n", val);
	}
	return EXIT_OK;
}

/* Parse "decode pte|fence VALUE [--platform P]". */
static int decode_args(struct cli *c, int argc, char **argv, const struct gtt_platform **p, uint64_t *val)
{
	const char *plat = NULL, *val_s = NULL, *v;

	for (int i = 2; i < argc; i++) {
		int m = cli_opt(argc, argv, &i, "--platform", &v);
		if (m < 0)
			return EXIT_USAGE;
		if (m && plat)
			return cli_twice("--platform", plat, v);
		if (m)
			plat = v;
		else if (is_option(argv[i]))
			return cli_error("decode %s: unknown option '%s'", argv[1], argv[i]);
		else if (!val_s)
			val_s = argv[i];
		else
			return cli_error("decode %s: one value only, got also '%s'", argv[1], argv[i]);
	}
	if (!val_s)
		return cli_error("decode %s: missing VALUE", argv[1]);
	*p = cli_platform(c, plat);
	if (!*p || cli_parse_u64("value", val_s, val))
		return EXIT_USAGE;
	return 0;
}

static int decode_pte(struct cli *c, int argc, char **argv)
{
	const struct gtt_platform *p;
	uint64_t val;
	struct hw_pte d;

	if (decode_args(c, argc, argv, &p, &val))
		return EXIT_USAGE;
	if (p->pte_size == 4 && val >> 32)
		return cli_error("value 0x%" PRIx64 " does not fit the 32-bit PTE of %s", val, p->name);
	hw_pte_decode(p, val, &d);
	if (c->json) {
		struct json j;
		json_init(&j, stdout);
		json_object_begin(&j, NULL);
		json_str(&j, "platform", p->name);
		json_hex(&j, "pte", val, (int)p->pte_size * 2);
		json_bool(&j, "valid", d.valid);
		json_hex(&j, "addr", d.addr, 0);
		json_hex(&j, "cache_bits", d.cache_bits, 0);
		json_str(&j, "cache", d.cache);
		json_object_end(&j);
		json_finish(&j);
	} else {
		printf("valid   %s\n", d.valid ? "yes" : "no");
		printf("address 0x%" PRIx64 "\n", d.addr);
		printf("cache   %s (bits 0x%x)%s\n", d.cache, d.cache_bits,
		       p->pte_format == PTE_FORMAT_GEN8 ? ": gen8+ GGTT PTEs carry no cache bits" : "");
	}
	return EXIT_OK;
}

static int decode_fence(struct cli *c, int argc, char **argv)
{
	const struct gtt_platform *p;
	uint64_t val;
	struct hw_fence f;

	if (decode_args(c, argc, argv, &p, &val))
		return EXIT_USAGE;
	struct hw_fence_fields r;
	hw_fence_decode(p, val, &f);
	hw_fence_fields(p, val, &r);
	uint32_t max_stride = p->fence_max_pitch_val * FENCE_PITCH_UNIT;
	if (c->json) {
		struct json j;
		json_init(&j, stdout);
		json_object_begin(&j, NULL);
		json_str(&j, "platform", p->name);
		json_hex(&j, "value", val, 16);
		json_hex(&j, "start", f.start, 8);
		json_hex(&j, "end", r.end, 8);	/* the end field as written (the last byte it names) */
		json_bool(&j, "end_below_start", r.end_below_start);
		json_u64(&j, "size", f.size);
		json_u64(&j, "stride", f.stride);
		json_u64(&j, "pitch_field", r.pitch_field);
		json_bool(&j, "pitch_over_max", r.pitch_over_max);
		json_u64(&j, "max_stride", max_stride);
		json_hex(&j, "reserved_bits", r.reserved, 3);
		json_str(&j, "tiling", hw_tiling_name(f.tiling));
		json_bool(&j, "valid", f.valid);
		json_object_end(&j);
		json_finish(&j);
	} else {
		printf("start   0x%08" PRIx64 "\n", f.start);
		printf("end     0x%08" PRIx64 " (last byte)%s\n", r.end,
		       r.end_below_start ? ": BELOW THE START, the fence covers nothing" : "");
		printf("size    0x%" PRIx64 " (%" PRIu64 " bytes)\n", f.size, f.size);
		printf("stride  %u bytes (pitch field %u)", f.stride, r.pitch_field);
		if (r.pitch_over_max)
			printf(": ABOVE %s's MAXIMUM of %u bytes (pitch field %u)", p->name, max_stride,
			       p->fence_max_pitch_val - 1);
		printf("\n");
		printf("tiling  %s\n", hw_tiling_name(f.tiling));
		printf("valid   %s\n", f.valid ? "yes" : "no");
		if (r.reserved)
			printf("reserved bits 0x%03x set (LO 11:2, which i915 writes as zero)\n", r.reserved);
	}
	return EXIT_OK;
}

int cmd_encode(struct cli *c, int argc, char **argv)
{
	if (c->help) {
		fputs(encode_help, stdout);
		return EXIT_OK;
	}
	if (argc >= 2 && !strcmp(argv[1], "pte"))
		return encode_pte(c, argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "fence"))
		return encode_fence(c, argc, argv);
	if (argc < 2)
		return cli_error("encode: what to encode, 'pte' or 'fence'? (gttlab encode --help)");
	return cli_error("encode: '%s' is not 'pte' or 'fence' (gttlab encode --help)", argv[1]);
}

int cmd_decode(struct cli *c, int argc, char **argv)
{
	if (c->help) {
		fputs(decode_help, stdout);
		return EXIT_OK;
	}
	if (argc >= 2 && !strcmp(argv[1], "pte"))
		return decode_pte(c, argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "fence"))
		return decode_fence(c, argc, argv);
	if (argc < 2)
		return cli_error("decode: what to decode, 'pte' or 'fence'? (gttlab decode --help)");
	return cli_error("decode: '%s' is not 'pte' or 'fence' (gttlab decode --help)", argv[1]);
}
