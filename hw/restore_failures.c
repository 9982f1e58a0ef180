/* SPDX-License-Identifier: MIT */
/* What a restore could not put back, counted and named in one line. */
#include "hw/restore_failures.h"
#include "hw/handle.h"
#include "env/fmt.h"
#include "regs/reg_names.h"

void hw_mmio_name(const struct hw_device *dev, uint64_t off, char *buf, size_t n)
{
	if (off >= dev->info.gsm_offset && off < dev->info.gsm_offset + dev->info.gsm_size && dev->info.pte_size) {
		gtt_snprintf(buf, n, "PTE %llu", (unsigned long long)((off - dev->info.gsm_offset) / dev->info.pte_size));
		return;
	}
	for (size_t i = 0; i < gtt_num_reg_names; i++)
		if (gtt_reg_names[i].offset == off) {
			gtt_snprintf(buf, n, "%s", gtt_reg_names[i].name);
			return;
		}
	gtt_snprintf(buf, n, "MMIO 0x%llx", (unsigned long long)off);
}

void hw_restore_failure(struct hw_restore_failures *f, const char *fmt, ...)
{
	va_list ap;

	if (f->n++ >= 3 || f->len >= sizeof(f->what) - 1)
		return;
	if (f->n > 1)
		f->len += (size_t)gtt_snprintf(f->what + f->len, sizeof(f->what) - f->len, "; ");
	if (f->len < sizeof(f->what) - 1) {
		va_start(ap, fmt);
		f->len += (size_t)gtt_vsnprintf(f->what + f->len, sizeof(f->what) - f->len, fmt, ap);
		va_end(ap);
	}
	if (f->len >= sizeof(f->what))
		f->len = sizeof(f->what) - 1;
}

int hw_restore_result(const struct hw_restore_failures *f, struct gtt_err *err)
{
	if (!f->n)
		return GTT_OK;
	return gtt_err_set(err, GTT_EIO, "%u entr%s not restored: %s%s", f->n, f->n == 1 ? "y" : "ies", f->what,
			   f->n > 3 ? "; ..." : "");
}
