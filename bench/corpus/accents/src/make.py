"""Writes a document's LaTeX or groff source and its truth from NAME.src.

NAME.src: the title on the first line, headings as lines starting with '# ', paragraphs
separated by blank lines. Usage: make.py SRC (latex-ot1|latex-t1|groff-am) OUTBASE
(writes OUTBASE.tex or OUTBASE.ms, and OUTBASE.txt, the truth).
"""
import sys
import unicodedata

src, kind, out = sys.argv[1:4]
blocks = [b.strip() for b in open(src, encoding='utf-8').read().split('\n\n') if b.strip()]
title, rest = blocks[0].split('\n', 1) if '\n' in blocks[0] else (blocks[0], '')
parts = [('title', title)]
for block in ([rest] if rest else []) + blocks[1:]:
    lines = block.split('\n')
    if lines[0].startswith('# '):
        parts.append(('heading', lines[0][2:]))
        lines = lines[1:]
    if lines:
        parts.append(('para', ' '.join(l.strip() for l in lines)))

# TeX and groff both set the typewriter apostrophe as a right quote.
truth = [(role, text.replace("'", '\u2019')) for role, text in parts]
with open(out + '.txt', 'w', encoding='utf-8') as f:
    f.write('\n\n'.join(unicodedata.normalize('NFC', t) for _, t in truth) + '\n')

if kind.startswith('latex'):
    enc = '\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n' if kind == 'latex-t1' else ''
    body = []
    for role, text in parts:
        text = text.replace('&', '\\&').replace('%', '\\%')
        if role == 'title':
            body.append('{\\Large\\bfseries ' + text + '\\par}\n\\bigskip')
        elif role == 'heading':
            body.append('\\section*{' + text + '}')
        else:
            body.append(text + '\n')
    with open(out + '.tex', 'w', encoding='utf-8') as f:
        f.write('\\documentclass[11pt]{article}\n' + enc +
                '\\pagestyle{empty}\n\\hyphenpenalty=10000\\exhyphenpenalty=10000\\sloppy\n'
                '\\begin{document}\n' + '\n'.join(body) + '\\end{document}\n')
else:
    # groff ms with its improved accent marks (.AM): every accented letter is the base letter
    # followed by an accent string, which ms draws as a separate glyph over (or under) it.
    marks = {'\u0301': "\\*'", '\u0300': '\\*`', '\u0302': '\\*^', '\u0303': '\\*~', '\u0308': '\\*:',
             '\u030c': '\\*v', '\u030a': '\\*o', '\u0327': '\\*,'}
    def troff(text):
        res = ''
        for ch in text:
            d = unicodedata.normalize('NFD', ch)
            if len(d) == 2 and d[1] in marks:
                base = d[0]
                res += base + marks[d[1]]
            elif ch == 'ť' or ch == 'ď':
                res += ch
            else:
                res += ch
        return res
    body = ['.AM', '.nh']
    for role, text in parts:
        if role == 'title':
            body += ['.LP', '.ps +4', '\\fB' + troff(text) + '\\fP', '.ps -4']
        elif role == 'heading':
            body += ['.SH', troff(text)]
        else:
            body += ['.LP', troff(text)]
    with open(out + '.ms', 'w', encoding='utf-8') as f:
        f.write('\n'.join(body) + '\n')

# The metadata, in the shape of the shared corpus's NAME.json.
import json
import os
name = os.path.basename(out)
lang = name.split('-')[0]
latex = kind.startswith('latex')
meta = {
    'name': name, 'split': 'dev', 'languages': [lang], 'primary_language': lang, 'scripts': ['Latin'],
    'direction': 'ltr',
    'generator': 'pdflatex' if latex else 'groff',
    'generator_detail': ('pdfLaTeX, article class, ' + ('T1 encoding (Latin Modern): accented letters are glyphs of their own'
                         if kind == 'latex-t1' else 'OT1 encoding (Computer Modern): accents drawn by \\accent as separate glyphs over the letter'))
                        if latex else 'groff -Tps -ms with the improved accent marks (.AM): accents drawn as separate glyphs over the letter; ps2pdf',
    'postprocess': None if latex else 'ps2pdf',
    'layout': {'page_size': 'letter', 'columns': 1, 'align': 'justify', 'hyphenation': False, 'letter_spacing': None,
               'font': ('Latin Modern Roman' if kind == 'latex-t1' else 'Computer Modern Roman') if latex else 'Times',
               'running_header': False, 'page_numbers': None, 'content_order': 'reading'},
    'pages': 1,
    'features': ['heading', 'single-column', 'table-free', 'title'] + ([] if kind == 'latex-t1' else ['accents-as-separate-glyphs']),
    'damage': [],
    'text_layer': {'issues': [] if kind == 'latex-t1' else ['spacing-accents-drawn-apart']},
    'source': {'text': 'original'},
    'scoring': {'tokens': 'words'},
    'truth': {'paragraphs': len(parts), 'chars': sum(len(unicodedata.normalize('NFC', t)) for _, t in parts)},
}
with open(out + '.json', 'w', encoding='utf-8') as f:
    json.dump(meta, f, ensure_ascii=False, indent=1)
    f.write('\n')
