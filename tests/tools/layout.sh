#!/bin/sh
# tests/tools/layout.sh: the shape of src/, as doc/DESIGN.md states it (TAP).
#
#  1. layers: a file includes headers of its own folder or of folders below
#     it, in this order:
#        util < model < record < sources < core < report < serve < ui < main
#     (main is src/main.c).  A sub-folder belongs to its top folder's
#     layer (src/sources/kafka/ is sources).  An include that points up
#     names the file, the line and the rule it breaks.
#     Inside src/sources, a sub-folder (one source concept) includes its
#     own headers, those of src/sources itself, and a sibling's only where
#     SIBLINGS below lets it: demo runs the kafka source on its mock
#     cluster, attach reads through trace's transport, offsets speaks
#     librdkafka's errors in kafka's words.
#  2. no .c file in src/ over 1,200 lines;
#  3. no function in src/ over 120 lines (from its opening brace at column
#     0 to its closing brace at column 0, the house style);
#  4. the libraries of the outside world stay in their folders: only
#     src/sources (and its sub-folders) includes rdkafka.h or curl.h, only
#     src/serve microhttpd.h.
: "${top_srcdir:=.}"
src="$top_srcdir/src"
MAX_FILE=1200
MAX_FUNC=120
# which sub-folder of src/sources may include which sibling's headers ("from:to")
SIBLINGS="demo:kafka attach:trace offsets:kafka"

rank() {
	case "$1" in
	util) echo 0 ;; model) echo 1 ;; record) echo 2 ;; sources) echo 3 ;;
	core) echo 4 ;; report) echo 5 ;; serve) echo 6 ;; ui) echo 7 ;; main) echo 8 ;; *) echo 99 ;;
	esac
}

n=0
failed=0
result() { # STATUS DESCRIPTION DETAILS
	n=$((n + 1))
	if [ -z "$3" ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		printf '%s\n' "$3" | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
}

echo "1..4"

# 1. layers
bad=""
for f in $(cd "$src" && find . -name '*.[ch]' | sed 's|^\./||' | LC_ALL=C sort); do
	case "$f" in */*) from=${f%%/*} ;; *) from=main ;; esac
	rf=$(rank "$from")
	hits=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/' "$src/$f" |
		sed 's/^\([0-9]*\):[^"]*"\([a-z_]*\)\/\([^"]*\)".*/\1 \2 \3/')
	[ -n "$hits" ] || continue
	while read -r line to hdr; do
		if [ "$to" = sources ] && [ "$from" = sources ]; then
			case "$f" in sources/*/*) sub=${f#sources/}; sub=${sub%%/*} ;; *) sub="" ;; esac
			case "$hdr" in */*) tsub=${hdr%%/*} ;; *) tsub="" ;; esac
			if [ -n "$sub" ] && [ -n "$tsub" ] && [ "$sub" != "$tsub" ]; then
				case " $SIBLINGS " in
				*" $sub:$tsub "*) ;;
				*) bad="${bad}src/$f:$line: sources/$sub includes sources/$hdr, a sibling it may not use (SIBLINGS)
" ;;
				esac
			fi
			continue
		fi
		[ "$to" = "$from" ] && continue
		rt=$(rank "$to")
		if [ "$rt" -ge "$rf" ]; then
			bad="${bad}src/$f:$line: $from includes $to/$hdr, but $to is not below $from
"
		fi
	done <<HITS
$hits
HITS
done
result 0 "layers: util < model < record < sources < core < report < serve < ui < main; sources/ sub-folders" "$(printf '%s' "$bad" | sed '/^$/d')"

# 2. file sizes
big=$(find "$src" -name '*.c' -exec wc -l {} + | awk -v max=$MAX_FILE -v s="$src/" \
	'$2 != "total" && $1 > max { sub(s, "src/", $2); print $2 ": " $1 " lines (at most " max ")" }')
result 0 "no .c file in src/ over $MAX_FILE lines" "$big"

# 3. function sizes
long=$(find "$src" -name '*.c' | LC_ALL=C sort | xargs awk -v max=$MAX_FUNC -v s="$src/" '
FNR == 1 { inf = 0 }
/^\{/ && !inf { inf = 1; start = FNR; name = prev; next }
inf && /^\}/ {
	len = FNR - start + 1
	if (len > max) {
		fn = FILENAME; sub(s, "src/", fn)
		nm = name; sub(/\(.*/, "", nm); sub(/.*[ *]/, "", nm)
		printf "%s:%d: %s: %d lines (at most %d)\n", fn, start, nm, len, max
	}
	inf = 0; next
}
!inf && $0 !~ /^[ \t]*$/ { prev = $0 }')
result 0 "no function in src/ over $MAX_FUNC lines" "$long"

# 4. where the outside world's libraries are included
stray=$(cd "$src" && grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*<\(librdkafka/rdkafka\|curl/curl\|microhttpd\)\.h>' \
	$(find . -name '*.[ch]' | sed 's|^\./||' | LC_ALL=C sort) | awk -F: '
	{ dir = $1; sub(/\/.*/, "", dir); if ($1 !~ /\//) dir = "main" }
	$3 ~ /microhttpd/ && dir != "serve" { print "src/" $1 ":" $2 ": microhttpd.h outside src/serve" }
	$3 ~ /rdkafka|curl/ && dir != "sources" { print "src/" $1 ":" $2 ": " ($3 ~ /curl/ ? "curl.h" : "rdkafka.h") " outside src/sources/**" }')
result 0 "only src/sources (and sub-folders) includes rdkafka.h or curl.h, only src/serve microhttpd.h" "$stray"

[ "$failed" -eq 0 ]
