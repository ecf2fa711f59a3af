"""Supersession topic data (EN/DE): the slots statements share, and the words that are no topic."""

from __future__ import annotations

import re
from collections.abc import Mapping

# Notation as in supersession_cues: phrases match on word starts, case-insensitive; a trailing
# '*' lets the last word go on, a leading '*' lets a German compound end in the word.

# Topic slots: two statements about the same thing share a slot, whatever their words.
SLOTS: Mapping[str, tuple[str, ...]] = {
    "residence": ("live", "lives", "living", "move*", "moving", "relocat*", "home", "flat",
                  "apartment", "address", "rent", "rents", "rented", "renting", "own place", "keys to", "wohn*", "*wohnung",
                  "lebe", "lebt", "umgezogen", "umzug", "ziehe", "gezogen", "*adresse", "miete*",
                  "*miete", "eingezogen", "ausgezogen", "schlüssel für", "wg", "parents' place",
                  "bei meinen eltern"),
    "work": ("work", "works", "working", "worked", "job*", "employ*", "company", "hired",
             "shift*", "career", "retired",
             "apprentice*", "intern*", "promot*", "staff engineer", "senior", "junior",
             "freelance*", "self-employed", "arbeite", "arbeitet", "arbeiten", "gearbeitet",
             "*arbeit", "firma", "stelle", "arbeitgeber", "arbeitsplatz", "arbeitsvertrag",
             "*schicht", "ausbildung", "beruf*", "rente", "befördert", "festanstellung",
             "praktikum", "praktikant*", "freiberuflich*", "selbstständig*", "arbeitslos*",
             "unemployed", "manager", "boss", "chef*", "engineer", "developer", "teacher",
             "nurse", "lehrer*", "entwickler*", "barkeeper", "kellner*", "barista", "übersetzer*",
             "translator", "lieutenant", "navy", "marine", "leutnant", "lecturer", "professor",
             "leiter*", "*leiter", "*leiterin", "leitet", "team lead", "head of"),
    "schedule": ("monday*", "tuesday*", "wednesday*", "thursday*", "friday*", "saturday*",
                 "sunday*", "montag*", "dienstag*", "mittwoch*", "donnerstag*", "freitag*",
                 "samstag*", "sonntag*", "*montags", "meeting*", "*meeting", "appointment*",
                 "call", "*call", "standup", "deadline*", "class", "*kurs", "party", "*feier",
                 "flight*", "*flug", "*flüge", "termin*", "*termin", "treffen", "trifft", "meets",
                 "pm", "uhr", "january", "february", "march", "april", "may", "june", "july", "august",
                 "september", "october", "november", "december", "januar", "februar", "märz",
                 "mai", "juni", "juli", "oktober", "dezember", "*abfuhr",
                 "collection", "*abends", "evenings", "*frist", "frist*", "due", "fällig",
                 "abgabe*", "interview", "*gespräch", "exam", "*prüfung", "lesson", "*stunde",
                 "daily", "retro*", "*vorspiel", "recital", "kickoff", "offsite"),
    "diet": ("eat", "eats", "eating", "esse", "isst", "meat", "*fleisch", "fish", "fisch",
             "vegetar*", "vegan*", "gluten*", "lactose", "laktose", "pescetar*", "pescatar*",
             "zöliakie", "coeliac", "celiac", "dairy", "milch*", "*milch", "breakfast",
             "frühstück*", "fasting", "*fasten"),
    "food": ("food", "*essen", "olive*", "oliven", "pizza", "sushi", "dish"),
    "drinks": ("coffee", "tea", "*kaffee", "tee", "beer", "*bier", "wine", "*wein",
               "alcohol*", "alkohol*", "drink*", "trink*", "*wasser", "water", "cortado",
               "flatwhite", "espresso"),
    "smoking": ("smok*", "rauch*", "cigarette*", "*zigarette*", "nichtraucher*"),
    "contact": ("phone", "number", "mobile", "email", "e-mail", "*nummer", "handy*",
                "telefon*", "password*", "*passwort", "wifi", "wlan"),
    "identity": ("name*", "called", "call me", "go by", "heiß*", "nenn*", "surname",
                 "nachname*", "maiden name", "mädchenname*", "birthday", "*geburtstag"),
    "age": ("years old", "jahre alt", "year-old", "*jährig*", "birthday", "*geburtstag",
            "months old", "monate alt"),
    "relationship": ("girlfriend", "boyfriend", "wife", "husband", "single", "married",
                     "divorced", "broke up", "dating", "engaged", "engagement", "fiancé*",
                     "proposed", "together", "split", "separated", "remarried", "exclusive",
                     "freundin", "verheiratet", "geschieden", "getrennt", "beziehung",
                     "*beziehung", "verlobt", "verlobung", "geheiratet", "zusammen", "schluss",
                     "scheiden", "antrag"),
    "colour": ("colour*", "color*", "*farbe"),
    "vehicle": ("car", "drive*", "auto", "fahre", "fährt", "fahrrad", "bike", "*bike", "*rad",
                "bus", "*bus", "train", "s-bahn", "u-bahn", "tram", "bahn", "zug", "cycle",
                "cycling", "commut*", "pendl*", "pendel*", "e-scooter", "scooter", "garage",
                "pedals", "car-free", "autofrei", "license", "führerschein*", "driving test"),
    "sport": ("run", "runs", "running", "lauf*", "laufe", "jogg*", "gym", "fitness*",
              "*studio", "swim*", "schwimm*", "yoga*", "football", "fussball", "tennis",
              "padel", "training", "marathon", "*marathon", "ironman", "mannschaft", "team",
              "spinning", "hiit", "climbing", "boulder*", "kletter*"),
    "language": ("english", "german", "french", "spanish", "italian", "englisch", "deutsch",
                 "französisch", "spanisch", "italienisch", "learn*", "lern*", "speak*",
                 "sprech*", "spreche", "sprache*", "japanese", "japanisch", "portuguese",
                 "portugiesisch", "duolingo"),
    "education": ("school", "*schule", "study", "studier*", "*studium", "university", "uni",
                  "degree", "exam*", "prüfung*", "science", "informatik", "master's", "master",
                  "*masterarbeit", "thesis", "phd", "doktorand*", "promotion*", "graduat*",
                  "student*", "kindergarten", "kita", "grade", "klasse", "eingeschult",
                  "homeschool*", "abschluss", "verteidigt", "defended"),
    "finance": ("bank*", "*bank", "account", "*konto", "salary", "gehalt", "credit", "kredit*",
                "savings", "*sparplan", "budget", "insurance", "*versicherung", "versichert",
                "krankenkasse"),
    "health": ("doctor", "dentist", "*arzt", "*ärztin", "dr", "allerg*", "praxis", "immun*",
               "surgery", "rehab", "reha", "dialysis", "dialyse", "transplant*", "kidney",
               "niere", "therapist", "therapie*", "physio*", "sertralin*", "mg"),
    # Being off work, and being back: "I'm on sick leave" / "I went back to work on Monday".
    "leave": ("sick leave", "krankgeschrieben", "krank geschrieben", "parental leave",
              "maternity leave", "paternity leave", "elternzeit", "mutterschutz", "back to work",
              "back at work", "arbeite* ~ wieder", "wieder ~ arbeit*"),
    # Where the user works: "im Büro" / "komplett im Homeoffice" (not "ins Büro": a way there).
    "workplace": ("in the office", "at the office", "im büro", "homeoffice", "home office",
                  "from home", "von zu hause", "remote*", "hybrid"),
    "mobility": ("wheelchair", "rollstuhl", "crutches", "krücken", "rollator", "walker",
                 "walking stick", "gehstock", "cane"),
    "family": ("expecting", "baby", "born", "pregnant", "schwanger", "geboren", "erwarten",
               "welt gekommen", "nappies", "windeln", "potty", "trocken", "care home",
               "pflegeheim", "passed away", "gestorben", "died"),
    "sleep": ("sleep*", "schlaf*", "bed", "nachts", "night owl", "early bird", "midnight",
              "mitternacht", "morning", "wecker", "alarm", "wake up", "aufstehen"),
    "pet": ("dog*", "cat", "cats", "puppy", "hund*", "katze*", "welpe*", "pets", "haustier*",
            "indoor cat", "wohnungskatze", "cat flap", "katzenklappe"),
    "software": ("editor", "vs code", "neovim", "vim", "host*", "deploy*", "database",
                 "datenbank", "framework", "written", "geschrieben", "*server", "ticket*",
                 "password manager", "*manager", "jira", "linear", "windows", "mac", "macos",
                 "linux", "iphone", "pixel", "samsung", "nokia", "phone", "handy"),
    "plan": ("plan", "*plan", "abo", "*abo", "subscription", "membership", "mitglied*",
             "member"),
    # A phone or internet tariff holds one value: "40 GB" / "eine Flatrate".
    "tariff": ("gb", "flatrate", "unlimited", "tarif", "*tarif", "data plan", "datenvolumen",
               "prepaid", "mbit*"),
    "favourite": ("go-to", "favourite", "favorite", "lieblings*"),
}

# Slots that hold one value at a time: sharing one is enough to be about the same thing. In
# the others (meetings, sports, tools) the instance must be named too ("dentist appointment"
# does not replace "team meeting").
SINGLE_VALUED_SLOTS: frozenset[str] = frozenset({
    "residence", "work", "identity", "relationship", "colour", "diet", "smoking", "sleep",
    "vehicle", "education", "age", "family", "leave", "workplace", "mobility", "tariff",
})
_NUMBER = (r"(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
           r"thirteen|fourteen|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|"
           r"eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwanzig|dreißig|"
           r"vierzig|fünfzig|sechzig|siebzig|achtzig|neunzig|zweieinhalb)")
# An age said as a number after a copula or "turned" ("my son Ben is 7", "ist jetzt elf",
# "she's 6"), or a number opening the statement with a time ("Thirty as of last Friday"):
# the age slot, like "years old". Not a date ("am 3. Juli").
AGE_STATEMENT = re.compile(
    r"(?:(?<!\w)(?:is|are|am|turned|turns|ist|bin|sind|wird|werde)|'s|'m)\s+(?:now\s+|jetzt\s+|"
    rf"already\s+|schon\s+|gerade\s+|just\s+)?{_NUMBER}"
    r"(?!\.\s*(?:jan|feb|mär|apr|mai|jun|jul|aug|sep|okt|nov|dez|\d))"
    r"(?:\s*(?:[.,!]|$|and|und|now|jetzt))"
    rf"|^{_NUMBER}\s+(?:as of|since|now|today|seit|jetzt|ab|heute)(?!\w)"
    rf"|(?<!\w)(?:turned|turns|wird|werden)\s+{_NUMBER}(?!\w)|(?<!\w){_NUMBER}\s+geworden(?!\w)"
)
# A provider, employer or practice the user is with: "bei der DKB", "zu Dr. Albers", "with
# Verti", "at Siemens" (case-sensitive, on the statement as written: the value is a name).
PROVIDER = re.compile(
    r"(?<!\w)(?:bei|zu|zur|zum|with|at|to)\s+(?:der\s+|dem\s+|the\s+)?(?:Dr\.?\s+)?"
    r"(?P<name>[A-ZÄÖÜ][\w-]*)"
)
# When a new value holds from ("seit Februar", "as of next month", "ab Juli"): no topic.
TIME_ANCHOR = re.compile(
    r"(?<!\w)(?:since|seit|ab|as of|from|starting|starting in)\s+(?:(?:the|dem|den|der|nächsten|"
    r"next|this|diesem|letzten|last|early|late|anfang|mitte|ende)\s+)*(?:january|february|march|"
    r"april|may|june|july|august|september|october|november|december|januar|februar|märz|mai|"
    r"juni|juli|oktober|dezember|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|week|woche|month|monat|"
    r"year|jahr)(?!\w)"
)
# Phrases whose words would name the wrong slot: a flat white is no flat, a meeting moved to
# Sunday no move of home.
SLOT_MISREADINGS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"flat white"), "flatwhite"),
    (re.compile(r"(?<!\w)mov(?:e|ed|ing)\s+(?:\S+\s+){0,3}?(?:to|on|auf)\s+(?=(?:\w+day|the \d|"
                r"\d|next|\w+tag|\w+woch))"), "rescheduled "),
)

STOPWORDS: frozenset[str] = frozenset((
    "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "from",
    "by", "as", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did",
    "have", "has", "had", "it", "its", "this", "that", "these", "those", "there", "here", "he",
    "she", "they", "them", "his", "her", "their", "you", "your", "me", "my", "mine", "our", "us",
    "we", "i", "im", "ive", "id", "ill", "s", "t", "m", "d", "ll", "re", "ve", "don", "doesn",
    "didn", "isn", "aren", "wasn", "won", "can", "about", "into", "over", "than", "then", "so",
    "very", "just", "what", "which", "who", "when", "where", "how", "why", "all", "any", "some",
    "more", "most", "much", "many", "one", "two", "our", "up", "out", "off", "again", "also",
    "get", "got", "go", "going", "went", "will", "would", "ich", "du", "er", "sie", "es", "wir",
    "ihr", "mich", "mir", "dich", "dir", "uns", "euch", "mein", "meine", "meinen", "meinem",
    "meiner", "dein", "sein", "seine", "ihre", "unser", "unsere", "der", "die", "das", "den",
    "dem", "des", "ein", "eine", "einen", "einem", "einer", "und", "oder", "aber", "mit", "von",
    "zu", "zum", "zur", "im", "ins", "am", "um", "auf", "aus", "bei", "nach", "für", "über",
    "unter", "vor", "an", "als", "wie", "so", "ist", "sind", "bin", "bist", "war", "habe", "hast",
    "hat", "haben", "wird", "werden", "wurde", "noch", "schon", "sehr", "nur", "gern", "gerne",
    "da", "dann",
    # Titles are no topic: "Dr. Brandt" and "Dr. Albers" share nothing.
    "dr", "prof", "mr", "mrs", "ms", "herr", "frau",
))


