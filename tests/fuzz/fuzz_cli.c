// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness over the command line: the input is an argv, its
 * arguments separated by NUL bytes, the first of them the command, which
 * vfslab_main() looks up in the real table ("sim" then "calibrate" reaches
 * sim calibrate). cli_parse_only makes each command stop once its
 * arguments are parsed and checked. Whatever the input, the parse must not
 * crash, leak or hang, must exit 0, 1 or 2, a non-zero status must come
 * with a message on stderr, and SIGINT must stay the fuzzer's: a command
 * that catches it (tools/interrupt.c) has begun its work.
 *
 * Fuzz with tests/fuzz/run.sh; `make check` replays the seeds
 * (tests/fuzz/cli_seeds.sh) through tests/fuzz/replay.c (tests/fuzz_cli.sh).
 */
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cmd.h"

/* Past every limit on repeated options (walk -e: 64); longer inputs are cut. */
#define MAX_ARGS 256

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int null = open("/dev/null", O_RDWR);

	(void)argc;
	(void)argv;
	/* Help and listings are output nobody reads; nothing reads stdin. */
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(null, STDOUT_FILENO) < 0)
		abort();
	close(null);
	cli_parse_only = true;
	return 0;
}

/* A parse that went wrong: the arguments, to the real stderr, and abort. */
static void __attribute__((noreturn)) die(FILE *err, char **argv, int argc, const char *why)
{
	fprintf(err, "fuzz_cli: %s:", why);
	for (int i = 0; i < argc; i++)
		fprintf(err, " '%s'", argv[i]);
	fprintf(err, "\n");
	abort();
}

/*
 * Forget where the last parse stopped: a command may return from inside a
 * cluster of short options ("-hx"), and glibc's getopt would go on from
 * there, in the last input's freed argv, on the next call that sets
 * optind to 1. optind = 0 starts it afresh.
 */
static void getopt_reset(void)
{
	char *argv[] = { "fuzz_cli", NULL };

	optind = 0;
	opterr = 0;
	getopt(1, argv, "");
	opterr = 1;
}

/* SIGINT's handler before a parse; libFuzzer sets it after LLVMFuzzerInitialize(). */
static void (*sigint_handler(void))(int)
{
	struct sigaction sa;

	if (sigaction(SIGINT, NULL, &sa))
		abort();
	return sa.sa_handler;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	void (*sigint)(int) = sigint_handler();
	char *argv[MAX_ARGS + 2] = { "vfslab" }, *msg = NULL;
	FILE *real_stderr = stderr, *err;
	size_t len = 0, start = 0;
	int argc = 1, ret;

	/* Each argument in a block of its own: ASan sees a read past its NUL. */
	for (size_t i = 0; i <= size && argc <= MAX_ARGS; i++) {
		if (i < size && data[i])
			continue;
		if (i == size && i == start)
			break;
		argv[argc] = malloc(i - start + 1);
		if (!argv[argc])
			abort();
		memcpy(argv[argc], data + start, i - start);
		argv[argc++][i - start] = '\0';
		start = i + 1;
	}
	argv[argc] = NULL;
	err = open_memstream(&msg, &len);
	if (!err)
		abort();
	getopt_reset();
	stderr = err;
	ret = vfslab_main(argc, argv);
	stderr = real_stderr;
	if (fclose(err))
		abort();
	if (ret != 0 && ret != 1 && ret != 2)
		die(stderr, argv, argc, "exit status not 0, 1 or 2");
	if (ret && !len)
		die(stderr, argv, argc, "refused with no message");
	if (sigint_handler() != sigint)
		die(stderr, argv, argc, "caught SIGINT: began its work");
	free(msg);
	for (int i = 1; i < argc; i++)
		free(argv[i]);
	return 0;
}
