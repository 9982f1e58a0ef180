/* SPDX-License-Identifier: MIT */
/* Reading a journal: every record checked, the header's device named, a torn last record told apart. */
#include "hw/journal_scan.h"
#include "env/env.h"
#include "env/fmt.h"

bool hw_journal_unstarted(const void *buf, size_t len)
{
	const uint8_t *b = buf;
	uint8_t want[8];

	hw_journal_put_le(want, HW_JOURNAL_MAGIC, 4);
	hw_journal_put_le(want + 4, HW_JOURNAL_HEADER, 2);
	for (size_t i = 0; i < len && i < 6; i++)
		if (b[i] != want[i])
			return false;
	if (len < 12)
		return true;
	/* the header's length is known: the record is cut short only if it reaches past the end */
	return HW_JOURNAL_REC_HDR + (size_t)hw_journal_get_le(b + 8, 4) > len;
}

/* "key=" at the start of a line of the header text: copy its value. */
static bool header_value(const struct hw_journal_rec *r, const char *key, char *out, size_t n)
{
	size_t klen = gtt_strlen(key);

	for (size_t at = 0; at < r->len;) {
		size_t end = at;
		while (end < r->len && r->data[end] != '\n')
			end++;
		if (end - at > klen && !gtt_strncmp((const char *)r->data + at, key, klen) && r->data[at + klen] == '=') {
			size_t v = at + klen + 1, vl = end - v;
			if (vl >= n)
				return false;
			gtt_memcpy(out, r->data + v, vl);
			out[vl] = '\0';
			return true;
		}
		at = end + 1;
	}
	return false;
}

int hw_journal_scan(const void *buf, size_t len, struct hw_journal_info *info, struct gtt_err *err)
{
	const uint8_t *b = buf;
	size_t at = 0, before;
	struct hw_journal_rec r;
	bool bad;
	char allow[4];

	*info = (struct hw_journal_info){ 0 };
	if (!hw_journal_next(b, len, &at, &r, &bad) || r.kind != HW_JOURNAL_HEADER || r.len < sizeof(HW_JOURNAL_HEADER_TEXT) - 1 ||
	    gtt_strncmp((const char *)r.data, HW_JOURNAL_HEADER_TEXT, sizeof(HW_JOURNAL_HEADER_TEXT) - 1))
		return gtt_err_set(err, GTT_EINVAL, "not a gttlab journal (no header record at its start)");
	if (!header_value(&r, "spec", info->spec, sizeof(info->spec)) || !info->spec[0] ||
	    !header_value(&r, "sysfs_root", info->sysfs_root, sizeof(info->sysfs_root)) ||
	    !header_value(&r, "allow_i915", allow, sizeof(allow)))
		return gtt_err_set(err, GTT_EINVAL, "the journal's header does not name its device");
	info->allow_i915 = allow[0] == '1';
	info->records = 1;
	for (before = at; hw_journal_next(b, len, &at, &r, &bad); before = at) {
		if (!hw_journal_rec_valid(&r))
			return gtt_err_set(err, GTT_EIO, "journal record at byte %zu (kind %u, %zu bytes) is not one gttlab writes",
					   before, r.kind, r.len);
		info->records++;
		info->cfg += r.kind == HW_JOURNAL_CFG;
		info->mmio += r.kind == HW_JOURNAL_MMIO;
		info->pte_chunks += r.kind == HW_JOURNAL_PTES;
		info->ap_orig += r.kind == HW_JOURNAL_APERTURE && r.width;
		info->ap_own += r.kind == HW_JOURNAL_APERTURE && !r.width;
		info->flush_reg += r.kind == HW_JOURNAL_FLUSH_REG;
	}
	if (bad) {
		/* a torn append is only ever the last: whatever follows a damaged record means another writer */
		size_t skip = before + HW_JOURNAL_REC_HDR <= len ? (size_t)hw_journal_get_le(b + before + 8, 4) : 0;
		if (before + HW_JOURNAL_REC_HDR <= len && hw_journal_get_le(b + before, 4) == HW_JOURNAL_MAGIC &&
		    skip <= len - before - HW_JOURNAL_REC_HDR && before + HW_JOURNAL_REC_HDR + skip < len)
			return gtt_err_set(err, GTT_EIO, "journal record at byte %zu is damaged and not the last one", before);
		info->torn = true;
	}
	info->bytes = before;
	return GTT_OK;
}
