/* SPDX-License-Identifier: MIT */
/* The device grammar (hw/device_spec.h): one parse of a device string. */
#include "hw/device_spec.h"
#include "env/fmt.h"

/* The platforms with a model, for messages: "snb, ivb, ...". */
static void model_names(char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < gtt_num_platforms && len < n; i++)
		if (gtt_platform_simulated(&gtt_platforms[i]))
			len += (size_t)gtt_snprintf(buf + len, n - len, "%s%s", len ? ", " : "", gtt_platforms[i].name);
}

/* The next ','-separated token of *S into TOK (N bytes); its length, or -1 when it does not fit. */
static int next_token(const char **s, char *tok, size_t n)
{
	size_t len = 0;

	while ((*s)[len] && (*s)[len] != ',')
		len++;
	if (len >= n)
		return -1;
	gtt_memcpy(tok, *s, len);
	tok[len] = '\0';
	*s += len + ((*s)[len] == ',');
	return (int)len;
}

/* A ',' first, last or after another: a token of nothing. */
static bool empty_token(const char *arg)
{
	for (size_t i = 0; arg[i]; i++)
		if (arg[i] == ',' && (!i || !arg[i + 1] || arg[i + 1] == ','))
			return true;
	return false;
}

static bool has_eq(const char *tok)
{
	for (; *tok; tok++)
		if (*tok == '=')
			return true;
	return false;
}

/* PLATFORM, a known platform with a model; "" is the default. */
static int model_platform(struct hw_device_spec *spec, const char *name, struct gtt_err *err)
{
	char names[160];
	const struct gtt_platform *p = gtt_platform_by_name(*name ? name : HW_SIM_DEFAULT_PLATFORM);

	if (p && gtt_platform_simulated(p)) {
		spec->plat = p;
		return GTT_OK;
	}
	model_names(names, sizeof(names));
	if (p)
		return gtt_err_set(err, GTT_EINVAL, "device '%s': %s has no simulated device: the models are %s", spec->text,
				   p->name, names);
	return gtt_err_set(err, GTT_EINVAL, "device '%s': unknown platform '%s': one of %s", spec->text, name, names);
}

/* A flag of the model: edram, or (sim: only) vf, each once. */
static int model_flag(struct hw_device_spec *spec, const char *tok, bool vf_ok, struct gtt_err *err)
{
	bool *flag = !gtt_strcmp(tok, "edram") ? &spec->edram : vf_ok && !gtt_strcmp(tok, "vf") ? &spec->vf : NULL;

	if (!flag)
		return gtt_err_set(err, GTT_EINVAL, "device '%s': '%s' is not an option of the model (%s)", spec->text, tok,
				   vf_ok ? "sim:PLATFORM[,edram][,vf[,fault=NAME]]" : "the host takes edram");
	if (*flag)
		return gtt_err_set(err, GTT_EINVAL, "device '%s': %s is given twice", spec->text, tok);
	*flag = true;
	return GTT_OK;
}

/* KEY=VALUE, a key not given before. */
static int option(struct hw_device_spec *spec, const char *tok, struct gtt_err *err)
{
	size_t eq = 0, vlen;
	struct hw_spec_opt *o = &spec->opts[spec->n_opts];

	while (tok[eq] != '=')
		eq++;
	vlen = gtt_strlen(tok + eq + 1);
	if (!eq)
		return gtt_err_set(err, GTT_EINVAL, "device '%s': option '%s' has no key (KEY=VALUE)", spec->text, tok);
	if (!vlen)
		return gtt_err_set(err, GTT_EINVAL, "device '%s': option '%s' has no value (KEY=VALUE)", spec->text, tok);
	if (eq >= sizeof(o->key) || vlen >= sizeof(o->value))
		return gtt_err_set(err, GTT_EINVAL, "device '%s': option '%s': a key has at most %zu characters, a value %zu",
				   spec->text, tok, sizeof(o->key) - 1, sizeof(o->value) - 1);
	if (spec->n_opts == HW_SPEC_MAX_OPTS)
		return gtt_err_set(err, GTT_EINVAL, "device '%s': more than %d options", spec->text, HW_SPEC_MAX_OPTS);
	gtt_memcpy(o->key, tok, eq);
	o->key[eq] = '\0';
	gtt_memcpy(o->value, tok + eq + 1, vlen + 1);
	if (hw_spec_opt(spec, o->key))
		return gtt_err_set(err, GTT_EINVAL, "device '%s': option '%s': %s is given twice", spec->text, tok, o->key);
	spec->n_opts++;
	return GTT_OK;
}

/* sim's argument: [PLATFORM][,edram][,vf][,KEY=VALUE...] (no argument at all: the default platform). */
static int parse_sim(struct hw_device_spec *spec, const char *arg, struct gtt_err *err)
{
	char tok[HW_SPEC_MAX];
	int rc;

	if (next_token(&arg, tok, sizeof(tok)) < 0)
		return gtt_err_set(err, GTT_EINVAL, "device '%s' is too long", spec->text);
	if ((rc = model_platform(spec, tok, err)))
		return rc;
	while (*arg) {
		if (next_token(&arg, tok, sizeof(tok)) < 0)
			return gtt_err_set(err, GTT_EINVAL, "device '%s' is too long", spec->text);
		if ((rc = has_eq(tok) ? option(spec, tok, err) : model_flag(spec, tok, true, err)))
			return rc;
	}
	return GTT_OK;
}

/* vgpu's argument: sim[:PLATFORM], then flags of the model and KEY=VALUE options. */
static int parse_vgpu(struct hw_device_spec *spec, const char *arg, struct gtt_err *err)
{
	char tok[HW_SPEC_MAX];
	int rc;

	if (next_token(&arg, tok, sizeof(tok)) < 0)
		return gtt_err_set(err, GTT_EINVAL, "device '%s' is too long", spec->text);
	if (has_eq(tok))
		return gtt_err_set(err, GTT_EINVAL, "device '%s': name the host before option '%s' (vgpu:sim[:PLATFORM][,KEY=VALUE...])",
				   spec->text, tok);
	if (gtt_strcmp(tok, "sim") && gtt_strncmp(tok, "sim:", 4))
		return gtt_err_set(err, GTT_EINVAL, "device '%s': the host must be the model, sim[:PLATFORM] (a real GVT-g host is out of scope)",
				   spec->text);
	if (!gtt_strcmp(tok, "sim:"))
		return gtt_err_set(err, GTT_EINVAL, "device '%s': the host 'sim:' has nothing after the colon", spec->text);
	if ((rc = model_platform(spec, tok[3] ? tok + 4 : "", err)))
		return rc;
	while (*arg) {
		if (next_token(&arg, tok, sizeof(tok)) < 0)
			return gtt_err_set(err, GTT_EINVAL, "device '%s' is too long", spec->text);
		if (!*tok)
			return gtt_err_set(err, GTT_EINVAL, "device '%s': an empty token; write vgpu:sim[:PLATFORM][,KEY=VALUE...]",
					   spec->text);
		if ((rc = has_eq(tok) ? option(spec, tok, err) : model_flag(spec, tok, false, err)))
			return rc;
	}
	gtt_snprintf(spec->host, sizeof(spec->host), "sim:%s%s", spec->plat->name, spec->edram ? ",edram" : "");
	return GTT_OK;
}

/* pv's argument: [TARGET][,KEY=VALUE...]; a first token with '=' is an option. */
static int parse_pv(struct hw_device_spec *spec, const char *arg, struct gtt_err *err)
{
	char tok[HW_SPEC_MAX];
	bool first = true;
	int rc;

	while (*arg || first) {
		if (next_token(&arg, tok, sizeof(tok)) < 0)
			return gtt_err_set(err, GTT_EINVAL, "device '%s' is too long", spec->text);
		if (first && !has_eq(tok)) {
			gtt_memcpy(spec->target, tok, gtt_strlen(tok) + 1);
		} else if (!*tok || !has_eq(tok)) {
			return gtt_err_set(err, GTT_EINVAL, "device '%s': '%s' is not an option (pv[:TARGET[,KEY=VALUE...]])",
					   spec->text, tok);
		} else if ((rc = option(spec, tok, err))) {
			return rc;
		}
		first = false;
	}
	return GTT_OK;
}

int hw_device_spec_parse(const char *s, struct hw_device_spec *spec, struct gtt_err *err)
{
	size_t len = gtt_strlen(s), i = 0;

	*spec = (struct hw_device_spec){ 0 };
	if (len >= sizeof(spec->text))
		return gtt_err_set(err, GTT_EINVAL, "device '%.40s...' is longer than %zu characters", s, sizeof(spec->text) - 1);
	gtt_memcpy(spec->text, s, len + 1);
	while (s[i] && s[i] != ':') {
		if (i + 1 >= sizeof(spec->scheme))
			return gtt_err_set(err, GTT_EINVAL, "unknown device '%s': no scheme is that long", s);
		spec->scheme[i] = s[i];
		i++;
	}
	if (!i)
		return gtt_err_set(err, GTT_EINVAL, "device '%s' names no scheme (SCHEME[:ARG], e.g. %s)", s, HW_DEVICE_DEFAULT);
	const char *arg = s[i] == ':' ? s + i + 1 : "";
	/* "sim:" or "auto:": a colon promises an argument (sim: once meant skl, auto: meant auto) */
	if (s[i] == ':' && !*arg)
		return gtt_err_set(err, GTT_EINVAL, "device '%s' has nothing after the colon: write '%s' or name the argument",
				   s, spec->scheme);
	if (!gtt_strcmp(spec->scheme, "sim") && *arg == ',')
		return gtt_err_set(err, GTT_EINVAL, "device '%s': name the platform before the option (sim:PLATFORM,edram)", s);
	if ((!gtt_strcmp(spec->scheme, "sim") || !gtt_strcmp(spec->scheme, "vgpu") || !gtt_strcmp(spec->scheme, "pv")) &&
	    empty_token(arg))
		return gtt_err_set(err, GTT_EINVAL, "device '%s': an empty token between commas", s);
	if (!gtt_strcmp(spec->scheme, "sim"))
		return parse_sim(spec, arg, err);
	if (!gtt_strcmp(spec->scheme, "vgpu")) {
		if (!*arg)
			return gtt_err_set(err, GTT_EINVAL, "device '%s': name the host: vgpu:sim[:PLATFORM][,KEY=VALUE...]", s);
		return parse_vgpu(spec, arg, err);
	}
	if (!gtt_strcmp(spec->scheme, "pv"))
		return parse_pv(spec, arg, err);
	if (!gtt_strcmp(spec->scheme, "auto") && *arg)
		return gtt_err_set(err, GTT_EINVAL, "device '%s': auto takes no argument", s);
	gtt_memcpy(spec->target, arg, gtt_strlen(arg) + 1);
	return GTT_OK;
}

void hw_device_spec_model(struct hw_device_spec *spec, const struct gtt_platform *plat, bool edram)
{
	*spec = (struct hw_device_spec){ .plat = plat ? plat : gtt_platform_by_name(HW_SIM_DEFAULT_PLATFORM), .edram = edram };
	gtt_snprintf(spec->scheme, sizeof(spec->scheme), "sim");
	gtt_snprintf(spec->text, sizeof(spec->text), "sim:%s%s", spec->plat->name, edram ? ",edram" : "");
}

bool hw_device_spec_is_model(const struct hw_device_spec *spec)
{
	return spec->plat != NULL;
}

const char *hw_spec_opt(const struct hw_device_spec *spec, const char *key)
{
	for (unsigned i = 0; i < spec->n_opts; i++)
		if (!gtt_strcmp(spec->opts[i].key, key))
			return spec->opts[i].value;
	return NULL;
}

int hw_spec_opts_only(const struct hw_device_spec *spec, const char *const *keys, const char *usage, struct gtt_err *err)
{
	for (unsigned i = 0; i < spec->n_opts; i++) {
		const char *const *k = keys;
		while (*k && gtt_strcmp(*k, spec->opts[i].key))
			k++;
		if (!*k)
			return gtt_err_set(err, GTT_EINVAL, "device '%s': option %s=%s: no such option (%s)", spec->text,
					   spec->opts[i].key, spec->opts[i].value, usage);
	}
	return GTT_OK;
}
