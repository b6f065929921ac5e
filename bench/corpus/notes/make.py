#!/usr/bin/env python3
"""Sources and truths of the note-mark corpus: body paragraphs whose words carry footnote
reference marks, and the notes at the foot of the page.  Truth follows the corpus convention:
marks left out of the body, the notes after the body without their labels.
Usage: make.py OUTDIR"""
import json, sys, os
from xml.sax.saxutils import escape

OUT = sys.argv[1]

# Each paragraph: list of (text, note or None); a note follows the text piece it is glued to.
EN = {
  "lang": "en", "title": "The Lighthouse Keepers",
  "paras": [
    [("The lighthouse on the northern cape was built of local granite", "The quarry closed soon after the tower was finished."), (" and first lit in the spring of a wet year. Its keepers kept a log of every ship that passed, and of the weather at dawn and dusk.", None)],
    [("Three families shared the work", "A fourth family joined them during the long winters."), (", each taking the watch for a week at a time. The children learned to trim the wicks and to polish the great lens", "The lens came by boat in eleven wooden crates."), (" before they could read.", None)],
    [("When the light was automated, the log books went to the town museum, where visitors may still read the careful entries about fog, gales and passing whales.", None)],
  ],
}
DE = {
  "lang": "de", "title": "Der alte Obstgarten",
  "paras": [
    [("Hinter dem Haus lag ein Obstgarten mit zwölf Apfelbäumen", "Die ältesten Bäume wurden vor hundert Jahren gepflanzt."), (", zwei Birnbäumen und einer einzelnen Quitte. Im Herbst sammelte die ganze Straße die Früchte ein.", None)],
    [("Aus den Äpfeln wurde Most gepresst", "Die Presse stammt aus einer benachbarten Mühle."), (", aus den Quitten ein Gelee, das bis zum Frühjahr reichte. Die Birnen aß man frisch vom Baum.", None)],
    [("Heute pflegt ein Verein die Wiese und schneidet die Bäume jeden Winter", "Der Schnitt erfolgt an frostfreien Tagen."), (".", None)],
  ],
}

def notes_of(doc):
    return [n for p in doc["paras"] for (_, n) in p if n]

def truth(doc):
    body = [doc["title"]] + ["".join(t for t, _ in p) for p in doc["paras"]]
    return "\n\n".join(body + notes_of(doc)) + "\n"

def meta(name, doc, generator, detail):
    return {"name": name, "split": "dev", "languages": [doc["lang"]], "primary_language": doc["lang"],
            "scripts": ["Latin"], "direction": "ltr", "generator": generator, "generator_detail": detail,
            "postprocess": None, "features": ["footnote", "heading", "single-column"], "damage": [],
            "source": {"text": "original", "code": doc["lang"]}, "scoring": {"tokens": "words"}}

def fodt(doc):
    n = 0
    paras = []
    for p in doc["paras"]:
        out = ""
        for t, note in p:
            out += escape(t)
            if note:
                n += 1
                out += (f'<text:note text:id="ftn{n}" text:note-class="footnote"><text:note-citation>{n}</text:note-citation>'
                        f'<text:note-body><text:p text:style-name="Footnote">{escape(note)}</text:p></text:note-body></text:note>')
        paras.append(f'<text:p text:style-name="Body">{out}</text:p>')
    return f'''<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
<office:styles>
<style:style style:name="Standard" style:family="paragraph"><style:text-properties style:font-name="Liberation Serif" fo:font-family="Liberation Serif" fo:font-size="11pt" fo:language="{doc["lang"]}"/></style:style>
<style:style style:name="Body" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-bottom="0.2cm" fo:text-align="justify"/></style:style>
<style:style style:name="Title" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:margin-bottom="0.4cm"/><style:text-properties fo:font-size="16pt" fo:font-weight="bold"/></style:style>
<style:style style:name="Footnote" style:family="paragraph" style:parent-style-name="Standard"><style:text-properties fo:font-size="9pt"/></style:style>
</office:styles>
<office:body><office:text>
<text:p text:style-name="Title">{escape(doc["title"])}</text:p>
{"".join(paras)}
</office:text></office:body></office:document>
'''

def html(doc):
    n = 0
    paras = []
    notes = []
    for p in doc["paras"]:
        out = ""
        for t, note in p:
            out += escape(t)
            if note:
                n += 1
                out += f"<sup>{n}</sup>"
                notes.append(f"<p class=note><sup>{n}</sup>{escape(note)}</p>")
        paras.append(f"<p>{out}</p>")
    return f'''<!doctype html><html lang="{doc["lang"]}"><head><meta charset="utf-8"><style>
body {{ font: 12pt "Liberation Serif", serif; margin: 2cm; text-align: justify }}
h1 {{ font-size: 18pt }} .notes {{ margin-top: 4cm; border-top: 1px solid #000; }} .note {{ font-size: 9pt; margin: 0.2em 0 }}
</style></head><body><h1>{escape(doc["title"])}</h1>
{"".join(paras)}
<div class=notes>{"".join(notes)}</div></body></html>
'''

def latex(doc):
    tex = lambda s: s.replace("&", "\\&")
    body = []
    for p in doc["paras"]:
        body.append("".join(tex(t) + (f"\\footnote{{{tex(n)}}}" if n else "") for t, n in p))
    return ("\\documentclass[11pt]{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n"
            "\\usepackage{lmodern}\n\\pagestyle{empty}\n\\begin{document}\n"
            f"\\section*{{{tex(doc['title'])}}}\n\n" + "\n\n".join(body) + "\n\\end{document}\n")

for name, doc, kind in [("en-lo-notes", EN, "fodt"), ("de-lo-notes", DE, "fodt"), ("en-chromium-notes", EN, "html"),
                        ("de-chromium-notes", DE, "html"), ("en-pdflatex-notes", EN, "tex"), ("de-pdflatex-notes", DE, "tex")]:
    src = {"fodt": fodt, "html": html, "tex": latex}[kind](doc)
    open(os.path.join(OUT, f"{name}.{kind}"), "w", encoding="utf-8").write(src)
    open(os.path.join(OUT, f"{name}.txt"), "w", encoding="utf-8").write(truth(doc))
    gen = {"fodt": ("lo-fodt", "LibreOffice Writer (flat ODT)"), "html": ("chromium", "Chromium print to PDF"), "tex": ("pdflatex", "pdfLaTeX")}[kind]
    json.dump(meta(name, doc, *gen), open(os.path.join(OUT, f"{name}.json"), "w", encoding="utf-8"), ensure_ascii=False, indent=1)
