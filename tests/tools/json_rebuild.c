/*
 * json_rebuild.c: a reader of kgtop's --json lines (schema 8) as kgtop(1)
 * tells one to read them, set against --full.
 *
 *   json_rebuild DELTAS FULL
 *
 * DELTAS holds the lines of a run (a keyframe, then what changed), FULL the
 * lines of the same snapshots with --full (every group every line: the two
 * runs replay one recording).  The reader keeps the groups of the last
 * keyframe by id and applies each delta: the ids in "gone" go; an object
 * in "groups" whose id it does not hold is a group in full, else a patch
 * (each field replaces, "KEY@" patches element "i" of array KEY the same
 * way, "i" a list of them patching each alike, "unset" removes fields, "lag_spark_steps" steps each partition's
 * "lag_spark"); "topic_partitions" sets its facts in every group partition
 * of that topic partition; a partition whose "committed" or "log_end" the
 * line changed and whose patch gives no "lag" gets log_end - committed, a
 * group one of whose partitions' lag changed and whose patch gives no
 * "lag" the sum; and every "time_lag_ms" with a "time_lag_from_us" is
 * aged to the line's "time_us" (a patch never gives one: counted).  After each line the
 * groups it holds must be exactly those of the same line of FULL, and the line's
 * events FULL's, an event's "message" joined from "message_head", "text" and
 * "message_tail" where a line split it.  Prints
 * what it compared; exit 0 when every line matched, 1 on the first
 * difference (said), 2 on bad input.
 */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read a line; NULL at the end. */
static char *
read_line(FILE *f)
{
	char *buf = NULL;
	size_t cap = 0;
	if (getline(&buf, &cap, f) < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Step each partition's lag_spark: [shift, cells...] drops shift cells, adds as many 0, the cells end it. */
static void
spark_steps(cJSON *parts, const cJSON *steps)
{
	const cJSON *st;
	int i = 0;
	cJSON_ArrayForEach(st, steps) {
		cJSON *p = cJSON_GetArrayItem(parts, i++), *old, *spark;
		double was[64], now[64];
		int n, k, shift, ncells;
		if (cJSON_IsNull(st) || p == NULL)
			continue;
		old = cJSON_GetObjectItemCaseSensitive(p, "lag_spark");
		n = cJSON_GetArraySize(old);
		if (n > 64)
			n = 64;
		for (k = 0; k < n; k++)
			was[k] = cJSON_GetArrayItem(old, k)->valuedouble;
		shift = cJSON_GetArrayItem(st, 0)->valueint;
		ncells = cJSON_GetArraySize(st) - 1;
		for (k = 0; k < n; k++)
			now[k] = k + shift < n ? was[k + shift] : 0;
		for (k = 0; k < ncells && k < n; k++)
			now[n - ncells + k] = cJSON_GetArrayItem(st, k + 1)->valuedouble;
		spark = cJSON_CreateArray();
		for (k = 0; k < n; k++)
			cJSON_AddItemToArray(spark, cJSON_CreateNumber(now[k]));
		cJSON_ReplaceItemInObjectCaseSensitive(p, "lag_spark", spark);
	}
}

/* The group partitions set from "topic_partitions": counted, the test asks for some. */
static int tps_read;
/* The partition fields a reader put where a patch that gives "committed" left them out (schema 8): counted too. */
static int moved_put;
/* The "=" of partition patches read (each the group's offsets' read): counted, the test asks for some. */
static int equals_read;
/* The "<" read (each the group's offsets' read before the line's patch): counted too. */
static int befores_read;
/* The element patches read that name several elements ("i" a list): counted too. */
static int merged_read;

/* The element patches read as columns ("is", schema 10): counted, the test asks for some. */
static int columns_read;

/*
 * Each element patch {"is":[N,M,...],"KEY":[vN,vM,...],...} of a group's
 * "KEY@" arrays as the patches it stands for (kgtop(1), schema 10):
 * {"i":N,"KEY":vN,...}, {"i":M,"KEY":vM,...}, in its place.
 */
static void
expand_columns(cJSON *line)
{
	cJSON *g, *f, *next;
	cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(line, "groups")) {
		for (f = g->child; f != NULL; f = next) {
			size_t n = strlen(f->string);
			char key[256];
			cJSON *out, *e;
			next = f->next;
			if (n < 2 || f->string[n - 1] != '@' || !cJSON_IsArray(f))
				continue;
			out = cJSON_CreateArray();
			cJSON_ArrayForEach(e, f) {
				const cJSON *is = cJSON_GetObjectItemCaseSensitive(e, "is"), *ii, *k;
				int r = 0;
				if (is == NULL) {
					cJSON_AddItemToArray(out, cJSON_Duplicate(e, true));
					continue;
				}
				columns_read++;
				cJSON_ArrayForEach(ii, is) {
					cJSON *el = cJSON_CreateObject();
					cJSON_AddNumberToObject(el, "i", ii->valuedouble);
					cJSON_ArrayForEach(k, e) {
						const cJSON *v = cJSON_GetArrayItem(k, r);
						if (strcmp(k->string, "is") == 0)
							continue;
						if (v == NULL || cJSON_GetArraySize(k) != cJSON_GetArraySize(is)) {
							printf("a column \"%s\" of %d values for %d elements\n", k->string, cJSON_GetArraySize(k),
							       cJSON_GetArraySize(is));
							exit(1);
						}
						cJSON_AddItemToObject(el, k->string, cJSON_Duplicate(v, true));
					}
					cJSON_AddItemToArray(out, el);
					r++;
				}
			}
			snprintf(key, sizeof key, "%s", f->string);
			cJSON_ReplaceItemInObjectCaseSensitive(g, key, out);
		}
	}
}

/* True when element patch e names element i ("i" a number or a list of them). */
static bool
names(const cJSON *e, int i)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(e, "i"), *y;
	if (!cJSON_IsArray(x))
		return x->valueint == i;
	cJSON_ArrayForEach(y, x) {
		if (y->valueint == i)
			return true;
	}
	return false;
}

/* Set t's field key to the string v unless patch p gives it. */
static void
put_default(cJSON *t, const cJSON *p, const char *key, const char *v)
{
	if (v == NULL || cJSON_GetObjectItemCaseSensitive(p, key) != NULL)
		return;
	cJSON_DeleteItemFromObjectCaseSensitive(t, key);
	cJSON_AddItemToObject(t, key, cJSON_CreateString(v));
	moved_put++;
}

/*
 * A partition patch p that gives "committed" (schema 8): what it leaves
 * out of "committed_moved" is the group's offsets' read (dt), of
 * "committed_moved_after" its read before the line (was), of
 * "frozen_since_max" (where t had one before the patch and still has) dt.
 */
static void
moved_defaults(cJSON *t, const cJSON *p, bool had_frozen, const char *dt, const char *was)
{
	put_default(t, p, "committed_moved", dt);
	put_default(t, p, "committed_moved_after", was);
	if (had_frozen && cJSON_GetObjectItemCaseSensitive(t, "frozen_since_max") != NULL)
		put_default(t, p, "frozen_since_max", dt);
}

/* True when patch p unsets key. */
static bool
unsets(const cJSON *p, const char *key)
{
	const cJSON *u;
	cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(p, "unset")) {
		if (cJSON_IsString(u) && strcmp(u->valuestring, key) == 0)
			return true;
	}
	return false;
}

/* A group's field key as it is after patch p (t: before it), NULL none. */
static const char *
patched(const cJSON *t, const cJSON *p, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, key);
	if (v == NULL && !unsets(p, key))
		v = cJSON_GetObjectItemCaseSensitive(t, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/*
 * Apply patch p to object t (kgtop(1): a field replaces, KEY@ patches
 * elements, unset removes); dt, was: the group's offsets' read
 * ("offsets_time", else "data_time", schema 9) after its patch and before
 * it, which a partition patch's "=" and "<" stand for (NULL: at a group's
 * level).
 */
static void
apply_patch(cJSON *t, const cJSON *p, const char *dt, const char *was)
{
	const cJSON *f, *u;
	const cJSON *tot = cJSON_GetObjectItemCaseSensitive(t, "offsets_time"), *tdt = cJSON_GetObjectItemCaseSensitive(t, "data_time");
	const char *gdt = patched(t, p, "offsets_time") != NULL ? patched(t, p, "offsets_time") : patched(t, p, "data_time");
	/* the group's own times are replaced below: its read before, kept */
	char *gwas = dt == NULL && cJSON_IsString(tot)   ? strdup(tot->valuestring)
		     : dt == NULL && cJSON_IsString(tdt) ? strdup(tdt->valuestring)
							 : NULL;
	bool had_frozen = cJSON_GetObjectItemCaseSensitive(t, "frozen_since_max") != NULL;
	cJSON_ArrayForEach(f, p) {
		size_t n = strlen(f->string);
		if (strcmp(f->string, "id") == 0 || strcmp(f->string, "i") == 0 || strcmp(f->string, "unset") == 0)
			continue;
		if (strcmp(f->string, "lag_spark_steps") == 0) {
			spark_steps(cJSON_GetObjectItemCaseSensitive(t, "partitions"), f);
			continue;
		}
		if (n > 1 && f->string[n - 1] == '@') {
			char key[256];
			const cJSON *e;
			cJSON *arr;
			snprintf(key, sizeof key, "%.*s", (int)(n - 1), f->string);
			arr = cJSON_GetObjectItemCaseSensitive(t, key);
			cJSON_ArrayForEach(e, f) {
				const cJSON *i = cJSON_GetObjectItemCaseSensitive(e, "i"), *ii;
				if (cJSON_IsArray(i)) { /* the same patch for each element listed */
					merged_read++;
					cJSON_ArrayForEach(ii, i) {
						cJSON *el = cJSON_GetArrayItem(arr, ii->valueint);
						if (el != NULL)
							apply_patch(el, e, strcmp(key, "partitions") == 0 ? gdt : NULL,
								    strcmp(key, "partitions") == 0 ? gwas : NULL);
					}
					continue;
				}
				cJSON *el = cJSON_GetArrayItem(arr, i->valueint);
				if (el != NULL)
					apply_patch(el, e, strcmp(key, "partitions") == 0 ? gdt : NULL,
						    strcmp(key, "partitions") == 0 ? gwas : NULL);
			}
			continue;
		}
		cJSON_DeleteItemFromObjectCaseSensitive(t, f->string);
		if (dt != NULL && cJSON_IsString(f) && strcmp(f->valuestring, "=") == 0) {
			cJSON_AddItemToObject(t, f->string, cJSON_CreateString(dt));
			equals_read++;
		} else if (was != NULL && cJSON_IsString(f) && strcmp(f->valuestring, "<") == 0) {
			cJSON_AddItemToObject(t, f->string, cJSON_CreateString(was));
			befores_read++;
		} else {
			cJSON_AddItemToObject(t, f->string, cJSON_Duplicate(f, true));
		}
	}
	cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(p, "unset"))
		cJSON_DeleteItemFromObjectCaseSensitive(t, u->valuestring);
	if (dt != NULL && cJSON_GetObjectItemCaseSensitive(p, "committed") != NULL)
		moved_defaults(t, p, had_frozen, dt, was);
	free(gwas);
}

/* Age a time lag to the line's time: %.1f of the milliseconds, as kgtop prints it. */
static void
age(cJSON *o, double time_us)
{
	const cJSON *from = cJSON_GetObjectItemCaseSensitive(o, "time_lag_from_us");
	char buf[64];
	if (!cJSON_IsNumber(from))
		return;
	snprintf(buf, sizeof buf, "%.1f", (time_us - from->valuedouble) / 1000.0);
	cJSON_ReplaceItemInObjectCaseSensitive(o, "time_lag_ms", cJSON_CreateNumber(strtod(buf, NULL)));
}

/*
 * Set the facts of "topic_partitions" in every group partition of each
 * topic partition (schema 8: an entry per topic and facts, each fact a
 * value per partition of "partitions"), then age every time lag.
 */
static void
settle(cJSON *state, const cJSON *line)
{
	const cJSON *tps = cJSON_GetObjectItemCaseSensitive(line, "topic_partitions"), *tp;
	double t = cJSON_GetObjectItemCaseSensitive(line, "time_us")->valuedouble;
	cJSON *g, *p;
	cJSON_ArrayForEach(g, state) {
		cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(g, "partitions")) {
			cJSON_ArrayForEach(tp, tps) {
				const cJSON *f, *n;
				int k = 0;
				if (strcmp(cJSON_GetObjectItemCaseSensitive(tp, "topic")->valuestring,
					   cJSON_GetObjectItemCaseSensitive(p, "topic")->valuestring) != 0)
					continue;
				cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(tp, "partitions")) {
					if (n->valueint == cJSON_GetObjectItemCaseSensitive(p, "partition")->valueint)
						break;
					k++;
				}
				if (n == NULL)
					continue;
				tps_read++;
				cJSON_ArrayForEach(f, tp) {
					if (strcmp(f->string, "topic") != 0 && strcmp(f->string, "partitions") != 0)
						cJSON_ReplaceItemInObjectCaseSensitive(p, f->string,
										    cJSON_Duplicate(cJSON_GetArrayItem(f, k), true));
				}
			}
			age(p, t);
		}
		age(g, t);
	}
}

/* The patch of group id in the line's "groups", NULL when none. */
static const cJSON *
patch_of(const cJSON *line, const char *id)
{
	const cJSON *g;
	cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(line, "groups")) {
		if (strcmp(cJSON_GetObjectItemCaseSensitive(g, "id")->valuestring, id) == 0)
			return g;
	}
	return NULL;
}

/* The element patch of partition i in a group's patch, NULL when none. */
static const cJSON *
element_of(const cJSON *patch, int i)
{
	const cJSON *e;
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(patch, "partitions@")) {
		if (names(e, i))
			return e;
	}
	return NULL;
}

/* True when field key of a and b differ. */
static bool
differs(const cJSON *a, const cJSON *b, const char *key)
{
	return !cJSON_Compare(cJSON_GetObjectItemCaseSensitive(a, key), cJSON_GetObjectItemCaseSensitive(b, key), true);
}

/*
 * The lags a line leaves to the reader (kgtop(1)): a partition whose
 * committed or log_end changed gets log_end - committed (0 when negative,
 * null when either is null) unless its patch gives "lag"; a group one of
 * whose partitions' lag changed (or whose partitions came whole) gets
 * their sum (null when none is known) unless its patch gives "lag".
 */
static void
derive_lags(cJSON *state, const cJSON *prev, const cJSON *line)
{
	cJSON *g;
	cJSON_ArrayForEach(g, state) {
		const cJSON *pg = cJSON_GetObjectItemCaseSensitive(prev, g->string), *patch, *pp;
		cJSON *parts = cJSON_GetObjectItemCaseSensitive(g, "partitions"), *p;
		bool whole, changed;
		double sum = 0;
		int i = 0, known = 0;
		if (pg == NULL)
			continue; /* new: in full */
		patch = patch_of(line, g->string);
		pp = cJSON_GetObjectItemCaseSensitive(pg, "partitions");
		whole = changed = patch != NULL && cJSON_GetObjectItemCaseSensitive(patch, "partitions") != NULL;
		cJSON_ArrayForEach(p, parts) {
			const cJSON *q = whole ? NULL : cJSON_GetArrayItem(pp, i), *e = element_of(patch, i);
			const cJSON *c = cJSON_GetObjectItemCaseSensitive(p, "committed"), *le = cJSON_GetObjectItemCaseSensitive(p, "log_end");
			i++;
			if (q != NULL && (differs(p, q, "committed") || differs(p, q, "log_end")) &&
			    (e == NULL || cJSON_GetObjectItemCaseSensitive(e, "lag") == NULL)) {
				cJSON *v = cJSON_IsNumber(c) && cJSON_IsNumber(le)
						   ? cJSON_CreateNumber(le->valuedouble > c->valuedouble ? le->valuedouble - c->valuedouble : 0)
						   : cJSON_CreateNull();
				cJSON_ReplaceItemInObjectCaseSensitive(p, "lag", v);
			}
			if (q != NULL && differs(p, q, "lag"))
				changed = true;
			if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(p, "lag"))) {
				sum += cJSON_GetObjectItemCaseSensitive(p, "lag")->valuedouble;
				known++;
			}
		}
		if (changed && (patch == NULL || cJSON_GetObjectItemCaseSensitive(patch, "lag") == NULL))
			cJSON_ReplaceItemInObjectCaseSensitive(g, "lag", known ? cJSON_CreateNumber(sum) : cJSON_CreateNull());
	}
}

/* The lags patches gave (a group's, a partition's): kgtop derives them all, the test counts them. */
static int lags_sent;

/* Count the lags a group's patch gives. */
static void
count_lags(const cJSON *patch)
{
	const cJSON *e;
	lags_sent += cJSON_GetObjectItemCaseSensitive(patch, "lag") != NULL;
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(patch, "partitions@"))
		lags_sent += cJSON_GetObjectItemCaseSensitive(e, "lag") != NULL;
}

/* Count a patch's "time_lag_ms" of an object (t, patched) whose "time_lag_from_us" is a number: the reader ages those. */
static int aged_sent;

static void
count_aged(const cJSON *t, const cJSON *patch)
{
	const cJSON *e;
	if (cJSON_GetObjectItemCaseSensitive(patch, "time_lag_ms") != NULL &&
	    cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(t, "time_lag_from_us")))
		aged_sent++;
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(patch, "partitions@")) {
		const cJSON *parts = cJSON_GetObjectItemCaseSensitive(t, "partitions");
		int i, n = cJSON_GetArraySize(parts);
		for (i = 0; i < n; i++) {
			if (names(e, i))
				count_aged(cJSON_GetArrayItem(parts, i), e);
		}
	}
}

/* Apply one line to the state (an object of groups by id). */
static void
apply_line(cJSON *state, const cJSON *line)
{
	const cJSON *g;
	bool key = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(line, "keyframe"));
	cJSON *prev = key ? NULL : cJSON_Duplicate(state, true);
	if (key) {
		while (state->child != NULL)
			cJSON_Delete(cJSON_DetachItemViaPointer(state, state->child));
	}
	cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(line, "gone"))
		cJSON_DeleteItemFromObjectCaseSensitive(state, g->valuestring);
	cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(line, "groups")) {
		const char *id = cJSON_GetObjectItemCaseSensitive(g, "id")->valuestring;
		cJSON *have = cJSON_GetObjectItemCaseSensitive(state, id);
		if (have == NULL)
			cJSON_AddItemToObject(state, id, cJSON_Duplicate(g, true));
		else {
			count_lags(g);
			apply_patch(have, g, NULL, NULL);
			count_aged(have, g);
		}
	}
	settle(state, line);
	if (prev != NULL) {
		derive_lags(state, prev, line);
		cJSON_Delete(prev);
	}
}

/* Compare the state with a --full line; false (said) at the first difference. */
static bool
same_as_full(const cJSON *state, const cJSON *full, int n)
{
	const cJSON *g;
	int count = 0;
	cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(full, "groups")) {
		const char *id = cJSON_GetObjectItemCaseSensitive(g, "id")->valuestring;
		const cJSON *have = cJSON_GetObjectItemCaseSensitive(state, id);
		count++;
		if (have == NULL || !cJSON_Compare(have, g, true)) {
			char *a = have ? cJSON_PrintUnformatted(have) : NULL, *b = cJSON_PrintUnformatted(g);
			printf("line %d: group %s differs\n  rebuilt: %s\n  --full:  %s\n", n, id, a ? a : "(none)", b);
			free(a);
			free(b);
			return false;
		}
	}
	if (count != cJSON_GetArraySize(state)) {
		printf("line %d: %d groups rebuilt, --full has %d\n", n, cJSON_GetArraySize(state), count);
		return false;
	}
	return true;
}

/* The events whose "message" a line split around its "text" (schema 8): counted, the test asks for some. */
static int messages_joined;

/*
 * The events of a line as --full writes them: an event's "message" is its
 * "message_head", "text" and "message_tail" (none: "") joined; then they
 * must be those of the same line of FULL.
 */
static bool
same_events(cJSON *line, const cJSON *full, int n)
{
	cJSON *evs = cJSON_GetObjectItemCaseSensitive(line, "events"), *e;
	const cJSON *fe = cJSON_GetObjectItemCaseSensitive(full, "events");
	cJSON_ArrayForEach(e, evs) {
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(e, "message_head"), *t = cJSON_GetObjectItemCaseSensitive(e, "text"),
			    *tail = cJSON_GetObjectItemCaseSensitive(e, "message_tail");
		char *m;
		if (!cJSON_IsString(h))
			continue;
		m = malloc(strlen(h->valuestring) + strlen(t->valuestring) + (tail ? strlen(tail->valuestring) : 0) + 1);
		strcpy(m, h->valuestring);
		strcat(m, t->valuestring);
		strcat(m, tail ? tail->valuestring : "");
		cJSON_DeleteItemFromObjectCaseSensitive(e, "message_head");
		cJSON_DeleteItemFromObjectCaseSensitive(e, "message_tail");
		cJSON_AddItemToObject(e, "message", cJSON_CreateString(m));
		free(m);
		messages_joined++;
	}
	if (!cJSON_Compare(evs, fe, true)) {
		char *a = cJSON_PrintUnformatted(evs), *b = cJSON_PrintUnformatted(fe);
		printf("line %d: events differ\n  read:    %s\n  --full:  %s\n", n, a, b);
		free(a);
		free(b);
		return false;
	}
	return true;
}

/* Read both files in step. */
int
main(int argc, char **argv)
{
	FILE *d, *f;
	cJSON *state = cJSON_CreateObject();
	char *ld, *lf;
	int n = 0, keys = 0, groups = 0;
	long dbytes = 0, fbytes = 0;
	if (argc != 3 || (d = fopen(argv[1], "r")) == NULL || (f = fopen(argv[2], "r")) == NULL) {
		fprintf(stderr, "usage: json_rebuild DELTAS FULL\n");
		return 2;
	}
	while ((ld = read_line(d)) != NULL && (lf = read_line(f)) != NULL) {
		cJSON *jd = cJSON_Parse(ld), *jf = cJSON_Parse(lf);
		n++;
		dbytes += (long)strlen(ld);
		fbytes += (long)strlen(lf);
		/* schema 8's deltas ("topic_partitions" by topic, a moved commit's times left out), as version 10 writes
		 * them (schema 10: element patches as columns) */
		if (jd == NULL || jf == NULL || cJSON_GetObjectItemCaseSensitive(jd, "version")->valueint != 10) {
			printf("line %d: not a line of version 10\n", n);
			return 2;
		}
		expand_columns(jd);
		keys += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(jd, "keyframe"));
		apply_line(state, jd);
		if (!same_as_full(state, jf, n) || !same_events(jd, jf, n))
			return 1;
		groups += cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(jd, "groups"));
		cJSON_Delete(jd);
		cJSON_Delete(jf);
		free(ld);
		free(lf);
	}
	printf("%d lines (%d keyframes) rebuilt the same as --full: %d groups sent, %ld bytes against %ld, %d lags in patches, %d aged time lags in patches, %d data_time \"=\" read, %d last data_time \"<\" read, %d patches of several partitions, %d column patches, %d partitions set from topic_partitions, %d moved commit times put, %d event messages joined\n",
	       n, keys, groups, dbytes, fbytes, lags_sent, aged_sent, equals_read, befores_read, merged_read, columns_read, tps_read, moved_put,
	       messages_joined);
	cJSON_Delete(state);
	return n > 1 ? 0 : 1;
}
