/* SPDX-License-Identifier: MIT */
/*
 * Debian's intel_reg reads a snapshot of the simulated device with gttlab's
 * spec files: the fence we program through hw/ is what intel_reg prints under
 * gttlab's register names.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hw/fence.h"
#include "regs/display.h"
#include "regs/mmio.h"
#include "tests/helpers.h"

static unsigned long reg_value(const char *out, const char *name)
{
	const char *p = strstr(out, name);

	cr_assert_not_null(p, "intel_reg printed no %s:\n%s", name, out);
	p = strstr(p, "): 0x");
	cr_assert_not_null(p);
	return strtoul(p + 3, NULL, 16);
}

static void snapshot_and_read(const char *spec, unsigned fence)
{
	struct hw_device *dev = t_open(spec);
	struct sim_device *s = t_sim(dev);
	struct hw_fence f = { 0x400000, 0x20000, 4096, HW_TILING_Y, true };
	uint64_t v;
	char dir[64], file[128], cmd[512], out[4096];

	cr_assert_eq(hw_fence_encode(dev->info.plat, 0, &f, &v, NULL), 0);
	cr_assert_eq(hw_fence_write(dev, fence, v, NULL), 0);
	/* the surface register of the platform's last plane on its last pipe, by its spec name */
	const struct gtt_platform *p = dev->info.plat;
	char surf[32] = "CURABASE";
	uint32_t surf_off = _CURABASE, surf_val = 0x00abc000;
	if (p->gen >= 90) {
		snprintf(surf, sizeof(surf), "PLANE_SURF_%u_%c", p->num_planes, 'A' + p->num_pipes - 1);
		surf_off = PLANE_REG(_PLANE_SURF_1_A, p->num_pipes - 1, p->num_planes);
	}
	cr_assert_eq(hw_mmio_write32(dev, surf_off, surf_val), 0);
	size_t n = sim_snapshot_size(s);
	uint8_t *buf = malloc(n);
	sim_snapshot_save(s, buf);
	t_tmpdir(dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s/mmio.snap", dir);
	FILE *fp = fopen(file, "wb");
	cr_assert(fp && fwrite(buf, 1, n, fp) == n && !fclose(fp));
	snprintf(cmd, sizeof(cmd),
		 "intel_reg --spec=regs/spec --mmio=%s --devid=0x%04x read FENCE_REG_GEN6_LO_%u FENCE_REG_GEN6_HI_%u "
		 "GFX_FLSH_CNTL_GEN6 %s %s 2>/dev/null",
		 file, dev->info.devid, fence, fence, surf, p->gen <= 95 ? "TILECTL" : "");
	cr_assert_eq(t_run(cmd, out, sizeof(out)), 0, "%s failed:\n%s", cmd, out);
	char lo[32], hi[32];
	snprintf(lo, sizeof(lo), "FENCE_REG_GEN6_LO_%u ", fence);
	snprintf(hi, sizeof(hi), "FENCE_REG_GEN6_HI_%u ", fence);
	cr_expect_eq(reg_value(out, lo), (uint32_t)v, "%s", out);
	cr_expect_eq(reg_value(out, hi), v >> 32, "%s", out);
	cr_expect(strstr(out, "(0x00101008)"), "GFX_FLSH_CNTL_GEN6 not at 0x101008:\n%s", out);
	if (p->gen <= 95)
		cr_expect_eq(reg_value(out, "TILECTL "), dev->info.plat->sim_swizzle_enabled ? 1 : 0, "%s", out);
	strcat(surf, " ");
	cr_expect_eq(reg_value(out, surf), surf_val, "%s", out);
	unlink(file);
	rmdir(dir);
	free(buf);
	hw_close(dev);
}

Test(intel_reg, reads_a_skylake_snapshot) { snapshot_and_read("sim:skl", 7); }
Test(intel_reg, reads_a_haswell_snapshot) { snapshot_and_read("sim:hsw", 31); }
Test(intel_reg, reads_a_sandybridge_snapshot) { snapshot_and_read("sim:snb", 15); }
Test(intel_reg, reads_a_coffeelake_snapshot) { snapshot_and_read("sim:cfl", 5); }
Test(intel_reg, reads_an_icelake_snapshot) { snapshot_and_read("sim:icl", 31); }
Test(intel_reg, reads_a_tigerlake_snapshot) { snapshot_and_read("sim:tgl", 0); }
Test(intel_reg, reads_a_rocketlake_snapshot) { snapshot_and_read("sim:rkl", 23); }
Test(intel_reg, reads_an_alderlake_p_snapshot) { snapshot_and_read("sim:adlp", 17); }

/*
 * For every device id of every platform, Debian's intel_reg finds one of our
 * spec files (by devid, codename or gen, tools/intel_reg.c get_reg_spec_file)
 * and it names every register gttlab reads on that platform: the last fence,
 * the last plane (and on gen6-8 the sprite) of the last pipe, that pipe's
 * cursor, and HSW_EDRAM_CAP from Haswell on.
 * The builtin spec it falls back to names none of them.
 */
Test(intel_reg, every_device_id_finds_a_spec_with_its_registers, .timeout = 300)
{
	char dir[64], file[128], cmd[1024], out[4096];

	t_tmpdir(dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s/zero.snap", dir);
	uint8_t *buf = calloc(1, 2u << 20);
	FILE *fp = fopen(file, "wb");
	cr_assert(fp && fwrite(buf, 1, 2u << 20, fp) == 2u << 20 && !fclose(fp));
	for (size_t i = 0; i < gtt_num_platforms; i++) {
		const struct gtt_platform *p = &gtt_platforms[i];
		char names[256];
		unsigned last = p->num_fences - 1;
		int len = snprintf(names, sizeof(names), "FENCE_REG_GEN6_LO_%u FENCE_REG_GEN6_HI_%u GFX_FLSH_CNTL_GEN6", last, last);
		char lp = (char)('A' + p->num_pipes - 1);
		if (p->gen >= 90)
			len += snprintf(names + len, sizeof(names) - (size_t)len, " PLANE_SURF_%u_%c CUR%cBASE", p->num_planes,
					lp, lp);
		else if (p->gen == 60)	/* Sandy Bridge: DVS sprites, pipe B's cursor at 0x700c0 */
			len += snprintf(names + len, sizeof(names) - (size_t)len, " DSPBSURF DVSBSURF DVSBSCALE CURBBASE_SNB");
		else
			len += snprintf(names + len, sizeof(names) - (size_t)len, " DSP%cSURF SPR%c_SURF CUR%cBASE%s", lp, lp,
					lp, p->gen == 70 ? " SPRC_SCALE" : "");
		if (p->gen >= 75)
			snprintf(names + len, sizeof(names) - (size_t)len, " HSW_EDRAM_CAP");
		for (size_t k = 0; k < p->n_devids; k++) {
			snprintf(cmd, sizeof(cmd), "intel_reg --spec=regs/spec --mmio=%s --devid=0x%04x read %s 2>&1", file,
				 p->devids[k], names);
			int rc = t_run(cmd, out, sizeof(out));
			cr_expect_eq(rc, 0, "%s (0x%04x): %s\n%s", p->name, p->devids[k], cmd, out);
			cr_expect(!strstr(out, "builtin"), "%s (0x%04x): intel_reg fell back to its builtin spec:\n%s", p->name,
				  p->devids[k], out);
			char want[256];
			snprintf(want, sizeof(want), "%s", names);
			for (char *w = strtok(want, " "); w; w = strtok(NULL, " "))
				cr_expect(strstr(out, w), "%s (0x%04x): intel_reg printed no %s:\n%s", p->name, p->devids[k], w, out);
		}
	}
	free(buf);
	unlink(file);
	rmdir(dir);
}

Test(intel_reg, seeds_the_model_from_a_snapshot)
{
	char dir[64], file[128], cmd[512], out[8192];
	t_tmpdir(dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s/seed.snap", dir);
	/* a snapshot whose fence 2 holds a known value, loaded with --mmio-seed */
	uint8_t *buf = calloc(1, 2u << 20);
	uint32_t lo = 0x00300001, hi = 0x0031f007;
	memcpy(buf + FENCE_REG_GEN6_LO(2), &lo, 4);
	memcpy(buf + FENCE_REG_GEN6_HI(2), &hi, 4);
	FILE *fp = fopen(file, "wb");
	cr_assert(fp && fwrite(buf, 1, 2u << 20, fp) == 2u << 20 && !fclose(fp));
	snprintf(cmd, sizeof(cmd), "./build/gttlab --mmio-seed %s dump fences", file);
	cr_assert_eq(t_run(cmd, out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "fence  2: 0x0031f00700300001 x-tiled 0x00300000-0x0031ffff"), "%s", out);
	free(buf);
	unlink(file);
	rmdir(dir);
}
