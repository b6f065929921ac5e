#!/usr/bin/env python3
"""Write the sources (HTML, flat ODT) and truths of the stacked-marks corpus.

NAME.src: the title on the first line, then paragraphs separated by blank lines,
fully pointed (Hebrew niqqud, Arabic harakat).  The truth is that text in NFC, the
title and every paragraph a block of its own.  NAME is LANG-GENERATOR-VARIANT.

usage: make.py OUTDIR   (writes NAME.html or NAME.fodt, NAME.txt, NAME.json)
"""
import json
import sys
import unicodedata
from html import escape
from pathlib import Path

HERE = Path(__file__).resolve().parent
FONTS = {
    "he-chromium-serif": "'Noto Serif Hebrew'",
    "he-chromium-sans": "'Noto Sans Hebrew'",
    "he-lo-niqqud": "Noto Serif Hebrew",
    "ar-chromium-naskh": "'Noto Naskh Arabic'",
    "ar-lo-harakat": "Noto Naskh Arabic",
}
SCRIPT = {"he": "Hebrew", "ar": "Arabic"}
COUNTRY = {"he": "IL", "ar": "EG"}


def blocks(name):
    text = unicodedata.normalize("NFC", (HERE / f"{name}.src").read_text(encoding="utf-8"))
    return [" ".join(b.split()) for b in text.split("\n\n") if b.strip()]


def html(lang, font, title, paras):
    out = [f"<!doctype html><html lang='{lang}' dir='rtl'><head><meta charset='utf-8'><style>",
           "@page { size: A4; margin: 2.5cm 3cm; }",
           f"body {{ font-family: {font}; font-size: 15pt; line-height: 1.8; }}",
           "h1 { font-size: 22pt; } p { margin: 0 0 0.8em 0; }",
           "</style></head><body>", f"<h1>{escape(title)}</h1>"]
    out += [f"<p>{escape(p)}</p>" for p in paras]
    return "\n".join(out + ["</body></html>"])


def fodt(lang, font, title, paras):
    # Writer lays these paragraphs out left to right whatever the writing mode says: "end" sets
    # them flush right, as right-to-left text is set.
    def x(s):
        return escape(s, quote=False)
    body = [f'<text:h text:style-name="Title" text:outline-level="1">{x(title)}</text:h>']
    body += [f'<text:p text:style-name="Body">{x(p)}</text:p>' for p in paras]
    c = COUNTRY[lang]
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:font-face-decls>
 <style:font-face style:name="{font}" svg:font-family="'{font}'"/>
</office:font-face-decls>
<office:styles>
 <style:default-style style:family="paragraph">
  <style:paragraph-properties style:writing-mode="rl-tb"/>
  <style:text-properties style:font-name-complex="{font}" fo:font-size="14pt"
   style:font-size-complex="14pt" style:language-complex="{lang}" style:country-complex="{c}"/>
 </style:default-style>
 <style:style style:name="Body" style:family="paragraph">
  <style:paragraph-properties fo:text-align="end" fo:margin-bottom="0.3cm" fo:line-height="150%" style:writing-mode="rl-tb"/>
 </style:style>
 <style:style style:name="Title" style:family="paragraph">
  <style:paragraph-properties fo:text-align="end" fo:margin-bottom="0.5cm" style:writing-mode="rl-tb"/>
  <style:text-properties style:font-size-complex="22pt" style:font-weight-complex="bold"/>
 </style:style>
</office:styles>
<office:automatic-styles>
 <style:page-layout style:name="pm1">
  <style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="2.5cm"
   fo:margin-bottom="2.5cm" fo:margin-left="3cm" fo:margin-right="3cm" style:writing-mode="rl-tb"/>
 </style:page-layout>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1"/></office:master-styles>
<office:body><office:text>
{chr(10).join(body)}
</office:text></office:body></office:document>
"""


def meta(name, lang, gen, font, txt):
    paras = txt.strip().split("\n\n")
    marks = "niqqud" if lang == "he" else "harakat"
    return {
        "name": name, "split": "dev", "languages": [lang], "primary_language": lang,
        "scripts": [SCRIPT[lang]], "direction": "rtl", "generator": gen,
        "generator_detail": ("Chromium print-to-pdf (HTML+CSS)" if gen == "chromium"
                             else "LibreOffice Writer from flat ODT") + f", fully pointed text ({marks})",
        "postprocess": None,
        "layout": {"page_size": "A4", "columns": 1, "align": "start", "hyphenation": False,
                   "letter_spacing": None, "font": font, "running_header": False,
                   "page_numbers": None, "content_order": "reading"},
        "pages": None, "features": sorted(["rtl", "heading", "single-column", "stacked-marks", marks]),
        "damage": [], "source": {"text": "original"}, "scoring": {"tokens": "words"},
        "truth": {"paragraphs": len(paras), "chars": len(txt.strip())},
    }


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, font in FONTS.items():
        lang, gen = name.split("-")[:2]
        gen = "chromium" if gen == "chromium" else "lo-fodt"
        title, *paras = blocks(name)
        if gen == "chromium":
            (out / f"{name}.html").write_text(html(lang, font, title, paras), encoding="utf-8")
        else:
            (out / f"{name}.fodt").write_text(fodt(lang, font, title, paras), encoding="utf-8")
        txt = "\n\n".join([title] + paras) + "\n"
        (out / f"{name}.txt").write_text(txt, encoding="utf-8")
        m = meta(name, lang, gen, font.strip("'"), txt)
        (out / f"{name}.json").write_text(json.dumps(m, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(name)


if __name__ == "__main__":
    main()
