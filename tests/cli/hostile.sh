# hostile.sh: hostile names for the fixture broker (sourced by tests/cli/outputs.sh
# and tests/tmux/outputs.sh; issue 25).
#
# hostile_payloads FILE: one payload a line, as it goes inside a JSON string:
# every class of character the output rule keeps out: C0 controls and DEL,
# ESC alone and escape sequences (CSI, the window title as OSC 0 and OSC 2,
# the clipboard as OSC 52, DCS), C1 controls encoded (CSI, an OSC title,
# NEL) and as a raw byte, bidirectional formatting (RLO, LRI..PDI, RLM,
# ALM), NUL, and invalid UTF-8 (a stray byte, an overlong form, a
# surrogate, past U+10FFFF, cut short) as raw bytes.
hostile_payloads() {
	printf '%s\n' '\u0007' '\u0008' '\r' '\n' '\t' '\u007f' '\u001b' '\u001b[2J\u001b[H' \
		'\u001b]0;PWNED\u0007' '\u001b]2;PWNED\u001b\\' '\u001b]52;c;UFdORUQ=\u0007' '\u001bPq#0\u001b\\' \
		'\u009b2J' '\u009d0;PWNED\u009c' '\u0085' '\u202e' '\u2066x\u2069' '\u200f' '\u061c' 'A\u0000B' >"$1"
	printf '\377\n\300\257\n\355\240\200\n\364\220\200\200\n\342\200\n\2332J\n' >>"$1"
}

# hostile_scenario PAYLOADS FILE: a fixture scenario where each payload sits at the
# start (p0), in the middle (p1), at the end (p2) and 150 characters in (p3) of
# one field of one group: its id (f0), a member's client id (f1), host (f2),
# member id (f3), instance id (f4), the topic it consumes (f5) and its
# assignor (f6).  The plain part of every value starts with
# "v<field>c<class>p<position>" and the id of a group whose hostile field is
# another is "f<field>c<class>p<position>-g", so a test can find each case
# and knows how many there are (groups: 7 x payloads x 4).  (A protocol
# type other than "consumer" never reaches kgtop: librdkafka lists consumer
# groups only.)
hostile_scenario() {
	LC_ALL=C awk '
	{ pay[n++] = $0 }
	function v(f, c, p,   base) {
		base = sprintf("v%dc%02dp%d", f, c, p)
		if (p == 0) return pay[c] base "zq"
		if (p == 1) return base pay[c] "zq"
		if (p == 2) return base "zq" pay[c]
		return base sprintf("%0150d", 0) pay[c] "zq"
	}
	END {
		printf "{\"comment\":\"hostile names (issue 25)\",\"brokers\":1,\"seed\":25,\n \"topics\":[{\"name\":\"events\",\"partitions\":2,\"log_end\":100}"
		for (c = 0; c < n; c++) for (p = 0; p < 4; p++)
			printf ",\n  {\"name\":\"%s\",\"partitions\":1,\"log_end\":50}", v(5, c, p)
		printf "],\n \"groups\":["
		sep = ""
		for (f = 0; f < 7; f++) for (c = 0; c < n; c++) for (p = 0; p < 4; p++) {
			id = (f == 0) ? v(0, c, p) : sprintf("f%dc%02dp%d-g", f, c, p)
			topic = (f == 5) ? v(5, c, p) : "events"
			parts = (f == 5) ? "[0]" : "[0,1]"
			m = "\"client_id\":\"" ((f == 1) ? v(1, c, p) : "client") "\""
			if (f == 2) m = m ",\"host\":\"" v(2, c, p) "\""
			if (f == 3) m = m ",\"member_id\":\"" v(3, c, p) "\""
			if (f == 4) m = m ",\"instance_id\":\"" v(4, c, p) "\""
			g = "\"id\":\"" id "\",\"state\":\"Stable\""
			if (f == 6) g = g ",\"assignor\":\"" v(6, c, p) "\""
			printf "%s\n  {%s,\"members\":[{%s,\"assignment\":{\"%s\":%s}}],\"committed\":{\"%s\":{\"all\":40}}}", sep, g, m, topic, parts, topic
			sep = ","
		}
		printf "\n ]}\n"
	}' "$1" >"$2"
}

# hostile_trace PAYLOADS FILE: a jsonl trace whose members, reasons in words, silent
# texts and triggers carry each payload, for the group f1c00p0-g (a group of the scenario).
hostile_trace() {
	LC_ALL=C awk -v now="$(date +%s)" '
	{ pay[n++] = $0 }
	END {
		for (c = 0; c < n; c++) {
			t = now * 1000000 + c * 1000
			printf "{\"v\":1,\"ts\":%d,\"kind\":\"preparing\",\"group\":\"f1c00p0-g\",\"generation\":%d,\"text\":\"t%02d%s\"}\n", t, c + 1, c, pay[c]
			printf "{\"v\":1,\"ts\":%d,\"kind\":\"assigned\",\"group\":\"f1c00p0-g\",\"member\":\"m%02d%s\",\"client\":\"k%02d%s\",\"host\":\"h%s\",\"partitions\":{\"events\":[0]}}\n", t + 1, c, pay[c], c, pay[c], pay[c]
			printf "{\"v\":1,\"ts\":%d,\"kind\":\"silent\",\"group\":\"f1c00p0-g\",\"member\":\"m%02d%s\",\"client\":\"k%02d%s\",\"text\":\"s%02d%s\"}\n", t + 2, c, pay[c], c, pay[c], c, pay[c]
			printf "{\"v\":1,\"ts\":%d,\"kind\":\"left\",\"group\":\"f1c00p0-g\",\"member\":\"m%02d%s\",\"client\":\"k%02d%s\",\"reason\":\"unknown\",\"text\":\"r%02d%s\"}\n", t + 3, c, pay[c], c, pay[c], c, pay[c]
		}
	}' "$1" >"$2"
}

# hostile_dash_scenario PAYLOADS FILE: the same values for the dashboard, where a
# screen shows one group's members: the groups whose ids carry each case
# (v0c<class>p<position>, one member each), and groups of one member per case:
# zz-clients (client ids v1...), zz-hosts (hosts v2...), zz-instances
# (instance ids v4...), zz-topics (one partition of each topic v5...).
hostile_dash_scenario() {
	LC_ALL=C awk '
	{ pay[n++] = $0 }
	function v(f, c, p,   base) {
		base = sprintf("v%dc%02dp%d", f, c, p)
		if (p == 0) return pay[c] base "zq"
		if (p == 1) return base pay[c] "zq"
		if (p == 2) return base "zq" pay[c]
		return base sprintf("%08d", 0) pay[c] "zq"
	}
	function members(f,   c, p, s, k) {
		s = ""; k = 0
		for (c = 0; c < n; c++) for (p = 0; p < 4; p++) {
			s = s (k ? "," : "") "{\"client_id\":\"" (f == 1 ? v(1, c, p) : sprintf("k%03d", k)) "\""
			if (f == 2) s = s ",\"host\":\"" v(2, c, p) "\""
			if (f == 4) s = s ",\"instance_id\":\"" v(4, c, p) "\""
			s = s ",\"assignment\":{\"wide\":[" k "]}}"
			k++
		}
		return s
	}
	END {
		np = n * 4
		printf "{\"comment\":\"hostile names for the dashboard (issue 25)\",\"brokers\":1,\"seed\":25,\n \"topics\":[{\"name\":\"events\",\"partitions\":1,\"log_end\":100},{\"name\":\"wide\",\"partitions\":%d,\"log_end\":100}", np
		for (c = 0; c < n; c++) for (p = 0; p < 4; p++)
			printf ",\n  {\"name\":\"%s\",\"partitions\":1,\"log_end\":50}", v(5, c, p)
		printf "],\n \"groups\":["
		for (c = 0; c < n; c++) for (p = 0; p < 4; p++)
			printf "\n  {\"id\":\"%s\",\"state\":\"Stable\",\"members\":[{\"client_id\":\"c\",\"assignment\":{\"events\":[0]}}],\"committed\":{\"events\":{\"all\":40}}},", v(0, c, p)
		printf "\n  {\"id\":\"zz-clients\",\"state\":\"Stable\",\"members\":[%s],\"committed\":{\"wide\":{\"all\":40}}},", members(1)
		printf "\n  {\"id\":\"zz-hosts\",\"state\":\"Stable\",\"members\":[%s],\"committed\":{\"wide\":{\"all\":40}}},", members(2)
		printf "\n  {\"id\":\"zz-instances\",\"state\":\"Stable\",\"members\":[%s],\"committed\":{\"wide\":{\"all\":40}}},", members(4)
		printf "\n  {\"id\":\"zz-topics\",\"state\":\"Stable\",\"members\":[{\"client_id\":\"t\",\"assignment\":{"
		k = 0
		for (c = 0; c < n; c++) for (p = 0; p < 4; p++) printf "%s\"%s\":[0]", (k++ ? "," : ""), v(5, c, p)
		printf "}}],\"committed\":{"
		k = 0
		for (c = 0; c < n; c++) for (p = 0; p < 4; p++) printf "%s\"%s\":{\"all\":40}", (k++ ? "," : ""), v(5, c, p)
		printf "}}\n ]}\n"
	}' "$1" >"$2"
}

# hostile_missing FILE FIELDS NPAY: the markers of the fields (a list of digits) that FILE
# does not show (at most five named, then how many more); nothing when it shows them all.
# The case of NUL at the start (class NPAY-7) is left out: its value ends before its marker.
hostile_missing() {
	LC_ALL=C awk -v fields="$2" -v npay="$3" '
		{ text = text $0 "\n" }
		END {
			for (i = 1; i <= length(fields); i++) {
				f = substr(fields, i, 1)
				for (c = 0; c < npay; c++) for (p = 0; p < 4; p++) {
					m = sprintf("v%dc%02dp%d", f, c, p)
					if (p == 0 && c == npay - 7) continue
					if (index(text, m) == 0) { n++; if (n <= 5) printf " %s", m }
				}
			}
			if (n > 5) printf " and %d more", n - 5
		}' "$1"
}
