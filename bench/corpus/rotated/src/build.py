"""Writes the sources (LaTeX, HTML) and the truths of the rotated-text documents.

usage: python3 build.py OUTDIR  — writes OUTDIR/NAME.{tex,html}, NAME.txt and NAME.json
"""
import html
import json
import sys
from pathlib import Path

from texts import DE, EN, ES, FR, truth

OUT = Path(sys.argv[1])
PREAMBLE = ('\\documentclass[11pt]{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n\\usepackage{lmodern}\n'
            '\\usepackage{graphicx}\n\\usepackage{lscape}\n'
            '\\pagestyle{empty}\n\\hyphenpenalty=10000\\exhyphenpenalty=10000\\sloppy\n\\parskip=6pt\n')


def tex(text):
    return text.replace('&', '\\&').replace('%', '\\%').replace('’', "'")


def latex_stamp(doc):
    """pdfLaTeX: one page with a stamp rotated 90° in the left margin, as arXiv prints its identifier."""
    stamp = tex(doc['stamps'][0][0])
    body = '\n\n'.join(tex(p) for p in doc['pages'][0])
    return (PREAMBLE + '\\begin{document}\n'
            '\\noindent\\makebox[0pt][l]{\\hspace*{-2.2cm}\\raisebox{-16cm}[0pt][0pt]{\\rotatebox{90}{\\large\\sffamily ' + stamp + '}}}%\n'
            '{\\Large\\bfseries ' + tex(doc['title']) + '\\par}\n\\bigskip\n' + body + '\n\\end{document}\n')


def latex_landscape(doc):
    """pdfLaTeX: a portrait page with a label rotated 90° at its right edge, then a page whose content is drawn rotated (lscape)."""
    first = '\n\n'.join(tex(p) for p in doc['pages'][0])
    second = '\n\n'.join(tex(p) for p in doc['pages'][1])
    label = tex(doc['stamps'][0][0])
    return (PREAMBLE + '\\begin{document}\n'
            '{\\Large\\bfseries ' + tex(doc['title']) + '\\par}\n\\bigskip\n'
            '\\noindent\\makebox[0pt][l]{\\hspace*{\\dimexpr\\textwidth+1.2cm}\\raisebox{-12cm}[0pt][0pt]{\\rotatebox{-90}{\\itshape ' + label + '}}}%\n'
            + first + '\n\\begin{landscape}\n' + second + '\n\\end{landscape}\n\\end{document}\n')


def latex_rotate(doc):
    """pdfLaTeX: a second page shown turned a quarter by /Rotate 90 (its text read top to bottom on
    screen), with a stamp turned back 90° across its foot, upright on screen."""
    first = '\n\n'.join(tex(p) for p in doc['pages'][0])
    second = '\n\n'.join(tex(p) for p in doc['pages'][1])
    stamp = tex(doc['stamps'][1][0])
    return (PREAMBLE + '\\begin{document}\n'
            '{\\Large\\bfseries ' + tex(doc['title']) + '\\par}\n\\bigskip\n' + first + '\n\\newpage\n'
            '\\pdfpageattr{/Rotate 90}\n'
            '\\noindent\\makebox[0pt][l]{\\hspace*{-2.2cm}\\raisebox{-18cm}[0pt][0pt]{\\rotatebox{90}{\\sffamily ' + stamp + '}}}%\n'
            + second + '\n\\end{document}\n')


def chromium(doc):
    """HTML: a sidebar label turned -90° in the left margin and a note turned 12° in the corner."""
    label, note = doc['stamps'][0]
    paras = '\n'.join(f'<p>{html.escape(p)}</p>' for p in doc['pages'][0])
    return f'''<!DOCTYPE html>
<html lang="{doc['lang']}"><head><meta charset="utf-8"><title>{html.escape(doc['title'])}</title>
<style>
@page {{ size: A4; margin: 0; }}
body {{ margin: 0; font-family: "Noto Serif", serif; font-size: 12pt; line-height: 1.5; }}
main {{ margin: 30mm 30mm 0 40mm; }}
h1 {{ font-size: 20pt; }}
.side {{ position: absolute; left: 12mm; top: 200mm; transform-origin: 0 0; transform: rotate(-90deg);
         font-family: "Noto Sans", sans-serif; font-size: 11pt; white-space: nowrap; }}
.note {{ position: absolute; left: 95mm; top: 230mm; transform: rotate(-12deg);
         font-family: "Noto Sans", sans-serif; font-size: 12pt; white-space: nowrap; }}
</style></head><body>
<main><h1>{html.escape(doc['title'])}</h1>
{paras}
</main>
<div class="side">{html.escape(label)}</div>
<div class="note">{html.escape(note)}</div>
</body></html>
'''


DOCS = [
    ('en-pdflatex-stamp', EN, latex_stamp, 'tex', 'pdflatex', 'pdfLaTeX, article class; a stamp rotated 90° in the left margin (\\rotatebox)'),
    ('de-pdflatex-landscape', DE, latex_landscape, 'tex', 'pdflatex', 'pdfLaTeX, article class; a label rotated -90° at the right edge, a second page drawn rotated (lscape)'),
    ('es-pdflatex-rotate', ES, latex_rotate, 'tex', 'pdflatex', 'pdfLaTeX, article class; page 2 shown turned by /Rotate 90, with a stamp turned 90° in its margin'),
    ('fr-chromium-sidebar', FR, chromium, 'html', 'chromium', 'Chromium --print-to-pdf; a sidebar label rotated -90° and a note rotated -12° (CSS transform)'),
]


def meta(name, doc, generator, detail, text):
    """The NAME.json beside the truth, in the shape of the shared corpus."""
    paras = text.strip('\n').split('\n\n')
    return json.dumps({
        'name': name, 'split': 'dev', 'languages': [doc['lang']], 'primary_language': doc['lang'],
        'scripts': ['Latin'], 'direction': 'ltr', 'generator': generator, 'generator_detail': detail,
        'postprocess': None,
        'layout': {'page_size': 'A4' if generator == 'chromium' else 'Letter', 'columns': 1, 'align': 'left',
                   'hyphenation': False, 'letter_spacing': None, 'font': None, 'running_header': False,
                   'page_numbers': None, 'content_order': 'reading'},
        'pages': len(doc['pages']),
        'features': ['rotated-text', 'heading', 'single-column'] + (['multi-page', 'landscape'] if len(doc['pages']) > 1 else []),
        'damage': [], 'source': {'text': 'written for this corpus'}, 'scoring': {'tokens': 'words'},
        'truth': {'paragraphs': len(paras), 'chars': len(text.strip())},
    }, ensure_ascii=False, indent=1) + '\n'


if __name__ == '__main__':
    OUT.mkdir(parents=True, exist_ok=True)
    for name, doc, make, ext, generator, detail in DOCS:
        text = truth(doc)
        if generator == 'pdflatex':
            text = text.replace('’', '\u2019')
        (OUT / f'{name}.{ext}').write_text(make(doc), encoding='utf-8')
        (OUT / f'{name}.txt').write_text(text, encoding='utf-8')
        (OUT / f'{name}.json').write_text(meta(name, doc, generator, detail, text), encoding='utf-8')
