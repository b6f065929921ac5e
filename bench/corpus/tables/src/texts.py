"""The texts of the table documents, written for this corpus: prose, captions and table rows.

Each document: a title, paragraphs before the table, the caption (above or below), the header row,
the body rows (one list of cell texts per row), and paragraphs after.
"""

EN = {
    'lang': 'en',
    'title': 'Ferry timetable for the winter season',
    'before': [
        'The island service runs on a reduced timetable from November to March. Crossings leave from the '
        'north pier unless the harbour master announces otherwise, and tickets are sold on board.',
    ],
    'caption': 'Table 1. Winter crossings and what each one carries',
    'caption_above': True,
    'header': ['Crossing', 'Vessel and what it carries', 'Duration'],
    'rows': [
        ['Early morning', 'The small passenger launch, which also takes the post and fresh bread for the shop', '40 minutes'],
        ['Late morning', 'The car ferry with room for twelve vehicles and a covered deck for bicycles', 'One hour'],
        ['Afternoon', 'The car ferry again, with livestock trailers allowed on the first Monday of each month', 'One hour'],
        ['Evening', 'The passenger launch only, weather permitting', '40 minutes'],
    ],
    'after': [
        'In strong easterly winds the afternoon crossing may be cancelled at short notice. Travellers are asked '
        'to check the board at the pier before setting out.',
    ],
}

DE = {
    'lang': 'de',
    'title': 'Belegungsplan der Werkstatt',
    'before': [
        'Die Werkstatt im Hinterhof steht allen Mitgliedern des Vereins offen. Damit sich die Gruppen nicht '
        'gegenseitig stören, gilt ab dem Frühjahr der folgende Plan.',
    ],
    'caption': 'Tabelle 2: Wer die Werkstatt wann benutzt',
    'caption_above': False,
    'header': ['Tag', 'Gruppe', 'Vorhaben und Hinweise', 'Raum'],
    'rows': [
        ['Montag', 'Holzgruppe', 'Hocker und kleine Regale; die große Säge bleibt ausgeschaltet', 'Halle'],
        ['Dienstag', 'Fahrradhilfe', 'Reparatur von Rädern aus der Nachbarschaft gegen eine Spende', 'Hof'],
        ['Mittwoch', 'Nähkreis', 'Vorhänge für den Saal und Flicken für die Arbeitskleidung', 'Stube'],
        ['Donnerstag', 'Jugendgruppe', 'Vogelhäuser bauen und bemalen', 'Halle'],
    ],
    'after': [
        'Wer einen Termin tauschen möchte, trägt dies bitte rechtzeitig in die Liste neben der Tür ein. '
        'Werkzeug wird nach jeder Sitzung gereinigt und an seinen Platz zurückgelegt.',
    ],
}

FR = {
    'lang': 'fr',
    'title': 'Relevés du jardin partagé',
    'before': [
        'Chaque samedi, deux bénévoles notent l’état des parcelles. Le tableau ci-dessous résume les relevés '
        'du mois de juin, parcelle par parcelle.',
    ],
    'caption': 'Tableau 3 – Relevés de juin par parcelle',
    'caption_above': True,
    'header': ['Parcelle', 'Culture principale', 'Arrosage', 'Récolte', 'Observations des bénévoles'],
    'rows': [
        ['Nord', 'Tomates et basilic', 'Tous les deux jours', '12 kg', 'Quelques feuilles tachées au pied des plants les plus anciens'],
        ['Sud', 'Courgettes', 'Le soir', '18 kg', 'Très bonne saison, il faudra prévoir des paniers supplémentaires'],
        ['Est', 'Haricots verts', 'Le matin', '7 kg', 'Les tuteurs ont cédé après l’orage du douze'],
        ['Ouest', 'Fraises', 'Goutte à goutte', '5 kg', 'Filet posé contre les merles'],
    ],
    'after': [
        'Les observations servent à préparer la réunion de juillet, où l’on décidera des cultures de la saison '
        'prochaine et du partage des outils.',
    ],
}

ES = {
    'lang': 'es',
    'title': 'Préstamos de la biblioteca del barrio',
    'before': [
        'La biblioteca del barrio abrió en marzo con libros donados por los vecinos. Al final del primer '
        'trimestre contamos cuántos préstamos hubo de cada sección.',
    ],
    'caption': 'Cuadro 4: Préstamos del primer trimestre por sección',
    'caption_above': True,
    'header': ['Sección', 'Marzo', 'Abril', 'Mayo', 'Comentario'],
    'rows': [
        ['Novela', '42', '57', '63', 'La sección más pedida desde el primer día'],
        ['Cocina', '18', '21', '30', 'Crece con las recetas de temporada'],
        ['Infantil', '35', '40', '38', 'Estable'],
        ['Viajes', '9', '14', '22', 'Muchas guías de montaña llegaron en abril'],
    ],
    'after': [
        'En junio ampliaremos el horario de los sábados y abriremos una pequeña sección de revistas.',
    ],
}


def truth(doc):
    """The exact text: title, paragraphs, caption at its place, one paragraph per table row."""
    table = [' '.join(doc['header'])] + [' '.join(row) for row in doc['rows']]
    parts = [doc['title'], *doc['before']]
    if doc['caption_above']:
        parts += [doc['caption'], *table]
    else:
        parts += [*table, doc['caption']]
    parts += doc['after']
    return '\n\n'.join(parts) + '\n'
