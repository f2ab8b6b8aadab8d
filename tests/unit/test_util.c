/*
 * test_util.c: the hash index (util/hmap) against a plain array model,
 * through inserts, replacements and removals that wrap around the table;
 * the sizes the shared array growth gives.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/hmap.h"
#include "util/util.h"

#define NKEYS 5000

static char keys[NKEYS][24];
static int values[NKEYS];

/* Every key of the model is found with its value; every other key is absent. */
static void
check_model(const hmap *m, const bool *in)
{
	size_t n = 0;
	int i;
	for (i = 0; i < NKEYS; i++) {
		void *v = hmap_get(m, keys[i]);
		if (in[i]) {
			assert_ptr_equal(v, &values[i]);
			n++;
		} else {
			assert_null(v);
		}
	}
	assert_int_equal(m->n, n);
}

/* Insert, replace, remove and re-insert: the index always agrees with the model. */
static void
test_hmap_model(void **state)
{
	static bool in[NKEYS];
	hmap m = { 0 };
	int i, round;
	(void)state;
	for (i = 0; i < NKEYS; i++)
		snprintf(keys[i], sizeof keys[i], "consumer-%d-%08x", i, (unsigned)(i * 2654435761u));
	assert_null(hmap_get(&m, "nothing"));
	assert_null(hmap_del(&m, "nothing"));
	srand(7);
	for (round = 0; round < 6; round++) {
		for (i = 0; i < NKEYS; i++) {
			int k = rand() % NKEYS;
			if (rand() % 3 == 0) {
				void *v = hmap_del(&m, keys[k]);
				assert_ptr_equal(v, in[k] ? &values[k] : NULL);
				in[k] = false;
			} else {
				hmap_put(&m, keys[k], &values[k]);
				in[k] = true;
			}
		}
		check_model(&m, in);
	}
	/* a replaced value wins, the count does not change */
	hmap_put(&m, keys[0], &values[1]);
	assert_ptr_equal(hmap_get(&m, keys[0]), &values[1]);
	hmap_clear(&m);
	memset(in, 0, sizeof in);
	check_model(&m, in);
	hmap_free(&m);
	assert_int_equal(m.cap, 0);
}

/* A key is compared by its text, not by its address. */
static void
test_hmap_by_text(void **state)
{
	hmap m = { 0 };
	char a[] = "group-1", b[] = "group-1";
	int v = 1;
	(void)state;
	hmap_put(&m, a, &v);
	assert_ptr_equal(hmap_get(&m, b), &v);
	assert_ptr_equal(hmap_del(&m, b), &v);
	assert_int_equal(m.n, 0);
	hmap_free(&m);
}

/* util_hash is FNV-1a (32 bits): the published test vectors, and a length that stops before a NUL. */
static void
test_hash(void **state)
{
	(void)state;
	assert_int_equal(util_hash("", 0), 0x811c9dc5u);
	assert_int_equal(util_hash("a", 1), 0xe40c292cu);
	assert_int_equal(util_hash("foobar", 6), 0xbf9cf968u);
	assert_int_equal(util_hash("foobarbaz", 6), 0xbf9cf968u);
}

/* util_grow starts at 8, util_grow_from at its first size (0 taken as 1); both double, enough for need at once. */
static void
test_grow_sizes(void **state)
{
	int *a = NULL, *b = NULL, *c = NULL;
	size_t ca = 0, cb = 0, cc = 0, want[] = { 1, 2, 4, 4, 8 }, i;
	(void)state;
	util_grow(&a, &ca, 1, sizeof *a);
	assert_int_equal(ca, 8);
	util_grow(&a, &ca, 9, sizeof *a);
	assert_int_equal(ca, 16);
	util_grow(&a, &ca, 3, sizeof *a);
	assert_int_equal(ca, 16);
	for (i = 0; i < sizeof want / sizeof *want; i++) {
		util_grow_from(&b, &cb, i + 1, sizeof *b, 1);
		assert_int_equal(cb, want[i]);
		b[i] = (int)i; /* the room is there (ASan, valgrind) */
	}
	util_grow_from(&c, &cc, 1, sizeof *c, 0);
	assert_int_equal(cc, 1);
	util_grow_from(&c, &cc, 100, sizeof *c, 0);
	assert_int_equal(cc, 128);
	c[99] = 1;
	free(a);
	free(b);
	free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hmap_model),
		cmocka_unit_test(test_hmap_by_text),
		cmocka_unit_test(test_grow_sizes),
		cmocka_unit_test(test_hash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
