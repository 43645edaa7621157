// SPDX-License-Identifier: GPL-2.0
#include "out-file.h"
#include "platform-write.h"

/* Shortest decimal that reads back as the same double, in the C locale as GKeyFile reads it. */
static void write_double(FILE *out, const char *key, double v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	fprintf(out, "%s=%s\n", key, g_ascii_dtostr(buf, sizeof(buf), v));
}

/*
 * GKeyFile values are one line, read back with only GKeyFile's own escapes
 * undone (\\, \n, \t, \r, and \s for a leading blank): written with
 * exactly those, every other byte as it is.
 */
static void write_string(FILE *out, const char *key, const char *v)
{
	fprintf(out, "%s=", key);
	for (const char *c = v ? v : ""; *c; c++) {
		switch (*c) {
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		case ' ': fputs(c == v ? "\\s" : " ", out); break;
		default: fputc(*c, out);
		}
	}
	fputc('\n', out);
}

void platform_write(FILE *out, const struct platform *p, const char *name)
{
	bool assumed = false;

	for (unsigned int i = 0; i < p->state_count; i++)
		assumed |= p->states[i].power_assumed;
	/* The source may hold any character: it goes into its key, escaped, not into a comment. */
	fprintf(out, "# Written by teosim capture-platform; [platform] source says from where.\n");
	if (assumed)
		fprintf(out, "# Power figures marked power_assumed=true are teosim's assumptions "
			     "(sim/platform-sysfs.c),\n# not measurements: replace them with "
			     "measured ones where known.\n");
	fprintf(out, "\n[platform]\n");
	write_string(out, "name", name ? name : p->name);
	write_string(out, "description", p->description);
	write_string(out, "source", p->source);
	write_double(out, "busy_power_mw", p->busy_power_mw);
	if (p->timer_latency_us)
		fprintf(out, "timer_latency_us=%u\n", p->timer_latency_us);
	if (p->poll_check_us)
		fprintf(out, "poll_check_us=%u\n", p->poll_check_us);
	if (p->idle_loop_us)
		fprintf(out, "idle_loop_us=%u\n", p->idle_loop_us);
	if (p->tick_work_us)
		fprintf(out, "tick_work_us=%u\n", p->tick_work_us);
	if (p->select_lead_us)
		fprintf(out, "select_lead_us=%u\n", p->select_lead_us);
	if (p->tick_stop_us)
		fprintf(out, "tick_stop_us=%u\n", p->tick_stop_us);
	if (p->idle_entry_us)
		fprintf(out, "idle_entry_us=%u\n", p->idle_entry_us);
	if (p->idle_entry_pct != 100)
		fprintf(out, "idle_entry_pct=%u\n", p->idle_entry_pct);
	if (p->idle_entry_held_us)
		fprintf(out, "idle_entry_held_us=%u\n", p->idle_entry_held_us);
	if (p->residency_gap_us)
		fprintf(out, "residency_gap_us=%u\n", p->residency_gap_us);
	for (unsigned int i = 0; i < p->state_count; i++) {
		const struct platform_state *s = &p->states[i];

		fprintf(out, "\n[state%u]\n", i);
		write_string(out, "name", s->desc.name);
		fprintf(out, "exit_latency_us=%u\n", s->desc.exit_latency_us);
		if (s->exit_cost_us != s->desc.exit_latency_us)
			fprintf(out, "exit_cost_us=%u\n", s->exit_cost_us);
		fprintf(out, "target_residency_us=%u\n", s->desc.target_residency_us);
		if (s->desc.polling)
			fprintf(out, "flags=polling\n");
		write_double(out, "power_mw", s->power_mw);
		fprintf(out, "power_assumed=%s\n", s->power_assumed ? "true" : "false");
		if (s->desc.disabled)
			fprintf(out, "disabled=true\n");
	}
}

bool platform_save(const char *path, const struct platform *p, const char *name,
		   GError **error)
{
	struct out_file *o = out_file_open(path, error);
	struct platform back;
	bool ok;

	if (!o)
		return false;
	platform_write(o->f, p, name);
	if (!out_file_commit(o, error))
		return false;
	ok = platform_load(path, &back, error);
	platform_clear(&back);
	return ok;
}
