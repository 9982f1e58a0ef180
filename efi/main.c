/* SPDX-License-Identifier: MIT */
/*
 * gttlab.efi: boots on a test machine (or in QEMU/OVMF), runs the
 * register-level checks on the GPU before any OS driver owns it, writes the
 * results to the ESP and shuts the machine down.
 *
 * Arguments come from the load options (gttlab.efi --run fence-* --device
 * sim:hsw) or, when started as BOOTX64.EFI with none, from gttlab.cfg beside
 * it. The model runs only when the device string asks for it (sim:..., then
 * installed as an EFI_PCI_IO_PROTOCOL the efi backend finds like a real GPU);
 * with no device named (auto) and no Intel GPU, the run is a device error.
 */
#include <efi.h>
#include <efilib.h>

#include "efi/backend_efi.h"
#include "efi/efi_args.h"
#include "efi/backend_pv_efi.h"
#include "efi/efi_env.h"
#include "efi/efi_files.h"
#include "efi/efi_journal.h"
#include "efi/efi_volume.h"
#include "efi/ivshmem_check.h"
#include "efi/pciio_sim.h"
#include "efi/secure_boot.h"
#include "efi/stack_guard.h"
#include "dom0/guest_device.h"
#include "env/fmt.h"
#include "env/num.h"
#include "env/version.h"
#include "checks/report.h"
#include "checks/runner.h"
#include "checks/session.h"
#include "hw/backend_sim.h"
#include "regs/mmio.h"
#include "regs/pci_config.h"

#define RESULTS_DIR "\\gttlab"
/* isa-debug-exit values: QEMU exits with (value << 1) | 1 */
#define EXIT_PASS 0x10	/* QEMU status 33 */
#define EXIT_FAIL 0x11	/* QEMU status 35 */
#define EXIT_ERROR 0x12	/* QEMU status 37 */
#define EXIT_ABORT 0x13	/* QEMU status 39: the device could not be restored */
#define EXIT_SKIP 0x14	/* QEMU status 41: nothing ran (every check skipped): no verdict */

static void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static void finish(const struct efi_args *a, uint8_t code)
{
	struct efi_memory_stats m;

	/* what the run took from the firmware's memory services (make bench reads this line: P5) */
	efi_memory_stats(&m);
	efi_printf("gttlab: memory: a region of %llu MiB taken once, peak %llu KiB, %llu allocations (%llu from the pool); "
		   "firmware memory calls %llu, %llu.%06llu s inside them\n",
		   (unsigned long long)(m.region_bytes >> 20), (unsigned long long)(m.peak_bytes >> 10),
		   (unsigned long long)m.allocs, (unsigned long long)m.pool_allocs, (unsigned long long)m.calls,
		   (unsigned long long)(m.ns / 1000000000u), (unsigned long long)(m.ns % 1000000000u / 1000u));
	if (m.bad_frees)
		efi_printf("gttlab: memory: %llu frees of a pointer that was not an allocation were ignored\n",
			   (unsigned long long)m.bad_frees);
	if (a->debug_exit)
		outb(0xf4, code);	/* QEMU's isa-debug-exit: leaves here when present */
	if (a->no_shutdown) {
		efi_env_fini();
		return;
	}
	efi_print("gttlab: powering off\n");
	RT->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
}

/* The migration checks' second device: a second simulated EFI_PCI_IO_PROTOCOL instance, found by the efi backend. */
struct peer {
	const struct gtt_env *env;
	const struct gtt_platform *plat;	/* of the instance installed, NULL before the first */
};

static int open_peer(void *ctx, const struct gtt_platform *plat, struct hw_device **out, struct gtt_err *err)
{
	static const struct hw_backend_factory *const backends[] = { &hw_efi_backend };
	struct peer *p = ctx;
	char spec[32];

	if (!p->plat) {
		EFI_HANDLE h;
		int rc = pciio_sim_install_at(p->env, plat, NULL, PCIIO_SIM_PEER_SEGMENT, &h, err);
		if (rc)
			return rc;
		p->plat = plat;
	} else if (p->plat != plat) {
		return gtt_err_set(err, GTT_EINVAL, "the second device is a %s; a %s was asked for", p->plat->name, plat->name);
	}
	gtt_snprintf(spec, sizeof(spec), "efi:%04x:00:02.0", PCIIO_SIM_PEER_SEGMENT);
	return hw_open(p->env, spec, backends, 1, NULL, out, err);
}

/* A run's device: what resolve() made of --device, and its journal on the ESP. */
struct efi_run {
	EFI_HANDLE volume;		/* the results volume's file system (efi/efi_volume.h); NULL: none (--no-journal) */
	const struct gtt_env *env;
	const struct efi_args *a;
	struct hw_device_spec asked;	/* --device, parsed */
	struct hw_device_spec open;	/* what is opened for it: efi:SSSS:BB:DD.F, or the vGPU asked for */
	bool model;
	struct efi_journal ej;
};

/*
 * vgpu:...: a vGPU of the Dom0 runtime, hosted by the core's own model in
 * this application (dom0/guest_device.h), not a PCI function: no
 * EFI_PCI_IO_PROTOCOL instance, no GOP framebuffer in its BARs, and no
 * journal, since its host dies with the application as the model does.
 * pv[:N]: a vGPU `gttlab dom0 serve` serves this guest over ivshmem
 * (efi/backend_pv_efi.h): its host journals and restores what it writes.
 */
static bool is_scheme(const struct hw_device_spec *d, const char *scheme)
{
	return !gtt_strcmp(d->scheme, scheme);
}

/* efi:SSSS:BB:DD.F parsed into SPEC (a PCI function the efi backend opens). */
static int efi_function(struct hw_device_spec *spec, unsigned long long seg, unsigned long long bus, unsigned long long dev,
			unsigned long long fn, struct gtt_err *err)
{
	char s[40];

	gtt_snprintf(s, sizeof(s), "efi:%04llx:%02llx:%02llx.%llx", seg, bus, dev, fn);
	return hw_device_spec_parse(s, spec, err);
}

/*
 * --device, parsed once (hw/device_spec.h) into r->asked, and what is opened for it into r->open:
 * a real Intel GPU or the model installed now as a PCI function (efi backend), or a vGPU.
 */
static int resolve(struct efi_run *r, struct gtt_err *err)
{
	const struct hw_device_spec *d = &r->asked;
	struct efi_pci_dev devs[64];
	char s[HW_SPEC_MAX + 8];
	int rc;

	if ((rc = hw_device_spec_parse(r->a->device, &r->asked, err)))
		return rc;
	if (is_scheme(d, "vgpu") || is_scheme(d, "pv")) {
		r->open = *d;
		r->model = true;
		return GTT_OK;
	}
	if (is_scheme(d, "pci")) {
		gtt_snprintf(s, sizeof(s), "efi:%s", d->target);
		return hw_device_spec_parse(s, &r->open, err);
	}
	if (is_scheme(d, "auto")) {
		size_t k = efi_pci_list(devs, 64);
		for (size_t i = 0; i < k; i++)
			if (devs[i].vendor == PCI_VENDOR_ID_INTEL && devs[i].base_class == PCI_BASE_CLASS_DISPLAY) {
				if ((rc = efi_function(&r->open, devs[i].seg, devs[i].bus, devs[i].dev, devs[i].fn, err)))
					return rc;
				efi_printf("gttlab: Intel GPU %04x at %s\n", devs[i].device, r->open.target);
				return GTT_OK;
			}
		/* a lab machine whose GPU is off in its setup, or missing: never a verdict on the model */
		return gtt_err_set(err, GTT_ENODEV, "device auto: no Intel GPU here (vendor 0x8086, display class, among %zu PCI "
				   "functions): nothing was run; --device sim[:PLATFORM] runs on the model", k);
	} else if (!is_scheme(d, "sim")) {
		return gtt_err_set(err, GTT_EINVAL, "unknown device '%s': sim[:PLATFORM[,edram][,vf[,fault=NAME]]], pci:SSSS:BB:DD.F, auto, vgpu:sim[:PLATFORM][,KEY=VALUE...] or pv[:N[,wait=poll|pause]]",
				   d->text);
	}
	/* the model, as the grammar read it (sim:PLATFORM[,edram][,vf[,fault=NAME]]), installed as a PCI function */
	struct sim_params sp;
	EFI_HANDLE h;
	if ((rc = hw_sim_params_of(d, &sp, err)) || (rc = pciio_sim_install(r->env, d->plat, &sp, &h, err)))
		return rc;
	r->model = true;
	return efi_function(&r->open, PCIIO_SIM_SEGMENT, 0, 2, 0, err);
}

struct membuf {
	const struct gtt_env *env;
	char *s;
	size_t n, cap;
};

static void mem_write(void *ctx, const char *s, size_t n)
{
	struct membuf *b = ctx;

	if (b->n + n + 1 > b->cap) {
		size_t cap = (b->n + n + 1) * 2;
		char *ns = b->env->alloc(b->env, cap);
		if (!ns)
			return;
		if (b->s) {
			gtt_memcpy(ns, b->s, b->n);
			b->env->free(b->env, b->s);
		}
		b->s = ns;
		b->cap = cap;
	}
	gtt_memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void console_write(void *ctx, const char *s, size_t n)
{
	char buf[512];

	(void)ctx;
	while (n) {
		size_t k = n < sizeof(buf) - 1 ? n : sizeof(buf) - 1;
		gtt_memcpy(buf, s, k);
		buf[k] = '\0';
		efi_print(buf);
		s += k;
		n -= k;
	}
}

static void progress(void *ctx, size_t i, size_t total, const struct check *c, const struct check_result *r)
{
	const struct efi_args *a = ctx;

	if (!r && a->crash_before == i + 1) {
		/* test only: the machine goes down mid-run; the journal on the ESP is what is left */
		efi_printf("gttlab: --crash-before %u: resetting before %s, nothing restored\n", a->crash_before, c->name);
		RT->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
	}
	if (r)
		efi_printf("[%2zu/%zu] %-4s %-26s %5llu ms  %s\n", i + 1, total, check_status_name(r->status), c->name,
			   (unsigned long long)(r->ns / 1000000u), r->reason);
}

static void save(EFI_HANDLE volume, const struct gtt_env *env, enum report_format f, const char *name,
		 const struct check_result *r, size_t n, size_t ran, const struct report_info *info)
{
	struct membuf b = { env, NULL, 0, 0 };
	struct report_sink s = { mem_write, &b };

	report_write(f, &s, r, n, ran, info);
	if (!volume)
		;	/* --no-journal with no writable volume: the console has it all */
	else if (!b.s || efi_write_file(volume, RESULTS_DIR, name, b.s, b.n))
		efi_printf("gttlab: could not write %s\\%s on the results volume\n", RESULTS_DIR, name);
	env->free(env, b.s);
}

/* What the runner keeps the checks off (the planes it found, the GOP framebuffer), on the console. */
static void keeping_off(void *ctx, const struct runner_exclusion *x, size_t n)
{
	char line[160];

	(void)ctx;
	for (size_t i = 0; i < n; i++) {
		runner_exclusion_text(&x[i], line, sizeof(line));
		efi_printf("gttlab: %s\n", line);
	}
}

/* The GGTT range behind the GOP framebuffer, if it lies in the aperture: the registers do not say it. */
static void gop_exclusion(struct hw_device *dev, struct runner_opts *o)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;

	if (BS->LocateProtocol(&GraphicsOutputProtocol, NULL, (void **)&gop) != EFI_SUCCESS || !gop->Mode)
		return;
	uint64_t fb = gop->Mode->FrameBufferBase, size = gop->Mode->FrameBufferSize;
	if (fb < dev->info.bar2_base || fb >= dev->info.bar2_base + dev->info.aperture_size || o->n_extra >= RUNNER_MAX_EXTRA)
		return;
	uint64_t gm = fb - dev->info.bar2_base;
	o->extra[o->n_extra++] = (struct runner_exclusion){ gm > (1u << 20) ? gm - (1u << 20) : 0, gm + size + (1u << 20),
							    "GOP framebuffer", -1 };
}

/*
 * A run that cannot start (or, SKIP, where nothing may run): the reason on the console and, when
 * there is a results volume, in error.txt and as the verdict of summary.txt and results.tap (a lab
 * reading the reports sees an error, not an empty pass); the exit code to QEMU.
 */
static EFI_STATUS refuse(EFI_HANDLE volume, const struct efi_args *a, const char *msg, uint8_t code, EFI_STATUS st)
{
	char text[GTT_ERR_MSG_MAX + 128], fw[96];
	const char *word = code == EXIT_SKIP ? "SKIP" : "ERROR";

	efi_printf("gttlab: %s\n", msg);
	if (volume && code != EXIT_SKIP)
		efi_write_file(volume, RESULTS_DIR, "error.txt", msg, gtt_strlen(msg));
	fw_policy_text(&a->firmware, fw, sizeof(fw));
	gtt_snprintf(text, sizeof(text), "%s: %s\ngttlab %s\nfirmware: %s\n", word, msg, gttlab_version, fw);
	if (volume)
		efi_write_file(volume, RESULTS_DIR, "summary.txt", text, gtt_strlen(text));
	/* TAP: an empty plan skipped with the reason, or a bail-out naming the error */
	if (code == EXIT_SKIP)
		gtt_snprintf(text, sizeof(text), "TAP version 13\n1..0 # SKIP %s\n# gttlab %s\n# firmware: %s\n", msg,
			     gttlab_version, fw);
	else
		gtt_snprintf(text, sizeof(text), "TAP version 13\n1..0\n# gttlab %s\n# firmware: %s\nBail out! %s\n",
			     gttlab_version, fw, msg);
	if (volume)
		efi_write_file(volume, RESULTS_DIR, "results.tap", text, gtt_strlen(text));
	finish(a, code);
	return st;
}


/* --ivshmem: the raw-BAR check of an ivshmem device, and nothing else. */
static EFI_STATUS run_ivshmem(EFI_HANDLE volume, const struct efi_args *a)
{
	char reason[160];
	int rc = ivshmem_check(reason, sizeof(reason));
	efi_printf("gttlab: ivshmem raw-BAR check: %s: %s\n", rc ? "FAIL" : "PASS", reason);
	efi_write_file(volume, RESULTS_DIR, "ivshmem.txt", reason, gtt_strlen(reason));
	finish(a, rc ? EXIT_FAIL : EXIT_PASS);
	return EFI_SUCCESS;
}


/*
 * Before anything touches a device: the checks selected, the device resolved, and a journal
 * left by an earlier run that did not restore put back. EFI_SUCCESS, or the status efi_main
 * returns after the reason is said.
 */
static EFI_STATUS prepare(struct efi_run *r, const struct check **sel, size_t *n)
{
	/* a journal names a PCI function (efi:) */
	static const struct hw_backend_factory *const journaled[] = { &hw_efi_backend };
	struct gtt_err err = { 0 };
	bool restored_at_boot;

	if (runner_select(r->a->run, sel, 64, n, &err) || resolve(r, &err))
		return refuse(r->volume, r->a, err.msg, EXIT_ERROR, EFI_DEVICE_ERROR);
	if (efi_journal_restore(r->volume, r->env, journaled, 1, &restored_at_boot, &err)) {
		efi_printf("gttlab: ABORT: %s is left from an earlier run and could not be restored: %s\n", EFI_JOURNAL_PATH,
			   err.msg);
		efi_write_file(r->volume, RESULTS_DIR, "error.txt", err.msg, gtt_strlen(err.msg));
		finish(r->a, err.code == GTT_EIO ? EXIT_ABORT : EXIT_ERROR);
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}

/*
 * The session's open: a real device (the model too under --journal-model, a test) is journaled
 * from its open on, before detection sizes its BARs through config space.
 */
static int open_device(void *ctx, struct hw_device **dev, struct gtt_err *err)
{
	/* a device is one, or a vGPU over the model, or a vGPU of a host across ivshmem */
	static const struct hw_backend_factory *const backends[] = { &hw_efi_backend, &dom0_guest_device_backend,
								      &hw_efi_pv_backend };
	struct efi_run *r = ctx;
	struct hw_open_opts oo = { 0 };
	int rc;

	if (!r->model || (r->a->journal_model && !is_scheme(&r->asked, "vgpu") && !is_scheme(&r->asked, "pv"))) {
		if ((rc = efi_journal_create(r->volume, &r->ej, err)))
			return rc;
		oo.journal = &r->ej.sink;
	}
	if ((rc = hw_open_spec(r->env, &r->open, backends, sizeof(backends) / sizeof(backends[0]), &oo, dev, err)))
		efi_journal_close(&r->ej, true);	/* no device: nothing was written */
	return rc;
}

/* One line: the device as `gttlab info` names it, its sizes, and how many checks run. */
static void announce(const struct efi_args *a, const struct hw_device *dev, size_t n)
{
	/* the generation as `gttlab info` prints it: 7.5, 9.5, 12 */
	char gen[16];
	unsigned g = dev->info.plat->gen;
	if (g % 10)
		gtt_snprintf(gen, sizeof(gen), "%u.%u", g / 10, g % 10);
	else
		gtt_snprintf(gen, sizeof(gen), "%u", g / 10);
	efi_printf("gttlab: %s: %s (gen %s, %s), device 0x%04x, %llu MiB GGTT, %llu MiB aperture, %u fences; %zu checks\n", a->device,
		   dev->info.plat->name, gen, hw_device_kind(dev), dev->info.devid, (unsigned long long)(dev->info.ggtt_size >> 20),
		   (unsigned long long)(dev->info.aperture_size >> 20), dev->info.num_fences, n);
}

/* Runs the checks, writes the reports (console, summary.txt, results.tap, results.xml, results.json), says the verdict. */
static void run_checks(EFI_HANDLE volume, const struct gtt_env *env, const struct efi_args *a, struct session *s,
		       const struct runner_opts *o, const struct check *const *sel, size_t n)
{
	struct check_result *res = env->alloc(env, sizeof(*res) * (n ? n : 1));
	uint64_t t0 = env->now_ns(env);
	size_t ran = session_run(s, sel, n, o, res);
	const struct run_totals *t = &s->totals;
	/* hardware by where it was found (efi:SSSS:BB:DD.F); the model, installed as a PCI function, by what asked for it */
	char where[64];
	const char *on = hw_device_pci_id(s->dev) ? hw_device_where(s->dev, where, sizeof(where)) : a->device;
	struct report_info info = { on, s->dev->info.plat->name, hw_device_kind(s->dev), a->seed, 0, 0, &a->firmware,
				    hw_device_pci_id(s->dev) };
	struct report_sink con = { console_write, NULL };
	report_write(REPORT_HUMAN, &con, res, n, ran, &info);
	save(volume, env, REPORT_HUMAN, "summary.txt", res, n, ran, &info);
	save(volume, env, REPORT_TAP, "results.tap", res, n, ran, &info);
	save(volume, env, REPORT_JUNIT, "results.xml", res, n, ran, &info);
	save(volume, env, REPORT_IGT_JSON, "results.json", res, n, ran, &info);
	efi_printf("gttlab: verdict %s, %u passed, %u failed, %u skipped, %u aborted, checks took %llu ms; ",
		   report_verdict(t), t->pass, t->fail, t->skip, t->abort, (unsigned long long)((env->now_ns(env) - t0) / 1000000u));
	if (t->abort) {
		/* say what is left on the device; nothing more was run */
		for (size_t i = 0; i < ran; i++)
			if (res[i].status == CHECK_ABORT)
				efi_printf("NOT everything restored after %s: %s\n", res[i].check->name, res[i].reason);
	} else {
		efi_printf("every PTE and fence restored\n");
	}
}

/*
 * The session's journal end: restored, the journal is replayed once more (what the undo log does
 * not hold) and deleted; not restored, or a replay that does not read back: kept for the next
 * boot, and an error (the session counts an abort).
 */
static int end_journal(void *ctx, struct hw_device *dev, bool restored, struct gtt_err *err)
{
	struct efi_run *r = ctx;
	struct hw_journal_info ji;
	size_t jlen;
	int rc = GTT_OK;

	if (!r->ej.f)
		return GTT_OK;	/* the model: nothing journaled */
	void *jbuf = restored ? efi_journal_contents(&r->ej, &jlen) : NULL;
	hw_journal_detach(dev);
	if (!restored) {
		rc = gtt_err_set(err, GTT_EIO, "the device was not restored");
	} else if (!jbuf || hw_journal_replay(dev, jbuf, jlen, &ji, err)) {
		efi_printf("gttlab: ABORT: the journal's replay did not read back: %s\n", jbuf ? err->msg : "unreadable");
		rc = GTT_EIO;
	}
	if (jbuf)
		BS->FreePool(jbuf);
	efi_journal_close(&r->ej, !rc);
	if (rc)
		efi_printf("gttlab: %s keeps what the device held; it is restored at the next boot\n", EFI_JOURNAL_PATH);
	return rc;
}

/*
 * Where the journal and reports go, said on the console before anything touches a device: the
 * volume --volume names, the boot volume, or the first writable one (a network boot). None is a
 * refusal, unless --no-journal: then the reports go to the console only.
 */
static EFI_STATUS results_volume(EFI_HANDLE image, const struct efi_args *a, EFI_HANDLE *volume)
{
	struct efi_volume v;
	char why[160], text[GTT_ERR_MSG_MAX];

	*volume = NULL;
	if (!efi_volume_choose(image, a->volume, &v, why, sizeof(why))) {
		*volume = v.dev;
		efi_printf("gttlab: journal and reports on volume %s\n", efi_volume_text(&v, text, sizeof(text)));
		return EFI_SUCCESS;
	}
	if (a->no_journal) {
		efi_printf("gttlab: --no-journal: %s: the reports are on this console only\n", why);
		return EFI_SUCCESS;
	}
	gtt_snprintf(text, sizeof(text), "%s: nothing was run; name a writable FAT volume with --volume LABEL, "
		     "or run with --no-journal", why);
	return refuse(NULL, a, text, EXIT_ERROR, EFI_NO_MEDIA);
}

static EFI_STATUS gttlab_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab) __attribute__((noinline));

/*
 * Called by crt0-efi-x86_64.o with the System V ABI (not EFIAPI). It draws
 * the stack protector's guard before any instrumented frame exists, so it
 * has no canary of its own to compare against a guard that changed.
 */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab) __attribute__((no_stack_protector));
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	efi_stack_guard_init(image);
	return gttlab_main(image, systab);
}

static EFI_STATUS gttlab_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	char *argv[32];
	struct efi_args a;

	InitializeLib(image, systab);
	const struct gtt_env *env = efi_env_init();
	efi_print("gttlab.efi: register-level checks of the GGTT, aperture and fences\n");
	efi_printf("gttlab.efi: version %s\n", gttlab_version);
	int argc = efi_args_gather(image, env, argv, 32);
	if (efi_args_parse(argc, argv, &a)) {
		finish(&a, EXIT_ERROR);
		return EFI_INVALID_PARAMETER;
	}
	/* under what firmware policy the results are taken: said first, and in every report */
	char fw[96];
	efi_secure_boot_read(&a.firmware);
	fw_policy_text(&a.firmware, fw, sizeof(fw));
	efi_printf("gttlab: firmware: %s\n", fw);
	EFI_HANDLE volume;
	EFI_STATUS st = results_volume(image, &a, &volume);
	if (st != EFI_SUCCESS)
		return st;
	if (a.ivshmem)
		return run_ivshmem(volume, &a);

	const struct check *sel[64];
	size_t n;
	static struct efi_run r;
	r = (struct efi_run){ .volume = volume, .env = env, .a = &a };
	if ((st = prepare(&r, sel, &n)) != EFI_SUCCESS)
		return st;
	/* --no-journal: no check may write a real device, and every one does */
	if (a.no_journal && !r.model)
		return refuse(volume, &a, "--no-journal: every check writes the real device and needs its crash journal: "
			      "none was run", EXIT_SKIP, EFI_NOT_STARTED);
	/* open (journaled from its open on), the test build's model fault (--fault) */
	struct session s = { .hooks = { open_device, NULL, end_journal, &r } };
#ifdef GTTLAB_FAULTS
	s.fault = a.fault;
#endif
	struct gtt_err err = { 0 };
	if (session_open(&s, &err)) {
		char msg[GTT_ERR_MSG_MAX + 16];
#ifdef GTTLAB_FAULTS
		gtt_snprintf(msg, sizeof(msg), "%s%s", s.stage == SESSION_FAULT_FAILED ? "--fault: " : "", err.msg);
#else
		gtt_snprintf(msg, sizeof(msg), "%s", err.msg);
#endif
		return refuse(volume, &a, msg, EXIT_ERROR, EFI_DEVICE_ERROR);
	}
	announce(&a, s.dev, n);
#ifdef GTTLAB_FAULTS
	if (a.fault)
		efi_printf("gttlab: test fault injected: %s\n", a.fault);
#endif

	static struct peer peer;
	peer.env = env;
	struct runner_opts o = { .seed = a.seed, .keeping_off = keeping_off, .progress = progress, .ctx = &a,
				 .open_peer = open_peer, .peer_ctx = &peer };
	/* the runner keeps every check off the scanout surfaces; the GOP framebuffer is this front-end's to add */
	if (!hw_sim_model(s.dev) && !is_scheme(&r.asked, "vgpu"))
		gop_exclusion(s.dev, &o);
	run_checks(volume, env, &a, &s, &o, sel, n);
	session_close(&s, &err);	/* a journal kept is said by end_journal and counted an abort */
	const struct run_totals *t = &s.totals;
	finish(&a, t->abort ? EXIT_ABORT : t->fail ? EXIT_FAIL : t->pass ? EXIT_PASS : EXIT_SKIP);
	return t->abort || t->fail ? EFI_ABORTED : t->pass ? EFI_SUCCESS : EFI_NOT_STARTED;
}
