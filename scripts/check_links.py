#!/usr/bin/env python3
"""Check the relative links of README.md, docs/*.md and reports/**/*.md.

Usage: python3 scripts/check_links.py [REPO_ROOT]

Reads README.md, every docs/*.md and every Markdown file under reports/ (the
committed reports: their pictures and data must be there) under REPO_ROOT
(default: the folder above this script) and finds Markdown links and images, [text](target) and
![alt](target), and reference definitions, [label]: target. A target that is
relative (no URL scheme such as http:, https: or mailto:) must exist relative
to the linking file, after any #anchor is stripped. An #anchor into a Markdown
file (or a link that is only #anchor, into the linking file itself) must name
one of that file's headings, as GitHub turns headings into anchors. Links
inside code blocks and code spans are not links and are skipped.

Also fails when README.md is longer than MAX_README_LINES lines, and when the
files under reports/ that git tracks (every file there where REPO_ROOT has no
.git) weigh more than MAX_REPORTS_BYTES: reports/ holds conclusions, the data
they rest on and the pictures they show, raw run folders only where a
conclusion cites them; loop nests, PTX, binaries, plot specifications, a run's
terminal output and tables, and pictures `filterlab report` makes from kept
data are regenerated on demand (reports/README.md states the rule).

Prints one line per broken link, "file:line: broken link target", and exits
1; on success prints "N links checked" and exits 0. Standard library only.
"""

import os
import re
import subprocess
import sys
import urllib.parse

MAX_README_LINES = 250
MAX_REPORTS_BYTES = 4_000_000

# A URL scheme (http:, https:, mailto:, ftp:, ...): the target is not a file.
SCHEME = re.compile(r'^[A-Za-z][A-Za-z0-9+.-]*:')
# Inline links and images: [text](target "title"). The text may hold one level
# of brackets (an image inside a link); the target may be <...>.
INLINE = re.compile(
    r'(!?)\[((?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])*)\]'
    r'\(\s*(<[^<>\n]*>|(?:[^()\s\\]|\\.|\((?:[^()\s\\]|\\.)*\))+)'
    r'(?:\s+(?:"[^"]*"|\'[^\']*\'|\([^()]*\)))?\s*\)')
# Reference definitions: [label]: target
REFERENCE = re.compile(r'^ {0,3}\[[^\]]+\]:\s*(<[^<>\n]*>|\S+)', re.M)
FENCE = re.compile(r'^ {0,3}(`{3,}|~{3,})')
ATX = re.compile(r'^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$')
SETEXT = re.compile(r'^ {0,3}(=+|-+)[ \t]*$')
HTML_ANCHOR = re.compile(r'<a\s[^>]*\b(?:name|id)\s*=\s*["\']([^"\']+)["\']', re.I)


def closes(fence, line, m):
    """Whether line (m: its FENCE match) closes a code block opened by fence."""
    return bool(m) and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
        and line.strip() == m.group(1)[0] * len(line.strip())


def blank_code(text):
    """Text with fenced code blocks, code spans and HTML comments blanked.

    Newlines are kept, so offsets still give the right line numbers.
    """
    lines = text.split('\n')
    fence = None
    for i, line in enumerate(lines):
        m = FENCE.match(line)
        if fence is None:
            if m:
                fence = m.group(1)
                lines[i] = ''
        else:
            if closes(fence, line, m):
                fence = None
            lines[i] = ''
    text = '\n'.join(lines)

    # Code spans: a run of n backticks up to the next run of exactly n, within
    # one paragraph (no blank line between).
    out = []
    pos = 0
    runs = re.compile(r'`+')
    while True:
        m = runs.search(text, pos)
        if not m:
            out.append(text[pos:])
            break
        ticks = m.group(0)
        close = re.compile(r'(?<!`)' + ticks + r'(?!`)')
        end = close.search(text, m.end())
        if not end or '\n\n' in text[m.end():end.start()]:
            out.append(text[pos:m.end()])
            pos = m.end()
            continue
        out.append(text[pos:m.start()])
        span = text[m.start():end.end()]
        out.append(re.sub(r'[^\n]', ' ', span))
        pos = end.end()
    text = ''.join(out)
    return re.sub(r'<!--.*?-->', lambda c: re.sub(r'[^\n]', ' ', c.group(0)), text, flags=re.S)


def slug_base(heading):
    """GitHub's anchor for a heading's text, before duplicates are numbered."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)  # links: their text
    text = re.sub(r'<[^>]+>', '', text)                        # HTML tags
    text = text.strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)                       # punctuation but - and _
    return text.replace(' ', '-')


def anchors(path, cache={}):
    """The anchors a Markdown file offers: its headings' slugs and HTML ids."""
    if path in cache:
        return cache[path]
    with open(path, encoding='utf-8') as f:
        text = f.read()
    found = set()
    seen = {}
    lines = text.split('\n')
    fence = None
    previous = ''
    for line in lines:
        m = FENCE.match(line)
        if fence is not None:
            if closes(fence, line, m):
                fence = None
            previous = ''
            continue
        if m:
            fence = m.group(1)
            previous = ''
            continue
        heading = None
        atx = ATX.match(line)
        if atx:
            heading = atx.group(2) or ''
        elif SETEXT.match(line) and previous.strip() and not previous.startswith(('    ', '\t')):
            heading = previous.strip()
        if heading is not None:
            base = slug_base(heading)
            n = seen.get(base, 0)
            found.add(base if n == 0 else f'{base}-{n}')
            seen[base] = n + 1
        for a in HTML_ANCHOR.finditer(line):
            found.add(a.group(1).lower())
        previous = line
    cache[path] = found
    return found


def links(text):
    """(offset, target) of every link and image in text (code already blanked)."""
    found = []

    def scan(s, base):
        for m in INLINE.finditer(s):
            found.append((base + m.start(3), m.group(3)))
            # An image inside a link's text: [![alt](img)](target)
            inner = m.group(2)
            if '](' in inner:
                scan(inner, base + m.start(2))
    scan(text, 0)
    for m in REFERENCE.finditer(text):
        found.append((m.start(1), m.group(1)))
    return sorted(found)


def check_file(root, rel, errors):
    path = os.path.join(root, rel)
    with open(path, encoding='utf-8') as f:
        text = f.read()
    plain = blank_code(text)
    checked = 0
    for offset, target in links(plain):
        line = text.count('\n', 0, offset) + 1
        raw = target[1:-1] if target.startswith('<') and target.endswith('>') else target
        if SCHEME.match(raw) or raw.startswith('//'):
            continue  # http:, https:, mailto: and other URLs
        checked += 1
        file_part, _, anchor = raw.partition('#')
        file_part = urllib.parse.unquote(file_part.split('?', 1)[0])
        anchor = urllib.parse.unquote(anchor)
        if file_part == '':
            dest = path
        elif file_part.startswith('/'):
            dest = os.path.join(root, file_part.lstrip('/'))
        else:
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
        if not os.path.exists(dest):
            errors.append(f'{rel}:{line}: broken link {raw}')
            continue
        if anchor and os.path.isfile(dest) and dest.lower().endswith(('.md', '.markdown')):
            if anchor.lower() not in anchors(dest):
                where = os.path.relpath(dest, root)
                errors.append(f'{rel}:{line}: broken link {raw} (no heading #{anchor} in {where})')
    return checked


def reports_bytes(root):
    """The bytes of the files under root/reports that git tracks, as they are on disk; without
    a .git at root (an exported tree) or without git, of every file under root/reports."""
    if os.path.exists(os.path.join(root, '.git')):
        try:
            listed = subprocess.run(['git', '-C', root, 'ls-files', '-z', '--', 'reports'],
                                    capture_output=True, check=True).stdout.decode('utf-8', 'replace')
            paths = [os.path.join(root, p) for p in listed.split('\0') if p]
            return sum(os.path.getsize(p) for p in paths if os.path.isfile(p))
        except (OSError, subprocess.CalledProcessError):
            pass
    return sum(os.path.getsize(os.path.join(folder, n))
               for folder, _, names in os.walk(os.path.join(root, 'reports')) for n in names)


def main(argv):
    if len(argv) > 2:
        print('usage: check_links.py [REPO_ROOT]', file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    root = os.path.abspath(root)
    readme = os.path.join(root, 'README.md')
    if not os.path.isfile(readme):
        print(f'{readme}: no such file', file=sys.stderr)
        return 1
    files = ['README.md']
    docs = os.path.join(root, 'docs')
    if os.path.isdir(docs):
        files += sorted(os.path.join('docs', n) for n in os.listdir(docs)
                        if n.endswith('.md') and os.path.isfile(os.path.join(docs, n)))
    for folder, _, names in sorted(os.walk(os.path.join(root, 'reports'))):
        files += sorted(os.path.relpath(os.path.join(folder, n), root) for n in names if n.endswith('.md'))
    errors = []
    checked = 0
    for rel in files:
        checked += check_file(root, rel, errors)
    with open(readme, encoding='utf-8') as f:
        readme_lines = len(f.read().splitlines())
    if readme_lines > MAX_README_LINES:
        errors.append(f'README.md: {readme_lines} lines, more than {MAX_README_LINES}')
    weight = reports_bytes(root)
    if weight > MAX_REPORTS_BYTES:
        errors.append(f'reports/: {weight} bytes tracked, more than {MAX_REPORTS_BYTES} (keep conclusions, their data '
                      'and the pictures they show, raw runs only where a conclusion cites them; regenerate the rest)')
    for e in errors:
        print(e)
    if errors:
        return 1
    print(f'{checked} links checked')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
