"""The texts of the contents-page documents, written for this corpus.

Each document: a title, a contents list (chapters and sections with the pages they start on),
the chapters' text, and a "Notes" chapter of numbered endnotes. The body marks a note with a
superscript number (left out of the truth, as footnote marks are); the note itself keeps its
number ("1. …"), which is part of the printed text.
"""

EN = {
    'lang': 'en',
    'title': 'Ponds of the Upper Valley',
    'contents': 'Contents',
    'notes': 'Notes',
    'chapters': [
        ('1', 'Introduction', [
            ('1.1', 'Why the ponds matter', 'The small ponds of the upper valley hold water all summer. Frogs, newts and dragonflies depend on them, and so do the farmers who water their sheep there.'),
            ('1.2', 'Scope of this report', 'This report covers twelve ponds visited between April and September. Larger lakes and the river itself are left for a later study.[1]'),
        ]),
        ('2', 'Methods', [
            ('2.1', 'Sampling the ponds', 'Each pond was visited once a month. We took a water sample from the shore and one from the middle, using a small boat where the pond was deep enough.'),
            ('2.2', 'Counting animals and plants along the shore and in the shallow water', 'Volunteers walked the shore and counted what they saw in ten minutes. Plants were listed by species, animals by kind and number.[2]'),
            ('2.3', 'Measuring the water', 'Temperature, depth and clarity were measured at noon. A simple disc lowered on a rope gave the clarity of the water.'),
        ]),
        ('3', 'Results', [
            ('3.1', 'Water quality', 'Most ponds stayed clear until July. Two ponds near the road turned green in August, when the water was warm and low.'),
            ('3.2', 'Animals and plants', 'Newts were found in nine ponds and frogs in all twelve. The richest pond held eleven kinds of dragonfly.[3]'),
        ]),
        ('4', 'Discussion', [
            ('4.1', 'What changed over the summer', 'The ponds lost about a third of their depth by August. Shallow ponds warmed fastest and lost their newts first.'),
            ('4.2', 'Advice for the owners', 'Keeping cattle away from one side of each pond would protect the plants at the edge. A hedge on the road side would keep dust out.'),
        ]),
    ],
    'endnotes': [
        'The river survey is planned for next year and will use the same methods.',
        'Counts by different volunteers were compared on three days and differed by less than one tenth.',
        'Dragonflies were counted as adults on the wing; larvae were not counted.',
    ],
}

DE = {
    'lang': 'de',
    'title': 'Der Schulgarten am Mühlbach',
    'contents': 'Inhalt',
    'notes': 'Anmerkungen',
    'chapters': [
        ('1', 'Einleitung', [
            ('1.1', 'Wie der Garten entstand', 'Der Garten wurde vor vier Jahren auf einer alten Wiese angelegt. Eltern, Lehrer und Kinder haben die ersten Beete gemeinsam umgegraben.'),
            ('1.2', 'Wer im Garten arbeitet', 'Jede Klasse pflegt zwei Beete. In den Ferien gießen Freiwillige aus der Nachbarschaft die Pflanzen.[1]'),
        ]),
        ('2', 'Die Beete', [
            ('2.1', 'Gemüse und Kräuter', 'Auf den Beeten wachsen Bohnen, Möhren, Salat und Kartoffeln. Am Rand stehen Kräuter wie Thymian, Salbei und Minze.'),
            ('2.2', 'Blumen für Bienen und Schmetterlinge am Rand des Gartens', 'Ein langer Streifen mit Wildblumen zieht Bienen und Schmetterlinge an. Die Kinder zählen sie jeden Freitag.[2]'),
            ('2.3', 'Der Kompost', 'Alle Gartenabfälle kommen auf den Kompost. Nach einem Jahr wird die Erde wieder auf die Beete verteilt.'),
        ]),
        ('3', 'Das Gartenjahr', [
            ('3.1', 'Frühling und Sommer', 'Im März werden die ersten Samen ausgesät. Im Juni gibt es Salat für die ganze Schule.'),
            ('3.2', 'Herbst und Winter', 'Im Herbst werden Kartoffeln geerntet und Zwiebeln für das nächste Jahr gesteckt. Im Winter ruht der Garten unter Laub.[3]'),
        ]),
        ('4', 'Ausblick', [
            ('4.1', 'Ein Gewächshaus', 'Ein kleines Gewächshaus soll im nächsten Jahr gebaut werden. Dann können Tomaten schon im Mai gepflanzt werden.'),
            ('4.2', 'Mehr Wasser sparen', 'Ein Fass am Schuppen sammelt Regenwasser. Ein zweites Fass würde in trockenen Wochen viel helfen.'),
        ]),
    ],
    'endnotes': [
        'Die Liste der Freiwilligen hängt am Schuppen und wird jeden Monat erneuert.',
        'Gezählt wird zehn Minuten lang an derselben Stelle, immer am späten Vormittag.',
        'Das Laub stammt von den Linden am Bach und wird im November verteilt.',
    ],
}

FR = {
    'lang': 'fr',
    'title': 'La boulangerie coopérative du quartier',
    'contents': 'Table des matières',
    'notes': 'Notes',
    'chapters': [
        ('1', 'Présentation', [
            ('1.1', 'Les débuts du projet', 'La boulangerie a ouvert ses portes il y a trois ans dans une ancienne épicerie. Une vingtaine de familles ont réuni le premier capital.'),
            ('1.2', 'Qui sont les membres', 'Chaque membre possède une part et dispose d’une voix. Les boulangers sont aussi membres de la coopérative.[1]'),
        ]),
        ('2', 'Le travail au fournil', [
            ('2.1', 'Les farines', 'Les farines viennent de deux moulins de la région. Le seigle et le petit épeautre sont achetés directement aux paysans.'),
            ('2.2', 'Une journée de travail au fournil, de la nuit jusqu’à l’ouverture du magasin', 'Le premier boulanger arrive à trois heures. Les pains de campagne cuisent en premier, les brioches en dernier.[2]'),
            ('2.3', 'Le four', 'Le four à bois a été reconstruit par un maçon du village. Il faut deux heures pour le chauffer.'),
        ]),
        ('3', 'La vie de la coopérative', [
            ('3.1', 'Les assemblées', 'Les membres se réunissent deux fois par an. On y vote les prix et les nouveaux produits.'),
            ('3.2', 'Les ateliers', 'Un samedi par mois, les enfants du quartier apprennent à faire leur propre pain.[3]'),
        ]),
        ('4', 'Perspectives', [
            ('4.1', 'Un second magasin', 'Un petit magasin pourrait ouvrir près de la gare. Le pain y serait livré à vélo.'),
            ('4.2', 'Moins de déchets', 'Le pain de la veille est vendu à moitié prix ou donné à une association.'),
        ]),
    ],
    'endnotes': [
        'Les statuts de la coopérative peuvent être consultés au magasin.',
        'En été, le travail commence une heure plus tôt à cause de la chaleur.',
        'Les ateliers sont gratuits pour les familles membres.',
    ],
}


def pages(doc, first=2):
    """The page each chapter starts on: every chapter a page of its own, the first on page `first`
    (2 where the contents fill page 1)."""
    return {num: i + first for i, (num, _t, _s) in enumerate(doc['chapters'])}


def notes_page(doc, first=2):
    """The notes follow the last chapter on a page of their own."""
    return len(doc['chapters']) + first


def toc_entries(doc, first=2):
    """(level, number, title, page) for every entry of the contents list."""
    out = []
    start = pages(doc, first)
    for num, title, sections in doc['chapters']:
        out.append((1, num, title, start[num]))
        for snum, stitle, _text in sections:
            out.append((2, snum, stitle, start[num]))
    out.append((1, '', doc['notes'], notes_page(doc, first)))
    return out


def strip_marks(text):
    """The body text as read: note marks ([1]) are left out."""
    import re
    return re.sub(r'\[\d+\]', '', text)


def truth(doc, toc_last=False):
    """The truth text: paragraphs separated by one blank line. `toc_last`: the contents are printed
    after the notes (groff -ms .TC), with the first chapter on page 1 under the title."""
    toc = [doc['contents']]
    for level, num, title, page in toc_entries(doc, 1 if toc_last else 2):
        toc.append(' '.join(x for x in (num, title, str(page)) if x))
    paras = [doc['title']] + ([] if toc_last else toc)
    for num, title, sections in doc['chapters']:
        paras.append(f'{num} {title}')
        for snum, stitle, text in sections:
            paras.append(f'{snum} {stitle}')
            paras.append(strip_marks(text))
    paras.append(doc['notes'])
    for i, note in enumerate(doc['endnotes'], 1):
        paras.append(f'{i}. {note}')
    if toc_last:
        paras += toc
    return '\n\n'.join(paras) + '\n'
