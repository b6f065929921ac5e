#!/usr/bin/env python3
"""Write the sources and truths of the font sweep: one short text per script, set in every
suitable font Debian packages, by Chromium (HTML), LibreOffice Writer (flat ODT), XeLaTeX, Pango
with cairo (as GTK programs print) and, for Latin, Greek and Cyrillic, pdfLaTeX with TeX's own fonts.

Two sets of texts: `a` (the default), plain prose; `b` (SWEEP_TEXTS=b in the environment), prose
with what real documents bring besides letters: digits of the script and of ASCII, quotation
marks and brackets of the language, Latin words inside right-to-left and CJK lines, ligatures
(fi, ffi, fl), diacritics (tanween and shadda, dialytika with tonos, nukta, candrabindu, visarga),
conjuncts, reph and ya-phala, ZWNJ, abbreviation and repetition marks (ฯ ๆ), no-break spaces.

A document is named SCRIPT-GENERATOR-FONTSLUG. Sources are written to OUT/src/ only when their
content changed, so build.sh rebuilds only the PDFs whose source is newer.

usage: make.py OUT            write OUT/src/NAME.{html,fodt,tex,json} and OUT/NAME.{txt,json}
       make.py check OUT NAME  print why NAME's PDF is not set in its font (nothing when it is)
"""
import json
import os
import re
import subprocess
import sys
from html import escape
from pathlib import Path

# script key: (language, scripts, direction, title, paragraphs). Texts written for this sweep.
TEXTS_A = {
    "english": ("en", ["Latin"], "ltr", "The Lighthouse Keeper’s Garden", [
        "Every morning the keeper climbed down from the tower and walked to the small garden behind the wall. "
        "The wind from the sea was strong, so he grew only low plants: thyme, cabbages and a row of stubborn onions.",
        "Visitors often asked why he bothered. He answered that a lamp needs oil and a man needs soup, "
        "and that both are easier to find when you have planted something yourself.",
    ]),
    "french": ("fr", ["Latin"], "ltr", "Le marché du samedi", [
        "Dès sept heures, les étals s’installent sur la place de l’église. On y trouve des pêches mûres, "
        "des fromages affinés et du pain encore tiède, que l’on goûte avant de choisir.",
        "À midi, les marchands plient leurs bâches et les enfants ramassent les cageots vides. Le café d’en face "
        "déborde alors de clients qui racontent, à voix haute, ce qu’ils ont acheté trop cher.",
    ]),
    "greek": ("el", ["Greek"], "ltr", "Το καφενείο της πλατείας", [
        "Κάθε απόγευμα οι γέροι του χωριού μαζεύονται στο καφενείο κάτω από τον πλάτανο. Παίζουν τάβλι, "
        "πίνουν ελληνικό καφέ και συζητούν για τη βροχή που δεν ήρθε ακόμη.",
        "Ο ιδιοκτήτης γνωρίζει τι θέλει ο καθένας πριν καν καθίσει. Όταν πέφτει ο ήλιος, ανάβει τα φανάρια "
        "και τα παιδιά τρέχουν γύρω από τη βρύση με τα ποδήλατά τους.",
    ]),
    "cyrillic": ("ru", ["Cyrillic"], "ltr", "Утро на даче", [
        "Летом мы просыпались рано, когда солнце только поднималось над лесом. Бабушка уже варила кашу, "
        "а дед чинил забор и ворчал на соседскую козу.",
        "После завтрака мы шли к реке с удочками и ведром. Рыба ловилась плохо, зато мы находили ежевику, "
        "купались до дрожи и возвращались домой только к обеду.",
    ]),
    "arabic": ("ar", ["Arabic"], "rtl", "مكتبة الحي", [
        "في نهاية الشارع مكتبة صغيرة يديرها رجل عجوز يحب القراءة. يأتي إليها الطلاب بعد المدرسة "
        "ليستعيروا الكتب ويجلسوا قرب النافذة.",
        "لا يطلب صاحب المكتبة مالا كثيرا، لكنه يطلب أن تعود الكتب نظيفة. وفي الشتاء يقدم للزوار الشاي "
        "بالنعناع ويحكي لهم قصصا عن المدن التي زارها.",
    ]),
    "persian": ("fa", ["Arabic"], "rtl", "باغ مادربزرگ", [
        "خانه\u200cی مادربزرگ باغ کوچکی داشت که پر از درختان انار و انجیر بود. هر تابستان نوه\u200cها به آنجا "
        "می\u200cرفتند و تا شب در سایه\u200cی درختان بازی می\u200cکردند.",
        "مادربزرگ همیشه می\u200cگفت که باغ مثل آدم است و باید با آن حرف زد. او صبح\u200cها زود بیدار می\u200cشد، "
        "به گل\u200cها آب می\u200cداد و برای همه چای تازه دم می\u200cکرد.",
    ]),
    "urdu": ("ur", ["Arabic"], "rtl", "بارش کا دن", [
        "صبح سے آسمان پر گہرے بادل چھائے ہوئے تھے۔ دوپہر کو تیز بارش شروع ہوئی اور گلیوں میں پانی بھر گیا۔",
        "بچے کاغذ کی کشتیاں بنا کر پانی میں چھوڑنے لگے۔ شام کو جب بارش رکی تو ہوا ٹھنڈی ہو گئی اور سب لوگ "
        "چائے پینے اپنے گھروں سے باہر نکل آئے۔",
    ]),
    "hebrew": ("he", ["Hebrew"], "rtl", "הספרייה בשכונה", [
        "בקצה הרחוב יש ספרייה קטנה שפתוחה כל יום עד השעה שמונה בערב. ילדים באים אליה אחרי בית הספר, "
        "יושבים על השטיח וקוראים ספרי הרפתקאות.",
        "הספרנית מכירה את כולם בשם. בחורף היא מדליקה תנור קטן ומגישה תה חם לקוראים שנשארים עד מאוחר.",
    ]),
    "devanagari": ("hi", ["Devanagari"], "ltr", "गाँव का मेला", [
        "हर साल सर्दियों में हमारे गाँव में एक बड़ा मेला लगता है। दूर-दूर से लोग खिलौने, मिठाइयाँ और कपड़े बेचने आते हैं।",
        "बच्चे झूले पर बैठकर खुशी से चिल्लाते हैं और बूढ़े लोग पेड़ के नीचे बैठकर पुरानी बातें याद करते हैं। "
        "शाम होते ही पूरा मैदान दीयों की रोशनी से जगमगा उठता है।",
    ]),
    "bengali": ("bn", ["Bengali"], "ltr", "নদীর ধারে বিকেল", [
        "বিকেলবেলা আমরা নদীর ধারে হাঁটতে যাই। জেলেরা নৌকা নিয়ে ফিরে আসে আর ছোট ছেলেমেয়েরা বালিতে খেলা করে।",
        "সূর্য ডোবার সময় আকাশ লাল আর কমলা রঙে ভরে যায়। তারপর আমরা চা খেয়ে গল্প করতে করতে বাড়ি ফিরি।",
    ]),
    "thai": ("th", ["Thai"], "ltr", "ตลาดน้ำยามเช้า", [
        "ทุกเช้าวันเสาร์ ชาวบ้านจะพายเรือนำผักและผลไม้มาขายที่ตลาดน้ำ นักท่องเที่ยวชอบมาถ่ายรูปและชิมขนมไทยแบบโบราณ",
        "แม่ค้าคนหนึ่งขายก๋วยเตี๋ยวเรือมานานกว่ายี่สิบปี เธอบอกว่าความลับของน้ำซุปคือการเคี่ยวกระดูกตั้งแต่ตีสี่",
    ]),
    "chinese": ("zh", ["Han"], "ltr", "图书馆里的下午", [
        "星期六下午，图书馆里坐满了学生。有人在窗边安静地看书，有人在电脑前查资料，还有几个孩子在儿童区画画。",
        "管理员是一位退休的老师，她总是笑着帮大家找书。闭馆之前，她会把每一本书放回原来的位置。",
    ]),
    "japanese": ("ja", ["Han", "Hiragana", "Katakana"], "ltr", "駅前のパン屋", [
        "駅前の小さなパン屋は、毎朝六時に店を開けます。焼きたてのクロワッサンの香りが通りに広がり、通勤する人たちが足を止めます。",
        "店主は若いころフランスで修業をしたそうです。週末には近所の子どもたちがメロンパンを買いに来て、店の中はにぎやかになります。",
    ]),
    "korean": ("ko", ["Hangul"], "ltr", "바닷가 마을의 여름", [
        "여름이 되면 작은 바닷가 마을은 관광객으로 가득 찬다. 아이들은 모래성을 쌓고 어른들은 파라솔 아래에서 시원한 수박을 먹는다.",
        "저녁에는 어부들이 잡아 온 생선을 시장에서 판다. 해가 지면 사람들은 방파제에 앉아 바다 위로 떠오르는 달을 바라본다.",
    ]),
}

TEXTS_B = {
    "english": ("en", ["Latin"], "ltr", "Moving the Office", [
        "On 14 March the firm finally moved its office from the old flour mill to a bright, efficient building near "
        "the fjord. The lift held only 6 people (or 450 kg), so the staff carried the files—about 1,200 boxes—up the stairs themselves.",
        "“It’s a well-earned change,” said Ms O’Neill, the affable head of finance; she put the rent at £3,150 a month, "
        "12% less than before. By Friday the waffle iron was plugged in again, and everyone agreed the view was worth the effort.",
    ]),
    "french": ("fr", ["Latin"], "ltr", "Le déménagement de la bibliothèque", [
        "Lundi 3 juin, l’équipe a transporté près de 8\u00a0500 ouvrages vers le nouveau bâtiment. «\u00a0C’est une œuvre de "
        "longue haleine\u00a0», reconnaît Noël, le bibliothécaire, qui a coché chaque carton sur sa liste.",
        "Les lecteurs, un peu naïfs, pensaient rouvrir dès le lendemain\u00a0; il a fallu attendre deux semaines. Aujourd’hui, "
        "la salle d’étude offre 120 places et un coin où les enfants lisent des bandes dessinées à cœur joie.",
    ]),
    "greek": ("el", ["Greek"], "ltr", "Η εκδρομή στο νησί", [
        "Το πρωί της Πέμπτης, 12 Μαΐου, φύγαμε με το πλοίο των 7:30 για την Αίγινα. Ο καιρός ήταν ήπιος και η θάλασσα "
        "ήσυχη\u00b7 μόνο ένα παιδί ζαλίστηκε λίγο.",
        "Στο λιμάνι δοκιμάσαμε φιστίκια, το διάσημο προϊόν του νησιού, και ένα ευρωπαϊκό ζευγάρι μάς ρώτησε «πού είναι "
        "ο ναός;». Επιστρέψαμε αργά το απόγευμα, κουρασμένοι αλλά χαρούμενοι.",
    ]),
    "cyrillic": ("ru", ["Cyrillic"], "ltr", "Переезд в новую квартиру", [
        "В субботу, 5 октября, мы наконец переехали в новую квартиру на пятом этаже. Грузчики опоздали на час, зато "
        "аккуратно подняли шкаф, пианино и 37 коробок с книгами.",
        "Соседка из нашего подъезда — пожилая учительница музыки — принесла нам пирог с яблоками и сказала: «Добро "
        "пожаловать! Если что-нибудь понадобится, стучите». Вечером мы пили чай на полу, потому что стулья ещё ехали из старого дома.",
    ]),
    "arabic": ("ar", ["Arabic"], "rtl", "رحلة إلى الإسكندرية", [
        "في صباح يوم الخميس ١٢ مايو، ركبنا القطار من القاهرة إلى الإسكندرية. استغرقت الرحلة ساعتين ونصف الساعة تقريباً، "
        "وكان الجوّ لطيفاً، وجلس بجانبي طالب يقرأ كتاباً عن تاريخ البحر المتوسط.",
        "عندما وصلنا قال المرشد: «أهلاً وسهلاً بكم في عروس البحر!». زرنا المكتبة وقلعة قايتباي، ثم تناولنا السمك المشوي "
        "في مطعم صغير اسمه «Fish Market» على الكورنيش. هل تعرف مدينة أجمل منها في الصيف؟",
    ]),
    "persian": ("fa", ["Arabic"], "rtl", "سفر به اصفهان", [
        "سال ۱۴۰۲ در اردیبهشت به اصفهان رفتیم. هوا معتدل بود و میدان نقش جهان پر از گردشگرانی بود که با "
        "تلفن\u200cهایشان عکس می\u200cگرفتند.",
        "راهنمای ما گفت: «این مسجد حدود ۴۰۰ سال پیش ساخته شده است.» بعد از ظهر در یک چایخانه\u200cی قدیمی نشستیم و دوستم "
        "پرسید: آیا تا به حال چیزی زیباتر از پل خواجو دیده\u200cای؟ شب با اتوبوس VIP به تهران برگشتیم.",
    ]),
    "urdu": ("ur", ["Arabic"], "rtl", "لاہور کی سیر", [
        "پچھلے مہینے ہم نے ۳ دن لاہور میں گزارے۔ بادشاہی مسجد کے سامنے بڑا ہجوم تھا اور ہر طرف ڈھول کی آواز آ رہی تھی۔",
        "شام کو ہم انارکلی بازار گئے جہاں میری بہن نے چوڑیاں خریدیں۔ دکاندار نے کہا: ”یہ رنگ آج کل بہت مقبول ہے۔“ "
        "کیا آپ نے کبھی وہاں کے گول گپے کھائے ہیں؟ رات کو ہم نے ٹیکسی لی اور ہوٹل واپس آ گئے۔",
    ]),
    "hebrew": ("he", ["Hebrew"], "rtl", "טיול לירושלים", [
        "ביום שלישי, 8 באוקטובר, יצאנו באוטובוס מתל אביב לירושלים. הנסיעה ארכה כשעה, והמדריך סיפר לנו על "
        "ההיסטוריה של העיר העתיקה.",
        "בשוק מחנה יהודה קנינו חלה, זיתים ותבלינים. המוכר אמר לנו: ״תחזרו מחר, יהיו פה תאנים טריות!״ אחר\u05beכך "
        "ישבנו בבית קפה בשם Café Europa ושתינו קפה הפוך (עם הרבה קצף).",
    ]),
    "devanagari": ("hi", ["Devanagari"], "ltr", "दिल्ली की यात्रा", [
        "पिछले वर्ष २५ दिसंबर को हम ट्रेन से दिल्ली गए। स्टेशन पर बहुत भीड़ थी और ट्रेन की प्रतीक्षा भी करनी पड़ी, "
        "फिर भी हमें ज़्यादा परेशानी नहीं हुई क्योंकि हमारे पास आरक्षित टिकट थे।",
        "हमने क़ुतुब मीनार और लाल क़िला देखा, फिर होटल में थोड़ा विश्राम किया। एक डॉक्टर मित्र ने कहा, “कृपया धूप में "
        "पानी पीते रहना।” शाम को चाँदनी चौक में पराठे खाए और दुःख हुआ कि यात्रा इतनी जल्दी ख़त्म हो गई।",
    ]),
    "bengali": ("bn", ["Bengali"], "ltr", "কলকাতায় একদিন", [
        "গত বছর ১৫ আগস্ট আমরা ট্রেনে করে কলকাতায় গিয়েছিলাম। স্টেশনে ভীষণ ভিড় ছিল, অনেকক্ষণ অপেক্ষা করতে হলো, "
        "তবু হঠাৎ এক পুরনো বন্ধুর সঙ্গে দেখা হয়ে গেল।",
        "দুপুরে সূর্যের তাপে ব্যস্ত রাস্তার পাশে একটি দোকানে মিষ্টি দই আর রসগোল্লা খেলাম। সন্ধ্যায় গঙ্গার ঘাটে বসে "
        "আমার বোন বলল, “এমন শান্ত বিকেল আর কোথাও পাইনি।” রাতে আকাশে চাঁদ উঠল, আর ফেরার দুঃখ ভুলে গেলাম।",
    ]),
    "thai": ("th", ["Thai"], "ltr", "เที่ยวเชียงใหม่", [
        "ฤดูหนาวปีที่แล้ว เราขึ้นรถไฟจากกรุงเทพฯ ไปเชียงใหม่ ใช้เวลาเดินทางประมาณ ๑๒ ชั่วโมง "
        "ระหว่างทางเห็นทุ่งนาสีเขียวและภูเขาสลับกันไปเรื่อย ๆ",
        "เมื่อถึงแล้ว เราไปไหว้พระที่วัดพระธาตุดอยสุเทพ และเล่นน้ำตกใกล้ ๆ เมือง แม่ค้าคนหนึ่งบอกว่า "
        "“ข้าวซอยร้านนี้อร่อยที่สุดในเมือง” เราจึงลองกิน และก็อร่อยจริง ๆ ด้วย",
    ]),
    "chinese": ("zh", ["Han"], "ltr", "周末去杭州", [
        "2023年10月，我和两位同事坐高铁去杭州，只用了大约1小时。我们住在西湖边的一家小酒店，房间不大，但是WiFi很快，早餐也很丰富。",
        "第二天早上，我们沿着湖边散步，看到很多人在打太极拳。一位老先生告诉我们：“春天的西湖最美，你们一定要再来！”"
        "中午我们去了一家老字号饭店，点了西湖醋鱼和龙井虾仁；朋友说这是他吃过最好吃的一顿饭。",
    ]),
    "japanese": ("ja", ["Han", "Hiragana", "Katakana"], "ltr", "京都で過ごした一日", [
        "十一月の連休に、JRの新幹線で京都へ行きました。駅を出ると、紅葉を見に来た観光客でいっぱいで、バス停には長い列ができていました。",
        "清水寺では、ガイドさんが「この舞台は釘を一本も使っていないんですよ」と教えてくれました。夕方、ホテルにチェックインしてから、"
        "抹茶パフェを食べながら友だちと『また来年も来よう』と約束しました。",
    ]),
    "korean": ("ko", ["Hangul"], "ltr", "제주도 여행", [
        "지난 5월, 우리 가족은 김포공항에서 비행기를 타고 제주도로 떠났다. 비행시간은 1시간 정도였고, 공항에 내리자 따뜻한 바람이 불어왔다.",
        "첫날에는 성산일출봉에 올라가 해돋이를 보았다. 아버지는 “이런 풍경은 평생 잊지 못할 거야”라고 말씀하셨다. "
        "저녁에는 숙소 근처 카페(‘바다정원’)에서 SNS에 올릴 사진을 고르며 다음 여행 계획을 세웠다.",
    ]),
}
TEXTS = {"a": TEXTS_A, "b": TEXTS_B}[os.environ.get("SWEEP_TEXTS", "a")]

LATIN = ["Liberation Serif", "DejaVu Serif", "Linux Libertine O", "Gentium", "Noto Serif", "PT Serif"]
# script key → the font families (fontconfig names) that cover it, from Debian's font packages
FONTS = {
    "english": LATIN + ["Latin Modern Roman"],
    "french": LATIN + ["Latin Modern Roman"],
    "greek": ["DejaVu Serif", "Noto Serif", "GFS Didot", "Linux Libertine O", "Gentium", "FreeSerif"],
    "cyrillic": ["DejaVu Serif", "Noto Serif", "PT Serif", "Linux Libertine O", "Liberation Serif", "FreeSerif"],
    "arabic": ["Amiri", "Noto Naskh Arabic", "Noto Sans Arabic", "Noto Kufi Arabic", "Scheherazade", "KacstBook", "Lateef"],
    "persian": ["Noto Naskh Arabic", "Noto Sans Arabic", "Amiri", "Scheherazade", "Nazli", "Lateef"],
    "urdu": ["Noto Nastaliq Urdu", "Noto Naskh Arabic", "Lateef", "Scheherazade"],
    "hebrew": ["Noto Sans Hebrew", "Noto Serif Hebrew", "Ezra SIL", "FreeSerif", "DejaVu Sans", "Linux Libertine O"],
    "devanagari": ["Noto Sans Devanagari", "Noto Serif Devanagari", "Lohit Devanagari", "Samyak Devanagari", "FreeSerif"],
    "bengali": ["Noto Sans Bengali", "Noto Serif Bengali", "Lohit Bengali", "FreeSerif"],
    "thai": ["Noto Sans Thai", "Noto Serif Thai", "Garuda", "Loma", "Kinnari", "Norasi", "Waree"],
    "chinese": ["Noto Sans CJK SC", "Noto Serif CJK SC", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "AR PL UMing CN", "AR PL UKai CN"],
    "japanese": ["Noto Sans CJK JP", "Noto Serif CJK JP", "IPAGothic", "IPAMincho"],
    "korean": ["Noto Sans CJK KR", "Noto Serif CJK KR", "NanumGothic", "NanumMyeongjo", "UnBatang", "UnDotum"],
}
# pdfLaTeX with TeX's own fonts: script key → (font row, preamble)
PDFLATEX = {
    "english": ("Latin Modern (TeX)", "\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n\\usepackage{lmodern}\n\\usepackage[english]{babel}\n"),
    "french": ("Latin Modern (TeX)", "\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n\\usepackage{lmodern}\n\\usepackage[french]{babel}\n"),
    "greek": ("CB Greek (TeX)", "\\usepackage[LGR,T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n\\usepackage[greek]{babel}\n"),
    "cyrillic": ("CM-Super T2A (TeX)", "\\usepackage[T2A]{fontenc}\n\\usepackage[utf8]{inputenc}\n\\usepackage[russian]{babel}\n"),
}
CJK = {"zh", "ja", "ko"}
CTL = {"ar", "fa", "ur", "he", "hi", "bn", "th"}
COUNTRY = {"en": "GB", "fr": "FR", "el": "GR", "ru": "RU", "ar": "EG", "fa": "IR", "ur": "PK", "he": "IL",
           "hi": "IN", "bn": "BD", "th": "TH", "zh": "CN", "ja": "JP", "ko": "KR"}
POLYGLOSSIA = {"ar": "arabic", "fa": "persian", "ur": "urdu", "he": "hebrew"}
FONTSPEC_SCRIPT = {"hi": "Devanagari", "bn": "Bengali", "th": "Thai", "el": "Greek", "ru": "Cyrillic"}


def slug(font):
    return re.sub(r"[^a-z0-9]", "", font.split("(")[0].lower())


def fodt(lang, title, paras, font, rtl):
    x = lambda s: escape(s, quote=False)
    body = [f'<text:h text:style-name="Title" text:outline-level="1">{x(title)}</text:h>']
    body += [f'<text:p text:style-name="Body">{x(p)}</text:p>' for p in paras]
    wm = 'style:writing-mode="rl-tb" ' if rtl else ''
    c = COUNTRY[lang]
    # the same font and language for the three script classes Writer distinguishes
    text = (f'style:font-name="F" fo:font-size="12pt" fo:language="{lang}" fo:country="{c}" '
            f'style:font-name-asian="F" style:font-size-asian="12pt" style:language-asian="{lang}" style:country-asian="{c}" '
            f'style:font-name-complex="F" style:font-size-complex="12pt" style:language-complex="{lang}" style:country-complex="{c}"')
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
  <style:text-properties {text}/>
 </style:default-style>
 <style:style style:name="Body" style:family="paragraph">
  <style:paragraph-properties fo:text-align="justify" fo:margin-bottom="0.25cm" fo:line-height="140%"/>
 </style:style>
 <style:style style:name="Title" style:family="paragraph">
  <style:paragraph-properties fo:margin-bottom="0.4cm"/>
  <style:text-properties fo:font-size="18pt" fo:font-weight="bold" style:font-size-asian="18pt" style:font-weight-asian="bold" style:font-size-complex="18pt" style:font-weight-complex="bold"/>
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


def html(lang, title, paras, font, rtl):
    d = " dir='rtl'" if rtl else ""
    return "\n".join([f"<!doctype html><html lang='{lang}'{d}><head><meta charset='utf-8'><style>",
                      "@page { size: A4; margin: 2.5cm; }",
                      f"body {{ font-family: '{font}'; font-size: 13pt; line-height: 1.6; }}",
                      "h1 { font-size: 20pt; } p { margin: 0 0 0.7em 0; }", "</style></head><body>",
                      f"<h1>{escape(title)}</h1>"] + [f"<p>{escape(p)}</p>" for p in paras] + ["</body></html>"])


def tex_text(text):
    """The text with TeX's special characters escaped."""
    return re.sub(r"([%&#$_])", r"\\\1", text)


def tex(lang, title, paras, preamble):
    title, paras = tex_text(title), [tex_text(p) for p in paras]
    # no hyphenation: the truth has no line-end hyphens to undo
    return ("\\documentclass[12pt,a4paper]{article}\n" + preamble +
            "\\hyphenpenalty=10000\n\\exhyphenpenalty=10000\n\\pagestyle{empty}\n\\begin{document}\n\\sloppy\n"
            "{\\Large\\bfseries " + title + "\\par}\n\\bigskip\n" + "\n\n".join(paras) + "\n\\end{document}\n")


def pango(lang, title, paras, font):
    """The source pango.py sets: Pango lays out each paragraph in the font, direction from the text."""
    return json.dumps({"lang": lang, "font": font, "title": title, "paras": paras}, ensure_ascii=False, indent=1) + "\n"


# Latin words (with the spaces between them) inside right-to-left text
LATIN_WORDS = re.compile(r"[A-Za-z\u00c0-\u024f]+(?: [A-Za-z\u00c0-\u024f]+)*")


def latin_marked(paras):
    """Right-to-left paragraphs with their Latin words in \\textenglish, as polyglossia's authors write
    them (without it XeTeX sets each Latin word as a right-to-left unit: "Europa Café")."""
    return [LATIN_WORDS.sub(lambda m: "\\textenglish{" + m.group(0) + "}", p) for p in paras]


def xelatex_preamble(lang, font, latin=False):
    if lang in POLYGLOSSIA:
        name = POLYGLOSSIA[lang]
        script = "Hebrew" if lang == "he" else "Arabic"
        other = "\\setotherlanguage{english}\n" if latin else ""
        return ("\\usepackage{fontspec}\n\\usepackage{polyglossia}\n"
                f"\\setmainlanguage{{{name}}}\n{other}\\newfontfamily\\{name}font[Script={script}]{{{font}}}\n")
    if lang in CJK:
        # Korean writes its own word spaces: keep them (CJKspace), add none where the text has none
        # (CJKecglue, by default a full word space between Hangul and Latin letters or digits, sets
        # "5월" as "5 월"), and set quotation marks as Western ones (as full-width punctuation they
        # swallow the space before them: "아버지는 “이런" is drawn "아버지는“이런")
        space = ("\\xeCJKsetup{CJKspace=true, CJKecglue={}}\n"
                 '\\xeCJKDeclareCharClass{Default}{"2018, "2019, "201C, "201D}\n') if lang == "ko" else ""
        return f"\\usepackage{{xeCJK}}\n\\setCJKmainfont{{{font}}}\n{space}"
    script = f"[Script={FONTSPEC_SCRIPT[lang]}]" if lang in FONTSPEC_SCRIPT else ""
    thai = '\\XeTeXlinebreaklocale "th"\n' if lang == "th" else ""
    return f"\\usepackage{{fontspec}}\n\\setmainfont{script}{{{font}}}\n{thai}"


def write_if_changed(path, text):
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def documents():
    """(name, script key, generator, font row, source kind, source text) of every sweep document."""
    for key, (lang, scripts, direction, title, paras) in TEXTS.items():
        rtl = direction == "rtl"
        for font in FONTS[key]:
            s = slug(font)
            yield f"{key}-chromium-{s}", key, "chromium", font, "html", html(lang, title, paras, font, rtl)
            yield f"{key}-lo-{s}", key, "lo", font, "fodt", fodt(lang, title, paras, font, rtl)
            latin = rtl and any(LATIN_WORDS.search(p) for p in paras)
            marked = latin_marked(paras) if latin else paras
            yield f"{key}-xelatex-{s}", key, "xelatex", font, "tex", tex(lang, title, marked, xelatex_preamble(lang, font, latin))
            yield f"{key}-pango-{s}", key, "pango", font, "json", pango(lang, title, paras, font)
        if key in PDFLATEX:
            font, preamble = PDFLATEX[key]
            # LGR sets ";" as the ano teleia: a Greek question mark is typed as U+037E
            lgr = [p.replace(";", "\u037e") for p in paras] if lang == "el" else paras
            yield f"{key}-pdflatex-{slug(font)}", key, "pdflatex", font, "tex", tex(lang, title, lgr, preamble)


DETAIL = {"chromium": "Chromium print-to-pdf (HTML+CSS)", "lo": "LibreOffice Writer from flat ODT",
          "xelatex": "XeLaTeX (fontspec; polyglossia for right-to-left, xeCJK for CJK)",
          "pdflatex": "pdfLaTeX (inputenc, fontenc, babel)",
          "pango": "Pango and cairo's PDF surface (bench/fontsweep/pango.py)"}


def meta(name, key, generator, font, txt):
    lang, scripts, direction, _, _ = TEXTS[key]
    paras = txt.strip().split("\n\n")
    features = sorted({f"font:{font}", f"generator:{generator}", f"sweep:{key}"} |
                      {f"script:{s.lower()}" for s in scripts} | ({"rtl"} if direction == "rtl" else set()))
    return {
        "name": name, "split": "dev", "languages": [lang], "primary_language": lang, "scripts": scripts,
        "direction": direction, "generator": generator, "generator_detail": f"{DETAIL[generator]}, font {font}",
        "postprocess": None,
        "layout": {"page_size": "A4", "columns": 1, "align": "justify" if generator == "lo" else "start",
                   "hyphenation": False, "letter_spacing": None, "font": font, "running_header": False,
                   "page_numbers": None, "content_order": "reading"},
        "pages": 1, "features": features, "damage": [], "source": {"text": "original"},
        "scoring": {"tokens": "char-bigrams" if lang in ("zh", "ja", "th") else "words"},
        "truth": {"paragraphs": len(paras), "chars": len(txt.strip())},
    }


def postscript_names(font):
    out = subprocess.run(["fc-list", "-f", "%{postscriptname}\n", f":family={font}"], capture_output=True, text=True).stdout
    return {re.sub(r"[^a-z0-9]", "", n.lower()) for n in out.split() if n}


def check(out, name):
    """Why NAME's PDF is not set in its font: the generator fell back to another, or lacked glyphs."""
    m = json.loads((out / f"{name}.json").read_text(encoding="utf-8"))
    font, generator = m["layout"]["font"], m["generator"]
    log = out / "src" / f"{name}.log"
    if generator in ("xelatex", "pdflatex") and log.exists():
        missing = re.findall(r"Missing character: There is no (.) ", log.read_text(encoding="utf-8", errors="replace"))
        if missing:
            return f"missing glyphs ({len(missing)}: {''.join(sorted(set(missing)))[:12]})"
    if generator == "pdflatex":
        return ""
    wanted = postscript_names(font)
    if not wanted:
        return "font not installed"
    # the family's name too (Writer names a font by it); a CJK collection by its name without
    # the region (Writer takes the Japanese face of Noto Sans CJK for Chinese text)
    wanted |= {slug(font), re.sub(r"(sc|tc|jp|kr|hk)$", "", slug(font))}
    rows = [line.split() for line in subprocess.run(["pdffonts", str(out / f"{name}.pdf")], capture_output=True,
                                                     text=True).stdout.splitlines()[2:] if line.strip()]
    # Chromium writes CFF-flavoured OpenType fonts as Type 3 fonts without a name: not a fallback
    used = {re.sub(r"[^a-z0-9]", "", r[0].split("+")[-1].lower()) for r in rows if r[0] != "[none]"}
    if used and not any(u.startswith(w) or w.startswith(u) for u in used for w in wanted):
        return "fell back to " + ", ".join(sorted(r[0].split("+")[-1] for r in rows))[:60]
    return ""


def main():
    if sys.argv[1] == "check":
        reason = check(Path(sys.argv[2]), sys.argv[3])
        if reason:
            print(reason)
        return
    out = Path(sys.argv[1])
    (out / "src").mkdir(parents=True, exist_ok=True)
    for name, key, generator, font, kind, source in documents():
        lang, _, _, title, paras = TEXTS[key]
        write_if_changed(out / "src" / f"{name}.{kind}", source)
        txt = "\n\n".join([title] + paras) + "\n"
        write_if_changed(out / f"{name}.txt", txt)
        write_if_changed(out / f"{name}.json", json.dumps(meta(name, key, generator, font, txt), ensure_ascii=False, indent=1) + "\n")
        print(name, generator, sep="\t")


if __name__ == "__main__":
    main()
