"""Texts of the running-footer documents, written for this corpus: a title, then sections of a
heading and its paragraphs (the first section has no heading). Each document also has the text
of its running footer (and header), which the truth leaves out."""

EN = {
    'lang': 'en',
    'title': 'The Harbour Ferry in 2023',
    'sections': [
        (None, [
            'For more than sixty years a small ferry has carried people across the harbour between the fish quay and the village of Kettle Point. The crossing takes eleven minutes in fair weather and rather longer when the wind comes from the east. This review looks back at the season that ended in October and sets out what the harbour board should change before the boats go back into service in the spring.',
        ]),
        ('Timetable', [
            'The ferry ran every half hour from seven in the morning until seven in the evening, with a later crossing on Fridays and Saturdays for those who work in the restaurants on the quay. The first boat of the day was the busiest by far: children going to the school on the far side, fishermen going out to their boats and a steady line of office workers with bicycles.',
            'Twice during the summer the timetable was cut to one crossing an hour because a skipper was ill and no replacement could be found at short notice. Passengers were told by notices at both landings, but many said they had not seen them, and the board received more letters about those two weeks than about anything else all year.',
            'We suggest that the timetable be printed on a single card that fits in a pocket, that changes be announced on the local radio and in the shop at Kettle Point, and that the board keep a list of retired skippers who are willing to step in for a few days.',
        ]),
        ('Passengers', [
            'The ferry carried a little under ninety thousand passengers, about four thousand more than the year before. Most of the growth came in July and August, when visitors discovered that the boat is the quickest way to reach the beach below the lighthouse. Numbers in winter were steady, and on the coldest mornings the regular passengers were almost the only ones aboard.',
            'Fares were not raised this year. A single crossing still costs two pounds, children under twelve travel free, and a book of twenty tickets costs thirty pounds. The book of tickets is popular with commuters, who asked whether it could be made valid for a whole year instead of six months. We see no reason why not, and the change would cost the board almost nothing.',
            'Several passengers who use wheelchairs told us that boarding at the fish quay is difficult at low tide, when the gangway slopes steeply. The landing at Kettle Point has a floating pontoon that rises and falls with the water, and a similar pontoon at the quay would solve the problem for good.',
        ]),
        ('The boats', [
            'The board owns two boats. The older one, the Marguerite, was built in a yard up the river in the year the service began and has been rebuilt twice since. She is slow and noisy but much loved, and visitors like to photograph her varnished wheelhouse. The newer boat, the Tern, is fifteen years old, carries forty passengers and uses half as much fuel.',
            'Both boats spent three weeks out of the water in February for painting and repairs. The Tern needed a new propeller shaft, which was expensive but not unexpected. The surveyor who inspected the Marguerite found that her hull is sound, though her engine will have to be replaced within five years if she is to remain in regular service.',
            'Some members of the board would like to sell the Marguerite and buy a second modern boat. Others argue that the old ferry is part of what draws visitors to the harbour and that she should be kept for the summer months, with the Tern doing most of the work in winter. We think the second plan is sensible, provided the new engine is budgeted for now.',
        ]),
        ('Staff and training', [
            'Four skippers and three deckhands worked on the ferry this year. Two of the skippers have been with the service for more than twenty years and know every rock and current in the harbour. The board should make use of that knowledge while it can, by asking them to train the younger crew on the crossing in poor visibility and at the lowest tides.',
            'All staff completed the required first aid and safety courses. The deckhands asked for a course in handling difficult passengers, after a summer evening when a large and cheerful wedding party refused to leave the boat at the quay. The matter was settled peacefully, but the crew would like to feel better prepared next time.',
        ]),
        ('Recommendations', [
            'In short, we recommend a pocket timetable and a list of relief skippers, an annual ticket book, a floating pontoon at the fish quay, a new engine for the Marguerite within five years, and further training for the crew. None of these steps is costly on its own, and together they would keep the ferry what it has always been: the easiest way across the harbour and one of the pleasures of living beside it.',
        ]),
    ],
}

DE = {
    'lang': 'de',
    'title': 'Die Wetterstation am Kammweg',
    'sections': [
        (None, [
            'Seit dem Frühjahr 1987 misst eine kleine Wetterstation oberhalb des Dorfes Temperatur, Niederschlag und Wind. Sie steht auf einer Wiese am Kammweg, gut zweihundert Meter über dem Talboden, und wird von einer Gruppe ehrenamtlicher Beobachter betreut. Dieser Bericht fasst das vergangene Jahr zusammen und erklärt, was sich an der Station geändert hat.',
        ]),
        ('Die Messgeräte', [
            'Die Station besteht aus einer weiß gestrichenen Wetterhütte mit Thermometern und einem Feuchtemesser, einem Regenmesser auf einem Holzpfahl und einem Windmesser auf einem zehn Meter hohen Mast. Seit dem vergangenen Sommer kommt ein elektronischer Sensor hinzu, der alle zehn Minuten einen Wert an einen kleinen Rechner im Gemeindehaus schickt.',
            'Die alten Thermometer werden trotzdem weiter abgelesen, jeden Morgen um sieben Uhr. So lässt sich prüfen, ob der neue Sensor dieselben Werte liefert wie die Geräte, mit denen die Reihe einst begonnen hat. Bisher weichen beide selten um mehr als ein Zehntel Grad voneinander ab.',
            'Der Regenmesser wird im Winter beheizt, damit Schnee und Eis darin schmelzen. Den Strom dafür liefert seit zwei Jahren eine Solarzelle auf dem Dach der Hütte. An trüben Tagen im Dezember reicht ihre Leistung allerdings nicht aus, und dann trägt jemand den Schnee in einem Eimer ins Tal und lässt ihn dort auftauen.',
        ]),
        ('Das Wetter des Jahres', [
            'Der Winter war mild und arm an Schnee. Nur an neun Tagen lag am Kammweg eine geschlossene Schneedecke, so wenig wie nie zuvor seit Beginn der Aufzeichnungen. Die Skiläufer aus dem Dorf mussten ins Nachbartal ausweichen, und der kleine Schlepplift am Gemeindehang blieb den ganzen Winter über stehen.',
            'Das Frühjahr brachte dagegen reichlich Regen. Im Mai fielen fast doppelt so viele Liter auf den Quadratmeter wie im langjährigen Mittel, und der Bach im Talgrund trat zweimal über die Ufer. Die Obstbauern klagten über Blüten, die im nassen Wetter nicht bestäubt wurden, und über eine entsprechend magere Ernte.',
            'Im Sommer folgten zwei Hitzewellen, die längste Ende Juli mit elf Tagen über dreißig Grad im Tal. Oben am Kammweg blieb es meist einige Grad kühler, und viele Wanderer kamen eigens herauf, um der Hitze zu entgehen. Der Herbst war ruhig, sonnig und ungewöhnlich lang; den ersten Frost maßen die Beobachter erst Mitte November.',
        ]),
        ('Die Beobachter', [
            'Elf Frauen und Männer teilen sich die täglichen Ablesungen. Jede Person übernimmt eine Woche, trägt die Werte in ein gebundenes Buch ein und gibt den Schlüssel zur Wetterhütte am Sonntagabend an die nächste weiter. Die älteste Beobachterin ist einundachtzig Jahre alt und steigt noch immer jeden Morgen den steilen Pfad hinauf.',
            'Im vergangenen Jahr kamen zwei Schülerinnen der Realschule hinzu, die für eine Projektarbeit die Niederschläge der letzten dreißig Jahre ausgewertet haben. Ihre Arbeit zeigt, dass es heute seltener, aber heftiger regnet als früher. Die Ergebnisse erschienen im Gemeindeblatt und fanden im Dorf großes Interesse.',
            'Wer mitmachen möchte, braucht keine Vorkenntnisse. Eine kurze Einweisung genügt, um die Geräte richtig abzulesen, und wer einmal eine Woche lang jeden Morgen oben war, findet den Weg auch im Nebel. Neue Beobachterinnen und Beobachter melden sich am besten im Gemeindehaus.',
        ]),
        ('Pläne', [
            'Der Mast des Windmessers ist alt und muss im kommenden Jahr ersetzt werden. Die Gemeinde hat zugesagt, die Hälfte der Kosten zu tragen; den Rest wollen die Beobachter durch Spenden und einen Stand auf dem Herbstmarkt aufbringen. Außerdem soll eine Tafel am Kammweg den Wanderern erklären, was in der Hütte gemessen wird und warum.',
            'Langfristig wünschen sich die Beobachter, dass die Messreihe auch dann weitergeführt wird, wenn keiner von ihnen mehr den Pfad hinaufsteigen kann. Deshalb sollen die Daten künftig auch dem Wetterdienst des Landes zur Verfügung stehen, der solche langen Reihen aus kleinen Orten sehr schätzt.',
        ]),
    ],
}

FR = {
    'lang': 'fr',
    'title': 'Le jardin partagé de la rue des Tanneurs',
    'sections': [
        (None, [
            'Il y a cinq ans, le terrain vague situé derrière l’ancienne tannerie n’était qu’un enchevêtrement de ronces et de gravats. Aujourd’hui, une quarantaine de familles y cultivent des légumes, des fleurs et quelques arbres fruitiers. Cette lettre raconte la saison qui s’achève et annonce les projets de l’hiver.',
        ]),
        ('Les parcelles', [
            'Le jardin compte trente-deux parcelles individuelles de dix mètres carrés chacune, ainsi qu’un grand carré collectif où chacun peut semer ce qu’il veut. Les parcelles sont attribuées pour deux ans, et la liste d’attente s’est allongée cette année : dix-neuf foyers espèrent obtenir une place au printemps prochain.',
            'Pour que l’attente soit moins longue, le bureau propose de partager certaines parcelles entre deux foyers. Plusieurs jardiniers âgés ont d’ailleurs dit qu’ils seraient heureux d’avoir de l’aide pour bêcher et arroser, en échange d’une partie de la récolte.',
        ]),
        ('L’eau', [
            'L’été a été sec, et la question de l’eau a occupé bien des conversations. Les deux cuves qui recueillent la pluie du toit de la tannerie étaient vides dès la mi-juillet. Il a fallu ouvrir le robinet de la ville, ce qui a presque triplé la facture de l’association.',
            'Au début de septembre, un groupe de bénévoles a installé une troisième cuve et refait les gouttières. Nous avons aussi commencé à couvrir le sol de paille et de feuilles mortes entre les rangs, une méthode qui garde l’humidité et limite les mauvaises herbes. Les premiers résultats sont encourageants, et nous invitons chacun à faire de même.',
        ]),
        ('Les récoltes', [
            'Malgré la sécheresse, les tomates ont été nombreuses et savoureuses. Les courges ont envahi le carré collectif au point de recouvrir le chemin, et les enfants du quartier ont organisé en octobre un concours de la plus grosse citrouille. La gagnante pesait trente et un kilos ; elle a fini en soupe pour la fête de la Toussaint.',
            'Les haricots et les salades ont souffert de la chaleur, et les pommiers plantés il y a trois ans n’ont donné qu’une poignée de fruits. Il faut de la patience avec les arbres : les anciens du jardin rappellent qu’un pommier ne donne vraiment qu’à partir de sa cinquième ou sixième année.',
        ]),
        ('La vie du jardin', [
            'Le jardin n’est pas seulement un lieu de culture. Le samedi matin, on y prend le café sous la tonnelle, on échange des graines et des conseils, et les plus jeunes apprennent à distinguer une carotte d’une mauvaise herbe. Cet été, l’école voisine a adopté une parcelle où chaque classe a semé des radis et des fleurs.',
            'Nous avons aussi accueilli trois concerts en plein air et une soirée de contes, qui ont attiré bien plus de monde que prévu. Les voisins qui ne jardinent pas nous ont dit combien ils appréciaient ces moments, et certains ont proposé de prêter des tables et des chaises pour les prochaines fois.',
        ]),
        ('Projets pour l’hiver', [
            'Pendant l’hiver, nous voulons construire un abri à outils plus grand, tailler la haie qui longe la rue et poser une clôture basse autour du carré des enfants. Un atelier de compostage aura lieu en janvier, animé par un maître composteur de la ville. Les dates seront affichées sur le portail et envoyées par courriel.',
            'Enfin, l’assemblée générale se tiendra en février dans la salle paroissiale. Chacun est invité à y venir avec ses idées, ses questions et, si possible, un gâteau. C’est là que seront attribuées les parcelles libérées et que sera élu le nouveau bureau.',
        ]),
    ],
}

ES = {
    'lang': 'es',
    'title': 'La almazara de la cooperativa',
    'sections': [
        (None, [
            'Cada invierno, cuando termina la recogida de la aceituna, la almazara de la cooperativa trabaja día y noche durante unas seis semanas. En ella se muelen las olivas de casi doscientos socios, que llegan con sus remolques desde los pueblos de la comarca. Estas páginas describen cómo se hace el aceite y qué ha cambiado en los últimos años.',
        ]),
        ('La llegada de la aceituna', [
            'Los socios descargan la aceituna en una tolva a la entrada del edificio. Allí se pesa cada remolque y se toma una muestra para medir el rendimiento, es decir, cuánto aceite se espera obtener de cada kilo. El resultado se apunta en la libreta del socio, porque de él depende lo que cobrará al final de la campaña.',
            'Antes de la molienda, una cinta lleva las olivas a una máquina que separa las hojas y las ramas y a otra que las lava con agua limpia. Los más veteranos recuerdan que antes todo esto se hacía a mano, con cribas de madera, y que la cola de remolques llegaba a veces hasta la carretera.',
        ]),
        ('La molienda', [
            'La aceituna limpia pasa a un molino de martillos que la convierte en una pasta espesa y oscura. Esa pasta se bate despacio durante una hora, a una temperatura que no debe superar los veintisiete grados, para que las pequeñas gotas de aceite se junten. Si se calienta más, se obtiene más aceite, pero pierde aroma y sabor.',
            'Después, una centrífuga separa el aceite del agua y de los restos sólidos, que se aprovechan como abono o como combustible. El aceite recién salido es turbio y verde, con un olor intenso a hierba y a tomate. Se deja reposar en depósitos de acero durante unas semanas antes de filtrarlo y embotellarlo.',
        ]),
        ('Los cambios recientes', [
            'Hace diez años la cooperativa decidió separar la aceituna recogida del árbol de la que se recoge del suelo, que da un aceite de peor calidad. La medida fue polémica al principio, porque obligaba a los socios a recoger antes y con más cuidado, pero hoy casi todos reconocen que ha valido la pena: el aceite de la cooperativa ha ganado varios premios y se vende a mejor precio.',
            'También se ha reducido mucho el consumo de agua. Las nuevas centrífugas necesitan apenas una parte de la que usaban las antiguas, y el agua de lavado se filtra y se vuelve a usar. Los vecinos del pueblo, que antes se quejaban del olor de las balsas en primavera, han notado la diferencia.',
        ]),
        ('La campaña de este año', [
            'La cosecha ha sido corta por la falta de lluvia en primavera, pero la aceituna ha llegado sana y con buen rendimiento. La almazara molió algo menos de tres millones de kilos, y el aceite de las primeras semanas, el más apreciado, ya está a la venta en la tienda de la cooperativa.',
            'Como cada año, la campaña terminará con una comida para los socios y sus familias en el patio de la almazara. Se servirán tostadas con el aceite nuevo, migas y naranjas de la huerta, y se entregará un pequeño obsequio a quienes llevan más de cuarenta años trayendo su aceituna.',
        ]),
    ],
}


def blocks(doc):
    """The document's paragraphs in reading order, each as (role, text): the title, then each
    section's heading and paragraphs."""
    out = [('title', doc['title'])]
    for heading, paras in doc['sections']:
        if heading is not None:
            out.append(('heading', heading))
        out.extend(('body', p) for p in paras)
    return out


def truth(doc):
    """The exact text: one paragraph a block, blank lines between, running heads left out."""
    return '\n\n'.join(text for _, text in blocks(doc)) + '\n'
