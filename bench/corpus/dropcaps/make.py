#!/usr/bin/env python3
"""Write the sources (HTML, flat ODT, pdfLaTeX) and truths of the drop-cap corpus.

Every document is chapters of a heading, a first paragraph opened by a drop cap
and ordinary paragraphs after it.  The paragraphs are made of sentences written
for this corpus, dealt in a fixed order (seeded), so the truth is exact: it is
the paragraph text itself, with the initial joined to its word.

usage: make.py OUTDIR   (writes NAME.html / NAME.fodt / NAME.tex, NAME.txt, NAME.json)
"""
import json
import random
import sys
from html import escape
from pathlib import Path

EN = [
    "Long before the harbour was dredged, the fishing boats were pulled up onto the shingle every evening.",
    "The old lighthouse keeper kept a ledger of every ship that passed, with the weather beside each name.",
    "Nobody in the village could remember when the bakery had first opened its green shutters.",
    "On market days the square filled with carts of apples, cheeses wrapped in cloth and baskets of eggs.",
    "The school had only two rooms, and the younger children learned their letters by the stove.",
    "In winter the road over the hill was closed for weeks, and the post arrived by boat instead.",
    "A narrow path led from the church down to the river, where the ferryman waited under a willow.",
    "Every spring the swallows returned to the barn and rebuilt their nests beneath the same beam.",
    "The miller measured the flour with a wooden scoop that his grandfather had carved from pear wood.",
    "When the bell rang at noon, the workers in the fields stopped to eat bread and drink cold tea.",
    "Travellers who reached the inn after dark were given soup, a candle and a room under the roof.",
    "The library was a single shelf in the town hall, but it lent its books to anyone who asked.",
    "Some of the houses along the quay still carry the marks of the great flood on their walls.",
    "Children raced paper boats in the gutters after every storm and cheered the fastest one home.",
    "The blacksmith's hammer could be heard from the bridge, steady as a clock on a quiet morning.",
    "Maps of the coast drawn a century ago show islands that have since vanished beneath the tide.",
    "Each autumn the orchard owners held a contest for the largest pear, judged by the schoolmaster.",
    "Fog often rolled in from the sea before dawn and lifted only when the sun cleared the cliffs.",
    "The station master planted roses along the platform and watered them between the trains.",
    "Letters from relatives abroad were read aloud in the kitchen, slowly, so that everyone could hear.",
    "A stone wall marked the edge of the common land, and sheep grazed on both sides of it anyway.",
    "Evenings were spent mending nets by lamplight while someone told stories of storms long past.",
    "The river froze only twice in living memory, and both times the whole town went skating.",
    "Under the floor of the old chapel, builders once found a box of coins and a folded letter.",
    "Wagons loaded with timber crossed the square each morning on their way to the sawmill.",
    "Hardly a week went by without a wedding, a christening or a quarrel about a boundary stone.",
    "The town council met in the back room of the inn, and its minutes were kept in pencil.",
    "Old photographs show the main street unpaved, lined with carts and barefoot children.",
    "In the museum by the harbour a model of the first steamer sits in a glass case.",
    "Every house had a garden, and most gardens had a bench facing west toward the evening sun.",
]

ES = [
    "Érase una vez un pueblo pequeño al pie de la sierra, donde el viento soplaba todas las tardes.",
    "Las casas tenían tejados de barro rojo y balcones llenos de geranios que regaban las vecinas.",
    "Cada mañana el panadero abría su horno antes del alba y el olor llegaba hasta la plaza.",
    "Los niños iban a la escuela por un camino de piedra que bordeaba el arroyo.",
    "En verano la gente se sentaba a la puerta de su casa para charlar hasta la medianoche.",
    "El reloj de la torre se atrasaba siempre cinco minutos, y nadie quiso nunca arreglarlo.",
    "Un viejo pastor conocía el nombre de cada oveja y las llamaba con un silbido distinto.",
    "Las fiestas de agosto llenaban las calles de música, farolillos y puestos de almendras.",
    "Ángela, la maestra, enseñaba a leer con libros que traía de la ciudad en una maleta de cuero.",
    "Durante el invierno la nieve cubría los caminos y el pueblo quedaba aislado varios días.",
    "Junto al río había un molino antiguo cuya rueda giraba despacio, cubierta de musgo.",
    "Óscar, el cartero, recorría los cortijos en bicicleta y se detenía a beber agua en la fuente.",
    "Los domingos el mercado ocupaba la plaza con frutas, quesos, cestas y telas de colores.",
    "La biblioteca municipal tenía apenas tres estanterías, pero prestaba libros a todo el mundo.",
    "Al caer la tarde las golondrinas volaban bajo sobre los tejados buscando insectos.",
    "En la ermita del cerro se guardaba una campana que sólo sonaba en las grandes ocasiones.",
    "Los abuelos contaban historias de lobos, tormentas y caminos perdidos en la niebla.",
    "El ayuntamiento se reunía en una sala pequeña con una mesa larga y sillas de enea.",
    "Nadie sabía con certeza cuántos años tenía el olivo que crecía junto a la iglesia.",
    "Las mujeres lavaban la ropa en el lavadero público mientras cantaban coplas antiguas.",
    "Cuando llovía mucho, el arroyo crecía y arrastraba ramas hasta el puente de piedra.",
    "Éramos muchos los que esperábamos la llegada del autobús los viernes por la tarde.",
    "Un comerciante de telas llegaba cada primavera con su carro tirado por dos mulas.",
    "Las noches de luna llena los vecinos subían al mirador para ver el valle iluminado.",
    "El médico visitaba el pueblo los martes y atendía a los enfermos en la casa del cura.",
    "Por las mañanas se oía el canto de los gallos y el ruido de los cántaros en la fuente.",
    "La vieja estación de tren se cerró hace años, pero su andén sigue lleno de flores.",
    "Íbamos al río a pescar con cañas de bambú y volvíamos con las manos vacías y contentos.",
]

PL = [
    "Środek miasteczka wyznaczał stary rynek, otoczony kamienicami o kolorowych fasadach.",
    "Każdego ranka piekarz otwierał okiennice i wystawiał na parapet świeże bułki.",
    "Dzieci chodziły do szkoły wąską ścieżką wzdłuż rzeki, zbierając po drodze kasztany.",
    "Zimą jezioro zamarzało tak mocno, że można było przejść po lodzie na drugi brzeg.",
    "Stary młynarz znał na pamięć wszystkie piosenki, które śpiewano w okolicy od stu lat.",
    "Żółte tramwaje jeździły tylko do mostu, a dalej trzeba było iść pieszo albo jechać wozem.",
    "W niedziele na rynku grała orkiestra strażacka, a ludzie tańczyli aż do zmroku.",
    "Biblioteka mieściła się w jednym pokoju nad apteką, ale książek nigdy nie brakowało.",
    "Łąki za miastem zakwitały w maju tysiącem kwiatów, a pszczoły brzęczały od świtu.",
    "Latem przyjeżdżali goście z miasta i wynajmowali pokoje w domach nad jeziorem.",
    "Na poczcie pracowała pani Zofia, która znała adres każdego mieszkańca na pamięć.",
    "Jesienią w sadach zbierano jabłka, a z najlepszych robiono sok i powidła.",
    "Ścieżka przez las prowadziła do małej kapliczki, przy której zawsze stały świeże kwiaty.",
    "Kiedy padał deszcz, dzieci puszczały papierowe łódki w rynsztokach i ścigały je do rogu.",
    "Ratusz miał wieżę z zegarem, który wybijał godziny głośno i zawsze trochę za wcześnie.",
    "Wieczorami sąsiedzi siadali na ławkach przed domami i rozmawiali o pogodzie.",
    "Pociąg przyjeżdżał dwa razy dziennie, a zawiadowca stacji witał każdego podróżnego.",
    "Ówczesny burmistrz kazał posadzić lipy wzdłuż głównej ulicy, które rosną tam do dziś.",
    "Kowal pracował w kuźni przy moście i jego młot słychać było w całym miasteczku.",
    "Na strychu starego domu znaleziono kiedyś skrzynię pełną listów i zdjęć.",
    "Rybacy wypływali przed świtem i wracali w południe z sieciami pełnymi ryb.",
    "Źródło pod lasem dawało wodę tak zimną, że nawet w sierpniu bolały od niej zęby.",
    "Muzeum regionalne pokazywało stroje ludowe, narzędzia i modele dawnych łodzi.",
    "Mieszkańcy obchodzili święto plonów z wieńcem ze zboża niesionym przez cały rynek.",
    "Ogrody za domami pełne były grządek z ogórkami, koperkiem i słonecznikami.",
    "Emeryt z ulicy Polnej hodował gołębie i każdego wieczoru wypuszczał je nad dachy.",
]

HEADINGS = {
    "en": ["Chapter One: The Harbour", "Chapter Two: The Square", "Chapter Three: The River",
           "Chapter Four: The Hill", "Chapter Five: The Inn"],
    "es": ["Capítulo primero: El pueblo", "Capítulo segundo: La plaza", "Capítulo tercero: El río",
           "Capítulo cuarto: La sierra", "Capítulo quinto: La estación"],
    "pl": ["Rozdział pierwszy: Rynek", "Rozdział drugi: Jezioro", "Rozdział trzeci: Las",
           "Rozdział czwarty: Stacja", "Rozdział piąty: Ogrody"],
}
TITLES = {"en": "Notes from a Coastal Town", "es": "Crónica de un pueblo de la sierra",
          "pl": "Kronika małego miasteczka"}
POOLS = {"en": EN, "es": ES, "pl": PL}


def chapters(lang, seed, n_chapters, paras_per_chapter, openers):
    """Chapters as (heading, [paragraph, ...]); each chapter opens with a sentence
    from `openers` (the initial to drop), the rest dealt from the pool."""
    rng = random.Random(seed)
    pool = POOLS[lang]
    out = []
    for c in range(n_chapters):
        paras = []
        for p in range(paras_per_chapter):
            k = rng.randint(4, 6)
            sents = rng.sample(pool, k)
            if p == 0:
                first = pool[openers[c % len(openers)]]
                sents = [first] + [s for s in sents if s != first][: k - 1]
            paras.append(" ".join(sents))
        out.append((HEADINGS[lang][c], paras))
    return out


CSS_FLOAT = """p.open::first-letter { float: left; font-size: 3.2em; line-height: 1;
  padding-right: 0.08em; margin-top: 0.04em; }"""
CSS_INITIAL = """p.open::first-letter { initial-letter: 3; padding-right: 0.1em;
  color: #7a1f1f; font-family: 'Noto Serif', serif; font-weight: bold; }"""


def html(lang, title, chs, css_drop, body_font, fig=None):
    parts = [f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'><style>",
             "@page { size: A4; margin: 2.2cm 2.4cm; }",
             f"body {{ font-family: {body_font}; font-size: 11.5pt; line-height: 1.4; text-align: justify; }}",
             "h1 { font-size: 20pt; } h2 { font-size: 14pt; margin-top: 1.2em; }",
             "p { margin: 0 0 0.6em 0; }",
             "figure.right { float: right; width: 6.2cm; margin: 0.3em 0 0.6em 1em; }",
             "figure.right div.box { height: 4.2cm; background: #cfd8dc; border: 1px solid #607d8b; }",
             "figcaption { font-size: 9pt; margin-top: 0.3em; text-align: left; }",
             css_drop, "</style></head><body>", f"<h1>{escape(title)}</h1>"]
    for ci, (h, paras) in enumerate(chs):
        parts.append(f"<h2>{escape(h)}</h2>")
        for i, p in enumerate(paras):
            if fig and ci == fig[0] and i == 1:
                parts.append(f"<figure class='right'><div class='box'></div><figcaption>{escape(fig[1])}</figcaption></figure>")
            cls = " class='open'" if i == 0 and css_drop else ""
            parts.append(f"<p{cls}>{escape(p)}</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


def fodt(lang, country, title, chs, lines=3, fig=None):
    def x(s):
        return escape(s, quote=False)
    body = [f'<text:h text:style-name="Title" text:outline-level="1">{x(title)}</text:h>']
    for ci, (h, paras) in enumerate(chs):
        body.append(f'<text:h text:style-name="H2" text:outline-level="2">{x(h)}</text:h>')
        for i, p in enumerate(paras):
            st = "Drop" if i == 0 and lines else "Body"
            frame = fodt_frame(x, fig[1]) if fig and ci == fig[0] and i == 1 else ""
            body.append(f'<text:p text:style-name="{st}">{frame}{x(p)}</text:p>')
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:font-face-decls>
 <style:font-face style:name="Liberation Serif" svg:font-family="'Liberation Serif'" style:font-family-generic="roman"/>
 <style:font-face style:name="Liberation Sans" svg:font-family="'Liberation Sans'" style:font-family-generic="swiss"/>
</office:font-face-decls>
<office:styles>
 <style:default-style style:family="paragraph">
  <style:text-properties style:font-name="Liberation Serif" fo:font-size="11.5pt" fo:language="{lang}" fo:country="{country}"/>
 </style:default-style>
 <style:style style:name="Body" style:family="paragraph">
  <style:paragraph-properties fo:text-align="justify" fo:margin-bottom="0.2cm" fo:line-height="130%"/>
 </style:style>
 <style:style style:name="Drop" style:family="paragraph" style:parent-style-name="Body">
  <style:paragraph-properties fo:text-align="justify" fo:margin-bottom="0.2cm" fo:line-height="130%">
   <style:drop-cap style:lines="{lines}" style:length="1" style:distance="0.12cm"/>
  </style:paragraph-properties>
 </style:style>
 <style:style style:name="Title" style:family="paragraph">
  <style:paragraph-properties fo:margin-bottom="0.4cm"/>
  <style:text-properties style:font-name="Liberation Sans" fo:font-size="20pt" fo:font-weight="bold"/>
 </style:style>
 <style:style style:name="Caption" style:family="paragraph">
  <style:text-properties style:font-name="Liberation Sans" fo:font-size="9pt"/>
 </style:style>
 <style:style style:name="Float" style:family="graphic">
  <style:graphic-properties style:wrap="left" style:number-wrapped-paragraphs="no-limit"
   style:horizontal-pos="right" style:horizontal-rel="paragraph" style:vertical-pos="from-top"
   style:vertical-rel="paragraph" fo:margin-left="0.4cm" fo:padding="0.2cm" fo:border="0.5pt solid #607d8b"
   fo:background-color="#cfd8dc"/>
 </style:style>
 <style:style style:name="H2" style:family="paragraph">
  <style:paragraph-properties fo:margin-top="0.4cm" fo:margin-bottom="0.2cm" fo:keep-with-next="always"/>
  <style:text-properties style:font-name="Liberation Sans" fo:font-size="14pt" fo:font-weight="bold"/>
 </style:style>
</office:styles>
<office:automatic-styles>
 <style:page-layout style:name="pm1">
  <style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="2.2cm" fo:margin-bottom="2.2cm" fo:margin-left="2.4cm" fo:margin-right="2.4cm"/>
 </style:page-layout>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1"/></office:master-styles>
<office:body><office:text>
{chr(10).join(body)}
</office:text></office:body></office:document>
"""

LATEX_BABEL = {"en": "british", "es": "spanish", "pl": "polish"}


def latex(lang, title, chs, dropcap, fig=None):
    """pdfLaTeX: `lettrine` initials (the rest of the first word in small capitals, its
    default) and a `wrapfig` figure whose caption sits beside the paragraph it cuts."""
    def x(s):
        return s.replace("&", r"\&").replace("%", r"\%").replace("#", r"\#")
    out = [r"\documentclass[11pt,a4paper]{article}", r"\usepackage[T1]{fontenc}",
           r"\usepackage[utf8]{inputenc}", r"\usepackage{lmodern}",
           rf"\usepackage[{LATEX_BABEL[lang]}]{{babel}}", r"\usepackage{lettrine,wrapfig}",
           r"\usepackage[margin=2.5cm]{geometry}", r"\pagestyle{empty}",
           r"\setlength{\parskip}{0.5em}", r"\setlength{\parindent}{0pt}",
           r"\begin{document}", rf"{{\LARGE\bfseries {x(title)}\par}}"]
    for ci, (h, paras) in enumerate(chs):
        out.append(rf"\section*{{{x(h)}}}")
        for i, p in enumerate(paras):
            if fig and ci == fig[0] and i == 1:
                out.append(r"\begin{wrapfigure}{r}{0.4\textwidth}\centering\rule{0.36\textwidth}{2.4cm}"
                           rf"\par\vspace{{0.3em}}{{\small\raggedright {x(fig[1])}\par}}\end{{wrapfigure}}")
            if i == 0 and dropcap:
                word, rest = p.split(" ", 1)
                out.append(rf"\lettrine{{{word[0]}}}{{{word[1:]}}} {x(rest)}" + "\n")
            else:
                out.append(x(p) + "\n")
    out.append(r"\end{document}")
    return "\n".join(out) + "\n"


def fodt_frame(x, caption):
    """A Writer text frame anchored to its paragraph, the text running round it on the left."""
    return ('<draw:frame draw:style-name="Float" text:anchor-type="paragraph" svg:width="6cm" '
            'svg:height="4.5cm" svg:x="0cm" svg:y="0.2cm" draw:z-index="0"><draw:text-box>'
            f'<text:p text:style-name="Caption">{x(caption)}</text:p></draw:text-box></draw:frame>')



def truth(title, chs, fig=None):
    blocks = [title]
    for ci, (h, paras) in enumerate(chs):
        blocks.append(h)
        for i, p in enumerate(paras):
            blocks.append(p)
            if fig and ci == fig[0] and i == 1:
                blocks.append(fig[1])  # the caption follows the paragraph it interrupts
    return "\n\n".join(blocks) + "\n"


def meta(name, lang, generator, detail, font, features, txt):
    paras = txt.strip().split("\n\n")
    return {
        "name": name, "split": "dev", "languages": [lang], "primary_language": lang,
        "scripts": ["Latin"], "direction": "ltr", "generator": generator,
        "generator_detail": detail, "postprocess": None,
        "layout": {"page_size": "A4", "columns": 1, "align": "justify", "hyphenation": False,
                   "letter_spacing": None, "font": font, "running_header": False,
                   "page_numbers": None, "content_order": "reading"},
        "pages": None, "features": sorted(features), "damage": [],
        "source": {"text": "original"}, "scoring": {"tokens": "words"},
        "truth": {"paragraphs": len(paras), "chars": len(txt.strip())},
    }


FIG_CAPTION = {"en": "Figure 1. The harbour wall at low tide, seen from the lighthouse steps.",
               "pl": "Rycina 1. Stary młyn nad rzeką, widziany z mostu o wschodzie słońca.",
               "en-frame": "Figure 2. The ferryman's hut under the willow, drawn by a visitor in the year of the great frost."}


def lengthen(chs, chapter, para, extra):
    """The paragraph a float sits in, made long enough to run past the float's foot, so that
    the text it interrupts is that one paragraph."""
    h, paras = chs[chapter]
    paras = list(paras)
    paras[para] = paras[para] + " " + " ".join(extra)
    chs = list(chs)
    chs[chapter] = (h, paras)
    return chs


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    docs = []
    # name, lang, generator, css/lines, seed, chapters, paras/chapter, opener indices, font, figure
    en_ch = chapters("en", 11, 4, 3, [0, 25, 28, 22])
    docs.append(("en-chromium-dropcap-float", "en", "chromium", CSS_FLOAT, en_ch, "'DejaVu Serif', serif", None))
    es_ch = chapters("es", 12, 4, 4, [0, 8, 21, 11])
    docs.append(("es-chromium-dropcap-initial", "es", "chromium", CSS_INITIAL, es_ch, "'Noto Sans', sans-serif", None))
    pl_ch = chapters("pl", 13, 4, 4, [0, 12, 5, 21])
    docs.append(("pl-lo-dropcap", "pl", "lo-fodt", 3, pl_ch, "Liberation Serif", None))
    en2_ch = chapters("en", 14, 4, 4, [6, 4, 18, 9])
    docs.append(("en-lo-dropcap", "en", "lo-fodt", 2, en2_ch, "Liberation Serif", None))
    en3_ch = chapters("en", 15, 2, 5, [3, 16])
    docs.append(("en-chromium-float-figure", "en", "chromium", "", en3_ch, "'DejaVu Serif', serif", (0, FIG_CAPTION["en"])))
    es2_ch = chapters("es", 16, 3, 3, [0, 9, 13])
    docs.append(("es-pdflatex-lettrine", "es", "pdflatex", True, es2_ch, "Latin Modern Roman", None))
    pl2_ch = lengthen(chapters("pl", 17, 2, 4, [2, 8]), 0, 1, PL[14:18])
    docs.append(("pl-pdflatex-wrapfig", "pl", "pdflatex", False, pl2_ch, "Latin Modern Roman", (0, FIG_CAPTION["pl"])))
    en4_ch = lengthen(chapters("en", 18, 2, 4, [10, 20]), 0, 1, EN[20:24])
    docs.append(("en-lo-float-frame", "en", "lo-fodt", 0, en4_ch, "Liberation Serif", (0, FIG_CAPTION["en-frame"])))
    for name, lang, gen, drop, chs, font, fig in docs:
        title = TITLES[lang]
        feats = ["heading", "justified", "multi-page"]
        if gen == "pdflatex":
            (out / f"{name}.tex").write_text(latex(lang, title, chs, drop, fig), encoding="utf-8")
            detail = "pdfLaTeX, T1 Latin Modern: " + ("lettrine initials" if drop else "wrapfig figure, text set round it")
        elif gen == "chromium":
            src = html(lang, title, chs, drop, font, fig)
            (out / f"{name}.html").write_text(src, encoding="utf-8")
            detail = "Chromium print-to-pdf (HTML+CSS): " + ("p::first-letter float" if "float" in drop else "p::first-letter initial-letter" if drop else "figure float right")
        else:
            country = {"en": "GB", "es": "ES", "pl": "PL"}[lang]
            src = fodt(lang, country, title, chs, drop, fig)
            (out / f"{name}.fodt").write_text(src, encoding="utf-8")
            detail = (f"LibreOffice Writer from flat ODT, style:drop-cap lines={drop}" if drop
                      else "LibreOffice Writer from flat ODT, a text frame with the text wrapped round it")
        if drop:
            feats.append("drop-cap")
        if fig:
            feats += ["figure-float", "caption"]
        txt = truth(title, chs, fig)
        (out / f"{name}.txt").write_text(txt, encoding="utf-8")
        m = meta(name, lang, gen, detail, font, feats, txt)
        (out / f"{name}.json").write_text(json.dumps(m, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(name)


if __name__ == "__main__":
    main()
