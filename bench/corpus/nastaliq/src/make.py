"""Writes a Nastaliq document's source (HTML or flat ODT) and its truth from NAME.src.

NAME.src: the title on the first line, headings as lines starting with '# ', paragraphs
separated by blank lines. Usage: make.py SRC (html|fodt) OUTBASE LINE_HEIGHT
(writes OUTBASE.html or OUTBASE.fodt, OUTBASE.txt, the truth, and OUTBASE.json).
LINE_HEIGHT: a CSS line-height or a Writer proportional line spacing ('normal' keeps the font's).
"""
import json
import os
import sys
import unicodedata
from xml.sax.saxutils import escape

src, kind, out, line_height = sys.argv[1:5]
blocks = [b.strip() for b in open(src, encoding='utf-8').read().split('\n\n') if b.strip()]
parts = []
for block in blocks:
    lines = block.split('\n')
    if lines[0].startswith('# '):
        parts.append(('heading', lines[0][2:]))
        lines = lines[1:]
    elif not parts:
        parts.append(('title', lines[0]))
        lines = lines[1:]
    if lines:
        parts.append(('para', ' '.join(l.strip() for l in lines)))

name = os.path.basename(out)
lang = name.split('-')[0]
FONT = 'Noto Nastaliq Urdu'
with open(out + '.txt', 'w', encoding='utf-8') as f:
    f.write('\n\n'.join(unicodedata.normalize('NFC', t) for _, t in parts) + '\n')

if kind == 'html':
    tags = {'title': 'h1', 'heading': 'h2', 'para': 'p'}
    body = '\n'.join(f'<{tags[r]}>{escape(t)}</{tags[r]}>' for r, t in parts)
    with open(out + '.html', 'w', encoding='utf-8') as f:
        f.write(f'<!DOCTYPE html>\n<html lang="{lang}" dir="rtl"><head><meta charset="utf-8">\n'
                f'<style>@page {{ size: A4; margin: 2cm; }} body {{ font-family: "{FONT}"; font-size: 15pt; '
                f'line-height: {line_height}; text-align: justify; }} h1 {{ font-size: 22pt; }} '
                f'h2 {{ font-size: 18pt; }}</style></head>\n<body>\n{body}\n</body></html>\n')
else:
    spacing = '' if line_height == 'normal' else f' fo:line-height="{line_height}"'
    styles = {'title': 'Title', 'heading': 'Heading', 'para': 'Body'}
    body = '\n'.join(f'<text:p text:style-name="{styles[r]}">{escape(t)}</text:p>' for r, t in parts)
    country = {'ur': 'PK', 'fa': 'IR'}[lang]
    def style(sname, size, bold):
        weight = ' style:font-weight-complex="bold"' if bold else ''
        return (f'<style:style style:name="{sname}" style:family="paragraph">'
                f'<style:paragraph-properties style:writing-mode="rl-tb" fo:text-align="{"start" if bold else "justify"}"'
                f' fo:margin-bottom="0.3cm"{spacing}/>'
                f'<style:text-properties style:font-name-complex="{FONT}" style:font-size-complex="{size}pt"'
                f' style:language-complex="{lang}" style:country-complex="{country}"{weight}/></style:style>')
    with open(out + '.fodt', 'w', encoding='utf-8') as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
                'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
                'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
                'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
                'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
                'office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">\n'
                f'<office:font-face-decls><style:font-face style:name="{FONT}" svg:font-family="\'{FONT}\'"/></office:font-face-decls>\n'
                '<office:styles>' + style('Title', 20, True) + style('Heading', 16, True) + style('Body', 14, False) +
                '</office:styles>\n<office:automatic-styles><style:page-layout style:name="pm1">'
                '<style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="2cm" '
                'fo:margin-bottom="2cm" fo:margin-left="2cm" fo:margin-right="2cm" style:writing-mode="rl-tb"/>'
                '</style:page-layout></office:automatic-styles>\n'
                '<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1"/></office:master-styles>\n'
                f'<office:body><office:text>\n{body}\n</office:text></office:body></office:document>\n')

# The metadata, in the shape of the shared corpus's NAME.json.
meta = {
    'name': name, 'split': 'dev', 'languages': [lang], 'primary_language': lang, 'scripts': ['Arabic'],
    'direction': 'rtl',
    'generator': 'chromium' if kind == 'html' else 'lo-fodt',
    'generator_detail': ('Chromium print-to-pdf (HTML+CSS)' if kind == 'html' else 'LibreOffice Writer from flat ODT')
                        + f', {FONT}, line height {line_height}',
    'postprocess': None,
    'layout': {'page_size': 'A4', 'columns': 1, 'align': 'justify', 'hyphenation': False, 'letter_spacing': None,
               'font': FONT, 'running_header': False, 'page_numbers': None, 'content_order': 'reading'},
    'pages': 1,
    'features': ['arabic-script', 'heading', 'justified', 'nastaliq', 'rtl', 'single-column', 'table-free', 'title'],
    'damage': [],
    'text_layer': {'issues': ['sloping-baseline']},
    'source': {'text': 'original'},
    'scoring': {'tokens': 'words'},
    'truth': {'paragraphs': len(parts), 'chars': sum(len(unicodedata.normalize('NFC', t)) for _, t in parts)},
}
with open(out + '.json', 'w', encoding='utf-8') as f:
    json.dump(meta, f, ensure_ascii=False, indent=1)
    f.write('\n')
