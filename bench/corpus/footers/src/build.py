"""Sources, truths and role labels of the running-footer documents: multi-page texts whose pages
carry a running footer (text repeated in the bottom margin besides the page number), each set by
another producer in another design, and one with a page number alone for contrast.

usage: python3 build.py sources OUT         write OUT/NAME.{fodt,tex,ms,html}, OUT/NAME.txt and OUT/NAME.json
       python3 build.py labels PDFDIR OUT   write OUT/NAME.roles.json from the PDFs in PDFDIR

The labels (the format of bench/roles.ts) list every paragraph as a reader reads each page: the
running header, the page's title, headings and paragraphs, then the footer and page number. The
roles come from the sources; only the page a paragraph starts on is read from the PDF (with
pdftotext, its text squeezed to letters and digits, the paragraphs found one after another).
"""
import html
import json
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

from texts import DE, EN, ES, FR, blocks, truth

esc = lambda t: html.escape(t, quote=False)
xml = lambda t: html.escape(t, quote=True)


# ---- Furniture: what each document prints above and below the text of page p of n, as
# (role, text) pairs in reading order (left to right). The sources below print exactly these.

EN_LO_FOOT = 'Harbour Board · Review of the 2023 ferry season'
EN_TEX_ODD = 'Harbour Board, Port Ellery'
DE_TEX_FOOT = 'Jahresbericht der Wetterstation'
DE_GROFF_HEAD = ('Wetterstation am Kammweg', 'Beobachtungsjahr 2023')
DE_GROFF_FOOT = 'Arbeitskreis Wetter, Oberau'
FR_FOOT = 'Le jardin partagé — lettre d’automne'


def en_lo_furniture(p, n):
    return [], [('footer', EN_LO_FOOT), ('page-number', f'Page {p} of {n}')]


def en_tex_furniture(p, n):
    # twoside: the page number on the outer edge, the footer text on the inner one, and the text
    # alternating, the organisation on odd pages and the title on even ones.
    if p % 2 == 1:
        return [], [('footer', EN_TEX_ODD), ('page-number', str(p))]
    return [], [('page-number', str(p)), ('footer', EN['title'])]


def de_tex_furniture(p, n):
    return [], [('footer', DE_TEX_FOOT), ('page-number', str(p))]


def de_groff_furniture(p, n):
    # -ms prints no page header on page 1.
    top = [] if p == 1 else [('header', DE_GROFF_HEAD[0]), ('header', DE_GROFF_HEAD[1])]
    return top, [('footer', DE_GROFF_FOOT), ('page-number', f'Seite {p}')]


def fr_furniture(p, n):
    return [], [('footer', FR_FOOT), ('page-number', f'page {p} sur {n}')]


def es_furniture(p, n):
    return [], [('page-number', str(p))]


# ---- Sources

def fodt(doc):
    """LibreOffice Writer, A5: a footer (sans, smaller, a rule above) holding the report's name
    and, at a right tab, "Page N of M" from the page-number and page-count fields."""
    body = []
    for role, text in blocks(doc):
        if role == 'title':
            body.append(f'<text:h text:style-name="Title" text:outline-level="1">{xml(text)}</text:h>')
        elif role == 'heading':
            body.append(f'<text:h text:style-name="Head" text:outline-level="2">{xml(text)}</text:h>')
        else:
            body.append(f'<text:p text:style-name="Text">{xml(text)}</text:p>')
    return f'''<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:styles>
<style:style style:name="Standard" style:family="paragraph"><style:text-properties style:font-name="Liberation Serif" fo:font-family="Liberation Serif" fo:font-size="11pt" fo:language="{doc['lang']}" fo:hyphenate="false"/></style:style>
<style:style style:name="Text" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-bottom="0.2cm" fo:text-align="justify"/></style:style>
<style:style style:name="Title" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-bottom="0.5cm"/><style:text-properties fo:font-size="18pt" fo:font-weight="bold"/></style:style>
<style:style style:name="Head" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-top="0.35cm" fo:margin-bottom="0.15cm" fo:keep-with-next="always"/><style:text-properties fo:font-size="13pt" fo:font-weight="bold"/></style:style>
<style:style style:name="Footer" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:padding-top="0.1cm" fo:border-top="0.5pt solid #000000"><style:tab-stops><style:tab-stop style:position="11.2cm" style:type="right"/></style:tab-stops></style:paragraph-properties><style:text-properties style:font-name="Liberation Sans" fo:font-family="Liberation Sans" fo:font-size="8.5pt"/></style:style>
</office:styles>
<office:automatic-styles>
<style:page-layout style:name="PL"><style:page-layout-properties fo:page-width="14.8cm" fo:page-height="21cm" fo:margin-top="1.8cm" fo:margin-bottom="1.2cm" fo:margin-left="1.8cm" fo:margin-right="1.8cm"/>
<style:footer-style><style:header-footer-properties fo:min-height="0.6cm" fo:margin-top="0.5cm"/></style:footer-style></style:page-layout>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="PL"><style:footer><text:p text:style-name="Footer">{xml(EN_LO_FOOT)}<text:tab/>Page <text:page-number text:select-page="current">1</text:page-number> of <text:page-count>1</text:page-count></text:p></style:footer></style:master-page></office:master-styles>
<office:body><office:text>{''.join(body)}</office:text></office:body>
</office:document>
'''


def tex_escape(t):
    return t.replace('&', r'\&').replace('%', r'\%')


def latex(doc, preamble, footer):
    """pdfLaTeX on A5 with fancyhdr: `preamble` sets the language and class options, `footer`
    the fancyhdr fields."""
    body = []
    for role, text in blocks(doc):
        if role == 'title':
            body.append(rf'{{\LARGE\bfseries {tex_escape(text)}\par}}\bigskip')
        elif role == 'heading':
            body.append(rf'\section*{{{tex_escape(text)}}}')
        else:
            body.append(tex_escape(text) + '\n')
    return (preamble + r'''\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{lmodern}
\usepackage[a5paper,top=18mm,bottom=24mm,inner=18mm,outer=18mm,footskip=12mm]{geometry}
\usepackage{fancyhdr}
\pagestyle{fancy}
\fancyhf{}
\renewcommand{\headrulewidth}{0pt}
''' + footer + '\\begin{document}\n' + '\n'.join(body) + '\n\\end{document}\n')


def en_latex(doc):
    return latex(doc, '\\documentclass[10pt,twoside]{article}\n',
                 rf'''\fancyfoot[LE,RO]{{\thepage}}
\fancyfoot[LO]{{\small {tex_escape(EN_TEX_ODD)}}}
\fancyfoot[RE]{{\small {tex_escape(doc['title'])}}}
''')


def de_latex(doc):
    return latex(doc, '\\documentclass[11pt]{article}\n\\usepackage[ngerman]{babel}\n',
                 rf'''\fancyfoot[L]{{\footnotesize {DE_TEX_FOOT}}}
\fancyfoot[C]{{\thepage}}
\renewcommand{{\footrulewidth}}{{0.4pt}}
''')


def groff_ms(doc):
    """groff -ms on A5: the page header (LH, RH) and footer (LF, RF) strings, the footer set in
    the body's size as -ms does."""
    out = [r'.\" running header and footer', '.nr PS 11', '.nr VS 14', '.nr PO 1.8c', '.nr LL 11.2c', '.nr HM 2.2c', '.nr FM 2.4c',
           f'.ds LH {DE_GROFF_HEAD[0]}', '.ds CH', f'.ds RH {DE_GROFF_HEAD[1]}',
           f'.ds LF {DE_GROFF_FOOT}', '.ds CF', r'.ds RF Seite \\n(PN', '.hla de', '.hpf hyphen.den']
    for role, text in blocks(doc):
        if role == 'title':
            out += ['.TL', text]
        elif role == 'heading':
            out += ['.SH', text]
        else:
            out += ['.PP', text]
    return '\n'.join(out) + '\n'


def chromium(doc, margin_boxes):
    """Chromium, A5: the footer drawn by CSS @page margin boxes."""
    parts = []
    for role, text in blocks(doc):
        tag = {'title': 'h1', 'heading': 'h2', 'body': 'p'}[role]
        parts.append(f'<{tag}>{esc(text)}</{tag}>')
    return f'''<!DOCTYPE html>
<html lang="{doc['lang']}"><head><meta charset="utf-8"><title>{esc(doc['title'])}</title>
<style>
@page {{ size: A5; margin: 18mm 17mm 22mm 17mm;
{margin_boxes}
}}
body {{ font-family: "DejaVu Serif", serif; font-size: 10.5pt; line-height: 1.4; text-align: justify; }}
h1 {{ font-size: 17pt; margin: 0 0 0.8em; }}
h2 {{ font-size: 12.5pt; margin: 1em 0 0.3em; break-after: avoid; }}
p {{ margin: 0 0 0.5em; }}
</style></head><body>
{chr(10).join(parts)}
</body></html>
'''


FR_BOXES = f'''  @bottom-left {{ content: "{FR_FOOT}"; font: 8pt "DejaVu Sans", sans-serif; vertical-align: top; padding-top: 4mm; }}
  @bottom-right {{ content: "page " counter(page) " sur " counter(pages); font: 8pt "DejaVu Sans", sans-serif; vertical-align: top; padding-top: 4mm; }}'''
ES_BOXES = '''  @bottom-center { content: counter(page); font: 9pt "DejaVu Serif", serif; vertical-align: top; padding-top: 4mm; }'''

# name, text, source extension, source, generator, generator detail, furniture, features
DOCS = [
    ('en-lo-footer', EN, 'fodt', fodt, 'libreoffice-writer',
     'soffice --convert-to pdf from flat ODT, A5, a footer paragraph (rule above) with text and "Page N of M" fields at a right tab',
     en_lo_furniture, ['running-footer', 'page-numbers']),
    ('en-pdflatex-twoside', EN, 'tex', en_latex, 'pdflatex',
     'pdfLaTeX, article twoside on A5, fancyhdr: page number on the outer edge, footer text on the inner one, alternating odd/even',
     en_tex_furniture, ['running-footer', 'alternating-footer', 'page-numbers']),
    ('de-pdflatex-fancyhdr', DE, 'tex', de_latex, 'pdflatex',
     'pdfLaTeX, article on A5, fancyhdr: footer text left, page number centred, a rule above',
     de_tex_furniture, ['running-footer', 'page-numbers', 'hyphenation']),
    ('de-groff-ms', DE, 'ms', groff_ms, 'groff-pdf',
     'groff -ms -Tpdf (gropdf) on A5, page header LH/RH and footer LF/RF strings',
     de_groff_furniture, ['running-header', 'running-footer', 'page-numbers', 'hyphenation']),
    ('fr-chromium-margin-boxes', FR, 'html', lambda d: chromium(d, FR_BOXES), 'chromium',
     'Chromium --print-to-pdf, A5, CSS @page @bottom-left and @bottom-right margin boxes: footer text and "page N sur M"',
     fr_furniture, ['running-footer', 'page-numbers']),
    ('es-chromium-page-number', ES, 'html', lambda d: chromium(d, ES_BOXES), 'chromium',
     'Chromium --print-to-pdf, A5, CSS @page @bottom-center margin box: the page number alone',
     es_furniture, ['page-numbers']),
]


def meta(name, doc, generator, detail, features, text):
    paras = text.strip('\n').split('\n\n')
    return {
        'name': name, 'split': 'dev', 'languages': [doc['lang']], 'primary_language': doc['lang'],
        'scripts': ['Latin'], 'direction': 'ltr', 'generator': generator, 'generator_detail': detail,
        'postprocess': None,
        'layout': {'page_size': 'A5', 'columns': 1, 'align': 'justify', 'hyphenation': 'hyphenation' in features,
                   'letter_spacing': None, 'font': None, 'running_header': 'running-header' in features,
                   'page_numbers': 'num', 'content_order': 'reading'},
        'pages': None, 'features': ['header-footer', 'heading', 'multi-page', 'single-column', 'title', *features], 'damage': [],
        'source': {'text': 'written for this corpus'}, 'scoring': {'tokens': 'words'},
        'truth': {'paragraphs': len(paras), 'chars': sum(len(p) for p in paras)},
    }


def sources(out):
    for name, doc, ext, make, generator, detail, _, features in DOCS:
        text = truth(doc)
        (out / f'{name}.{ext}').write_text(make(doc), encoding='utf-8')
        (out / f'{name}.txt').write_text(text, encoding='utf-8')
        (out / f'{name}.json').write_text(json.dumps(meta(name, doc, generator, detail, features, text), ensure_ascii=False, indent=1) + '\n', encoding='utf-8')


# ---- Labels

def squeeze(text):
    """Lower-case letters and digits without accents, as bench/roles.ts compares text."""
    folded = unicodedata.normalize('NFKD', text)
    folded = ''.join(c for c in folded if not unicodedata.combining(c)).lower()
    return re.sub(r'[\W_]+', '', folded)


def page_texts(pdf):
    pages = int(re.search(r'^Pages:\s+(\d+)', subprocess.run(['pdfinfo', str(pdf)], capture_output=True, text=True, check=True).stdout, re.M).group(1))
    return [subprocess.run(['pdftotext', '-f', str(p), '-l', str(p), '-enc', 'UTF-8', str(pdf), '-'], capture_output=True, text=True, check=True).stdout
            for p in range(1, pages + 1)]


# A paragraph is found by its first (and last) this many squeezed characters.
KEY = 30


def start_pages(paras, texts):
    """The page each paragraph starts on: its squeezed start looked for after the end of the one
    before it, in the squeezed text of all pages run together."""
    squeezed = [squeeze(t) for t in texts]
    whole = ''.join(squeezed)
    ends = []
    at = 0
    for s in squeezed:
        at += len(s)
        ends.append(at)
    cursor = 0
    found = []
    for text in paras:
        key = squeeze(text)
        start = whole.find(key[:KEY], cursor)
        if start < 0:
            raise SystemExit(f'paragraph not found in the PDF text: {text[:60]!r}')
        found.append(next(i for i, e in enumerate(ends) if start < e) + 1)
        end = whole.find(key[-KEY:], start)
        cursor = end + KEY if end >= 0 and len(key) > KEY else start + len(key[:KEY])
    return found


def labels(pdf_dir, out):
    for name, doc, _, _, _, _, furniture, _ in DOCS:
        texts = page_texts(pdf_dir / f'{name}.pdf')
        content = blocks(doc)
        pages = start_pages([t for _, t in content], texts)
        n = len(texts)
        entries = []
        for p in range(1, n + 1):
            top, bottom = furniture(p, n)
            entries += [{'role': r, 'page': p, 'text': t} for r, t in top]
            entries += [{'role': r, 'page': p, 'text': t[:60]} for (r, t), q in zip(content, pages) if q == p]
            entries += [{'role': r, 'page': p, 'text': t} for r, t in bottom]
        lines = ',\n'.join('  ' + json.dumps(e, ensure_ascii=False) for e in entries)
        (out / f'{name}.roles.json').write_text(f'[\n{lines}\n]\n', encoding='utf-8')


if __name__ == '__main__':
    if sys.argv[1:2] == ['sources'] and len(sys.argv) == 3:
        sources(Path(sys.argv[2]))
    elif sys.argv[1:2] == ['labels'] and len(sys.argv) == 4:
        labels(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        raise SystemExit(__doc__)
