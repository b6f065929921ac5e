"""Writes the sources (HTML, groff -ms, flat ODT) and the truths of the contents-page documents.

usage: python3 build.py OUTDIR  — writes OUTDIR/NAME.{html,ms,fodt} and OUTDIR/NAME.txt
"""
import html
import re
import sys
from pathlib import Path

from texts import DE, EN, FR, toc_entries, truth

OUT = Path(sys.argv[1])


def sup_html(text):
    return re.sub(r'\[(\d+)\]', r'<sup>\1</sup>', html.escape(text, quote=False))


def chromium(doc):
    """HTML: the first half of the contents drawn with a dotted-border spacer, the second half with literal dots."""
    rows = []
    entries = toc_entries(doc)
    for k, (level, num, title, page) in enumerate(entries):
        label = html.escape(' '.join(x for x in (num, title) if x))
        cls = f'row l{level}'
        if k < len(entries) // 2:
            rows.append(f'<div class="{cls}"><span class="t">{label}</span><span class="fill"></span><span class="n">{page}</span></div>')
        else:
            rows.append(f'<div class="{cls}"><span class="t">{label}</span><span class="dots">{" ." * 120}</span><span class="n">{page}</span></div>')
    body = []
    for num, title, sections in doc['chapters']:
        body.append(f'<h2 class="chap">{num} {html.escape(title)}</h2>')
        for snum, stitle, text in sections:
            body.append(f'<h3>{snum} {html.escape(stitle)}</h3>\n<p>{sup_html(text)}</p>')
    notes = ''.join(f'<p class="note">{i}. {html.escape(n)}</p>' for i, n in enumerate(doc['endnotes'], 1))
    return f'''<!DOCTYPE html>
<html lang="{doc['lang']}"><head><meta charset="utf-8"><title>{html.escape(doc['title'])}</title>
<style>
@page {{ size: A4; margin: 25mm 30mm; }}
body {{ font-family: "Noto Serif", serif; font-size: 11pt; line-height: 1.4; }}
h1 {{ font-size: 20pt; }}
h2 {{ font-size: 15pt; }}
h3 {{ font-size: 12pt; }}
.chap, .notes {{ break-before: page; }}
.row {{ display: flex; align-items: flex-end; margin: 0.25em 0; }}
.row.l1 {{ font-weight: bold; margin-top: 0.7em; }}
.row.l2 {{ padding-left: 1.5em; }}
.t {{ max-width: 80%; }}
.fill {{ flex: 1; border-bottom: 1.5px dotted #000; margin: 0 0.3em 0.3em; }}
.dots {{ flex: 1; overflow: hidden; white-space: nowrap; margin: 0 0.3em; }}
.n {{ min-width: 1.5em; text-align: right; }}
</style></head><body>
<h1>{html.escape(doc['title'])}</h1>
<h2>{html.escape(doc['contents'])}</h2>
{chr(10).join(rows)}
{chr(10).join(body)}
<h2 class="notes">{html.escape(doc['notes'])}</h2>
{notes}
</body></html>
'''


def ms_escape(text):
    text = text.replace('\\', '\\e')
    return re.sub(r'\[(\d+)\]', r'\\u\\s-2\1\\s+2\\d', text)


def groff(doc):
    """groff -ms: every chapter on a page of its own, entries gathered with .XS/.XE and printed by .TC."""
    out = ['.nr HY 0', '.nh', '.ds TOC ' + doc['contents'], '.TL', doc['title'], '.LP']
    first = True
    for num, title, sections in doc['chapters']:
        if not first:
            out.append('.bp')
        first = False
        out += ['.SH 1', f'{num} {title}', '.XS', f'{num} {title}', '.XE']
        for snum, stitle, text in sections:
            out += ['.SH 2', f'{snum} {stitle}', '.XS', f'{snum} {stitle}', '.XE', '.PP', ms_escape(text)]
    out += ['.bp', '.SH 1', doc['notes'], '.XS', doc['notes'], '.XE']
    for i, note in enumerate(doc['endnotes'], 1):
        out += ['.IP ' + f'{i}.' + ' 3n', note]
    out += ['.TC', '']
    return '\n'.join(out)


def x(text):
    return html.escape(text, quote=False)


def fodt(doc):
    """Flat ODT: a contents index with its body written out, right tabs with dotted leaders."""
    toc = []
    for level, num, title, page in toc_entries(doc):
        label = x(' '.join(t for t in (num, title) if t))
        toc.append(f'<text:p text:style-name="Contents_20_{level}">{label}<text:tab/>{page}</text:p>')
    body = []
    for k, (num, title, sections) in enumerate(doc['chapters']):
        style = 'H1break'
        body.append(f'<text:h text:style-name="{style}" text:outline-level="1">{x(num + " " + title)}</text:h>')
        for snum, stitle, text in sections:
            t = re.sub(r'\[(\d+)\]', r'<text:span text:style-name="Sup">\1</text:span>', x(text))
            body.append(f'<text:h text:style-name="Heading_20_2" text:outline-level="2">{x(snum + " " + stitle)}</text:h>')
            body.append(f'<text:p text:style-name="Text_20_body">{t}</text:p>')
    body.append(f'<text:h text:style-name="H1break" text:outline-level="1">{x(doc["notes"])}</text:h>')
    for i, note in enumerate(doc['endnotes'], 1):
        body.append(f'<text:p text:style-name="Text_20_body">{i}. {x(note)}</text:p>')
    lang = doc['lang']
    country = {'en': 'GB', 'de': 'DE', 'fr': 'FR'}[lang]
    return f'''<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:font-face-decls><style:font-face style:name="Noto Serif" svg:font-family="'Noto Serif'"/><style:font-face style:name="Noto Sans" svg:font-family="'Noto Sans'"/></office:font-face-decls>
<office:styles>
<style:default-style style:family="paragraph"><style:paragraph-properties fo:hyphenation-ladder-count="no-limit"/><style:text-properties style:font-name="Noto Serif" fo:font-size="11pt" fo:language="{lang}" fo:country="{country}" fo:hyphenate="false"/></style:default-style>
<style:style style:name="Standard" style:family="paragraph"/>
<style:style style:name="Text_20_body" style:display-name="Text body" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-bottom="0.2cm" fo:text-align="justify"/></style:style>
<style:style style:name="Title" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-bottom="0.6cm"/><style:text-properties style:font-name="Noto Sans" fo:font-size="20pt" fo:font-weight="bold"/></style:style>
<style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Standard" style:default-outline-level="1"><style:paragraph-properties fo:margin-top="0.4cm" fo:margin-bottom="0.3cm"/><style:text-properties style:font-name="Noto Sans" fo:font-size="15pt" fo:font-weight="bold"/></style:style>
<style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph" style:parent-style-name="Standard" style:default-outline-level="2"><style:paragraph-properties fo:margin-top="0.3cm" fo:margin-bottom="0.2cm"/><style:text-properties style:font-name="Noto Sans" fo:font-size="12pt" fo:font-weight="bold"/></style:style>
<style:style style:name="Contents_20_Heading" style:display-name="Contents Heading" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-bottom="0.4cm"/><style:text-properties style:font-name="Noto Sans" fo:font-size="15pt" fo:font-weight="bold"/></style:style>
<style:style style:name="Contents_20_1" style:display-name="Contents 1" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-top="0.25cm" fo:margin-left="0cm" fo:margin-right="1cm" fo:text-indent="0cm"><style:tab-stops><style:tab-stop style:position="16cm" style:type="right" style:leader-style="dotted" style:leader-text="."/></style:tab-stops></style:paragraph-properties><style:text-properties fo:font-weight="bold"/></style:style>
<style:style style:name="Contents_20_2" style:display-name="Contents 2" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-top="0.08cm" fo:margin-left="0.6cm" fo:margin-right="1cm" fo:text-indent="0cm"><style:tab-stops><style:tab-stop style:position="15.4cm" style:type="right" style:leader-style="dotted" style:leader-text="."/></style:tab-stops></style:paragraph-properties></style:style>
<style:style style:name="Sup" style:family="text"><style:text-properties style:text-position="super 58%"/></style:style>
</office:styles>
<office:automatic-styles>
<style:style style:name="H1break" style:family="paragraph" style:parent-style-name="Heading_20_1"><style:paragraph-properties fo:break-before="page"/></style:style>
<style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="2cm" fo:margin-bottom="2cm" fo:margin-left="2.5cm" fo:margin-right="2.5cm"/></style:page-layout>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1"/></office:master-styles>
<office:body><office:text>
<text:p text:style-name="Title">{x(doc['title'])}</text:p>
<text:table-of-content text:name="Contents1"><text:table-of-content-source text:outline-level="2"><text:index-title-template text:style-name="Contents_20_Heading">{x(doc['contents'])}</text:index-title-template></text:table-of-content-source>
<text:index-body><text:index-title text:name="Contents1_Head"><text:p text:style-name="Contents_20_Heading">{x(doc['contents'])}</text:p></text:index-title>
{chr(10).join(toc)}
</text:index-body></text:table-of-content>
{chr(10).join(body)}
</office:text></office:body></office:document>
'''


DOCS = [
    ('en-chromium-toc', EN, chromium, 'html', False, 'chromium', 'Chromium --print-to-pdf; contents with a dotted-border spacer (first half) and literal dots (second half)'),
    ('de-groff-toc', DE, groff, 'ms', True, 'groff-pdf', 'groff -ms -Tpdf (gropdf), .XS/.XE/.TC: the contents printed last, on page i'),
    ('fr-lo-fodt-toc', FR, fodt, 'fodt', False, 'lo-fodt', 'LibreOffice Writer from flat ODT: a contents index with right tabs and dotted leaders'),
]


def meta(name, doc, generator, detail, text):
    """The NAME.json beside the truth, in the shape of the shared corpus."""
    import json
    paras = text.strip('\n').split('\n\n')
    return json.dumps({
        'name': name, 'split': 'dev', 'languages': [doc['lang']], 'primary_language': doc['lang'],
        'scripts': ['Latin'], 'direction': 'ltr', 'generator': generator, 'generator_detail': detail,
        'postprocess': None,
        'layout': {'page_size': 'A4', 'columns': 1, 'align': 'left', 'hyphenation': False, 'letter_spacing': None,
                   'font': None, 'running_header': False, 'page_numbers': 'num' if generator == 'groff-pdf' else None,
                   'content_order': 'reading'},
        'pages': 6,
        'features': ['contents', 'dot-leaders', 'endnotes', 'heading', 'multi-page', 'single-column', 'superscript-marks'],
        'damage': [], 'source': {'text': 'written for this corpus'}, 'scoring': {'tokens': 'words'},
        'truth': {'paragraphs': len(paras), 'chars': len(text.strip())},
    }, ensure_ascii=False, indent=1) + '\n'

if __name__ == '__main__':
    OUT.mkdir(parents=True, exist_ok=True)
    for name, doc, make, ext, toc_last, generator, detail in DOCS:
        text = truth(doc, toc_last)
        (OUT / f'{name}.{ext}').write_text(make(doc), encoding='utf-8')
        (OUT / f'{name}.txt').write_text(text, encoding='utf-8')
        (OUT / f'{name}.json').write_text(meta(name, doc, generator, detail, text), encoding='utf-8')
