/* SPDX-License-Identifier: MIT */
/*
 * SVG pictures of graphics memory (picture.h). Plain SVG 1.1: rectangles,
 * lines and text, a <title> on every shape for the tooltip, fixed colours.
 */
#include "hosted/picture.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define W		1200	/* drawing width */
#define LEFT		110	/* labels to the left of the plots */
#define PLOT		(W - LEFT - 20)

static const char *const class_fill[3] = { "#f2f2f2", "#c9d3df", "#2f5f8f" };
static const char *const class_name[3] = { "not present", "scratch", "mapped" };

/* A colour per vGPU, well apart from its neighbours (golden-angle hues). */
static void vgpu_colour(int v, char *buf, size_t n)
{
	snprintf(buf, n, "hsl(%d,65%%,50%%)", (v * 137) % 360);
}

/* Text as SVG character data. */
static void text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, f);
		}
	}
}

static void label(FILE *f, const char *cls, double x, double y, const char *anchor, const char *s)
{
	fprintf(f, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", cls, x, y, anchor);
	text(f, s);
	fputs("</text>\n", f);
}

static void begin(FILE *f, int h, const char *title)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		   "font-family=\"sans-serif\" font-size=\"12\">\n<title>", W, h, W, h);
	text(f, title);
	fprintf(f, "</title>\n<rect class=\"background\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", W, h);
	label(f, "heading", 10, 22, "start", title);
}

/*
 * GGTT address to x: the aperture (where the host, the guests' low ranges, the
 * pool and the reserved pages lie, a sixteenth of the GGTT or less) gets 30% of
 * the width, high graphics memory the rest, so both can be read.
 */
#define AP_SHARE 0.3

static double gx(const struct picture_map *m, uint64_t a)
{
	uint64_t ap = m->aperture_size && m->aperture_size < m->ggtt_size ? m->aperture_size : m->ggtt_size / 2;

	if (a <= ap)
		return LEFT + PLOT * AP_SHARE * (double)a / (double)ap;
	return LEFT + PLOT * AP_SHARE + PLOT * (1 - AP_SHARE) * (double)(a - ap) / (double)(m->ggtt_size - ap);
}

void picture_map_add(struct picture_map *m, uint64_t n_ptes, uint64_t i, enum picture_class c, int owner)
{
	size_t b = (size_t)(i * PICTURE_BUCKETS / n_ptes);

	m->count[b][c]++;
	if (!m->owner_votes[b]) {
		m->owner[b] = (uint16_t)owner;
		m->owner_votes[b] = 1;
	} else {
		m->owner_votes[b] += m->owner[b] == owner ? 1 : (uint32_t)-1;
	}
}

void picture_map_finish(struct picture_map *m)
{
	for (size_t b = 0; b < PICTURE_BUCKETS; b++)
		if (!m->owner_votes[b])
			m->owner[b] = 0;
}

/* row 1 of the map, at y: the layout's regions */
static void map_regions(FILE *f, const struct picture_map *m, int y)
{
	char buf[96];

	for (size_t r = 0; r < m->n_regions; r++) {
		const struct picture_region *g = &m->region[r];
		double x0 = gx(m, g->start), x1 = gx(m, g->end);
		bool slot = !strncmp(g->label, "slot ", 5);
		fprintf(f, "<rect class=\"region\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"36\" fill=\"%s\" stroke=\"#555\" "
			   "stroke-width=\"0.5\"><title>", x0, y, x1 - x0 > 0.2 ? x1 - x0 : 0.2,
			slot ? "#fff7e0" : "#e8f0e0");
		snprintf(buf, sizeof(buf), "%s: GGTT 0x%" PRIx64 "-0x%" PRIx64, g->label, g->start, g->end - 1);
		text(f, buf);
		fputs("</title></rect>\n", f);
		/* inside when it fits; a narrow region's name above it, slanted (a slot's only every few) */
		double need = 6.5 * (double)strlen(g->label) + 4;
		if (x1 - x0 >= need) {
			label(f, slot ? "region-label slot" : "region-label", (x0 + x1) / 2, y + 22, "middle", g->label);
		} else if (!slot || !(strtoul(g->label + 5, NULL, 10) % 8)) {
			fprintf(f, "<text class=\"%s\" x=\"%.1f\" y=\"%d\" font-size=\"10\" transform=\"rotate(-40 %.1f %d)\">",
				slot ? "region-label slot" : "region-label", (x0 + x1) / 2, y - 3, (x0 + x1) / 2, y - 3);
			text(f, g->label);
			fputs("</text>\n", f);
		}
	}
}

/* row 2, at y: what the PTEs are */
static void map_ptes(FILE *f, const struct picture_map *m, int y)
{
	double cw = (double)PLOT / PICTURE_BUCKETS;

	for (size_t b = 0; b < PICTURE_BUCKETS; b++) {
		const uint32_t *k = m->count[b];
		int cls = k[PIC_MAPPED] ? PIC_MAPPED : k[PIC_SCRATCH] >= k[PIC_NOT_PRESENT] ? PIC_SCRATCH : PIC_NOT_PRESENT;
		fprintf(f, "<rect class=\"ptes %s\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"24\" fill=\"%s\"><title>%u mapped, %u scratch, %u not present</title></rect>\n",
			cls == PIC_MAPPED ? "mapped" : cls == PIC_SCRATCH ? "scratch" : "absent", LEFT + b * cw, y, cw + 0.05,
			class_fill[cls], k[PIC_MAPPED], k[PIC_SCRATCH], k[PIC_NOT_PRESENT]);
	}
}

/* row 3, at y: whose entries the GTT holds */
static void map_owners(FILE *f, const struct picture_map *m, int y)
{
	double cw = (double)PLOT / PICTURE_BUCKETS;
	char buf[96], col[32];
	int has_owner = 0;

	for (size_t b = 0; b < PICTURE_BUCKETS; b++) {
		int o = m->owner[b];
		if (!o)
			continue;
		has_owner = 1;
		vgpu_colour(o, col, sizeof(col));
		fprintf(f, "<rect class=\"owner\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"24\" fill=\"%s\"><title>", LEFT + b * cw, y,
			cw + 0.05, col);
		snprintf(buf, sizeof(buf), "vGPU %s", o < 64 && m->owner_name[o] ? m->owner_name[o] : "?");
		text(f, buf);
		fputs("</title></rect>\n", f);
	}
	if (!has_owner)
		label(f, "note", LEFT + 6, y + 16, "start", "no vGPU's entries (the host's GGTT as found)");
}

/* scanout surfaces: what the display reads, outlined over the rows above y */
static void map_scanout(FILE *f, const struct picture_map *m, int y)
{
	char buf[96];

	for (size_t i = 0; i < m->n_scanout; i++) {
		const struct hw_scanout *s = &m->scanout[i];
		double x0 = gx(m, s->start), x1 = gx(m, s->end);
		fprintf(f, "<rect class=\"scanout\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"none\" stroke=\"#d40\" stroke-width=\"2\"><title>",
			x0, y - 100, x1 - x0 > 1 ? x1 - x0 : 1, 96);
		snprintf(buf, sizeof(buf), "scanout: %s of pipe %c", s->what, 'A' + s->pipe);
		text(f, buf);
		fputs("</title></rect>\n", f);
		snprintf(buf, sizeof(buf), "scanout: %s, pipe %c", s->what, 'A' + s->pipe);
		label(f, "scanout-label", x0, y + 12, "start", buf);
	}
}

/* the address axis, at y */
static void map_axis(FILE *f, const struct picture_map *m, int y)
{
	char buf[96];

	for (int t = 0; t <= 8; t++) {
		uint64_t ap = m->aperture_size, a = t <= 2 ? ap / 2 * (uint64_t)t : ap + (m->ggtt_size - ap) / 6 * (uint64_t)(t - 2);
		snprintf(buf, sizeof(buf), "0x%" PRIx64, a);
		fprintf(f, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#888\"/>\n", gx(m, a), y, gx(m, a), y + 5);
		label(f, "axis", gx(m, a), y + 17, t == 8 ? "end" : t ? "middle" : "start", buf);
	}
}

/* the legend, at y: the PTE classes, the aperture's end, the vGPUs */
static void map_legend(FILE *f, const struct picture_map *m, int y)
{
	char col[32];

	for (int c = 0; c < 3; c++) {
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\" stroke=\"#777\"/>\n", LEFT + c * 140, y, class_fill[c]);
		label(f, "legend", LEFT + c * 140 + 20, y + 12, "start", class_name[c]);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#b00\" stroke-dasharray=\"4 2\"/>\n", LEFT + 3 * 140,
		y + 7, LEFT + 3 * 140 + 14, y + 7);
	label(f, "legend aperture-label", LEFT + 3 * 140 + 20, y + 12, "start", "end of the aperture");
	int lx = LEFT + 4 * 140 + 20;
	for (int o = 1; o < 64 && lx < W - 120; o++) {
		if (!m->owner_name[o])
			continue;
		vgpu_colour(o, col, sizeof(col));
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>\n", lx, y, col);
		label(f, "legend vgpu", lx + 18, y + 12, "start", m->owner_name[o]);
		lx += 30 + 7 * (int)strlen(m->owner_name[o]);
	}
}

/* The map as a panel from y: regions, PTE classes, owners, scanout surfaces, legend. Returns its height. */
static int map_panel(FILE *f, const struct picture_map *m, int y)
{
	label(f, "panel", 10, y + 14, "start", "GGTT map (the aperture drawn wider: 30% of the width)");
	y += 70;
	label(f, "row", LEFT - 6, y + 24, "end", "layout");
	map_regions(f, m, y);
	/* the aperture's end: CPU-visible below it */
	fprintf(f, "<line class=\"aperture-end\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#b00\" stroke-dasharray=\"4 2\"/>\n",
		gx(m, m->aperture_size), y - 4, gx(m, m->aperture_size), y + 120);
	y += 44;
	label(f, "row", LEFT - 6, y + 16, "end", "PTEs");
	map_ptes(f, m, y);
	y += 32;
	label(f, "row", LEFT - 6, y + 16, "end", "held by");
	map_owners(f, m, y);
	y += 32;
	map_scanout(f, m, y);
	if (m->n_scanout)
		y += 16;
	map_axis(f, m, y);
	y += 28;
	map_legend(f, m, y);
	return y + 24;
}

void picture_ggtt_svg(FILE *f, const struct picture_map *m)
{
	int h = 330 + (m->n_scanout ? 16 : 0);

	begin(f, h, m->title);
	map_panel(f, m, 36);
	fputs("</svg>\n", f);
}

void picture_slots_svg(FILE *f, const struct picture_slots *s, const struct picture_map *m)
{
	unsigned M = s->num_slots ? s->num_slots : 1;
	double row = M > 64 ? 4 : M > 16 ? 8 : 18;
	int top = 90, plot_h = (int)(row * M), lines = s->last_line > 0 ? s->last_line : 1;
	int sw_h = 60, h = top + plot_h + 40 + sw_h + 60 + (m ? 340 : 0);
	char buf[160], col[32];
	uint64_t most = 1;

	begin(f, h, s->title);
	label(f, "panel", 10, 40, "start", "slots over time (scenario lines)");
	/* the slot axis */
	for (unsigned k = 0; k < M; k++) {
		if (M <= 32 || k % (M / 16 ? M / 16 : 1) == 0) {
			snprintf(buf, sizeof(buf), "slot %u", k);
			label(f, "slot-axis", LEFT - 6, top + row * k + row * 0.75, "end", buf);
		}
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>\n", LEFT, top + row * k, LEFT + PLOT,
			top + row * k);
	}
	/* who holds which slots: a band per holding, shared slots show as overlapping, lighter bands */
	for (size_t i = 0; i < s->n_hold; i++) {
		const struct picture_hold *hd = &s->hold[i];
		if (!hd->slots)
			continue;
		double x0 = LEFT + (double)PLOT * (hd->from - 1) / lines, x1 = LEFT + (double)PLOT * (hd->to - 1) / lines;
		vgpu_colour(hd->vgpu, col, sizeof(col));
		fprintf(f, "<rect class=\"hold\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.45\" stroke=\"%s\"><title>",
			x0, top + row * hd->first + 1, x1 - x0 > 1 ? x1 - x0 : 1, row * hd->slots - 2, col, col);
		snprintf(buf, sizeof(buf), "%s: slots %u-%u, lines %d-%d", hd->name, hd->first, hd->first + hd->slots - 1, hd->from,
			 hd->to - 1);
		text(f, buf);
		fputs("</title></rect>\n", f);
		if (x1 - x0 > 40)
			label(f, "vgpu-label", x0 + 3, top + row * hd->first + (row * hd->slots) / 2 + 4, "start", hd->name);
	}
	/* the changes: a mark and a word at the line */
	for (size_t i = 0; i < s->n_event; i++) {
		const struct picture_event *e = &s->event[i];
		double x = LEFT + (double)PLOT * (e->line - 1) / lines;
		int same = 0;	/* events of the same line stack their words */
		for (size_t k = 0; k < i; k++)
			same += s->event[k].line == e->line;
		fprintf(f, "<line class=\"event\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#333\" stroke-dasharray=\"2 2\"><title>",
			x, top, x, top + plot_h);
		snprintf(buf, sizeof(buf), "line %d: %s %s", e->line, e->name, e->what);
		text(f, buf);
		fputs("</title></line>\n", f);
		snprintf(buf, sizeof(buf), "%s %s", e->name, e->what);
		fprintf(f, "<text class=\"event-label\" x=\"%.1f\" y=\"%d\" font-size=\"9\" transform=\"rotate(-30 %.1f %d)\">", x,
			top - 4 - 11 * same, x, top - 4 - 11 * same);
		text(f, buf);
		fputs("</text>\n", f);
	}
	/* switches: a bar per switch, its height the PTEs it wrote */
	int sy = top + plot_h + 30;
	label(f, "panel", 10, sy - 8, "start", "switches (PTEs written)");
	for (size_t i = 0; i < s->n_sw; i++)
		if (s->sw[i].ptes_written > most)
			most = s->sw[i].ptes_written;
	for (size_t i = 0; i < s->n_sw; i++) {
		double x = LEFT + (double)PLOT * (s->sw[i].line - 1) / lines, bh = (double)sw_h * s->sw[i].ptes_written / most;
		fprintf(f, "<rect class=\"switch\" x=\"%.2f\" y=\"%.1f\" width=\"2\" height=\"%.1f\" fill=\"#666\"><title>line %d: %" PRIu64
			   " PTEs written</title></rect>\n",
			x, sy + sw_h - bh, bh > 0.5 ? bh : 0.5, s->sw[i].line, s->sw[i].ptes_written);
	}
	snprintf(buf, sizeof(buf), "%" PRIu64 " PTEs", most);
	label(f, "axis", LEFT - 6, sy + 10, "end", buf);
	label(f, "axis", LEFT - 6, sy + sw_h, "end", "0");
	for (int t = 0; t <= 10; t++) {
		int ln = 1 + (lines - 1) * t / 10;
		snprintf(buf, sizeof(buf), "line %d", ln);
		label(f, "axis", LEFT + (double)PLOT * (ln - 1) / lines, sy + sw_h + 16, t == 10 ? "end" : t ? "middle" : "start", buf);
	}
	if (m)
		map_panel(f, m, sy + sw_h + 40);
	fputs("</svg>\n", f);
}
