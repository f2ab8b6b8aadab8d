#!/usr/bin/env python3
"""ansi2html.py: turn a `tmux capture-pane -e` capture (SGR escapes) into a
standalone HTML page with the xterm-256 palette, for screenshots.
usage: ansi2html.py CAPTURE.ansi TITLE > PAGE.html"""
import html
import re
import sys

ANSI = ["#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
        "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff"]
CUBE = [0, 95, 135, 175, 215, 255]
FG, BG = "#d0d0d0", "#1c1c1c"


def colour(n):
    if n < 16:
        return ANSI[n]
    if n < 232:
        n -= 16
        return "#%02x%02x%02x" % (CUBE[n // 36], CUBE[(n // 6) % 6], CUBE[n % 6])
    g = 8 + 10 * (n - 232)
    return "#%02x%02x%02x" % (g, g, g)


def main():
    text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    title = sys.argv[2] if len(sys.argv) > 2 else "kgtop"
    st = {"fg": None, "bg": None, "bold": False, "dim": False, "ul": False, "rev": False, "it": False}
    out = []

    def span(s):
        fg, bg = st["fg"] or FG, st["bg"] or BG
        if st["rev"]:
            fg, bg = bg, fg
        css = "color:%s;background:%s" % (fg, bg)
        if st["bold"]:
            css += ";font-weight:bold"
        if st["dim"]:
            css += ";opacity:0.6"
        if st["ul"]:
            css += ";text-decoration:underline"
        if st["it"]:
            css += ";font-style:italic"
        out.append('<span style="%s">%s</span>' % (css, html.escape(s)))

    for part in re.split(r"(\x1b\[[0-9;:]*m)", text):
        if not part.startswith("\x1b["):
            if part:
                span(part)
            continue
        codes = [int(c) if c else 0 for c in re.split(r"[;:]", part[2:-1])] or [0]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                st.update(fg=None, bg=None, bold=False, dim=False, ul=False, rev=False, it=False)
            elif c == 1: st["bold"] = True
            elif c == 2: st["dim"] = True
            elif c == 3: st["it"] = True
            elif c == 4: st["ul"] = True
            elif c == 7: st["rev"] = True
            elif c == 22: st["bold"] = st["dim"] = False
            elif c == 23: st["it"] = False
            elif c == 24: st["ul"] = False
            elif c == 27: st["rev"] = False
            elif 30 <= c <= 37: st["fg"] = ANSI[c - 30]
            elif 90 <= c <= 97: st["fg"] = ANSI[c - 90 + 8]
            elif 40 <= c <= 47: st["bg"] = ANSI[c - 40]
            elif 100 <= c <= 107: st["bg"] = ANSI[c - 100 + 8]
            elif c == 39: st["fg"] = None
            elif c == 49: st["bg"] = None
            elif c in (38, 48) and i + 2 < len(codes) and codes[i + 1] == 5:
                st["fg" if c == 38 else "bg"] = colour(codes[i + 2]); i += 2
            elif c in (38, 48) and i + 4 < len(codes) and codes[i + 1] == 2:
                st["fg" if c == 38 else "bg"] = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5]); i += 4
            i += 1
    print("<!doctype html><html><head><meta charset='utf-8'><title>%s</title><style>"
          "body{margin:0;background:%s}pre{margin:0;padding:8px;font:14px/1.2 'DejaVu Sans Mono',monospace;"
          "color:%s;background:%s}</style></head><body><pre>%s</pre></body></html>"
          % (html.escape(title), BG, FG, BG, "".join(out)))


main()
