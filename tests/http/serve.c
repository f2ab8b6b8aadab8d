/*
 * serve.c: the test HTTP server (httpd.h) as a program, for shell tests.
 *
 *   tests/http-serve DIR [KNOB=VALUE]...
 *
 * serves DIR on an ephemeral port of 127.0.0.1, prints "ready PORT" once
 * listening, and runs until SIGTERM or SIGINT.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "httpd.h"

static volatile sig_atomic_t stop;

/* Note the signal. */
static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Serve until a signal. */
int
main(int argc, char **argv)
{
	char err[256];
	kg_httpd *h;
	int i;
	struct sigaction sa;
	if (argc < 2) {
		fprintf(stderr, "usage: http-serve DIR [KNOB=VALUE]...\n");
		return 2;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	h = httpd_start(argv[1], err, sizeof err);
	if (h == NULL) {
		fprintf(stderr, "http-serve: %s\n", err);
		return 1;
	}
	for (i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (eq != NULL) {
			*eq = '\0';
			httpd_set(h, argv[i], atol(eq + 1));
		}
	}
	printf("ready %d\n", httpd_port(h));
	fflush(stdout);
	while (!stop) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL); /* a signal ends the sleep; stop is seen within 50 ms */
	}
	httpd_stop(h);
	return 0;
}
