/* SPDX-License-Identifier: MIT */
#include "efi/efi_env.h"
#include "env/arena.h"
#include "env/fmt.h"

#include <efilib.h>
#include <stdarg.h>
#include <stdbool.h>

static struct gtt_env env;
static uint64_t tsc_per_ms;
static EFI_SERIAL_IO_PROTOCOL *serial;

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/*
 * Memory: one region taken from the firmware once (AllocatePages, the
 * largest of 512 .. 32 MiB it gives), handed out by env/arena.c. What the
 * region cannot hold goes to AllocatePool. Every call into the firmware's
 * memory services is counted and timed (mem.calls, mem.ns).
 */
#define REGION_MAX_MIB	512u
#define REGION_MIN_MIB	32u

static struct gtt_arena arena;
static struct efi_memory_stats mem;

static uint64_t e_now_ns(const struct gtt_env *e);

static void region_take(void)
{
	for (uint64_t mib = REGION_MAX_MIB; mib >= REGION_MIN_MIB; mib /= 2) {
		EFI_PHYSICAL_ADDRESS at = 0;
		uint64_t t0 = e_now_ns(NULL);
		EFI_STATUS s = BS->AllocatePages(AllocateAnyPages, EfiLoaderData, (UINTN)(mib << 20) / 4096, &at);
		mem.ns += e_now_ns(NULL) - t0;
		mem.calls++;
		if (s == EFI_SUCCESS) {
			gtt_arena_init(&arena, (void *)(uintptr_t)at, (size_t)(mib << 20));
			mem.region_bytes = mib << 20;
			return;
		}
	}
}

static void *e_alloc_raw(const struct gtt_env *e, size_t size)
{
	void *p = gtt_arena_alloc(&arena, size);

	(void)e;
	if (!p) {
		uint64_t t0 = e_now_ns(NULL);
		if (BS->AllocatePool(EfiLoaderData, size ? size : 1, &p) != EFI_SUCCESS)
			p = NULL;
		mem.ns += e_now_ns(NULL) - t0;
		mem.calls++;
		mem.pool_allocs++;
	}
	return p;
}

static void *e_alloc(const struct gtt_env *e, size_t size)
{
	void *p = e_alloc_raw(e, size);

	if (p)
		gtt_memset(p, 0, size);
	return p;
}

static void e_free(const struct gtt_env *e, void *p)
{
	(void)e;
	if (!p || gtt_arena_free(&arena, p))
		return;
	uint64_t t0 = e_now_ns(NULL);
	BS->FreePool(p);
	mem.ns += e_now_ns(NULL) - t0;
	mem.calls++;
}

void efi_env_fini(void)
{
	if (!mem.region_bytes)
		return;
	BS->FreePages((EFI_PHYSICAL_ADDRESS)(uintptr_t)arena.base, (UINTN)(mem.region_bytes / 4096));
	mem.region_bytes = 0;
	gtt_arena_init(&arena, NULL, 0);
}

void efi_memory_stats(struct efi_memory_stats *out)
{
	*out = mem;
	out->peak_bytes = arena.peak;
	out->allocs = arena.allocs + mem.pool_allocs;
	out->bad_frees = arena.bad_frees;
}

static uint64_t e_now_ns(const struct gtt_env *e)
{
	(void)e;
	if (!tsc_per_ms)
		return 0;
	uint64_t t = rdtsc();	/* split so the product cannot overflow after hours of uptime */
	return t / tsc_per_ms * 1000000u + t % tsc_per_ms * 1000000u / tsc_per_ms;
}

void efi_print(const char *s)
{
	CHAR16 buf[256];
	size_t n = 0;

	for (const char *p = s;; p++) {
		if (*p == '\n' && n < 254)
			buf[n++] = L'\r';
		if (*p)
			buf[n++] = (CHAR16)(unsigned char)*p;
		if (!*p || n >= 250) {
			buf[n] = 0;
			ST->ConOut->OutputString(ST->ConOut, buf);
			n = 0;
		}
		if (!*p)
			break;
	}
	if (serial) {
		UINTN len = gtt_strlen(s);
		serial->Write(serial, &len, (void *)s);
	}
}

void efi_printf(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	gtt_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	efi_print(line);
}

static void e_log(const struct gtt_env *e, enum gtt_log_level level, const char *line)
{
	static const char *const tag[] = { "error", "warning", "info", "debug" };

	(void)e;
	if (level <= GTT_LOG_INFO)
		efi_printf("gttlab: %s: %s\n", tag[level], line);
}

/* Whether a text console already runs on a UART (then ConOut reaches the serial port). */
static bool console_on_uart(void)
{
	EFI_HANDLE *h = NULL;
	UINTN n = 0;
	bool found = false;

	if (BS->LocateHandleBuffer(ByProtocol, &TextOutProtocol, NULL, &n, &h) != EFI_SUCCESS)
		return false;
	for (UINTN i = 0; i < n && !found; i++) {
		EFI_DEVICE_PATH *dp;
		if (BS->HandleProtocol(h[i], &DevicePathProtocol, (void **)&dp) != EFI_SUCCESS)
			continue;
		for (; !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp))
			if (DevicePathType(dp) == MESSAGING_DEVICE_PATH && DevicePathSubType(dp) == MSG_UART_DP)
				found = true;
	}
	BS->FreePool(h);
	return found;
}

const struct gtt_env *efi_env_init(void)
{
	/* the counter: TSC ticks in 10 ms of Stall */
	uint64_t t0 = rdtsc();
	BS->Stall(10000);
	tsc_per_ms = (rdtsc() - t0) / 10;
	/* the memory every allocation comes from, taken from the firmware once */
	region_take();
	/* write the serial port directly only where no console already mirrors onto it (OVMF does) */
	if (console_on_uart() || BS->LocateProtocol(&SerialIoProtocol, NULL, (void **)&serial) != EFI_SUCCESS)
		serial = NULL;
	env = (struct gtt_env){ .alloc = e_alloc, .free = e_free, .log = e_log, .now_ns = e_now_ns, .alloc_raw = e_alloc_raw };
	return &env;
}
