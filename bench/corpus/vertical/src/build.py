"""Writes the sources (HTML, flat ODT) and the truths of the vertical-writing documents.

usage: python3 build.py OUTDIR  — writes OUTDIR/NAME.{html,fodt}, NAME.txt and NAME.json
"""
import html
import json
import re
import sys
from pathlib import Path

from texts import JA, JA2, ZH, ZH2, plain, truth

OUT = Path(sys.argv[1])
FONTS = {'ja': 'IPAMincho', 'zh': 'AR PL UMing CN'}


def tcy_html(text):
    return re.sub(r'\[\[(\w+)\]\]', r'<span class="tcy">\1</span>', html.escape(text, quote=False))


def chromium(doc):
    """HTML in `writing-mode: vertical-rl` on A5 pages; numbers upright in the line (text-combine-upright)."""
    paras = '\n'.join(f'<p>{tcy_html(p)}</p>' for p in doc['paras'])
    return f'''<!DOCTYPE html>
<html lang="{doc['lang']}"><head><meta charset="utf-8"><title>{html.escape(doc['title'])}</title>
<style>
@page {{ size: 105mm 148mm; margin: 12mm; }}
html {{ writing-mode: vertical-rl; }}
body {{ font-family: "{FONTS[doc['lang']]}"; font-size: 12pt; line-height: 1.7; margin: 0; }}
h1 {{ font-size: 18pt; margin: 0 0 0 1.5em; }}
p {{ margin: 0; text-indent: 1em; }}
.tcy {{ text-combine-upright: all; }}
</style></head><body>
<h1>{html.escape(doc['title'])}</h1>
{paras}
</body></html>
'''


def x(text):
    return html.escape(text, quote=False)


def fodt(doc):
    """Flat ODT whose page is set top to bottom, right to left (`tb-rl`)."""
    lang = doc['lang']
    country = {'ja': 'JP', 'zh': 'CN'}[lang]
    font = FONTS[lang]
    paras = '\n'.join(f'<text:p text:style-name="Text_20_body">{x(plain(p))}</text:p>' for p in doc['paras'])
    return f'''<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:font-face-decls><style:font-face style:name="{font}" svg:font-family="'{font}'"/></office:font-face-decls>
<office:styles>
<style:default-style style:family="paragraph"><style:text-properties style:font-name-asian="{font}" style:font-name="{font}" fo:font-size="12pt" style:font-size-asian="12pt" style:language-asian="{lang}" style:country-asian="{country}"/></style:default-style>
<style:style style:name="Standard" style:family="paragraph"/>
<style:style style:name="Text_20_body" style:display-name="Text body" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:text-indent="12pt" fo:line-height="160%"/></style:style>
<style:style style:name="Title" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-bottom="0.6cm"/><style:text-properties fo:font-size="18pt" style:font-size-asian="18pt"/></style:style>
</office:styles>
<office:automatic-styles>
<style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="14.8cm" fo:page-height="21cm" fo:margin-top="1.8cm" fo:margin-bottom="1.8cm" fo:margin-left="1.8cm" fo:margin-right="1.8cm" style:writing-mode="tb-rl"/></style:page-layout>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1"/></office:master-styles>
<office:body><office:text>
<text:p text:style-name="Title">{x(doc['title'])}</text:p>
{paras}
</office:text></office:body></office:document>
'''


DOCS = [
    ('ja-chromium-vrl', JA, chromium, 'html', 'chromium', 'Chromium --print-to-pdf; writing-mode: vertical-rl, A6 (two pages), numbers with text-combine-upright'),
    ('zh-chromium-vrl', ZH, chromium, 'html', 'chromium', 'Chromium --print-to-pdf; writing-mode: vertical-rl, A6 (two pages), numbers with text-combine-upright'),
    ('ja-lo-fodt-tbrl', JA2, fodt, 'fodt', 'lo-fodt', 'LibreOffice Writer from flat ODT; page writing-mode tb-rl, A5'),
    ('zh-lo-fodt-tbrl', ZH2, fodt, 'fodt', 'lo-fodt', 'LibreOffice Writer from flat ODT; page writing-mode tb-rl, A5'),
]


def meta(name, doc, generator, detail, text):
    """The NAME.json beside the truth, in the shape of the shared corpus."""
    paras = text.strip('\n').split('\n\n')
    return json.dumps({
        'name': name, 'split': 'dev', 'languages': [doc['lang']], 'primary_language': doc['lang'],
        'scripts': ['Han', 'Hiragana', 'Katakana'] if doc['lang'] == 'ja' else ['Han'], 'direction': 'ttb',
        'generator': generator, 'generator_detail': detail, 'postprocess': None,
        'layout': {'page_size': 'A6' if generator == 'chromium' else 'A5', 'columns': 1, 'align': 'left', 'hyphenation': False, 'letter_spacing': None,
                   'font': FONTS[doc['lang']], 'running_header': False, 'page_numbers': None,
                   'content_order': 'reading', 'writing_mode': 'vertical-rl'},
        'features': ['vertical-writing', 'cjk', 'heading', 'single-column'] + (['multi-page'] if generator == 'chromium' else []),
        'damage': [], 'source': {'text': 'written for this corpus'}, 'scoring': {'tokens': 'char-bigrams'},
        'truth': {'paragraphs': len(paras), 'chars': len(text.strip())},
    }, ensure_ascii=False, indent=1) + '\n'


if __name__ == '__main__':
    OUT.mkdir(parents=True, exist_ok=True)
    for name, doc, make, ext, generator, detail in DOCS:
        text = truth(doc)
        (OUT / f'{name}.{ext}').write_text(make(doc), encoding='utf-8')
        (OUT / f'{name}.txt').write_text(text, encoding='utf-8')
        (OUT / f'{name}.json').write_text(meta(name, doc, generator, detail, text), encoding='utf-8')
