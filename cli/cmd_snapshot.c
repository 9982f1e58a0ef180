/* SPDX-License-Identifier: MIT */
/*
 * gttlab snapshot FILE: BAR0's 2 MiB register space, read 32 bits at a time
 * through hw/, written as raw bytes: the format `intel_reg snapshot` writes and
 * `intel_reg --mmio=FILE --devid=ID` reads.
 */
#include "cli/cli.h"
#include "hosted/text_escape.h"
#include "regs/mmio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"usage: gttlab snapshot FILE [--device D]\n"
	"Write BAR0's 2 MiB MMIO space to FILE as an intel_reg snapshot; read it with\n"
	"intel_reg --spec=regs/spec --mmio=FILE --devid=ID read REGISTER.\n"
	"Reads only; on a real device every register in the window is read once.\n";

int cmd_snapshot(struct cli *c, int argc, char **argv)
{
	struct hw_device *dev;
	FILE *f;

	if (c->help) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	if (argc != 2)
		return cli_error("snapshot: exactly one FILE argument is needed, got %d", argc - 1);
	if (!argv[1][0])
		return cli_error("snapshot: the FILE name is empty");
	uint32_t *buf = malloc(GTT_MMIO_SIZE);
	if (!buf)
		return cli_error("out of memory");
	/* a file that cannot be written is refused before the device is opened */
	if (!(f = output_open(argv[1]))) {
		free(buf);
		return cli_error("snapshot: cannot create '%s': %s", argv[1], strerror(errno));
	}
	if (cli_open(c, &dev)) {
		output_drop(f);
		free(buf);
		return EXIT_USAGE;
	}
	for (uint32_t off = 0; off < GTT_MMIO_SIZE; off += 4)
		buf[off / 4] = hw_mmio_read32(dev, off);
	cli_close(dev);
	size_t n = fwrite(buf, 1, GTT_MMIO_SIZE, f);
	int e = n == GTT_MMIO_SIZE ? 0 : errno;
	free(buf);
	if (output_close(f) || e)
		return cli_error("snapshot: cannot write '%s': %s", argv[1], strerror(e ? e : errno));
	if (c->json) {
		struct json j;
		json_init(&j, stdout);
		json_object_begin(&j, NULL);
		json_str(&j, "file", argv[1]);
		json_u64(&j, "bytes", GTT_MMIO_SIZE);
		json_object_end(&j);
		json_finish(&j);
	} else {
		/* the file name is the user's argument: escaped on its way to the terminal */
		printf("wrote %u bytes of MMIO to ", GTT_MMIO_SIZE);
		text_fputs_escaped(stdout, argv[1]);
		putchar('\n');
	}
	return EXIT_OK;
}
