"""Word lists (EN/DE) that fact patterns consult: jobs, traits, pets, kin, nationalities, verbs."""

from __future__ import annotations

from collections.abc import Mapping


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of `text`; '_' joins a phrase ("night_owl")."""
    return frozenset(w.replace("_", " ") for w in text.split())


# Head nouns of jobs: "software engineer", "freelance photographer" end in one of these.
OCCUPATIONS_EN = word_set("""
nurse teacher engineer developer programmer analyst photographer doctor physician surgeon
dentist lawyer attorney solicitor accountant architect designer chef baker carpenter
electrician plumber mechanic pilot journalist writer author editor translator scientist
researcher professor lecturer student consultant manager marketer cashier waiter waitress
bartender barista pharmacist therapist psychologist psychiatrist vet veterinarian paramedic
firefighter police_officer soldier farmer artist musician actor actress dancer librarian
secretary receptionist midwife caregiver social_worker entrepreneur founder ceo cto intern
tutor coach economist statistician mathematician physicist chemist biologist technician
administrator sysadmin illustrator copywriter recruiter banker broker realtor optician
hairdresser florist tailor janitor cleaner butcher welder gardener landscaper surveyor
physiotherapist radiologist anaesthetist anesthetist optometrist pediatrician paediatrician
freelancer radiographer midwife headteacher tester agent clerk officer operator driver
assistant specialist coordinator advisor adviser director supervisor inspector courier
postman guard cook stylist scientist lead trainer instructor mentor translator interpreter
planner buyer curator archivist dispatcher paralegal ranger sommelier carer
""")
# Words that make "I'm a good cook" a judgement rather than a job.
JUDGEMENT_WORDS = word_set("good great bad terrible decent excellent amazing awful better best "
                           "huge big poor lousy proud")
# German job nouns are matched on their ending, so compounds count ("Softwareentwicklerin").
OCCUPATION_STEMS_DE = word_set("""
lehrer arzt ärztin pfleger krankenschwester ingenieur entwickler programmierer tischler
schreiner elektriker mechaniker mechatroniker anwalt anwältin architekt designer koch
köchin bäcker verkäufer journalist autor übersetzer wissenschaftler professor student
berater manager kassierer kellner apotheker therapeut psychologe psychologin polizist
soldat landwirt künstler musiker schauspieler bibliothekar sekretär hebamme erzieher
sozialarbeiter unternehmer gründer schulleiter buchhalter friseur friseurin maler
fotograf redakteur informatiker physiker chemiker biologe biologin techniker
administrator beamter beamtin richter richterin zahnarzt zahnärztin kaufmann kauffrau
dozent grafiker installateur leiter leiterin sanitäter feuerwehrmann feuerwehrfrau
analyst doktorand doktorandin pilot pilotin küchenchef küchenchefin erzieherin tester
fahrer fahrerin assistent assistentin referent referentin sachbearbeiter sachbearbeiterin
verwalter betreuer betreuerin trainer trainerin lektor lektorin makler maklerin händler
händlerin kellnerin kassiererin
""")
FEMININE_SUFFIX_DE = "in"

TRAIT_ADJECTIVES_EN = word_set("""
patient impatient introverted extroverted extraverted stubborn shy organised organized
disorganised disorganized messy tidy lazy competitive ambitious
punctual forgetful creative outgoing talkative sensitive impulsive spontaneous
reliable loyal honest generous sociable reserved indecisive easygoing easy-going laid-back
hot-tempered short-tempered clumsy chaotic stoic empathetic analytical detail-oriented
independent adventurous cautious frugal thrifty stingy picky fussy pedantic sarcastic moody
grumpy cheerful perfectionistic introspective easily_distracted easily_bored easily_stressed
""")
# These name a state as often as a character ("I'm calm now"): only with "person", "by
# nature", "naturally", "generally" do they describe who someone is.
PERSON_ADJECTIVES_EN = word_set("""
happy calm quiet anxious nervous relaxed positive negative kind friendly funny serious
emotional private social active loud private nice warm curious optimistic pessimistic
""")
TRAIT_NOUNS_EN = word_set("""
night_owl early_bird early_riser perfectionist introvert extrovert extravert ambivert
morning_person night_person evening_person neat_freak control_freak workaholic procrastinator
people_person overthinker optimist pessimist realist dreamer creature_of_habit team_player
loner homebody worrier people_pleaser people-pleaser risk_taker risk-taker night-owl
""")
TRAIT_ADJECTIVES_DE = word_set("""
ungeduldig geduldig introvertiert extrovertiert stur ordentlich unordentlich schüchtern
ehrgeizig neugierig vergesslich chaotisch pünktlich unpünktlich faul fleißig optimistisch
pessimistisch kreativ spontan zuverlässig ehrlich großzügig geizig sparsam gesellig
zurückhaltend impulsiv empfindlich sensibel perfektionistisch launisch tollpatschig
ungeschickt abenteuerlustig vorsichtig hilfsbereit nachtragend penibel pingelig locker
temperamentvoll leicht_ablenkbar leicht_reizbar harmoniebedürftig
""")
PERSON_ADJECTIVES_DE = word_set("""
ruhig gelassen fröhlich ängstlich nervös entspannt lustig ernst positiv emotional sozial
aktiv freundlich still laut nett herzlich
""")
TRAIT_NOUNS_DE = word_set("""
Morgenmensch Nachtmensch Nachteule Frühaufsteher Frühaufsteherin Langschläfer
Langschläferin Perfektionist Perfektionistin Workaholic Optimist Optimistin Pessimist
Pessimistin Realist Realistin Träumer Träumerin Gewohnheitstier Einzelgänger Einzelgängerin
Chaot Chaotin Kontrollfreak Ordnungsfanatiker Ordnungsfanatikerin Teamplayer Stubenhocker
Stubenhockerin Pedant Pedantin Bauchmensch Kopfmensch Familienmensch Sturkopf Dickkopf
""")
# Words that say "this is a lasting trait" and so admit the PERSON_ADJECTIVES.
TRAIT_MARKERS = ("person", "by nature", "naturally", "generally", "usually", "at heart",
                 "von natur aus", "mensch", "typ", "grundsätzlich", "im grunde", "generell")

PETS_EN = word_set("""
dog dogs puppy cat cats kitten kittens parrot parrots hamster hamsters rabbit rabbits
guinea_pig guinea_pigs horse horses fish goldfish turtle turtles tortoise budgie budgies
retriever labrador poodle terrier beagle spaniel dachshund snake lizard ferret ferrets
greyhound collie husky pug corgi shepherd bulldog chihuahua dalmatian rottweiler whippet
greyhounds terriers rat rats mouse mice gecko pony ponies mare gelding hens chickens alpaca
tabby tomcat
""")
PETS_DE = word_set("""
Hund Hunde Katze Katzen Kater Wellensittich Wellensittiche Papagei Papageien Hamster
Kaninchen Meerschweinchen Pferd Pferde Fisch Fische Goldfisch Goldfische Schildkröte
Schildkröten Hase Hasen Dackel Pudel Labrador Terrier Windhund Welpe Kater Hündin Stute
Wallach Pony Ponys Ratten Hühner
""")
PET_WORDS = frozenset(word.casefold() for word in PETS_EN | PETS_DE)
KIN: Mapping[str, str] = {
    "sister": "sister", "brother": "brother", "mom": "mother", "mum": "mother",
    "mother": "mother", "dad": "father", "father": "father", "son": "son", "sons": "son",
    "daughter": "daughter", "daughters": "daughter", "kids": "children", "children": "children",
    "schwester": "sister", "bruder": "brother", "mutter": "mother", "mama": "mother",
    "vater": "father", "papa": "father", "sohn": "son", "söhne": "son", "tochter": "daughter",
    "töchter": "daughter", "kinder": "children",
}
NATIONALITIES_EN = word_set("""
American British English Scottish Welsh Irish Canadian Australian Brazilian Mexican
Argentinian Chilean Colombian Peruvian German French Italian Spanish Portuguese Dutch
Belgian Swiss Austrian Polish Czech Slovak Hungarian Romanian Bulgarian Greek Turkish
Russian Ukrainian Swedish Norwegian Danish Finnish Icelandic Indian Pakistani Chinese
Japanese Korean Vietnamese Thai Filipino Indonesian Nigerian Kenyan Egyptian Moroccan
Israeli Iranian Croatian Serbian Scot Brit Aussie
""")
NATIONALITIES_DE = word_set("""
Deutscher Deutsche Schweizer Schweizerin Österreicher Österreicherin Italiener Italienerin
Franzose Französin Spanier Spanierin Pole Polin Türke Türkin Amerikaner Amerikanerin
Engländer Engländerin Brite Britin Niederländer Niederländerin Holländer Holländerin
Portugiese Portugiesin Grieche Griechin Russe Russin Ukrainer Ukrainerin Brasilianer
Brasilianerin Japaner Japanerin Chinese Chinesin Inder Inderin Kanadier Kanadierin
Mexikaner Mexikanerin Schwede Schwedin Norweger Norwegerin Däne Dänin Ire Irin Ungar
Ungarin Tscheche Tschechin Kroate Kroatin Serbe Serbin Rumäne Rumänin Bulgare Bulgarin
""")

# "I can't <verb>" is a lasting limit for these verbs; "I can't find my keys" is not.
LIMIT_VERBS_EN = word_set("""
eat drink have take consume drive fly swim lift carry walk run jog climb travel tolerate
digest sit kneel bend use cycle ride dance stay_up smoke
""")
LIMIT_VERBS_DE = word_set("""
essen trinken fahren autofahren fliegen schwimmen joggen laufen rennen heben tragen klettern
reisen vertragen sitzen knien radfahren rauchen verdauen tanzen
""")
# Imperatives that set a standing rule for the assistant ("never schedule ... before 9").
RULE_VERBS_EN = word_set("""
schedule book plan call ring phone text message email e-mail send put set arrange wake
disturb contact remind invite suggest recommend order add share forward use cc copy ask
""")
RULE_VERBS_DE = word_set("""
plane plan buch buche ruf rufe leg lege schick schicke setz setze vereinbar vereinbare weck
wecke stör störe schreib schreibe trag trage sende send lad lade erinnere erinner bestell
bestelle kontaktier kontaktiere mail maile teile teil schlag schlage benutze benutz nutze
nutz verwende verwend
""")

# Words an object may not consist of alone (issue 23: `likes: "to"`, `avoids: "anymore"`,
# `event: "did"`): function words, pronouns and fillers, EN and DE.
FILLER_WORDS = word_set("""
a an the to of in on at by for with from up out off it its it's this that these those there
here they them him her his hers you your ya yours me my mine myself yourself we us our one
ones so too very really just also still even yet anymore any more much many lot lots some
any all none nothing something anything everything stuff thing things do does did done doing
be been being is are was were am go went gone get got make made have has had not no never
yes yeah ok okay well then now today again though though either neither or and but if
es das dies diese dieser dieses der die den dem des ein eine einen einem einer eines mich
mir dich dir ihn ihm sie ihr uns euch man so auch noch schon halt mal ja doch eben mehr
nicht nichts kein keine etwas alles viel viele sehr gern gerne jetzt heute wieder dann da
dort hier und oder aber sein bin bist ist sind war waren habe hast hat haben tun getan
gemacht machen gehen ging
""")

# Things a habit given up is about ("I gave up sugar", "mit dem Zucker aufgehört").
CONSUMABLES = word_set("""
sugar caffeine coffee tea alcohol booze beer wine meat red_meat dairy gluten carbs chocolate
cigarettes smoking drinking snacking sweets soda cola energy_drinks cow's_milk milk bread
zucker koffein kaffee tee alkohol bier wein fleisch rotes_fleisch milch kuhmilch gluten
schokolade zigaretten süßigkeiten cola brot
""")
# Words that point at something just said: "I love this song", "that idea", "dieser Serie".
DETERMINERS_DEICTIC = word_set("""
this that these those it your their his her its dieser diese dieses diesen diesem jene
jener jenes das den deine deinen dein ihre ihren seine seinen
""")
# Capitalised words that are no name ("I'm Jewish", "Ich bin Single", "I'm Sorry").
NOT_NAMES = word_set("""
I Ich The Der Die Das And Und But Aber So Also Just Not Sorry Thanks Fine Good Great Back
Home Here Done Ready Sure Okay Ok Well Yes No Hi Hello Hey Dr Mr Mrs Ms Prof
Jewish Muslim Christian Catholic Protestant Buddhist Hindu Sikh Atheist Agnostic Gay
Lesbian Trans Queer Single Vegan Vegetarian
jüdisch Jüdin Jude Muslim Muslimin Christ Christin Katholik Katholikin Atheist Atheistin
Single Rentner Rentnerin Mama Papa Student Studentin Schüler Schülerin Azubi Anfänger
Anfängerin Profi Fan Mitglied Deutsch English Englisch Monday Tuesday Wednesday Thursday
Friday Saturday Sunday January February March April May June July August September October
November December Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag
""")
# "Allergic to Mondays", "allergisch gegen Montage": an idiom for dislike, no allergy.
FIGURATIVE_ALLERGENS = word_set("""
monday mondays montag montage montags morning mornings morgen morgens work arbeit people
menschen leute meetings meeting besprechungen homework hausaufgaben math mathe stress
""")
# Rooms and errands one comes back from ("ich komme aus der Küche"): no origin.
ERRAND_PLACES_DE = word_set("""
küche büro arbeit schule uni dusche bad badezimmer keller garten kino urlaub krankenhaus
supermarkt laden fitnessstudio training meeting besprechung bett sitzung praxis
""")
