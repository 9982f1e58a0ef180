/* SPDX-License-Identifier: MIT */
/* The application's arguments, from its load options or gttlab.cfg (efi/efi_args.h). */
#include <efi.h>
#include <efilib.h>

#include "efi/efi_args.h"
#include "efi/efi_env.h"
#include "efi/efi_files.h"
#include "env/fmt.h"
#include "env/num.h"

static const char usage[] =
	"usage: gttlab.efi [--device sim[:PLATFORM[,edram]]|pci:SSSS:BB:DD.F|auto|vgpu:sim[:PLATFORM][,KEY=VALUE...]\n"
	"                           |pv[:N[,wait=poll|pause]]]\n"
	"                  [--run PATTERNS] [--seed N] [--debug-exit] [--no-shutdown] [--ivshmem-check]\n"
	"A real device is journaled in \\gttlab\\journal.bin; a journal left there is restored at the\n"
	"next boot, before anything else (\\gttlab\\restore.txt says what went back).\n"
	"Arguments come from the load options, or from gttlab.cfg beside the application.\n"
	"Results: \\gttlab\\summary.txt, results.tap, results.xml (JUnit) and results.json on this volume,\n"
	"each saying the firmware's Secure Boot policy (SecureBoot and SetupMode).\n";

static int split(char *s, char **argv, int max)
{
	int n = 0;

	while (*s && n < max) {
		while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
			*s++ = '\0';
		if (!*s)
			break;
		argv[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
			s++;
	}
	return n;
}

static bool ends_with_efi(const char *s)
{
	size_t n = gtt_strlen(s);

	return n > 4 && (s[n - 4] == '.') && (s[n - 3] | 32) == 'e' && (s[n - 2] | 32) == 'f' && (s[n - 1] | 32) == 'i';
}

/* Load options (UTF-16) as ASCII words; gttlab.cfg when there are none. */
int efi_args_gather(EFI_HANDLE image, const struct gtt_env *env, char **argv, int max)
{
	EFI_LOADED_IMAGE *li;
	int n = 0;

	if (BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&li) == EFI_SUCCESS && li->LoadOptions &&
	    li->LoadOptionsSize >= 2) {
		size_t chars = li->LoadOptionsSize / 2;
		char *s = env->alloc(env, chars + 1);
		for (size_t i = 0; s && i < chars; i++) {
			CHAR16 c = ((CHAR16 *)li->LoadOptions)[i];
			s[i] = c && c < 0x80 ? (char)c : (c ? '?' : ' ');
		}
		if (s)
			n = split(s, argv, max);
		if (n && ends_with_efi(argv[0])) {	/* the shell passes the image name first */
			for (int i = 1; i < n; i++)
				argv[i - 1] = argv[i];
			n--;
		}
		if (n && argv[0][0] != '-')	/* firmware boot options carry no words of ours */
			n = 0;
	}
	if (!n) {
		size_t len;
		char *cfg = efi_read_file(image, "\\EFI\\BOOT\\gttlab.cfg", &len);
		if (!cfg)
			cfg = efi_read_file(image, "\\gttlab.cfg", &len);
		if (cfg) {
			efi_print("gttlab: arguments from gttlab.cfg\n");
			n = split(cfg, argv, max);
		}
	}
	return n;
}

int efi_args_parse(int argc, char **argv, struct efi_args *a)
{
	*a = (struct efi_args){ .device = "auto" };
	for (int i = 0; i < argc; i++) {
		const char *o = argv[i];
		if (!gtt_strcmp(o, "--device") && i + 1 < argc) {
			a->device = argv[++i];
		} else if (!gtt_strcmp(o, "--run") && i + 1 < argc) {
			a->run = argv[++i];
		} else if (!gtt_strcmp(o, "--seed") && i + 1 < argc) {
			const char *why;
			if (gtt_parse_u64(argv[++i], &a->seed, &why)) {
				efi_printf("gttlab: seed '%s' %s\n", argv[i], why);
				return -1;
			}
		} else if (!gtt_strcmp(o, "--ivshmem-check")) {
			a->ivshmem = true;
		} else if (!gtt_strcmp(o, "--debug-exit")) {
			a->debug_exit = true;
		} else if (!gtt_strcmp(o, "--no-shutdown")) {
			a->no_shutdown = true;
#ifdef GTTLAB_FAULTS
		} else if (!gtt_strcmp(o, "--fault") && i + 1 < argc) {
			a->fault = argv[++i];	/* the test build's application only (build/faults/efi/) */
#endif
		} else if (!gtt_strcmp(o, "--journal-model")) {
			a->journal_model = true;
		} else if (!gtt_strcmp(o, "--crash-before") && i + 1 < argc) {
			const char *why;
			uint64_t v;
			if (gtt_parse_u64(argv[++i], &v, &why) || !v || v > 64) {
				efi_printf("gttlab: --crash-before '%s': a check number from 1 to 64\n", argv[i]);
				return -1;
			}
			a->crash_before = (unsigned)v;
		} else {
			efi_printf("gttlab: unknown argument '%s'\n%s", o, usage);
			return -1;
		}
	}
	return 0;
}
