/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a signal must not leave behind: the temporary files and directories
 * teosim writes before renaming them to an output (out_file, a sweep's
 * partial directory) or removing them (a sweep's generated traces, a module's
 * build directory).  Engines end jobs with signals as a matter of course
 * (GNU parallel's --halt, Slurm's scancel and time limits, Ctrl-C), and
 * each would otherwise leave its temporary files in the output's directory
 * and in TMPDIR.
 *
 * leftovers_watch() catches SIGINT, SIGTERM and SIGHUP (those not ignored
 * at start).  Its handler only writes the signal's number to a pipe, all
 * that a handler may safely do; a thread reading the pipe removes every
 * registered path and then lets the signal end the program, so that the
 * exit status is the signal's, as the engine expects.  A child forked
 * without an exec shares the pipe: a signal it takes ends this process too,
 * as it would when sent to the whole process group.
 */
#ifndef TEOSIM_LEFTOVERS_H
#define TEOSIM_LEFTOVERS_H

/* Once, early in main(). */
void leftovers_watch(void);
/* A file or a directory tree this program made, to be removed on a signal. */
void leftovers_add(const char *path);
/* The path is no longer temporary: renamed to the output, or removed. */
void leftovers_forget(const char *path);
/* Removes the path (a file, or a tree of directories and files) and forgets it. */
void leftovers_remove(const char *path);

#endif /* TEOSIM_LEFTOVERS_H */
