"""Entity cue data (EN/DE): words that are no names, German noun shapes, and the kind cues."""

from __future__ import annotations


def words(text: str) -> frozenset[str]:
    """A set of casefolded words from whitespace-separated text (data reads like prose)."""
    return frozenset(text.casefold().split())


# Capitalised without being a name: function words and sentence starters (EN and DE both, as
# a German memory may start "Gestern" and an English one "Yesterday"), calendar words,
# holidays, languages and nationalities, kinship words used as forms of address.
NOT_NAMES = words("""
    i me my mine we us our you your he him his she her it its they them their this that these
    those a an the and or but if so then than as of to in on at by for from with about into
    over under after before since during until near around up down out off is are was were be
    been am do does did done have has had will would can could should shall may might must not
    no yes ok okay oh hi hey hello thanks thank please sorry well also just still even only
    what where when who whom whose why how which yesterday today tomorrow tonight now later
    soon last next every each all any some most many much more few several both either neither
    everyone everybody someone somebody nobody nothing something anything everything maybe
    perhaps actually honestly basically apparently unfortunately hopefully finally recently
    lately usually always never often sometimes once again anyway remind remember tell help
    let let's note update quick good great nice bad new old here there because while though
    although however therefore instead otherwise can't don't won't isn't didn't please ich du
    er sie es wir ihr mich mir dich dir sich uns euch mein meine meinem meinen meiner meines
    dein deine deinem deinen sein seine seinem seinen unser unsere unserem unseren ihre ihrem
    ihren der die das den dem des ein eine einen einem einer eines kein keine keinen keinem
    und oder aber denn sondern wenn weil dass ob als wie was wer wo wann warum wieso welche
    welcher welches im am zum zur beim vom ins ans aufs auf an in aus bei mit nach von vor zu
    über unter neben zwischen durch für gegen ohne um seit bis ist sind war waren bin bist
    hat habe hast haben hatte hatten wird werde werden wurde kann kannst können könnte
    könntest soll sollte muss müssen will willst möchte darf nicht nein ja doch noch schon
    auch nur sehr gern gerne mal heute gestern morgen übermorgen vorgestern jetzt bald später
    immer nie oft manchmal wieder endlich leider hoffentlich eigentlich vielleicht also dann
    danke bitte hallo hi nächste nächsten letzte letzten jede jeden jeder alle viele einige
    man erzähl sag merk merke denk erinnere gib zeig hilf kannst könntest weißt wusstest
    monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays
    thursdays fridays saturdays sundays weekend january february march april june july august
    september october november december montag dienstag mittwoch donnerstag freitag samstag
    sonntag januar februar märz juni juli oktober dezember christmas easter halloween
    thanksgiving diwali ramadan eid hanukkah weihnachten ostern silvester pfingsten fasching
    karneval english german spanish french italian greek japanese chinese polish turkish
    arabic russian dutch portuguese hindi korean american british indian european deutsch
    englisch spanisch französisch italienisch griechisch japanisch chinesisch polnisch
    türkisch arabisch russisch niederländisch mom mum dad mommy daddy grandma grandpa granny
    grandmother grandfather mama papa mutti vati oma opa ceo cto cfo phd tv pc ai usb faq pdf
    asap eta diy vip python rust go java javascript typescript sql met saw called visited went
    had got bought talked spoke texted told asked moved started finished booked
""")
# Common German nouns (stems; inflected forms follow by GERMAN_ENDINGS): in a German sentence
# every noun is capitalised, so these are no names however they are spelt.
GERMAN_NOUNS = words("""
    tag woche monat jahr abend morgen mittag nacht wochenende urlaub ferien feiertag termin
    uhr stunde minute zeit anfang ende mitte herbst winter sommer frühling mutter vater
    eltern bruder schwester sohn tochter kind kinder mann frau familie freund freundin
    kollege kollegen leute mensch menschen nachbar nachbarn baby haus wohnung zimmer küche
    garten balkon miete vermieter vermieterin keller dach tür fenster arbeit job büro firma
    projekt bericht besprechung meeting vertrag kunde team gehalt homeoffice praktikum
    studium uni schule kita kindergarten prüfung klausur kurs arzt ärztin zahnarzt tierarzt
    schmerz schmerzen knie rücken kopf bauch allergie medikament tabletten krankenhaus
    therapie physiotherapie kaffee tee wasser bier wein essen frühstück mittagessen
    abendessen brot brötchen brezel kuchen pizza nudeln reis fleisch fisch gemüse obst
    tomate tomaten nuss nüsse milch käse alkohol zucker suppe rezept restaurant kantine
    bäcker italiener grieche cappuccino auto fahrrad rad zug bus bahn flug flughafen bahnhof
    stau weg straße verspätung führerschein ticket sport fußball gitarre klavier band musik
    kino theater konzert buch bücher film serie spiel sauna party reise strand meer see wald
    park hobby lust angst ruhe spaß freude sorge sorgen problem frage idee plan ziel gefühl
    hause zukunft ecke dorf stadt innenstadt altstadt hauptstadt land welt sprache handy
    laptop computer fernseher staubsauger paket karte konto jacke schuh schuhe kleid tasche
    schlüssel brille geschenk abo laden stall maus spinne spinnen katze katzen hund hunde
    tier tiere futter nassfutter pferd vogel geburtstag hochzeit feier reise umzug steuer
    steuererklärung rechnung geld bank post email nachricht anruf telefon vegetarier
    vegetarierin veganer mitglied pilz pilze hose wetter regen schnee sonne bett sofa tisch
    stuhl lampe kühlschrank waschmaschine küche dusche bad toilette wohnzimmer schlafzimmer
    mal teil sache dinge ding leben liebe hilfe antwort grund art weise fall seite punkt
    nummer name adresse geschichte gespräch abschied besuch einkauf supermarkt apotheke
    praxis klinik kasse bürger polizei gesundheit training fitness yoga lauf joggen
    pfleger pflegerin lehrer lehrerin ingenieur entwickler krankenschwester verkäufer koch
    köchin bäckerin anwalt anwältin student studentin rentner rentnerin erzieher erzieherin
    ergebnis erlebnis zeugnis geheimnis verständnis tennis
""")
GERMAN_ENDINGS = ("", "e", "en", "n", "s", "es", "er", "ern", "nen")
# Heads of German compounds ("Kopfschmerzen", "Ferienhaus", "Döner-Laden"): a word that ends
# in one, longer than the head by three letters or more, is a common noun too.
GERMAN_NOUN_HEADS = (
    "schmerzen", "haus", "tag", "arzt", "ärztin", "eltern", "schein", "suppe", "sauger",
    "futter", "office", "therapie", "laden", "bike", "erklärung", "zimmer", "wohnung", "platz",
    "termin", "reise", "urlaub", "essen", "karte", "vertrag", "kasse", "garten", "buch",
    "maschine", "gerät", "straße", "bahn", "zeug", "markt", "ferien", "kurs", "arbeit",
)
# Suffixes that make a German noun (Umzug is a word, "-ung" a noun): checked on German
# sentences only, and never against a word that a kind cue names ("Hund Pünktchen").
GERMAN_NOUN_SUFFIXES = (
    "ung", "ungen", "heit", "keit", "schaft", "tion", "tät", "ismus", "tum", "erei",
    "chen", "lein", "erin", "istin", "innen",
)
# Marks a sentence as German when these outnumber the English ones.
GERMAN_MARKERS = words("""
    ich und der die das ist nicht mit mein meine meinem meinen bei im am zum zur ein eine einen
    hat habe wir sind auf für von nach aus gestern heute was wer wo über mir mich du dir sich
    auch noch unser unsere war waren wird gehe geht haben hatte weißt kannst es den dem des bis
""")
ENGLISH_MARKERS = words("""
    i the a and is my to of with at for on we you what about are was were have has had it
    that this our me be will from did do does can
""")
# Articles and determiners: a German capital after one is a noun unless it looks like a name
# (gazetteer, acronym, iPhone, a place suffix); in English "the X" is no person.
DETERMINERS = words("""
    the a an der die das den dem des ein eine einen einem einer eines kein keine keinen keinem
    mein meine meinem meinen meiner dein deine deinem deinen sein seine seinem seinen unser
    unsere unserem unseren ihr ihre ihrem ihren im am zum zur beim vom ins ans aufs jede jeden
    jeder diese diesen diesem dieser viele einige alle zwei drei vier fünf
""")
NAME_PARTICLES = words("of von van de da di del der den le la du zu am")
# Titles belong to a name's label but not to its key; "Frau Dr. Schneider" is Schneider.
TITLES = words("mr mrs ms miss mx dr prof professor sir dame herr frau fr hr")
ABBREVIATIONS = words("mr mrs ms dr prof st fr hr jr sr")

# --- kind cues -------------------------------------------------------------------------------
PET_NOUNS = words("""
    dog dogs cat cats puppy kitten hamster rabbit bunny parrot budgie horse pony guinea pig
    tortoise turtle retriever labrador poodle terrier dachshund beagle spaniel hund hündin
    katze kater welpe welpen kätzchen kaninchen hase hamster meerschweinchen pferd pony
    wellensittich papagei schildkröte dackel
""")
PERSON_NOUNS = words("""
    sister brother friend friends bestie boss colleague colleagues coworker manager partner
    wife husband girlfriend boyfriend fiance fiancee son daughter niece nephew cousin aunt
    uncle neighbour neighbor landlord landlady therapist doctor dentist accountant roommate
    flatmate mother-in-law father-in-law sister-in-law brother-in-law mentor teacher coach
    tutor grandson granddaughter stepson stepdaughter ex schwester bruder freund freundin
    freunde kollege kollegin kollegen chef chefin mann sohn tochter nichte neffe cousine
    tante onkel mitbewohner mitbewohnerin nachbar nachbarin schwägerin schwager therapeut
    therapeutin ärztin vermieter vermieterin partnerin verlobte verlobter enkel enkelin
    lehrer lehrerin trainer trainerin schwiegermutter schwiegervater
""")
NAMING_WORDS = words("named called namens heißt heisst")
# Words right after a name that say a person did or is something.
PERSON_VERBS_AFTER = words("""
    said says told tells thinks thought asked asks wants wanted loves loved hates hated lives
    lived works worked taught recommended invited texted called helped moved married met
    knows knew likes liked suggested sagt sagte meint meinte wohnt lebt arbeitet studiert
    heiratet heiraten hat angerufen schreibt schrieb fragt findet mag
""")
PERSON_VERBS_BEFORE = words("""
    met meet meeting married marry dating date call called calling text texted email emailed
    ask asked tell told visit visiting invite invited with mit about über
""")
PET_VERBS_BEFORE = words("walk walked walking walks feed fed feeding groom brush adopted")
PET_CONTEXT = words("""
    vet groomer kennel leash litter vets tierarzt gassi leine katzenklo hundeschule tierheim
""")
PLACE_PREPOSITIONS = words("in near nach aus around across nahe")
MOTION_WORDS = words("""
    moved move moving moves flew fly flying flight trip travel travelling traveling drive
    driving went go going back relocated relocating train visit visiting ziehe zieht ziehen
    gezogen fliege fliegt fahre fährt fahren reise reisen
""")
ORIGIN_WORDS = words("am is are come comes came from 'm")
ORG_PREPOSITIONS = words("at bei for")
ORG_VERBS = words("""
    work works worked working job joined join intern internship hired applied apply
    arbeite arbeitet arbeitete gearbeitet praktikum angefangen beworben bewerbe job stelle
    ausbildung
""")
PRODUCT_VERBS = words("""
    bought buy buying got get ordered order use using uses used own owns drive drives driving
    play playing installed returned upgraded switched sold gekauft kaufe bestellt bestelle
    benutze nutze nutzt verkauft bekommen wünscht fahre watch watching listen höre schaue
""")
PRODUCT_NOUNS = words("""
    phone headphones earbuds laptop watch dishwasher vacuum tv camera speaker ring tablet car
    bike app console kettle fridge staubsauger handy kopfhörer uhr kamera auto fahrrad e-bike
    spülmaschine fernseher waschmaschine subscription account game ereader e-reader
""")
ORG_SUFFIXES = words("""
    inc ltd llc corp gmbh ag se kg fc bank university universität uni hochschule hospital
    klinik krankenkasse airlines airways labs group studios insurance versicherung verein
    school college institute institut
""")
ORG_PREFIXES = words("fc university uni universität hochschule bank")
PLACE_SUFFIXES = words("""
    street st road avenue ave lane square park lake bridge tower airport station beach island
    islands mountain mountains river valley bay hill castle palace cathedral straße strasse
    platz allee gasse ufer damm
""")
PLACE_PREFIXES = words("lake mount mt lago isle")
# German place-name endings ("Heidelberg", "Walldorf", "Bodensee"); the bare nouns are common.
PLACE_ENDINGS = (
    "berg", "burg", "dorf", "hausen", "heim", "ingen", "stadt", "furt", "see", "hafen", "bach",
    "straße", "strasse", "platz", "allee",
)
EVENT_WORDS = words("marathon festival olympics cup championship conference messe")
# A title after these is a book, film or song, none of the five kinds ("reading Dune").
WORK_VERBS = words("reading read reread watched lese lese gelesen liest")
# "my new X", "das alte X": what is new or old is mostly a thing someone has.
NEW_OR_OLD = words("new old neue neuen neues neuer alte alten altes alter")
# Names ending in -s of their own; others before a noun may be a German genitive ("Annas").
NAMES_ENDING_IN_S = words("""
    jonas lukas thomas andreas matthias tobias elias niklas nicolas markus klaus linus julius
    magnus marius janis louis chris boris carlos nikolaus lars jens hans jannis
""")
# After these, the capital starts an imperative or a question, not a name ("Mark my words").
OBJECT_PRONOUNS = words("me my us our mir mich uns")
