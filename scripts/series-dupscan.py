#!/usr/bin/env python3
"""series-dupscan.py: look for pristine kernel code among the lines that the
patch series adds, with identifiers renamed or not.

    scripts/series-dupscan.py [--tree build/src/linux] [--min 40] [--scratch DIR]

A scratch tree is built first (default build/dupscan): pristine/ holds the
pristine version (git tag "pristine" of the kernel tree) of every file under
the directories the series touches, and added/ holds, per patch and file, the
lines the patch adds, hunk by hunk.  Both sides are then cut into C tokens
with comments dropped and every identifier, number, string and character
literal replaced by one placeholder each (keywords, operators and
punctuation stay), so a renamed copy has the same shape as its original.

Every run of at least --min tokens (default 40, about five lines of C) that
an added hunk shares with a pristine file is reported with both places.  An
in-place edit adds only the lines it changes, so its hunks rarely share long
runs with the pristine text; code that was moved, or copied under new names,
shows up as a long run.  Documentation (.rst) is compared word for word, with
runs of at least --min-words words (default 25).

Prints one line per run and a summary; exit status 0 either way.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

KEYWORDS = set("""
auto break case char const continue default do double else enum extern float
for goto if inline int long register restrict return short signed sizeof static
struct switch typedef union unsigned void volatile while bool true false NULL
__always_inline noinline __sched
""".split())

TOKEN_RE = re.compile(r"""
    (?P<ws>\s+)
  | (?P<lcomment>//[^\n]*)
  | (?P<bcomment>/\*.*?\*/)
  | (?P<pp>\#[ \t]*[a-z]+)
  | (?P<str>"(?:\\.|[^"\\\n])*")
  | (?P<chr>'(?:\\.|[^'\\\n])+')
  | (?P<num>(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][+-]?\d+)?)[uUlLfF]*)
  | (?P<id>[A-Za-z_]\w*)
  | (?P<op>->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!~<>=?:;,.(){}\[\]])
  | (?P<other>.)
""", re.S | re.X)


def c_tokens(text):
    """Normalised tokens of C text, each with the 0-based line it starts on."""
    out = []
    line = 0
    for m in TOKEN_RE.finditer(text):
        kind = m.lastgroup
        tok = m.group()
        if kind in ("ws", "lcomment", "bcomment"):
            pass
        elif kind == "id":
            out.append(("K:" + tok if tok in KEYWORDS else "I", line))
        elif kind == "num":
            out.append(("N", line))
        elif kind == "str":
            out.append(("S", line))
        elif kind == "chr":
            out.append(("C", line))
        elif kind == "pp":
            out.append(("P:" + tok.replace(" ", "").replace("\t", ""), line))
        else:
            out.append((tok, line))
        line += tok.count("\n")
    return out


def word_tokens(text):
    out = []
    for n, l in enumerate(text.split("\n")):
        for w in re.findall(r"[A-Za-z0-9_']+", l.lower()):
            out.append((w, n))
    return out


def is_c(path):
    return path.endswith((".c", ".h"))


def is_doc(path):
    return path.endswith(".rst")


def git(tree, *args):
    return subprocess.run(["git", "-C", tree] + list(args), check=True,
                          capture_output=True, text=True).stdout


def added_hunks(tree, base, tip):
    """(commit subject, path, [(new line number, text)]) per hunk of added lines."""
    hunks = []
    for commit in git(tree, "rev-list", "--reverse", f"{base}..{tip}").split():
        subject = git(tree, "log", "-1", "--format=%s", commit).strip()
        diff = git(tree, "show", "--format=", "-U0", commit)
        path = None
        cur = None
        newline = 0
        for l in diff.split("\n"):
            if l.startswith("+++ "):
                path = l[6:] if l.startswith("+++ b/") else None
                cur = None
            elif l.startswith("@@"):
                m = re.match(r"@@ -\S+ \+(\d+)", l)
                newline = int(m.group(1))
                cur = None
            elif l.startswith("+") and path:
                if cur is None:
                    cur = (subject, path, [])
                    hunks.append(cur)
                cur[2].append((newline, l[1:]))
                newline += 1
            elif l.startswith("-"):
                pass
            else:
                cur = None
    return hunks


def build_scratch(tree, hunks, scratch):
    dirs = sorted({os.path.dirname(p) for _, p, _ in hunks if is_c(p) or is_doc(p)})
    files = []
    for d in dirs:
        for p in git(tree, "ls-tree", "-r", "--name-only", "pristine", "--", d + "/").split("\n"):
            if p and os.path.dirname(p) == d and (is_c(p) or is_doc(p)):
                files.append(p)
    os.makedirs(os.path.join(scratch, "pristine"), exist_ok=True)
    if files:
        archive = subprocess.run(["git", "-C", tree, "archive", "pristine", "--"] + files,
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", os.path.join(scratch, "pristine")],
                       input=archive, check=True)
    pristine = {}
    for p in files:
        with open(os.path.join(scratch, "pristine", p), errors="replace") as f:
            pristine[p] = f.read()
    n = collections.Counter()
    for subject, path, lines in hunks:
        key = (subject, path)
        n[key] += 1
        slug = re.sub(r"[^A-Za-z0-9]+", "-", subject)[:60]
        dst = os.path.join(scratch, "added", slug, path + ".hunk%d" % n[key])
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "w") as f:
            f.write("\n".join(t for _, t in lines) + "\n")
    return pristine


def index(corpus, k):
    idx = collections.defaultdict(list)
    for path, toks in corpus.items():
        for i in range(len(toks) - k + 1):
            idx[tuple(t for t, _ in toks[i:i + k])].append((path, i))
    return idx


def runs(hunk_toks, corpus, idx, k, minimum):
    """Maximal runs of >= minimum tokens shared between the hunk and the corpus."""
    found = []
    i = 0
    n = len(hunk_toks)
    shape = [t for t, _ in hunk_toks]
    while i + k <= n:
        best = None
        for path, j in idx.get(tuple(shape[i:i + k]), ()):
            other = corpus[path]
            length = k
            while (i + length < n and j + length < len(other) and
                   shape[i + length] == other[j + length][0]):
                length += 1
            if best is None or length > best[0]:
                best = (length, path, j)
        if best and best[0] >= minimum:
            found.append((i, best))
            i += best[0]
        else:
            i += 1
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tree", default="build/src/linux")
    ap.add_argument("--base", default="pristine")
    ap.add_argument("--tip", default="HEAD")
    ap.add_argument("--scratch", default="build/dupscan")
    ap.add_argument("--min", type=int, default=40, help="C tokens")
    ap.add_argument("--min-words", type=int, default=25)
    a = ap.parse_args()

    hunks = added_hunks(a.tree, a.base, a.tip)
    subprocess.run(["rm", "-rf", a.scratch], check=True)
    pristine = build_scratch(a.tree, hunks, a.scratch)

    ccorpus = {p: c_tokens(t) for p, t in pristine.items() if is_c(p)}
    dcorpus = {p: word_tokens(t) for p, t in pristine.items() if is_doc(p)}
    k_c, k_d = 20, 12
    cidx = index(ccorpus, k_c)
    didx = index(dcorpus, k_d)

    total = collections.Counter()
    reported = 0
    for subject, path, lines in hunks:
        text = "\n".join(t for _, t in lines)
        if is_c(path):
            toks, corpus, idx, k, minimum, unit = c_tokens(text), ccorpus, cidx, k_c, a.min, "tokens"
        elif is_doc(path):
            toks, corpus, idx, k, minimum, unit = word_tokens(text), dcorpus, didx, k_d, a.min_words, "words"
        else:
            continue
        total[unit] += len(toks)
        for i, (length, ppath, j) in runs(toks, corpus, idx, k, minimum):
            a_first = lines[toks[i][1]][0]
            a_last = lines[toks[i + length - 1][1]][0]
            p_first = corpus[ppath][j][1] + 1
            p_last = corpus[ppath][j + length - 1][1] + 1
            print(f"{length:4d} {unit}: {path}:{a_first}-{a_last} (added by "
                  f"\"{subject}\") ~ pristine {ppath}:{p_first}-{p_last}")
            reported += 1
    print(f"scanned {len(hunks)} added hunks ({total['tokens']} C tokens, "
          f"{total['words']} words of documentation) against "
          f"{len(ccorpus)} pristine C files and {len(dcorpus)} documents "
          f"in {a.scratch}/pristine; {reported} shared runs of at least "
          f"{a.min} tokens / {a.min_words} words")


if __name__ == "__main__":
    sys.exit(main())
