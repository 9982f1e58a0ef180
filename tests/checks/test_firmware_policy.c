/* SPDX-License-Identifier: MIT */
/*
 * The Secure Boot policy: the word for each combination of SecureBoot and SetupMode the UEFI
 * specification defines (and the ones it does not), and efivarfs read as Linux lays it out:
 * a file per variable, 4 bytes of attributes, then the data.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/firmware_efivarfs.h"
#include "checks/firmware_policy.h"
#include "tests/helpers.h"

static const char *word(int sb, int sm)
{
	struct fw_policy p = { sb, sm };
	return fw_policy_word(&p);
}

Test(firmware_policy, words_follow_the_two_variables)
{
	cr_expect_str_eq(word(1, 0), "enforcing");
	cr_expect_str_eq(word(0, 1), "setup-mode");
	cr_expect_str_eq(word(0, 0), "off");
	cr_expect_str_eq(word(0, FW_VAR_ABSENT), "off");
	cr_expect_str_eq(word(FW_VAR_ABSENT, FW_VAR_ABSENT), "unsupported");
	cr_expect_str_eq(word(FW_VAR_UNREAD, FW_VAR_UNREAD), "unknown");
	cr_expect_str_eq(word(FW_VAR_MALFORMED, 0), "unknown");
	cr_expect_str_eq(word(2, 0), "unknown");
}

Test(firmware_policy, text_names_both_values)
{
	char buf[96];
	struct fw_policy p = { 0, 1 };

	fw_policy_text(&p, buf, sizeof(buf));
	cr_expect_str_eq(buf, "Secure Boot setup-mode (SecureBoot=0, SetupMode=1)");
	p = (struct fw_policy){ 7, FW_VAR_MALFORMED };
	fw_policy_text(&p, buf, sizeof(buf));
	cr_expect_str_eq(buf, "Secure Boot unknown (SecureBoot=7, SetupMode=malformed)");
	uint8_t one = 1;
	cr_expect_eq(fw_var_value(&one, 1), 1);
	cr_expect_eq(fw_var_value(&one, 0), FW_VAR_MALFORMED);
	cr_expect_eq(fw_var_value(NULL, 1), FW_VAR_MALFORMED);
}

static void put(const char *dir, const char *name, const uint8_t *bytes, size_t n)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s-8be4df61-93ca-11d2-aa0d-00e098032b8c", dir, name);
	FILE *f = fopen(path, "wb");
	cr_assert(f, "%s", path);
	cr_assert_eq(fwrite(bytes, 1, n, f), n);
	fclose(f);
}

Test(firmware_policy, efivarfs_files_are_attributes_then_data)
{
	char dir[64], vars[128];
	struct fw_policy p;
	static const uint8_t sb_on[] = { 0x06, 0, 0, 0, 1 }, sm_off[] = { 0x06, 0, 0, 0, 0 };
	static const uint8_t too_long[] = { 0x06, 0, 0, 0, 1, 0 }, too_short[] = { 0x06, 0 };

	t_tmpdir(dir, sizeof(dir));
	snprintf(vars, sizeof(vars), "%s/efivars", dir);
	fw_policy_read_efivarfs(vars, &p);
	cr_expect(p.secure_boot == FW_VAR_UNREAD && p.setup_mode == FW_VAR_UNREAD, "no efivarfs: %d %d", p.secure_boot,
		  p.setup_mode);
	cr_assert_eq(mkdir(vars, 0755), 0);
	fw_policy_read_efivarfs(vars, &p);
	cr_expect(p.secure_boot == FW_VAR_ABSENT && p.setup_mode == FW_VAR_ABSENT, "empty: %d %d", p.secure_boot, p.setup_mode);
	put(vars, "SecureBoot", sb_on, sizeof(sb_on));
	put(vars, "SetupMode", sm_off, sizeof(sm_off));
	fw_policy_read_efivarfs(vars, &p);
	cr_expect(p.secure_boot == 1 && p.setup_mode == 0, "%d %d", p.secure_boot, p.setup_mode);
	cr_expect_str_eq(fw_policy_word(&p), "enforcing");
	put(vars, "SecureBoot", too_long, sizeof(too_long));
	put(vars, "SetupMode", too_short, sizeof(too_short));
	fw_policy_read_efivarfs(vars, &p);
	cr_expect(p.secure_boot == FW_VAR_MALFORMED && p.setup_mode == FW_VAR_MALFORMED, "%d %d", p.secure_boot, p.setup_mode);
}
