/* SPDX-License-Identifier: GPL-2.0 */
/* The teosim subcommands; each lives in cmd-<name>.c. */
#ifndef TEOSIM_COMMANDS_H
#define TEOSIM_COMMANDS_H

struct teosim_command {
	const char *name;
	const char *summary;
	/* argv[0] is the command name; returns the exit status. */
	int (*run)(int argc, char **argv);
};

int cmd_governors(int argc, char **argv);
int cmd_build_governor(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_random_calls(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_capture_platform(int argc, char **argv);
int cmd_fidelity(int argc, char **argv);
int cmd_sweep(int argc, char **argv);

#endif /* TEOSIM_COMMANDS_H */
