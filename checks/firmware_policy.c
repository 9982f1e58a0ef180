/* SPDX-License-Identifier: MIT */
/* The Secure Boot policy from the SecureBoot and SetupMode variables, as words and text. */
#include "checks/firmware_policy.h"
#include "env/fmt.h"

int fw_var_value(const uint8_t *data, size_t size)
{
	return size == 1 && data ? data[0] : FW_VAR_MALFORMED;
}

const char *fw_policy_word(const struct fw_policy *p)
{
	switch (p->secure_boot) {
	case FW_VAR_ABSENT: return "unsupported";
	case FW_VAR_UNREAD: case FW_VAR_MALFORMED: return "unknown";
	case 1: return "enforcing";
	case 0: return p->setup_mode == 1 ? "setup-mode" : "off";
	default: return "unknown";	/* a byte the specification does not define */
	}
}

void fw_var_text(int v, char *buf, size_t n)
{
	switch (v) {
	case FW_VAR_ABSENT: gtt_snprintf(buf, n, "absent"); break;
	case FW_VAR_UNREAD: gtt_snprintf(buf, n, "unread"); break;
	case FW_VAR_MALFORMED: gtt_snprintf(buf, n, "malformed"); break;
	default: gtt_snprintf(buf, n, "%d", v); break;
	}
}

void fw_policy_text(const struct fw_policy *p, char *buf, size_t n)
{
	char sb[16], sm[16];

	fw_var_text(p->secure_boot, sb, sizeof(sb));
	fw_var_text(p->setup_mode, sm, sizeof(sm));
	gtt_snprintf(buf, n, "Secure Boot %s (SecureBoot=%s, SetupMode=%s)", fw_policy_word(p), sb, sm);
}
