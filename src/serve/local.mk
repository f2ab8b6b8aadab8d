# src/serve: --serve, the HTTP server (libmicrohttpd): /metrics, /stream,
# /healthz, /ready.  The only code that includes microhttpd.h; it sits
# between report (the metrics' formatting) and ui.
libkgtop_a_SOURCES += \
	src/serve/serve.c src/serve/serve.h src/serve/serve_int.h \
	src/serve/serve_stream.c src/serve/serve_conn.c
libkgtop_a_CFLAGS += $(MHD_CFLAGS)
KG_LIBS += $(MHD_LIBS)
