/* SPDX-License-Identifier: MIT */
/*
 * Text from arguments, files and the environment on its way to a terminal
 * (hosted/text_escape.h): text_escape itself, then the front-ends. An
 * argument holding ESC and a newline must come out of gttlab and an IGT
 * binary as \x1b and \x0a: no raw control byte reaches stderr or stdout,
 * and the message stays one line. The binaries are run with execve, so
 * every byte of argv and the environment is exactly the test's.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hosted/text_escape.h"
#include "tests/helpers.h"

/* ---- text_escape ---- */

Test(escape, printable_text_is_kept_and_the_rest_is_hex)
{
	char out[128];

	cr_expect_str_eq(text_escape(out, sizeof(out), "sim:skl 0x1000 'a b'~"), "sim:skl 0x1000 'a b'~");
	cr_expect_str_eq(text_escape(out, sizeof(out), "a\x1b[2Jb\nc\td\r"), "a\\x1b[2Jb\\x0ac\\x09d\\x0d");
	cr_expect_str_eq(text_escape(out, sizeof(out), "\x7f\x01\x1f"), "\\x7f\\x01\\x1f", "DEL and the C0 controls");
	cr_expect_str_eq(text_escape(out, sizeof(out), "caf\xc3\xa9"), "caf\\xc3\\xa9", "bytes of 0x80 and up");
	cr_expect_str_eq(text_escape(out, sizeof(out), ""), "");
}

/* A backslash is doubled, so an escape in the output always came from a byte, never from the text. */
Test(escape, a_backslash_is_doubled)
{
	char out[64];

	cr_expect_str_eq(text_escape(out, sizeof(out), "a\\x1b"), "a\\\\x1b");
	cr_expect_str_eq(text_escape(out, sizeof(out), "\\"), "\\\\");
}

/*
 * Cut short, the output is the escape of a prefix of the input: never half
 * an escape (a dangling "\x1" or a lone "\"), and never shorter than the
 * room allows. Checked for every size from 1 up.
 */
Test(escape, truncation_is_at_a_whole_escape)
{
	static const char src[] = "ab\x1b" "c\\d\n\xff" "e";
	char full[64], pre[64], out[64], prefix[sizeof(src)];

	text_escape(full, sizeof(full), src);
	for (size_t n = 1; n <= strlen(full) + 1; n++) {
		memset(out, '#', sizeof(out));
		text_escape(out, n, src);
		cr_assert_lt(strlen(out), n, "size %zu: not terminated inside its room", n);
		/* the longest prefix of src whose escape fits in n bytes is what must come out */
		size_t best = 0;
		for (size_t k = 0; k <= strlen(src); k++) {
			memcpy(prefix, src, k);
			prefix[k] = '\0';
			if (strlen(text_escape(pre, sizeof(pre), prefix)) < n)
				best = k;
		}
		memcpy(prefix, src, best);
		prefix[best] = '\0';
		cr_expect_str_eq(out, text_escape(pre, sizeof(pre), prefix), "size %zu", n);
	}
	cr_expect_str_eq(out, full);
	/* no room at all: nothing is written, not even the terminator */
	out[0] = '#';
	cr_expect_eq(text_escape(out, 0, src), out);
	cr_expect_eq(out[0], '#');
}

static char *vprinted(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *vprinted(const char *fmt, ...)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	va_list ap;

	cr_assert_not_null(f);
	va_start(ap, fmt);
	text_vfprintf_escaped(f, fmt, ap);
	va_end(ap);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

/* The sinks: fputs and vfprintf escape the same way, a message longer than vfprintf's own buffer too. */
Test(escape, fputs_and_vfprintf_escape_whole_messages)
{
	char *buf = NULL, want[64];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	text_fputs_escaped(f, "x\x1by\\\n");
	cr_assert_eq(fclose(f), 0);
	cr_expect_str_eq(buf, text_escape(want, sizeof(want), "x\x1by\\\n"));
	free(buf);

	char *s = vprinted("'%s' %d\n", "a\x1b" "b", 7);
	cr_expect_str_eq(s, "'a\\x1bb' 7\\x0a", "the format's own newline is escaped too: callers end the line");
	free(s);

	char big[3001];
	for (size_t i = 0; i < 3000; i++)
		big[i] = i % 3 ? 'z' : '\x1b';
	big[3000] = '\0';
	s = vprinted("%s", big);
	cr_expect_eq(strlen(s), 1000 * 4 + 2000, "all 3000 bytes, 1000 of them as escapes: %zu", strlen(s));
	cr_expect_null(strchr(s, '\x1b'));
	free(s);
}

/* ---- the front-ends ---- */

struct ran {
	int status;		/* exit status, or 128 + signal */
	char out[8192], err[8192];
};

static void slurp(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	size_t got;

	cr_assert_not_null(f, "%s", path);
	got = fread(buf, 1, n - 1, f);
	buf[got] = '\0';
	fclose(f);
}

/* Run bin with exactly argv (argv[0] included) and envp; stdout and stderr kept apart. */
static void run_exact(const char *bin, char *const argv[], char *const envp[], struct ran *r)
{
	char dir[64], out[96], err[96];
	int st;

	t_tmpdir(dir, sizeof(dir));
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
		execve(bin, argv, envp);
		_exit(127);
	}
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	slurp(out, r->out, sizeof(r->out));
	slurp(err, r->err, sizeof(r->err));
}

/* The environment the binaries see: this one's PATH and ASan/UBSan options (make asan runs this suite too). */
static char **env_with(const char *extra)
{
	static char *envp[8];
	static const char *const keep[] = { "PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS" };
	size_t n = 0;

	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		const char *v = getenv(keep[i]);
		if (v) {
			static char store[4][4096];
			snprintf(store[n], sizeof(store[n]), "%s=%s", keep[i], v);
			envp[n] = store[n];
			n++;
		}
	}
	if (extra)
		envp[n++] = (char *)extra;
	envp[n] = NULL;
	return envp;
}

/* No byte below 0x20 but the line ends, no DEL: what reaches the terminal drives nothing. */
static void no_raw_control(const char *what, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		cr_expect(*p == '\n' || (*p >= 0x20 && *p != 0x7f), "%s: a raw byte 0x%02x at %zu in: %s", what, *p,
			  (size_t)(p - (const unsigned char *)s), s);
}

static size_t lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The escaped message: one line, the argument's ESC and newline as \x1b and \x0a. */
static void one_escaped_line(const char *what, const char *s, const char *needle)
{
	no_raw_control(what, s);
	cr_expect_eq(lines(s), 1, "%s: %zu lines, not one: %s", what, lines(s), s);
	cr_expect(s[0] && s[strlen(s) - 1] == '\n', "%s: not a whole line: %s", what, s);
	cr_expect(strstr(s, needle), "%s: '%s' is not in: %s", what, needle, s);
}

Test(escape, gttlab_escapes_an_argument_in_its_one_line)
{
	struct ran r;

	run_exact("./build/gttlab", (char *[]){ "gttlab", "bogus\x1b[31m\nforged: line", NULL }, env_with(NULL), &r);
	cr_expect_eq(r.status, 2);
	cr_expect_str_eq(r.out, "");
	one_escaped_line("unknown command", r.err, "'bogus\\x1b[31m\\x0aforged: line'");

	run_exact("./build/gttlab", (char *[]){ "gttlab", "--device", "sim:\x1b]0;title\x07\n", "info", NULL }, env_with(NULL),
		  &r);
	cr_expect_eq(r.status, 2);
	one_escaped_line("a device string", r.err, "sim:\\x1b]0;title\\x07\\x0a");
}

/* Lines on stdout that name the user's file: `snapshot FILE` says where it wrote. */
Test(escape, gttlab_escapes_a_file_name_on_stdout)
{
	struct ran r;
	char dir[64], file[128], want[256];

	t_tmpdir(dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s/snap\x1b[1m\nshot", dir);
	run_exact("./build/gttlab", (char *[]){ "gttlab", "snapshot", file, NULL }, env_with(NULL), &r);
	cr_assert_eq(r.status, 0, "%s", r.err);
	snprintf(want, sizeof(want), "to %s/snap\\x1b[1m\\x0ashot", dir);
	one_escaped_line("snapshot", r.out, want);
	unlink(file);
}

/* restore names the journal it did not find, on stdout (it needs root before it looks) */
Test(escape, gttlab_restore_escapes_the_journal_path)
{
	struct ran r;

	if (geteuid())
		cr_skip_test("gttlab restore needs root");
	run_exact("./build/gttlab",
		  (char *[]){ "gttlab", "restore", "--journal", "/nonexistent/j\x1b[2J\n.journal", NULL }, env_with(NULL), &r);
	cr_expect_eq(r.status, 0, "%s", r.err);
	one_escaped_line("restore", r.out, "/nonexistent/j\\x1b[2J\\x0a.journal");
}

Test(escape, an_igt_binary_escapes_a_subtest_name)
{
	struct ran r;

	run_exact("./build/igt/gtt_ggtt", (char *[]){ "gtt_ggtt", "--run-subtest", "nope\x1b[1m\nSubtest x: SUCCESS", NULL },
		  env_with(NULL), &r);
	cr_expect_eq(r.status, 79, "IGT's invalid-arguments exit");
	cr_expect_str_eq(r.out, "", "nothing igt_runner could read as a result");
	one_escaped_line("unknown subtest", r.err, "'nope\\x1b[1m\\x0aSubtest x: SUCCESS'");

	run_exact("./build/igt/gtt_ggtt",
		  (char *[]){ "gtt_ggtt", "--run-subtest", "platforms", "--dynamic-subtest", "k\x1b\nl", NULL },
		  env_with(NULL), &r);
	cr_expect_eq(r.status, 79);
	one_escaped_line("unknown dynamic subtest", r.err, "'k\\x1b\\x0al'");
}

/* An unknown option: its line, then the usage, which names argv[0]; nothing raw anywhere. */
Test(escape, an_igt_binary_escapes_an_option_and_its_own_name)
{
	struct ran r;

	run_exact("./build/igt/gtt_ggtt", (char *[]){ "gtt\x1b[5m\nggtt", "--bogus\x1b\n", NULL }, env_with(NULL), &r);
	cr_expect_eq(r.status, 79);
	no_raw_control("unknown option and usage", r.err);
	char *nl = strchr(r.err, '\n');
	cr_assert_not_null(nl, "%s", r.err);
	*nl = '\0';
	cr_expect_str_eq(r.err, "gtt\\x1b[5m\\x0aggtt: unknown option '--bogus\\x1b\\x0a'");
	cr_expect(strstr(nl + 1, "Usage: gtt\\x1b[5m\\x0aggtt [OPTIONS]"), "%s", nl + 1);
}

/* A device string from the environment reaches the failure line on stderr, escaped. */
Test(escape, an_igt_binary_escapes_the_device_string_from_the_environment)
{
	struct ran r;

	run_exact("./build/igt/gtt_ggtt", (char *[]){ "gtt_ggtt", "--run-subtest", "ggtt-pte-readback", NULL },
		  env_with("GTTLAB_DEVICE=sim:\x1b[8m\nfake"), &r);
	cr_expect_eq(r.status, 98, "a device string that names no device fails the subtest: %s", r.err);
	one_escaped_line("device failure", r.err, "GTTLAB_DEVICE 'sim:\\x1b[8m\\x0afake'");
	no_raw_control("stdout", r.out);
}
