#!/usr/bin/env python3
"""Write the sources (flat ODT, HTML, XeLaTeX) and truths of the font corpus.

The same short texts, written for this corpus, set in fonts other than those the
ground-truth corpus uses: Arabic in Noto Sans Arabic (lam-alef ligatures), Arabic
with Latin names inside its lines, Hindi and Bengali in XeTeX (glyph order), Thai from Chromium (runs split at marks), Persian in Nazli (whose ی and ک map to Arabic yeh and kaf), Chinese whose text layer holds
Kangxi radicals where the ideographs are meant, English with footnotes.

usage: make.py OUTDIR   (writes NAME.fodt / NAME.html / NAME.tex, NAME.txt, NAME.json)
"""
import json
import sys
from html import escape
from pathlib import Path

AR = ("رحلة إلى السوق", [
    "ذهب الأطفال إلى السوق الكبير صباحا لشراء الخبز والفاكهة. لا يحب الإنسان الانتظار الطويل بسبب الحر، لذلك خرجت الأسرة مبكرا قبل أن تمتلئ الطرقات.",
    "كانت الألوان جميلة والأصوات عالية في كل مكان. قال البائع إن الأسعار لا تتغير كثيرا في هذا الفصل، وإن الإقبال كبير على التمر والعسل والليمون.",
    "عاد الجميع إلى البيت قبل الظهر، وجلسوا في الحديقة يتحدثون عن قيد الوقت وعن الأصدقاء الذين لم يروهم منذ شهور. ثم أعدت الأم طعام الغداء للأهل والإخوة.",
])
AR_MIXED = ("يوميات سفر قصيرة", [
    "سافرت مع صديقي على متن طائرة Emirates إلى المدينة، وحجزنا الفندق عبر موقع Booking قبل أسبوع كامل.",
    "يعمل أخوه في شركة TotalEnergies منذ سنوات، وهو لا يزال يحب عمله ويقول إن الإدارة تهتم بالموظفين.",
    "في المساء زرنا متحف Louvre Abu Dhabi ثم تناولنا العشاء في مطعم صغير اسمه Blue Lagoon قرب الشاطئ.",
])
HI = ("नदी के किनारे एक शाम", [
    "हम शाम को नदी किनारे टहलने गए। बच्चों के लिए यह दिन बहुत खास था, क्योंकि उन्होंने पहली बार नाव देखी थी।",
    "किनारे पर एक बूढ़ा मछुआरा बैठा था। उसने हमें बताया कि पिछले साल बारिश कम हुई थी, इसलिए पानी का स्तर नीचे चला गया।",
    "लौटते समय हमने गरम चाय पी और मिट्टी के दीये खरीदे। रात को सबने मिलकर कहानियाँ सुनीं और देर तक बातें कीं।",
])
BN = ("নদীর ধারে বিকেল", [
    "বিকেলবেলা আমরা নদীর ধারে হাঁটতে যাই। জেলেরা নৌকা নিয়ে ফিরে আসে আর ছোট ছেলেমেয়েরা বালিতে খেলা করে।",
    "সূর্য ডোবার সময় আকাশ লাল আর কমলা রঙে ভরে যায়। তারপর আমরা চা খেয়ে গল্প করতে করতে বাড়ি ফিরি।",
])
TH = ("ตลาดน้ำยามเช้า", [
    "ทุกเช้าวันเสาร์ ชาวบ้านจะพายเรือนำผักและผลไม้มาขายที่ตลาดน้ำ นักท่องเที่ยวชอบมาถ่ายรูปและชิมขนมไทยแบบโบราณ",
    "แม่ค้าคนหนึ่งขายก๋วยเตี๋ยวเรือมานานกว่ายี่สิบปี เธอบอกว่าความลับของน้ำซุปคือการเคี่ยวกระดูกตั้งแต่ตีสี่",
])
FA = ("باغ مادربزرگ", [
    "خانه\u200cی مادربزرگ باغ کوچکی داشت که پر از درختان انار و انجیر بود. هر تابستان نوه\u200cها به آنجا "
    "می\u200cرفتند و تا شب در سایه\u200cی درختان بازی می\u200cکردند.",
    "مادربزرگ همیشه می\u200cگفت که باغ مثل آدم است و باید با آن حرف زد. او صبح\u200cها زود بیدار می\u200cشد، "
    "به گل\u200cها آب می\u200cداد و برای همه چای تازه دم می\u200cکرد.",
])
# Chinese whose source text uses Kangxi radicals (U+2F00–2FDF) and CJK Radicals Supplement
# characters (U+2E80–2EFF) for some ideographs, as some producers write it; the truth has
# the unified ideographs.
ZH = ("山间小镇的一天", [
    "清晨，镇上的人们陆续走出家门。老人在河边散步，孩子们背着书包去上学，街上渐渐热闹起来。",
    "中午，市场里人来人往。卖菜的农民说，今年雨水充足，蔬菜长得又大又好，价格也比去年便宜一些。",
    "傍晚，十几个年轻人在广场上打球，二楼的窗口传来读书声。夜里，整个小镇安静下来，只剩下风吹树叶的声音。",
])
KANGXI = {"人": "\u2f08", "言": "\u2f94", "二": "\u2f06", "十": "\u2f17", "大": "\u2f24", "小": "\u2f29",
          "山": "\u2f2d", "长": "\u2ed3", "风": "\u2edb", "门": "\u2ed4", "见": "\u2ec5", "子": "\u2f26",
          "走": "\u2f9b", "里": "\u2fa5", "生": "\u2f63", "水": "\u2f54", "雨": "\u2fac", "比": "\u2f50"}
EN_NOTES = ("A Short History of the Village Bridge", [
    ("The first bridge over the river was built of oak in the spring of a dry year.", "The parish book gives no exact date."),
    ("It was replaced by a stone arch after the flood carried the old one away to the State.", "The state paid half of the cost."),
    ("Today the arch carries cyclists and walkers, and the village holds a fair on it every summer.", "The fair began as a cattle market."),
])


def fodt(lang, country, title, paras, font, rtl=False, notes=False):
    x = lambda s: escape(s, quote=False)
    body = [f'<text:h text:style-name="Title" text:outline-level="1">{x(title)}</text:h>']
    for i, p in enumerate(paras):
        if notes:
            text, note = p
            # the reference mark right after the last word, before the full stop
            body.append(f'<text:p text:style-name="Body">{x(text[:-1])}<text:note text:id="n{i}" text:note-class="footnote">'
                        f'<text:note-citation>{i + 1}</text:note-citation><text:note-body><text:p text:style-name="Note">{x(note)}</text:p>'
                        f'</text:note-body></text:note>.</text:p>')
        else:
            body.append(f'<text:p text:style-name="Body">{x(p)}</text:p>')
    wm = 'style:writing-mode="rl-tb" ' if rtl else ''
    align = 'justify'
    script = ('style:font-name-complex="F" style:font-size-complex="12pt" '
              f'style:language-complex="{lang}" style:country-complex="{country}"') if rtl else ''
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:font-face-decls>
 <style:font-face style:name="F" svg:font-family="'{font}'"/>
</office:font-face-decls>
<office:styles>
 <style:default-style style:family="paragraph">
  <style:paragraph-properties {wm}/>
  <style:text-properties style:font-name="F" fo:font-size="12pt" fo:language="{lang}" fo:country="{country}" {script}/>
 </style:default-style>
 <style:style style:name="Body" style:family="paragraph">
  <style:paragraph-properties fo:text-align="{align}" fo:margin-bottom="0.25cm" fo:line-height="140%"/>
 </style:style>
 <style:style style:name="Note" style:family="paragraph">
  <style:text-properties fo:font-size="10pt"/>
 </style:style>
 <style:style style:name="Title" style:family="paragraph">
  <style:paragraph-properties fo:margin-bottom="0.4cm"/>
  <style:text-properties fo:font-size="18pt" fo:font-weight="bold" style:font-size-complex="18pt" style:font-weight-complex="bold"/>
 </style:style>
</office:styles>
<office:automatic-styles>
 <style:page-layout style:name="pm1">
  <style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="2.5cm" fo:margin-bottom="2.5cm" fo:margin-left="2.5cm" fo:margin-right="2.5cm" {wm}/>
 </style:page-layout>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1"/></office:master-styles>
<office:body><office:text>
{chr(10).join(body)}
</office:text></office:body></office:document>
"""


def html(lang, title, paras, font, rtl=False):
    d = " dir='rtl'" if rtl else ""
    parts = [f"<!doctype html><html lang='{lang}'{d}><head><meta charset='utf-8'><style>",
             "@page { size: A4; margin: 2.5cm; }",
             f"body {{ font-family: '{font}'; font-size: 13pt; line-height: 1.6; }}",
             "h1 { font-size: 20pt; } p { margin: 0 0 0.7em 0; }", "</style></head><body>",
             f"<h1>{escape(title)}</h1>"] + [f"<p>{escape(p)}</p>" for p in paras] + ["</body></html>"]
    return "\n".join(parts)


def xelatex(title, paras, font, lang):
    if lang == "fa":
        pre = ("\\usepackage{fontspec}\n\\usepackage{polyglossia}\n\\setmainlanguage{persian}\n"
               f"\\newfontfamily\\persianfont[Script=Arabic]{{{font}}}\n")
        body = list(paras)
    elif lang == "ar":
        pre = ("\\usepackage{fontspec}\n\\usepackage{polyglossia}\n\\setmainlanguage{arabic}\n"
               "\\setotherlanguage{english}\n"
               f"\\newfontfamily\\arabicfont[Script=Arabic]{{{font}}}\n\\setmainfont{{DejaVu Serif}}\n")
        def latin(p):
            # Latin runs inside the Arabic line, as an author writes them with polyglossia
            out, word = [], []
            for tok in p.split(" "):
                if tok and tok[0].isascii() and tok[0].isalpha():
                    word.append(tok)
                else:
                    if word:
                        out.append("\\textenglish{" + " ".join(word) + "}")
                        word = []
                    out.append(tok)
            if word:
                out.append("\\textenglish{" + " ".join(word) + "}")
            return " ".join(out)
        body = [latin(p) for p in paras]
    else:
        script = "Bengali" if lang == "bn" else "Devanagari"
        pre = f"\\usepackage{{fontspec}}\n\\setmainfont[Script={script}]{{{font}}}\n"
        body = list(paras)
    return ("\\documentclass[12pt]{article}\n" + pre + "\\pagestyle{empty}\n\\begin{document}\n"
            "{\\Large\\bfseries " + title + "\\par}\n\\bigskip\n" + "\n\n".join(body) + "\n\\end{document}\n")


def meta(name, lang, script, direction, generator, detail, font, txt, features):
    paras = txt.strip().split("\n\n")
    return {
        "name": name, "split": "dev", "languages": sorted({lang, "en"} if "latin-in-rtl" in features else {lang}),
        "primary_language": lang, "scripts": script, "direction": direction, "generator": generator,
        "generator_detail": detail, "postprocess": None,
        "layout": {"page_size": "A4", "columns": 1, "align": "start", "hyphenation": False,
                   "letter_spacing": None, "font": font, "running_header": False,
                   "page_numbers": None, "content_order": "reading"},
        "pages": None, "features": sorted(features), "damage": [],
        "source": {"text": "original"},
        "scoring": {"tokens": "char-bigrams" if lang in ("zh", "ja", "th") else "words"},
        "truth": {"paragraphs": len(paras), "chars": len(txt.strip())},
    }


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    docs = [
        # name, lang, scripts, dir, generator, source kind, font, (title, paras), truth blocks, features
        ("ar-lo-notosans", "ar", ["Arabic"], "rtl", "lo-fodt", "fodt", "Noto Sans Arabic", AR, None, ["rtl", "lam-alef"]),
        ("ar-lo-notonaskh", "ar", ["Arabic"], "rtl", "lo-fodt", "fodt", "Noto Naskh Arabic", AR, None, ["rtl", "lam-alef"]),
        ("ar-chromium-notosans", "ar", ["Arabic"], "rtl", "chromium", "html", "Noto Sans Arabic", AR, None, ["rtl", "lam-alef"]),
        ("ar-lo-notokufi", "ar", ["Arabic"], "rtl", "lo-fodt", "fodt", "Noto Kufi Arabic", AR, None, ["rtl", "lam-alef"]),
        ("ar-chromium-notonaskh", "ar", ["Arabic"], "rtl", "chromium", "html", "Noto Naskh Arabic", AR, None, ["rtl", "lam-alef"]),
        ("ar-xelatex-notosans", "ar", ["Arabic", "Latin"], "rtl", "xelatex", "tex", "Noto Sans Arabic", AR_MIXED, None, ["rtl", "latin-in-rtl"]),
        ("ar-xelatex-latin", "ar", ["Arabic", "Latin"], "rtl", "xelatex", "tex", "Noto Naskh Arabic", AR_MIXED, None, ["rtl", "latin-in-rtl"]),
        ("hi-xelatex-notosans", "hi", ["Devanagari"], "ltr", "xelatex", "tex", "Noto Sans Devanagari", HI, None, ["devanagari"]),
        ("hi-lo-notoserif", "hi", ["Devanagari"], "ltr", "lo-fodt", "fodt", "Noto Serif Devanagari", HI, None, ["devanagari"]),
        ("hi-chromium-notosans", "hi", ["Devanagari"], "ltr", "chromium", "html", "Noto Sans Devanagari", HI, None, ["devanagari"]),
        ("bn-xelatex-notoserif", "bn", ["Bengali"], "ltr", "xelatex", "tex", "Noto Serif Bengali", BN, None, ["bengali"]),
        ("th-chromium-notosans", "th", ["Thai"], "ltr", "chromium", "html", "Noto Sans Thai", TH, None, ["thai"]),
        ("fa-xelatex-nazli", "fa", ["Arabic"], "rtl", "xelatex", "tex", "Nazli", FA, None, ["rtl", "persian-yeh-kaf"]),
        ("zh-chromium-kangxi", "zh", ["Han"], "ltr", "chromium", "html", "WenQuanYi Micro Hei", ZH, None, ["kangxi-radicals"]),
        ("zh-lo-kangxi", "zh", ["Han"], "ltr", "lo-fodt", "fodt", "WenQuanYi Micro Hei", ZH, None, ["kangxi-radicals"]),
        ("en-lo-notes", "en", ["Latin"], "ltr", "lo-fodt", "fodt-notes", "Liberation Serif", EN_NOTES, None, ["footnotes"]),
    ]
    for name, lang, scripts, direction, gen, kind, font, (title, paras), _, feats in docs:
        rtl = direction == "rtl"
        country = {"ar": "EG", "hi": "IN", "bn": "BD", "fa": "IR", "th": "TH", "zh": "CN", "en": "GB"}[lang]
        if kind == "fodt":
            shown = [title] + paras
            if lang == "zh":
                shown = ["".join(KANGXI.get(c, c) for c in t) for t in shown]
            (out / f"{name}.fodt").write_text(fodt(lang, country, shown[0], shown[1:], font, rtl), encoding="utf-8")
            truth = [title] + paras
        elif kind == "fodt-notes":
            (out / f"{name}.fodt").write_text(fodt(lang, country, title, paras, font, notes=True), encoding="utf-8")
            truth = [title] + [p for p, _ in paras] + [n for _, n in paras]
        elif kind == "html":
            shown = [title] + paras
            if lang == "zh":
                shown = ["".join(KANGXI.get(c, c) for c in t) for t in shown]
            (out / f"{name}.html").write_text(html(lang, shown[0], shown[1:], font, rtl), encoding="utf-8")
            truth = [title] + paras
        else:
            (out / f"{name}.tex").write_text(xelatex(title, paras, font, lang), encoding="utf-8")
            truth = [title] + paras
        txt = "\n\n".join(truth) + "\n"
        (out / f"{name}.txt").write_text(txt, encoding="utf-8")
        detail = {"lo-fodt": "LibreOffice Writer from flat ODT", "chromium": "Chromium print-to-pdf (HTML+CSS)",
                  "xelatex": "XeLaTeX (fontspec" + (", polyglossia" if lang == "ar" else "") + ")"}[gen] + f", font {font}"
        m = meta(name, lang, scripts, direction, gen, detail, font, txt, feats)
        (out / f"{name}.json").write_text(json.dumps(m, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(name)


if __name__ == "__main__":
    main()
