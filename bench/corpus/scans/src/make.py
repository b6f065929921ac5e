"""Builds one scanned document: the text of src/LANG.txt set by a generator (Chromium or XeLaTeX),
rasterised with pdftoppm, degraded as a scanner and a copier would (skew, noise, speckles, and a
grey JPEG or a bilevel CCITT image), wrapped as an image-only PDF by Ghostscript's pdfwrite.
The truth is the source text; the metadata is shaped like ../shared/corpus/gt's.

usage: make.py NAME LANG GENERATOR DPI KIND OUTDIR   (KIND: jpeg | ccitt)
"""
import html, json, os, subprocess, sys, zlib
import numpy as np

name, lang, generator, dpi, kind, out = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]
here = os.path.dirname(os.path.abspath(__file__))
blocks = [b.strip() for b in open(os.path.join(here, f'{lang}.txt'), encoding='utf-8').read().split('\n\n') if b.strip()]
title, paragraphs = blocks[0], blocks[1:]
RTL = {'ar', 'he'}
FONTS = {'ar': 'Noto Naskh Arabic', 'he': 'Noto Serif Hebrew', 'hi': 'Noto Serif Devanagari', 'th': 'Noto Serif Thai',
         'zh': 'AR PL UMing CN', 'el': 'DejaVu Serif', 'ru': 'DejaVu Serif', 'en': 'DejaVu Serif', 'de': 'DejaVu Serif'}
SCRIPTS = {'ar': 'Arabic', 'he': 'Hebrew', 'hi': 'Devanagari', 'th': 'Thai', 'zh': 'Han', 'el': 'Greek', 'ru': 'Cyrillic', 'en': 'Latin', 'de': 'Latin'}
font = FONTS[lang]
base = os.path.join(out, name)

# 1. The text as a born-digital PDF (A5, one column).
if generator == 'chromium':
    body = f'<h1>{html.escape(title)}</h1>' + ''.join(f'<p>{html.escape(p)}</p>' for p in paragraphs)
    page = (f'<!doctype html><html lang="{lang}" dir="{"rtl" if lang in RTL else "ltr"}"><meta charset="utf-8"><style>'
            f'@page {{ size: A5; margin: 18mm 16mm; }} body {{ font-family: "{font}"; font-size: 12pt; line-height: 1.5; }}'
            f'h1 {{ font-size: 17pt; }} p {{ margin: 0 0 0.8em; }}</style><body>{body}</body></html>')
    open(base + '.html', 'w', encoding='utf-8').write(page)
    subprocess.run(['chromium', '--headless', '--no-sandbox', '--disable-gpu', '--no-pdf-header-footer',
                    f'--print-to-pdf={base}.src.pdf', base + '.html'], check=True, capture_output=True)
else:
    tex = ('\\documentclass[12pt]{article}\\usepackage[a5paper,margin=18mm]{geometry}\\usepackage{fontspec}'
           f'\\setmainfont{{{font}}}\\pagestyle{{empty}}\\setlength{{\\parindent}}{{0pt}}\\setlength{{\\parskip}}{{0.8em}}'
           '\\begin{document}' + f'{{\\Large\\bfseries {title}\\par}}\n' + ''.join(f'{p}\\par\n' for p in paragraphs) + '\\end{document}')
    open(base + '.tex', 'w', encoding='utf-8').write(tex)
    subprocess.run(['xelatex', '-interaction=batchmode', '-output-directory', out, base + '.tex'], check=True, capture_output=True)
    os.replace(base + '.pdf', base + '.src.pdf')

# 2. Pages as grey images.
subprocess.run(['pdftoppm', '-r', str(dpi), '-gray', base + '.src.pdf', base + '.page'], check=True)
pages = sorted(f for f in os.listdir(out) if f.startswith(name + '.page') and f.endswith('.pgm'))

def read_pgm(path):
    data = open(path, 'rb').read()
    parts = data.split(maxsplit=4)
    width, height = int(parts[1]), int(parts[2])
    return np.frombuffer(parts[4][: width * height], dtype=np.uint8).reshape(height, width)

rng = np.random.default_rng(len(name))

def degrade(image, page):
    """A scan: a small skew (nearest neighbour), grey noise, and dark speckles of dust."""
    height, width = image.shape
    angle = np.deg2rad(0.4 if page % 2 else -0.3)
    ys, xs = np.mgrid[0:height, 0:width]
    cx, cy = width / 2, height / 2
    sx = np.clip(np.round(cx + (xs - cx) * np.cos(angle) - (ys - cy) * np.sin(angle)), 0, width - 1).astype(int)
    sy = np.clip(np.round(cy + (xs - cx) * np.sin(angle) + (ys - cy) * np.cos(angle)), 0, height - 1).astype(int)
    skewed = image[sy, sx].astype(np.float32)
    noisy = skewed * 0.92 + 12 + rng.normal(0, 6, skewed.shape)
    dust = rng.random(skewed.shape) < 0.0004
    noisy[dust] = 40
    return np.clip(noisy, 0, 255).astype(np.uint8)

# 3. An image-only PDF: a PostScript page per image, encoded by pdfwrite (DCT or CCITT G4).
ps = [b'%!PS-Adobe-3.0\n']
for n, file in enumerate(pages):
    image = degrade(read_pgm(os.path.join(out, file)), n)
    height, width = image.shape
    w_pt, h_pt = width * 72 / dpi, height * 72 / dpi
    if kind == 'ccitt':
        bits = np.packbits(image > 150, axis=1)
        data, depth = bits.tobytes(), 1
    else:
        data, depth = image.tobytes(), 8
    ps.append(f'<< /PageSize [{w_pt:.2f} {h_pt:.2f}] >> setpagedevice\n{w_pt:.2f} {h_pt:.2f} scale\n'
              f'{width} {height} {depth} [{width} 0 0 -{height} 0 {height}] currentfile /ASCIIHexDecode filter image\n'.encode())
    ps.append(data.hex().encode() + b'>\nshowpage\n')
open(base + '.ps', 'wb').write(b''.join(ps))
params = {'jpeg': '/AutoFilterGrayImages false /GrayImageFilter /DCTEncode /GrayImageDict << /QFactor 1.6 /Blend 1 /HSamples [2 1 1 2] /VSamples [2 1 1 2] >>',
          'ccitt': '/MonoImageFilter /CCITTFaxEncode'}[kind]
filters = ['-c', f'<< {params} /DownsampleGrayImages false /DownsampleMonoImages false >> setdistillerparams', '-f']
subprocess.run(['gs', '-q', '-dBATCH', '-dNOPAUSE', '-dSAFER', '-sDEVICE=pdfwrite',
                f'-sOutputFile={base}.pdf'] + filters + [base + '.ps'], check=True)

open(base + '.txt', 'w', encoding='utf-8').write('\n\n'.join(blocks) + '\n')
meta = {'name': name, 'split': 'bench', 'languages': [lang], 'primary_language': lang, 'scripts': [SCRIPTS[lang]],
        'direction': 'rtl' if lang in RTL else 'ltr', 'generator': generator, 'postprocess': f'pdftoppm -r {dpi} -gray, skew, noise, speckles, {kind} image, gs -sDEVICE=pdfwrite',
        'layout': {'page_size': 'A5', 'columns': 1, 'align': 'start', 'font': font}, 'pages': len(pages),
        'features': ['scan', 'image-only', kind], 'known_damage': ['no text layer']}
open(base + '.json', 'w', encoding='utf-8').write(json.dumps(meta, ensure_ascii=False, indent=1) + '\n')
