#!/usr/bin/env python3
"""Paragraphs across breaks: does pdfpipe keep a truth paragraph whole where a page or column
break cuts it?

usage: python3 bench/breaks.py [GT_DIR] [--ndjson DIR] [--docs NAME,...] [--verbose]

Runs `pdfpipe extract --format ndjson` on GT_DIR's PDFs (or reads DIR/NAME.ndjson written by an
earlier run with --ndjson), and for every document:

  1. lays out the text the way `serialize --format text` does: body blocks in order, a block that
     `continues` appended to the last body paragraph, footnotes after the body, furniture left
     out; every character is tagged with its page, its layout block (the `block` of its lines:
     a column or a box) and the output paragraph it lands in;
  2. aligns the truth's non-space characters with those characters (../shared/eval/score.py's
     alignment, the one the paragraph F1 uses);
  3. finds the truth paragraphs whose aligned characters lie on two pages (a page break) or in
     two layout blocks of one page (a column or box break), and checks that the characters on
     both sides of every such break land in one output paragraph.

Prints, per document with a break inside a truth paragraph, how many such breaks there are and
how many were kept whole, and (with --verbose, or for every break that was not) the text on both
sides and the rule `join` gave the block after the break. Exit status 0; the counts are the result.
Needs the built CLI (dist/bin/pdfpipe.js) and ../shared/eval/score.py. Standard library only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
sys.path.insert(0, os.path.join(SHARED, "eval"))
import score  # noqa: E402  (../shared/eval/score.py)

FURNITURE = {"header", "footer", "page-number"}


def fragments(records):
    """Blocks in output order: [(text, page, layout block, output paragraph, joinRule, block)]."""
    body, notes = [], []
    paragraphs = 0
    last_body = -1
    for rec in records:
        if rec.get("type") != "page":
            continue
        blocks = rec.get("blocks") or []
        lines = rec.get("lines") or []
        layout = []
        if sum(b.get("lines", 0) for b in blocks) == len(lines):
            at = 0
            for b in blocks:
                own = lines[at:at + b["lines"]]
                at += b["lines"]
                layout.append(own[0]["block"] if own else None)
        else:
            layout = [None] * len(blocks)
        for b, lb in zip(blocks, layout):
            if b["role"] in FURNITURE:
                continue
            text = " ".join(b["text"].split())
            if not text:
                continue
            if b["role"] == "footnote":
                notes.append([text, rec["page"], lb, None, b.get("joinRule"), b])
            elif b.get("continues") and last_body >= 0:
                body.append([text, rec["page"], lb, last_body, b.get("joinRule"), b])
            else:
                body.append([text, rec["page"], lb, paragraphs, b.get("joinRule"), b])
                if b["role"] in ("body", "list") and b.get("joinRule") != "note":
                    last_body = paragraphs
                paragraphs += 1
    for n in notes:
        n[3] = paragraphs
        paragraphs += 1
    return body + notes


def audit(truth_raw, records):
    """-> list of breaks inside truth paragraphs: dict(kind, kept, left, right, rule)."""
    t_paras = score.paragraphs(score.normalize(truth_raw))
    tc, _, tps = score.spaced_chars(t_paras)
    t_para = []
    k = 0
    for f in tps:
        if f:
            k += 1
        t_para.append(k)
    frags = fragments(records)
    oc, tags = [], []
    for fi, (text, page, lb, para, rule, _) in enumerate(frags):
        for c in score.normalize(text):
            if not c.isspace():
                oc.append(c)
                tags.append((page, lb, para, fi))
    if not tc or not oc:
        return []
    pairs = score.align(tc, "".join(oc))
    breaks = []
    prev = None
    for i, j in pairs:
        if prev is not None and t_para[prev[0]] == t_para[i]:
            (pg0, lb0, p0, f0), (pg1, lb1, p1, f1) = tags[prev[1]], tags[j]
            kind = "page" if pg0 != pg1 else "column" if (lb0 != lb1 and f0 != f1) else None
            if kind:
                left = "".join(tc[max(0, prev[0] - 30):prev[0] + 1])
                right = "".join(tc[i:i + 30])
                lb_, rb_ = frags[f0][5], frags[f1][5]
                fonts = f"{lb_['font']} {lb_['size']:g} | {rb_['font']} {rb_['size']:g}"
                breaks.append(dict(kind=kind, kept=p0 == p1, left=left, right=right, rule=frags[f1][4], fonts=fonts))
        prev = (i, j)
    return breaks


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("gt", nargs="?", default=os.path.join(SHARED, "corpus", "gt"))
    ap.add_argument("--ndjson", help="folder of NAME.ndjson from `pdfpipe extract --format ndjson --out-dir`")
    ap.add_argument("--docs", help="comma-separated document names")
    ap.add_argument("--verbose", action="store_true", help="show every break, not only the broken ones")
    args = ap.parse_args(argv)
    names = sorted(f[:-4] for f in os.listdir(args.gt) if f.endswith(".pdf"))
    if args.docs:
        wanted = set(args.docs.split(","))
        names = [n for n in names if n in wanted]
    if args.ndjson:
        return report(args, names, args.ndjson)
    with tempfile.TemporaryDirectory(prefix="pdfpipe-breaks-") as folder:
        cli = os.path.join(ROOT, "dist", "bin", "pdfpipe.js")
        pdfs = [os.path.join(args.gt, n + ".pdf") for n in names]
        subprocess.run(["node", cli, "extract", "--quiet", "--format", "ndjson", "--out-dir", folder, *pdfs], check=True)
        return report(args, names, folder)


def report(args, names, folder):
    """Audits every document of `names` whose NDJSON is in `folder`; prints the counts."""
    total = kept = 0
    by_kind = {"page": [0, 0], "column": [0, 0]}
    for name in names:
        truth_path = os.path.join(args.gt, name + ".txt")
        if not os.path.exists(truth_path):
            truth_path = os.path.join(args.gt, name + ".body.txt")
        path = os.path.join(folder, name + ".ndjson")
        if not os.path.exists(truth_path) or not os.path.exists(path):
            continue
        with open(truth_path, encoding="utf-8") as f:
            truth = f.read()
        with open(path, encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        breaks = audit(truth, records)
        if not breaks:
            continue
        ok = sum(b["kept"] for b in breaks)
        total += len(breaks)
        kept += ok
        for b in breaks:
            by_kind[b["kind"]][0] += 1
            by_kind[b["kind"]][1] += b["kept"]
        print(f"{name:32} {ok}/{len(breaks)} kept")
        for b in breaks:
            if args.verbose or not b["kept"]:
                mark = "kept " if b["kept"] else "SPLIT"
                print(f"    {mark} {b['kind']:6} {b['left'][-30:]!s:>30} | {b['right'][:30]}   [{b['rule']}; {b['fonts']}]")
    for kind, (n, k) in by_kind.items():
        print(f"{kind} breaks inside truth paragraphs: {k}/{n} kept")
    print(f"all: {kept}/{total} kept")
    return 0


if __name__ == "__main__":
    sys.exit(main())
