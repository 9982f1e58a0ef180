/* SPDX-License-Identifier: MIT */
/* The application's arguments, from its load options or gttlab.cfg (efi/efi_args.h). */
#include <efi.h>
#include <efilib.h>

#include "efi/efi_args.h"
#include "efi/efi_env.h"
#include "efi/efi_files.h"
#include "efi/efi_volume.h"
#include "env/fmt.h"
#include "env/num.h"

static const char usage[] =
	"usage: gttlab.efi [--device sim[:PLATFORM[,edram][,vf[,fault=NAME]]]|pci:SSSS:BB:DD.F|auto|vgpu:sim[:PLATFORM][,KEY=VALUE...]\n"
	"                           |pv[:N[,wait=poll|pause]]]\n"
	"                  [--run PATTERNS] [--seed N] [--debug-exit] [--no-shutdown] [--ivshmem-check]\n"
	"                  [--volume LABEL | --no-journal]\n"
	"A real device is journaled in \\gttlab\\journal.bin; a journal left there is restored at the\n"
	"next boot, before anything else (\\gttlab\\restore.txt says what went back).\n"
	"Arguments come from the load options, or from gttlab.cfg (\\EFI\\BOOT\\ or the root) on the\n"
	"boot volume, else on the first volume holding one (a network boot).\n"
	"Results: \\gttlab\\summary.txt, results.tap, results.xml (JUnit) and results.json, each saying\n"
	"the firmware's Secure Boot policy, on the results volume: the FAT volume labelled LABEL, else the\n"
	"boot volume, else the first writable one (said on the console). None is a refusal; --no-journal\n"
	"runs without one, reports on the console only, and runs no check that writes a real device.\n";

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
		/* the boot volume's first; loaded over the network, the first volume holding one */
		struct efi_volume v[EFI_VOLUMES_MAX];
		size_t k = efi_volumes(image, v, EFI_VOLUMES_MAX), len;
		char *cfg = NULL;
		for (size_t i = 0; i < k && !cfg; i++) {
			if (!(cfg = efi_read_file(v[i].dev, "\\EFI\\BOOT\\gttlab.cfg", &len)))
				cfg = efi_read_file(v[i].dev, "\\gttlab.cfg", &len);
			if (cfg && v[i].boot)
				efi_print("gttlab: arguments from gttlab.cfg\n");
			else if (cfg)
				efi_printf("gttlab: arguments from gttlab.cfg on volume %s (not the boot volume)\n",
					   v[i].label[0] ? v[i].label : "(no label)");
		}
		if (cfg) {
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
		} else if (!gtt_strcmp(o, "--volume") && i + 1 < argc) {
			a->volume = argv[++i];
		} else if (!gtt_strcmp(o, "--no-journal")) {
			a->no_journal = true;
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
	if (a->no_journal && (a->volume || a->journal_model)) {
		efi_printf("gttlab: --no-journal: not with %s, which %s\n", a->volume ? "--volume" : "--journal-model",
			   a->volume ? "names a volume for the journal" : "journals the model");
		return -1;
	}
	return 0;
}
