/* SPDX-License-Identifier: MIT */
/*
 * The stack protector of the EFI application. It is built with
 * -fstack-protector-strong and -mstack-protector-guard=global: a frame with an
 * array keeps a copy of __stack_chk_guard and compares it on return (there is
 * no thread pointer in UEFI to keep the guard in, as glibc does). The guard is
 * drawn at entry, before any protected frame exists, from RDRAND where the CPU
 * has it and the time-stamp counter otherwise. A frame whose canary was
 * overwritten ends here: one line on the console, and the image exits with
 * EFI_ABORTED. The device is not touched again; the crash journal on the boot
 * volume puts it back at the next run (docs/journal.md).
 */
#include <efi.h>
#include <efilib.h>
#include <stdbool.h>
#include <stdint.h>

#include "efi/stack_guard.h"

uintptr_t __stack_chk_guard = 0x2f8a6d3c19e4b057ull;
void __stack_chk_fail(void) __attribute__((noreturn));

static EFI_HANDLE guard_image;

static bool rdrand64(uint64_t *v)
{
	uint32_t a = 1, b, c, d;
	unsigned char ok = 0;

	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "=c"(c), "=d"(d));
	if (!(c & (1u << 30)))		/* CPUID.01H:ECX.RDRAND[bit 30] */
		return false;
	for (int i = 0; i < 10 && !ok; i++)
		__asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok));
	return ok;
}

void efi_stack_guard_init(EFI_HANDLE image)
{
	uint64_t r = 0;
	uint32_t lo, hi;

	guard_image = image;
	if (!rdrand64(&r)) {
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		r = ((uint64_t)hi << 32 | lo) * 0x9e3779b97f4a7c15ull;
	}
	/* a zero low byte stops a string copy at the canary (glibc's choice too) */
	__stack_chk_guard = (uintptr_t)(r & ~0xffull);
}

void __stack_chk_fail(void)
{
	if (ST && ST->ConOut)
		uefi_call_wrapper(ST->ConOut->OutputString, 2, ST->ConOut,
				  L"gttlab: stack smashing detected: the application stops here; the journal restores the device at the next run\r\n");
	if (BS)
		uefi_call_wrapper(BS->Exit, 4, guard_image, EFI_ABORTED, 0, NULL);
	for (;;)
		__asm__ volatile("hlt");
}
