"""Builds one document set in a TeX bitmap font: the text of src/type3-LANG.txt typeset by LaTeX in
T1 encoding with every font map emptied, so no outline font stands in and the EC fonts are drawn
from Metafont bitmaps (PK) as Type 3 fonts without a Unicode map. ROUTE pdflatex writes the PDF
itself (glyph names a0…a255); ROUTE dvips goes through dvips and Ghostscript's ps2pdf (glyph
names of the T1 encoding). The truth is the source text; the metadata is shaped like
../shared/corpus/gt's.

usage: type3.py NAME LANG ROUTE OUTDIR
"""
import json, os, subprocess, sys

name, lang, route, out = sys.argv[1:5]
here = os.path.dirname(os.path.abspath(__file__))
blocks = [b.strip() for b in open(os.path.join(here, f'type3-{lang}.txt'), encoding='utf-8').read().split('\n\n') if b.strip()]
title, paragraphs = blocks[0], blocks[1:]
base = os.path.join(out, name)
tex = ('\\documentclass[11pt]{article}\\usepackage[a5paper,margin=18mm]{geometry}\\usepackage[T1]{fontenc}'
       '\\usepackage[utf8]{inputenc}\\pagestyle{empty}\\setlength{\\parindent}{0pt}\\setlength{\\parskip}{0.8em}'
       '\\begin{document}' + f'{{\\Large\\bfseries {title}\\par}}\n' + ''.join(f'{p}\\par\n' for p in paragraphs) + '\\end{document}\n')
open(base + '.tex', 'w', encoding='utf-8').write(tex)
maps = os.path.join(out, 'maps')
os.makedirs(maps, exist_ok=True)
for empty in ('pdftex.map', 'psfonts.map'):
    open(os.path.join(maps, empty), 'w').close()
env = {**os.environ, 'TEXFONTMAPS': maps}
run = lambda *cmd: subprocess.run(cmd, check=True, capture_output=True, env=env, cwd=out)
if route == 'pdflatex':
    run('pdflatex', '-interaction=batchmode', name + '.tex')
else:
    run('latex', '-interaction=batchmode', name + '.tex')
    run('dvips', '-q', '-o', name + '.ps', name + '.dvi')
    run('ps2pdf', name + '.ps', name + '.pdf')
open(base + '.txt', 'w', encoding='utf-8').write('\n\n'.join(blocks) + '\n')
meta = {'name': name, 'split': 'bench', 'languages': [lang], 'primary_language': lang, 'scripts': ['Latin'],
        'direction': 'ltr', 'generator': route, 'postprocess': 'T1 encoding, font maps emptied: Metafont bitmaps as Type 3 fonts' + (', dvips, ps2pdf' if route == 'dvips' else ''),
        'layout': {'page_size': 'A5', 'columns': 1, 'align': 'start', 'font': 'EC (Computer Modern, T1), PK bitmaps'},
        'pages': 1, 'features': ['type3', 'bitmap-font'], 'known_damage': ['no ToUnicode']}
open(base + '.json', 'w', encoding='utf-8').write(json.dumps(meta, ensure_ascii=False, indent=1) + '\n')
