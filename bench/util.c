/* SPDX-License-Identifier: MIT */
/* What every benchmark shares: time, medians, a seeded generator, a device with a runtime on it. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "bench/bench.h"
#include "env/env_posix.h"
#include "hosted/backends.h"
#include "hw/backend_sim.h"
#include "hw/pte.h"
#include "regs/platform.h"

void bench_die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void bench_note(const char *fmt, ...)
{
	va_list ap;

	fputs("bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

uint64_t bench_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t bench_range(uint64_t *state, uint64_t lo, uint64_t hi)
{
	return lo + bench_rand(state) % (hi - lo + 1);
}

/*
 * "simggms:PLATFORM:GGMS": the model with another GSM size (the growth
 * benchmark's GGTT sizes). The sim backend's table is reused as it is: its
 * context is the model itself (its model() hook says so, and is checked), so
 * the default model it opened is swapped for one made with sim_params.
 */
static int ggms_open(const struct gtt_env *env, const struct hw_device_spec *spec, const struct hw_open_opts *opts,
		     const struct hw_backend_ops **ops, void **ctx, struct gtt_err *err)
{
	char name[16];
	unsigned ggms = 0;
	const char *arg = spec->target, *colon = strchr(arg, ':');
	struct hw_device_spec model;
	int rc;

	if (!colon || (size_t)(colon - arg) >= sizeof(name) || sscanf(colon + 1, "%u", &ggms) != 1 || !ggms)
		return gtt_err_set(err, GTT_EINVAL, "simggms:%s: want PLATFORM:GGMS", arg);
	memcpy(name, arg, (size_t)(colon - arg));
	name[colon - arg] = 0;
	const struct gtt_platform *plat = gtt_platform_by_name(name);
	if (!plat)
		return gtt_err_set(err, GTT_EINVAL, "simggms:%s: unknown platform", arg);
	hw_device_spec_model(&model, plat, false);
	if ((rc = hw_sim_backend.open(env, &model, opts, ops, ctx, err)))
		return rc;
	if (!(*ops)->model || (*ops)->model(*ctx) != (struct sim_device *)*ctx) {
		(*ops)->close(*ctx);
		return gtt_err_set(err, GTT_ENOTSUP, "the sim backend's context is not its model: cannot swap the model");
	}
	(*ops)->close(*ctx);
	struct sim_params params = { .ggms = ggms };
	struct sim_device *sim;
	if ((rc = sim_create(env, plat, &params, &sim, err)))
		return rc;
	*ctx = sim;
	return GTT_OK;
}

static const struct hw_backend_factory ggms_backend = {
	.scheme = "simggms",
	.usage = "simggms:PLATFORM:GGMS",
	.open = ggms_open,
};

void bench_open_device(struct bench_dev *b, const char *spec)
{
	static const struct hw_backend_factory *const ggms_backends[] = { &ggms_backend };
	const struct gtt_env *env = gtt_env_posix(GTT_LOG_WARN);
	struct hw_open_opts opts = { 0 };
	struct gtt_err err = { 0 };
	int rc;

	memset(b, 0, sizeof(*b));
	if (!strncmp(spec, "simggms:", 8))
		rc = hw_open(env, spec, ggms_backends, 1, &opts, &b->dev, &err);
	else
		rc = hw_open(env, spec, gtt_posix_backends, gtt_num_posix_backends, &opts, &b->dev, &err);
	if (rc)
		bench_die("opening %s: %s", spec, err.msg);
	if (!(b->sim = hw_sim_model(b->dev)))
		bench_die("%s is not the model", spec);
}

void bench_start_runtime(struct bench_dev *b, const struct dom0_config *cfg)
{
	struct dom0_config c = cfg ? *cfg : (struct dom0_config){ 0 };
	struct gtt_err err = { 0 };

	if (dom0_init(b->dev, &c, &b->rt, &err))
		bench_die("dom0_init on %s: %s", b->dev->name, err.msg);
}

void bench_open(struct bench_dev *b, const char *spec, const struct dom0_config *cfg)
{
	bench_open_device(b, spec);
	bench_start_runtime(b, cfg);
}

void bench_stop_runtime(struct bench_dev *b)
{
	struct gtt_err err = { 0 };

	if (dom0_fini(b->rt, &err))
		bench_die("dom0_fini: the device is not as found: %s", err.msg);
	b->rt = NULL;
}

void bench_close(struct bench_dev *b)
{
	if (b->rt)
		bench_stop_runtime(b);
	hw_close(b->dev);
	memset(b, 0, sizeof(*b));
}

int bench_create(struct bench_dev *b, const struct dom0_vgpu_params *p)
{
	struct gtt_err err = { 0 };
	int id = 0;

	if (dom0_vgpu_create(b->rt, p, &id, &err))
		bench_die("dom0_vgpu_create: %s", err.msg);
	return id;
}

uint64_t bench_guest_pte(const struct bench_dev *b, uint64_t gfn)
{
	struct gtt_err err = { 0 };
	uint64_t pte = 0;

	if (hw_pte_encode(b->dev->info.plat, gfn << 12, HW_CACHE_NONE, &pte, &err))
		bench_die("encoding guest frame %llu: %s", (unsigned long long)gfn, err.msg);
	return pte;
}

void bench_map(struct bench_dev *b, int id, uint64_t first, uint64_t gfn, unsigned n)
{
	struct gtt_err err = { 0 };

	for (unsigned k = 0; k < n; k++)
		if (dom0_guest_pte_write(b->rt, id, first + k, bench_guest_pte(b, gfn + k), &err))
			bench_die("guest PTE write of vGPU %d at %llu: %s", id, (unsigned long long)(first + k), err.msg);
}

struct dom0_vgpu_info bench_info(const struct bench_dev *b, int id)
{
	struct dom0_vgpu_info info;

	if (dom0_vgpu_info(b->rt, id, &info))
		bench_die("vGPU %d has no info", id);
	return info;
}

void bench_switch(struct bench_dev *b, int to, struct dom0_switch_stats *st)
{
	struct dom0_switch_stats dummy;
	struct gtt_err err = { 0 };

	if (dom0_switch(b->rt, to, st ? st : &dummy, &err))
		bench_die("switch to vGPU %d: %s", to, err.msg);
}

void bench_busy(struct bench_dev *b, int id, bool busy)
{
	struct gtt_err err = { 0 };

	if (dom0_set_busy(b->rt, id, busy, &err))
		bench_die("set_busy vGPU %d: %s", id, err.msg);
}

void bench_read_gsm(const struct bench_dev *b, uint64_t *ptes)
{
	const struct hw_info *in = &b->dev->info;

	sim_gsm_read_run(b->sim, in->gsm_offset, ptes, (size_t)in->n_ptes, in->pte_size);
}

/*
 * scenarios/gscale-15-vgpus.scn: 384 MiB slots (one for the host, three for
 * guests on sim:hsw), 15 vGPUs of 64 MiB low and one slot, 2 fences, 32 pages;
 * vm1-vm3 map 32 pages in their low and high ranges and are busy; the
 * scheduler is slot-aware (unless slot_aware is false). With one_slot, vm1-vm3 are all placed in slot 0
 * (gScale-Basic's situation: every busy vGPU shares its high range).
 */
void bench_gscale_start(struct bench_gscale *g, bool one_slot, bool slot_aware)
{
	struct dom0_config cfg = { .slot_size = 384ull << 20, .host_high_size = 384ull << 20, .slot_aware = slot_aware };

	bench_open(&g->b, "sim:hsw", &cfg);
	for (int i = 0; i < 15; i++) {
		struct dom0_vgpu_params p = { .low_size = 64ull << 20, .high_slots = 1, .fences = 2, .mem_pages = 32,
					      .place = one_slot && i < 3, .at_slot = 0 };
		g->vm[i] = bench_create(&g->b, &p);
	}
	for (int i = 0; i < 3; i++) {
		struct dom0_vgpu_info info = bench_info(&g->b, g->vm[i]);
		if (!one_slot && info.first_slot != (unsigned)i)
			bench_die("gScale layout: vm%d placed in slot %u, the scenario expects %d", i + 1, info.first_slot, i);
		bench_map(&g->b, g->vm[i], 0x4000000 / 4096, 0, 32);
		bench_map(&g->b, g->vm[i], info.high_base / 4096, 0, 32);
		bench_busy(&g->b, g->vm[i], true);
	}
}

bool bench_wait_line(pid_t pid, const char *path, const char *what, unsigned ms, char *why, size_t n)
{
	uint64_t deadline = bench_now_ns() + (uint64_t)ms * 1000000ull;

	for (;;) {
		char line[512];
		FILE *f = fopen(path, "r");
		bool found = false;
		int st;
		while (f && !found && fgets(line, sizeof(line), f))
			found = strstr(line, what) != NULL;
		if (f)
			fclose(f);
		if (found)
			return true;
		if (waitpid(pid, &st, WNOHANG) == pid) {
			if (WIFEXITED(st))
				snprintf(why, n, "it ended (exit status %d) before saying '%s'", WEXITSTATUS(st), what);
			else
				snprintf(why, n, "it was killed (signal %d) before saying '%s'", WTERMSIG(st), what);
			return false;
		}
		if (bench_now_ns() > deadline) {
			snprintf(why, n, "it did not say '%s' within %u ms", what, ms);
			return false;
		}
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
	}
}

void bench_cpu_mark(struct bench_cpu_mark *m)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	*m = (struct bench_cpu_mark){ 0 };
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
		   &v[7]) == 8) {
		m->idle = v[3] + v[4];
		for (int i = 0; i < 8; i++)
			m->total += v[i];
	}
	fclose(f);
}

unsigned bench_cores_online(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

double bench_idle_cores(const struct bench_cpu_mark *a, const struct bench_cpu_mark *b)
{
	if (!a->total || b->total <= a->total)
		return -1;
	return (double)(b->idle - a->idle) / (double)(b->total - a->total) * bench_cores_online();
}

const char *bench_idle_says(double idle_cores, const char *no_core_free, const char *a_core_free)
{
	if (idle_cores < 0)
		return "the idle cores could not be measured (/proc/stat unreadable), so the bench cannot say why";
	return idle_cores < 1 ? no_core_free : a_core_free;
}
