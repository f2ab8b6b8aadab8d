/*
 * main.c: wires options, sources, the collector, and the renderer or a reporter.
 */
#include "config.h"

#include <stdio.h>

/* Entry point. */
int
main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("kgtop %s\n", PACKAGE_VERSION);
	return 0;
}
