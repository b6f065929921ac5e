"""Writes the sources (HTML, flat ODT, LaTeX) and the truths of the table documents.

usage: python3 build.py OUTDIR  — writes OUTDIR/NAME.{html,fodt,tex}, OUTDIR/NAME.txt and NAME.json
"""
import html
import json
import sys
from pathlib import Path

from texts import DE, EN, ES, FR, truth

OUT = Path(sys.argv[1])
esc = lambda t: html.escape(t, quote=False)


def chromium(doc, page, extra_css=''):
    """HTML: a bordered table, cells wrapping inside their column, the header row in <th>."""
    head = ''.join(f'<th>{esc(c)}</th>' for c in doc['header'])
    rows = ''.join('<tr>' + ''.join(f'<td>{esc(c)}</td>' for c in row) + '</tr>\n' for row in doc['rows'])
    caption = f'<p class="caption">{esc(doc["caption"])}</p>'
    table = f'<table><thead><tr>{head}</tr></thead><tbody>\n{rows}</tbody></table>'
    before = ''.join(f'<p>{esc(p)}</p>' for p in doc['before'])
    after = ''.join(f'<p>{esc(p)}</p>' for p in doc['after'])
    return f'''<!DOCTYPE html>
<html lang="{doc['lang']}"><head><meta charset="utf-8"><title>{esc(doc['title'])}</title>
<style>
@page {{ size: {page}; margin: 20mm 25mm; }}
body {{ font-family: "DejaVu Serif", serif; font-size: 11pt; line-height: 1.35; }}
h1 {{ font-size: 18pt; }}
table {{ border-collapse: collapse; width: 100%; margin: 0.5em 0; }}
th, td {{ border: 1px solid #000; padding: 4px 6px; text-align: left; vertical-align: top; }}
.caption {{ font-style: italic; }}
{extra_css}
</style></head><body>
<h1>{esc(doc['title'])}</h1>
{before}
{caption if doc['caption_above'] else ''}
{table}
{'' if doc['caption_above'] else caption}
{after}
</body></html>
'''


def fodt(doc):
    """Flat ODT: a Writer table with borders on every cell, the caption paragraph below it."""
    x = lambda t: html.escape(t, quote=True)
    ncol = len(doc['header'])
    widths = [2.6, 3.2, 7.4, 2.3][:ncol]
    cols = ''.join(f'<style:style style:name="T.{chr(65 + i)}" style:family="table-column"><style:table-column-properties style:column-width="{w}cm"/></style:style>' for i, w in enumerate(widths))
    def row(cells, style):
        return '<table:table-row>' + ''.join(f'<table:table-cell table:style-name="Cell" office:value-type="string"><text:p text:style-name="{style}">{x(c)}</text:p></table:table-cell>' for c in cells) + '</table:table-row>'
    body = ''.join(f'<text:p text:style-name="Text">{x(p)}</text:p>' for p in doc['before'])
    table = (f'<table:table table:name="T" table:style-name="T">' + ''.join(f'<table:table-column table:style-name="T.{chr(65 + i)}"/>' for i in range(ncol))
             + f'<table:table-header-rows>{row(doc["header"], "Head")}</table:table-header-rows>'
             + ''.join(row(r, 'Cellp') for r in doc['rows']) + '</table:table>')
    caption = f'<text:p text:style-name="Cap">{x(doc["caption"])}</text:p>'
    after = ''.join(f'<text:p text:style-name="Text">{x(p)}</text:p>' for p in doc['after'])
    content = (f'<text:h text:style-name="Title" text:outline-level="1">{x(doc["title"])}</text:h>' + body
               + (caption + table if doc['caption_above'] else table + caption) + after)
    return f'''<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:styles>
<style:style style:name="Standard" style:family="paragraph"><style:text-properties style:font-name="DejaVu Sans" fo:font-family="DejaVu Sans" fo:font-size="11pt" fo:language="{doc['lang']}"/></style:style>
<style:style style:name="Text" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-bottom="0.25cm"/></style:style>
<style:style style:name="Title" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-bottom="0.4cm"/><style:text-properties fo:font-size="18pt" fo:font-weight="bold"/></style:style>
<style:style style:name="Head" style:family="paragraph" style:parent-style-name="Standard"><style:text-properties fo:font-weight="bold"/></style:style>
<style:style style:name="Cellp" style:family="paragraph" style:parent-style-name="Standard"/>
<style:style style:name="Cap" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-top="0.2cm" fo:margin-bottom="0.4cm"/><style:text-properties fo:font-style="italic"/></style:style>
</office:styles>
<office:automatic-styles>
<style:style style:name="T" style:family="table"><style:table-properties style:width="15.5cm" table:align="left"/></style:style>
{cols}
<style:style style:name="Cell" style:family="table-cell"><style:table-cell-properties fo:padding="0.1cm" fo:border="0.5pt solid #000000"/></style:style>
<style:page-layout style:name="PL"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="2cm" fo:margin-bottom="2cm" fo:margin-left="2.5cm" fo:margin-right="2.5cm"/></style:page-layout>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="PL"/></office:master-styles>
<office:body><office:text>{content}</office:text></office:body>
</office:document>
'''


def latex(doc):
    """pdfLaTeX: a ruled tabular, numbers right-aligned, the last column a paragraph column that wraps."""
    t = lambda s: s.replace('%', r'\%').replace('&', r'\&')
    head = ' & '.join(rf'\textbf{{{t(c)}}}' for c in doc['header']) + r' \\ \hline'
    rows = '\n'.join(' & '.join(t(c) for c in r) + r' \\ \hline' for r in doc['rows'])
    caption = rf'\begin{{center}}{t(doc["caption"])}\end{{center}}'
    return rf'''\documentclass[11pt,a4paper]{{article}}
\usepackage[utf8]{{inputenc}}
\usepackage[T1]{{fontenc}}
\usepackage{{lmodern}}
\pagestyle{{empty}}
\setlength{{\parindent}}{{0pt}}
\setlength{{\parskip}}{{6pt}}
\begin{{document}}
{{\Large\bfseries {t(doc['title'])}\par}}
{chr(10).join(t(p) for p in doc['before'])}

{caption if doc['caption_above'] else ''}
\begin{{center}}\renewcommand{{\arraystretch}}{{1.3}}
\begin{{tabular}}{{|l|r|r|r|p{{5cm}}|}}\hline
{head}
{rows}
\end{{tabular}}\end{{center}}
{'' if doc['caption_above'] else caption}
{chr(10).join(t(p) for p in doc['after'])}
\end{{document}}
'''


def meta(name, doc, generator, detail, features, page_size, text):
    paras = text.strip('\n').split('\n\n')
    return {
        'name': name, 'split': 'dev', 'languages': [doc['lang']], 'primary_language': doc['lang'],
        'scripts': ['Latin'], 'direction': 'ltr', 'generator': generator, 'generator_detail': detail,
        'postprocess': None,
        'layout': {'page_size': page_size, 'columns': 1, 'align': 'left', 'hyphenation': False,
                   'letter_spacing': None, 'font': None, 'running_header': False, 'page_numbers': None,
                   'content_order': 'reading'},
        'pages': 1, 'features': ['table', *features], 'damage': [],
        'source': {'text': 'written for this corpus'}, 'scoring': {'tokens': 'words'},
        'truth': {'paragraphs': len(paras), 'chars': sum(len(p) for p in paras)},
    }


DOCS = [
    ('en-chromium-table', EN, 'html', lambda d: chromium(d, 'A4'), 'chromium', 'Chromium --print-to-pdf, HTML table with borders, cells wrapping', ['caption-above', 'wrapping-cells', 'heading'], 'A4'),
    ('fr-chromium-landscape', FR, 'html', lambda d: chromium(d, 'A4 landscape'), 'chromium', 'Chromium --print-to-pdf, @page A4 landscape, five-column table', ['caption-above', 'wrapping-cells', 'landscape', 'heading'], 'A4 landscape'),
    ('de-lo-fodt-table', DE, 'fodt', fodt, 'libreoffice-writer', 'soffice --convert-to pdf from flat ODT, table with borders and a header row', ['caption-below', 'wrapping-cells', 'heading'], 'A4'),
    ('es-pdflatex-tabular', ES, 'tex', latex, 'pdflatex', 'pdfLaTeX, ruled tabular with a p{} column', ['caption-above', 'numbers', 'heading'], 'A4'),
]

for name, doc, ext, make, generator, detail, features, size in DOCS:
    text = truth(doc)
    (OUT / f'{name}.{ext}').write_text(make(doc), encoding='utf-8')
    (OUT / f'{name}.txt').write_text(text, encoding='utf-8')
    (OUT / f'{name}.json').write_text(json.dumps(meta(name, doc, generator, detail, features, size, text), ensure_ascii=False, indent=1) + '\n', encoding='utf-8')
