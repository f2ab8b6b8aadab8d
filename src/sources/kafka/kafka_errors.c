/*
 * kafka_errors.c: librdkafka's errors, for the kafka source's rooms (see
 * kafka_errors.h): error codes in words, and the cluster-wide trouble its
 * error callback reports, kept until the cluster answers again.
 */
#include "config.h"

#include "sources/kafka/kafka_errors.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sources/kafka/kafka.h"
#include "util/log.h"
#include "util/util.h"

/* Ready to take librdkafka's complaints: none yet. */
void
kafka_errors_init(kerrs *x)
{
	memset(x, 0, sizeof *x);
	pthread_mutex_init(&x->lock, NULL);
	atomic_init(&x->code, 0);
	atomic_init(&x->gen, 0u);
}

/* Free what the complaints kept. */
void
kafka_errors_destroy(kerrs *x)
{
	free(x->reason);
	x->reason = NULL;
	pthread_mutex_destroy(&x->lock);
}

/* The last cluster-wide error code, 0 none since the last answer. */
int
kafka_cluster_err(kerrs *x)
{
	return atomic_load(&x->code);
}

/* The count of error callbacks so far (kafka_cluster_gone() compares with it). */
unsigned
kafka_errors_gen(kerrs *x)
{
	return atomic_load(&x->gen);
}

/* A readable reason for an error code, NULL for others. */
const char *
kafka_err_reason(int err)
{
	switch ((rd_kafka_resp_err_t)err) {
	case RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN:
		return "all brokers down";
	case RD_KAFKA_RESP_ERR__TRANSPORT:
		return "connection to a broker dropped";
	case RD_KAFKA_RESP_ERR__SSL:
		return "TLS handshake failed";
	case RD_KAFKA_RESP_ERR__AUTHENTICATION:
	case RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED:
		return "authentication failed";
	case RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED:
	case RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED:
	case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
		return "not authorized (kgtop needs Describe on the cluster, groups and topics)";
	case RD_KAFKA_RESP_ERR__TIMED_OUT:
	case RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT:
		return "timeout";
	case RD_KAFKA_RESP_ERR__RESOLVE:
		return "cannot resolve the bootstrap servers";
	default:
		return NULL;
	}
}

/* True for a cluster-wide cause that waiting will not cure (no broker reachable, bad credentials). */
bool
kafka_err_unreachable(int err)
{
	return err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN || err == RD_KAFKA_RESP_ERR__RESOLVE ||
	       err == RD_KAFKA_RESP_ERR__AUTHENTICATION || err == RD_KAFKA_RESP_ERR__SSL ||
	       err == RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED;
}

/* Compose "reason (detail)" into a new string. */
char *
kafka_describe_error(rd_kafka_resp_err_t err, const char *detail)
{
	const char *r = kafka_err_reason(err);
	if (r != NULL && detail != NULL && *detail)
		return xasprintf("%s (%s)", r, detail);
	if (r != NULL)
		return xstrdup(r);
	return xstrdup(detail && *detail ? detail : rd_kafka_err2str(err));
}

/*
 * librdkafka's words for an error: its reason without the broker-name
 * prefix ("127.0.0.1:1/bootstrap: ") and the timing suffix (" (after 0ms
 * in state CONNECT...)"), the broker's address put back in front when the
 * words do not name it: "Connect to ipv4#127.0.0.1:1 failed: Connection
 * refused", "Failed to resolve 'nosuch:9092': Name or service not known",
 * "127.0.0.1:9093: SSL handshake failed: ...".  The state is kept where it
 * is the diagnosis: librdkafka 2.14.2 words a TLS handshake the peer cut
 * either "SSL handshake failed: Disconnected: ..." or "Disconnected: SSL
 * connection closed by peer (after 0ms in state SSL_HANDSHAKE)".
 */
static char *
reason_words(const char *reason)
{
	const char *colon = strstr(reason, ": "), *slash = NULL, *after, *p, *state;
	char *broker = NULL, *rest, *out, *tmp;
	for (p = reason; colon != NULL && p < colon; p++) {
		if (*p == '/' && p[1] != '/' && (p == reason || p[-1] != '/'))
			slash = p; /* the last lone '/': "ssl://host:port/bootstrap" */
	}
	if (slash != NULL && memchr(reason, ' ', (size_t)(colon - reason)) == NULL) {
		const char *host = strstr(reason, "://");
		host = host != NULL && host < slash ? host + 3 : reason;
		broker = xstrndup(host, (size_t)(slash - host));
		reason = colon + 2;
	}
	rest = xstrdup(reason);
	if ((after = strstr(rest, " (after ")) != NULL) {
		state = strstr(after, " in state ");
		rest[after - rest] = '\0';
		if (state != NULL && strncmp(state + 10, "SSL_HANDSHAKE", 13) == 0 && strstr(rest, "handshake") == NULL) {
			tmp = xasprintf("%s (in state SSL_HANDSHAKE)", rest);
			free(rest);
			rest = tmp;
		}
	}
	if (broker != NULL && strstr(rest, broker) == NULL)
		out = xasprintf("%s: %s", broker, rest);
	else
		out = xstrdup(rest);
	free(broker);
	free(rest);
	return out;
}

/*
 * What librdkafka's error callback said (any of its threads, and ours when
 * they poll): remember cluster-wide trouble in librdkafka's words.  The
 * specific cause (refused, cannot resolve, TLS, SASL) is kept over the
 * "all brokers down" that follows it.
 */
void
kafka_errors_take(kerrs *x, int err, const char *reason)
{
	int prev;
	log_msg(KG_LOG_INFO, "kafka: %s: %s", rd_kafka_err2name((rd_kafka_resp_err_t)err), reason);
	if (!kafka_err_unreachable(err) && err != RD_KAFKA_RESP_ERR__TRANSPORT)
		return;
	pthread_mutex_lock(&x->lock);
	prev = atomic_load(&x->code);
	if (err == RD_KAFKA_RESP_ERR__TRANSPORT) {
		/* one connection failed: only the words of an "all brokers down" that may follow; a failed
		 * TLS handshake (librdkafka >= 2.x calls one the peer cut a transport error: "connecting to a
		 * PLAINTEXT broker listener?") is not replaced by the bare disconnect of a later attempt */
		if ((prev == 0 || prev == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN) &&
		    !(x->reason != NULL && strstr(x->reason, "SSL handshake failed") != NULL &&
		      (reason == NULL || strstr(reason, "SSL handshake failed") == NULL))) {
			free(x->reason);
			x->reason = reason_words(reason ? reason : "connection failed");
		}
	} else if (err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN) {
		/* a cause that explains it (cannot resolve, TLS, authentication) stays */
		if (prev == 0)
			atomic_store(&x->code, err);
		if (x->reason == NULL)
			x->reason = reason_words(reason ? reason : "all brokers down");
	} else {
		atomic_store(&x->code, err);
		free(x->reason);
		x->reason = reason_words(reason ? reason : rd_kafka_err2str((rd_kafka_resp_err_t)err));
	}
	pthread_mutex_unlock(&x->lock);
	atomic_fetch_add(&x->gen, 1);
}

/* True when librdkafka said, since err_gen was gen, that no broker can be reached. */
bool
kafka_cluster_gone(kerrs *x, unsigned gen)
{
	return atomic_load(&x->gen) != gen && atomic_load(&x->code) != 0;
}

/* librdkafka's words for the last cluster-wide error, NULL when none. */
char *
kafka_cluster_reason(kerrs *x)
{
	char *r = NULL;
	pthread_mutex_lock(&x->lock);
	if (x->reason != NULL)
		r = xstrdup(x->reason);
	pthread_mutex_unlock(&x->lock);
	return r;
}

/* Forget librdkafka's complaints: an answer came. */
void
kafka_cluster_answered(kerrs *x)
{
	pthread_mutex_lock(&x->lock);
	atomic_store(&x->code, 0);
	free(x->reason);
	x->reason = NULL;
	pthread_mutex_unlock(&x->lock);
}
