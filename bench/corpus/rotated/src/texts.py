"""The texts of the rotated-text documents, written for this corpus.

Each document: a title, body paragraphs per page, and the rotated passages of each page (a margin
stamp, a sidebar label), which the truth reads after the body of their page.
"""

EN = {
    'lang': 'en',
    'title': 'Notes on Keeping Bees in a Small Garden',
    'pages': [[
        'A single hive fits in a corner of most gardens. The bees need a sheltered spot, morning sun and a clear flight path that does not cross the place where people sit.',
        'In spring the colony grows quickly. The keeper opens the hive every week or so to check that the queen is laying and that the workers have enough room to store nectar.',
        'Summer brings the main harvest. Frames heavy with capped honey are lifted out, the wax cappings are sliced away, and the honey is spun out in a hand-turned extractor.',
        'Before winter the hive is made snug. A mouse guard goes over the entrance, the roof is weighed down against storms, and the bees are left in peace until the days grow longer.',
    ]],
    'stamps': [['Preprint 2409.01234, filed under garden studies, version two, 3 March 2025']],
}

DE = {
    'lang': 'de',
    'title': 'Kleine Anleitung zum Brotbacken',
    'pages': [[
        'Ein gutes Brot braucht nur wenig: Mehl, Wasser, Salz und etwas Zeit. Wer am Abend einen Vorteig ansetzt, kann am nächsten Morgen einen lockeren Laib backen.',
        'Der Teig wird kräftig geknetet, bis er sich glatt vom Schüsselrand löst. Danach ruht er zugedeckt an einem warmen Ort, bis sich sein Volumen verdoppelt hat.',
    ], [
        'Vor dem Backen wird der Laib geformt und mit einem scharfen Messer eingeschnitten. So kann der Dampf entweichen, und die Kruste reißt nicht an einer zufälligen Stelle auf.',
        'Im heißen Ofen bildet sich zuerst die Kruste. Eine Schale Wasser auf dem Boden sorgt für Dampf, der das Brot schön aufgehen lässt und ihm Glanz verleiht.',
        'Nach dem Backen klopft man auf die Unterseite. Klingt das Brot hohl, ist es fertig und darf auf einem Gitter vollständig auskühlen, bevor es angeschnitten wird.',
    ]],
    'stamps': [['Entwurf vom Mai, bitte nicht weitergeben'], []],
}

FR = {
    'lang': 'fr',
    'title': 'Promenade au bord du canal',
    'pages': [[
        'Le canal traverse la ville du nord au sud. Ses berges, autrefois réservées aux chevaux qui tiraient les péniches, accueillent aujourd’hui les promeneurs et les cyclistes.',
        'Au petit matin, les pêcheurs s’installent près des écluses. Ils parlent peu, surveillent leur bouchon et saluent d’un signe de tête les coureurs qui passent.',
        'Plus loin, une ancienne maison d’éclusier a été transformée en café. On y sert des tartines et du chocolat chaud, et la terrasse donne directement sur l’eau.',
        'Le soir, les lampadaires se reflètent à la surface. Les derniers bateaux rentrent lentement, et le quartier retrouve le calme d’un village au bord de l’eau.',
    ]],
    'stamps': [['Guide des quartiers, édition de printemps', 'Exemplaire gratuit, ne peut être vendu']],
}

ES = {
    'lang': 'es',
    'title': 'Cuaderno de un huerto urbano',
    'pages': [[
        'En la azotea del edificio hay doce cajones de madera llenos de tierra. Los vecinos los riegan por turnos y anotan en un cuaderno lo que siembran cada semana.',
        'En primavera crecen lechugas, rábanos y guisantes. Las tomateras necesitan cañas para sostenerse, y las albahacas se plantan entre ellas para alejar a los insectos.',
    ], [
        'En verano el trabajo principal es regar temprano, antes de que el sol caliente el suelo. Un toldo viejo protege las plantas más delicadas durante las horas de más calor.',
        'En otoño se recogen las últimas calabazas y se prepara la tierra con compost. Los cajones vacíos descansan hasta la siguiente temporada, cubiertos de hojas secas.',
    ]],
    'stamps': [[], ['Copia de trabajo, segunda revisión']],
}


def truth(doc):
    """The title, then per page its body paragraphs followed by its rotated passages."""
    paras = [doc['title']]
    for body, stamps in zip(doc['pages'], doc['stamps']):
        paras += body + stamps
    return '\n\n'.join(paras) + '\n'
