/**
 * Stop-words per language, for paragraph keywords: the function words (articles, pronouns,
 * prepositions, conjunctions, auxiliaries) that are frequent in any text and never a theme.
 * Keyed by the primary subtag of a BCP 47 tag, lower-case, as `Intl.Segmenter` cuts words. Every
 * language also gets the English list (PDFs quote English a lot); an unknown language gets only it.
 */
const LISTS: Record<string, string> = {
  en: `a about above after again against all also am an and any are as at be because been before being below between both but by can could did do does doing down during each either et etc few for from further had has have having he her here hers herself him himself his how however i if in into is it its itself just may me might more most must my myself no nor not now of off on once one only or other our ours ourselves out over own same shall she should so some such than that the their theirs them themselves then there these they this those through thus to too two under until up upon us very via was we were what when where which while who whom whose why will with within without would yet you your yours yourself yourselves i.e e.g al fig figs eq eqs ref refs`,
  de: `ab aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes auch auf aus bei beim bin bis bist da dabei damit dann das dass dem den denen denn der deren des dessen die dies diese diesem diesen dieser dieses doch dort du durch ein eine einem einen einer eines er es etwa euch euer für gegen hat hatte hätte haben hier hin hinter ich ihm ihn ihnen ihr ihre ihrem ihren ihrer im in indem ins ist jede jedem jeden jeder jedes jene kann kein keine können man mit muss nach nicht noch nun nur ob oder ohne sehr sein seine seinem seinen seiner sich sie sind so solche soll sondern über um und uns unter viel vom von vor wann war waren was weil welche welchem welchen welcher wenn wer werden wie wieder wir wird wo worden wurde wurden sei seien sowie zu zum zur zwischen`,
  fr: `à au aux avec ce ces cette celle celui chaque comme dans de des du elle elles en entre est et été être eux il ils je la le les leur leurs lui mais me même mes moi mon ne ni nos notre nous on ont ou où par pas pour qu que qui sa sans se ses si son sont sur ta te tes toi ton tous tout toute toutes très tu un une vos votre vous y d l c j m n s t qu'il`,
  es: `a al algo algunas algunos ante antes como con contra cual cuando de del desde donde durante e el ella ellas ellos en entre era es esa esas ese eso esos esta estas este esto estos fue ha han hasta hay la las le les lo los más me mi mis muy ni no nos nuestra nuestro o os otra otro para pero por que quien se sea ser si sin sobre son su sus también tanto te todo todos tu un una uno unos y ya`,
  it: `a ad al alla alle allo agli ai anche che chi ci come con da dal dalla dalle degli dei del della delle dello di e ed era essere gli ha hanno i il in io la le lei li lo loro lui ma mi ne negli nei nel nella nelle non noi o per più quale quando questa queste questo quello se si sia sono su sua sue suo suoi sul sulla tra tu tutti tutto un una uno vi`,
  pt: `a à ao aos as até com como da das de dela dele do dos e é ela elas ele eles em entre era essa esse esta este eu foi há isso isto já la lhe mais mas me mesmo meu minha muito na nas nem no nos nós o os ou para pela pelas pelo pelos por qual quando que quem se sem ser seu seus sua suas também te tem ter um uma umas uns você`,
  nl: `aan al als bij daar dan dat de der deze die dit door een en er heb hebben het hij hoe hun ik in is je kan maar me men met mij na naar niet nog nu of om onder ons ook op over te tot u uit van voor want was wat we wel werd wie wij wordt worden zal ze zich zij zijn zo zoals`,
  ru: `а без более бы был была были было быть в вам вас весь во вот все всего всех вы где да для до его ее ей если есть еще же за и из или им их к как ко когда который кто ли либо мы на над не него нее нет ни них но о об от по под при с со так также такой там те тем то того тоже только том ты у уже чем что чтобы эта эти это этого этой этот я`,
  uk: `а але без би був була були було бути в від во все всі де для до же з за і й із їх його її к як який яка які коли ми на над не ні но о об от по під при про с та так також там те то тобто у це цей ці чи що щоб я`,
  pl: `a aby ale ani bez bo by był była było być co czy dla do gdy gdzie i ich ile im jak jako je jego jej jest jeszcze jeśli już każdy kiedy kto która które którego który lub ma mają może na nad nie nich nim niż o od oraz po pod przez przy się są ta tak także tam te tego tej ten to tu tylko w we więc z za ze że`,
  tr: `ama bazı bu bir biz bunu bunun çok da daha de değil diye en gibi her için ile ise ki kadar mi mı mu mü ne o olan olarak ona onu onun sadece şu ve veya ya yani`,
  el: `αλλά από για δε δεν εκ είναι εν η θα ι και κατά με μετά μη μην να ο οι όπως ότι οτι παρά που προς σε στα στη στην στο στον στις στους συν τα τη την της τις το τον του τους των ως ή`,
  sv: `alla att av den det detta de dem där eller en ett för från har hade han hon i inte jag kan man med men mot nu när och om på sig sin som så till under upp ut var vi vid är över`,
  da: `af alle at de den der det du efter eller en er et for fra har hun i ikke jeg kan man med men mod når og om på sig som til ud var vi være`,
  no: `at av de den der det du eller en er et for fra har hun i ikke jeg kan man med men når og om på seg som til var vi være`,
  fi: `ei ja jos kun kuin mutta myös niin on ovat se sekä sen tai tämä että joka jotka`,
  cs: `a aby ale ani by být co či do i jak jako je jeho její jsou k kde když na nebo než o od po pro při s se si tak také to v ve z za že`,
  ro: `a al ale are ca care ce cu de din după este fi în la mai nu o pe pentru prin sau se si și sunt un una unei unui`,
  hu: `a az azt be de egy és hogy is már meg mint nem ő s sem van volt`,
  ar: `أن إن إلى على عن في من مع هذا هذه ذلك التي الذي الذين كان كانت لا لم لن ما هو هي هم و أو ثم قد كل بين عند حتى أي`,
  fa: `از با برای به بر تا را که و در این آن یا هم هر نیز است بود شد می ها های یک خود`,
  he: `את של על עם אל גם או כי לא כל הוא היא הם הן זה זו אשר מן כמו אם בין`,
  hi: `का की के को में से है हैं और या पर भी यह वह एक तो था थी थे कि जो इस उस ने हो लिए`,
  zh: `的 了 和 是 在 有 也 与 及 或 而 就 都 这 那 其 之 为 以 于 个 上 中 对 等 被 把 让 向 从 到 由 所 着 过 我 你 他 她 它 们 我们 他们 它们 一个 这个 那个 以及 因为 所以 但是 可以 没有 如果 已经`,
  ja: `の に は を た が で て と し れ さ ある いる も する から な こと として い や れる など なっ ない この ため その あっ よう また もの という あり まで られ なる へ か だ これ によって により おり より による ず なり られる において ば なかっ なく しかし について せ だっ その後 できる それ う ので なお のみ でき き つ における および いう さらに でも ら たり その他 に関する たち ます ん なら`,
  th: `และ ที่ ของ ใน เป็น มี ได้ ให้ ไม่ การ จะ ว่า กับ แต่ หรือ จาก โดย ซึ่ง นี้ นั้น ก็ อยู่ ไป มา แล้ว เพื่อ อย่าง ความ เขา เรา คือ ทุก`,
};

const cache = new Map<string, ReadonlySet<string>>();

/** The stop-words of a language (BCP 47 tag; its primary subtag is used). English when unknown. */
export function stopWords(lang: string | null): ReadonlySet<string> {
  const primary = (lang ?? 'en').toLowerCase().split(/[-_]/)[0] ?? 'en';
  const key = primary in LISTS ? primary : 'en';
  let set = cache.get(key);
  if (!set) {
    // English function words are stop-words in every language: quoted English is common in PDFs.
    set = new Set([...LISTS[key]!.split(/\s+/u), ...(key === 'en' ? [] : LISTS.en!.split(/\s+/u))].filter((w) => w !== ''));
    cache.set(key, set);
  }
  return set;
}
