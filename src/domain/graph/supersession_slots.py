"""Supersession topic data (EN/DE): the slots statements share, and the words that are no topic."""

from __future__ import annotations

import re
from collections.abc import Mapping

# Notation as in supersession_cues: phrases match on word starts, case-insensitive; a trailing
# '*' lets the last word go on, a leading '*' lets a German compound end in the word.

# Topic slots: two statements about the same thing share a slot, whatever their words.
SLOTS: Mapping[str, tuple[str, ...]] = {
    "residence": ("live", "lives", "living", "move*", "moving", "relocat*", "home", "flat",
                  "apartment", "address", "rent*", "own place", "keys to", "wohn*", "*wohnung",
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
             "translator", "lieutenant", "navy", "marine", "leutnant", "lecturer", "professor"),
    "schedule": ("monday*", "tuesday*", "wednesday*", "thursday*", "friday*", "saturday*",
                 "sunday*", "montag*", "dienstag*", "mittwoch*", "donnerstag*", "freitag*",
                 "samstag*", "sonntag*", "*montags", "meeting*", "*meeting", "appointment*",
                 "call", "*call", "standup", "deadline*", "class", "*kurs", "party", "*feier",
                 "flight*", "*flug", "*flüge", "termin*", "*termin", "treffen", "trifft", "meets",
                 "pm", "uhr", "march", "june", "august", "märz", "juni", "mai", "*abfuhr",
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
               "flat white", "espresso"),
    "smoking": ("smok*", "rauch*", "cigarette*", "*zigarette*", "nichtraucher*"),
    "contact": ("phone", "number", "mobile", "email", "e-mail", "*nummer", "handy*",
                "telefon*", "password*", "*passwort", "wifi", "wlan"),
    "identity": ("name*", "called", "call me", "go by", "heiß*", "nenn*", "surname",
                 "nachname*", "maiden name", "mädchenname*", "birthday", "*geburtstag"),
    "age": ("years old", "jahre alt", "turned", "turns", "geworden", "birthday", "*geburtstag",
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
    "health": ("doctor", "dentist", "*arzt", "*ärztin", "allerg*", "praxis", "immun*", "surgery",
               "sick leave", "krankgeschrieben", "rehab", "reha", "wheelchair", "rollstuhl",
               "crutches", "krücken", "dialysis", "dialyse", "transplant*", "kidney", "niere",
               "therapist", "therapie*", "physio*", "sertralin*", "mg"),
    "family": ("expecting", "baby", "born", "pregnant", "schwanger", "geboren", "erwarten",
               "welt gekommen", "nappies", "windeln", "potty", "trocken", "care home",
               "pflegeheim", "passed away", "gestorben", "died"),
    "sleep": ("sleep*", "schlaf*", "bed", "night owl", "early bird", "midnight",
              "mitternacht", "morning", "wecker", "alarm", "wake up", "aufstehen"),
    "pet": ("dog*", "cat", "cats", "puppy", "hund*", "katze*", "welpe*", "pets", "haustier*",
            "indoor cat", "wohnungskatze", "cat flap", "katzenklappe"),
    "software": ("editor", "vs code", "neovim", "vim", "host*", "deploy*", "database",
                 "datenbank", "framework", "written", "geschrieben", "*server", "ticket*",
                 "password manager", "*manager", "jira", "linear", "windows", "mac", "macos",
                 "linux", "iphone", "pixel", "samsung", "nokia", "phone", "handy"),
    "plan": ("plan", "*plan", "abo", "*abo", "tarif", "*tarif", "subscription", "membership",
             "mitglied*", "gb", "flatrate", "unlimited", "member"),
}

# Slots that hold one value at a time: sharing one is enough to be about the same thing. In
# the others (meetings, sports, tools) the instance must be named too ("dentist appointment"
# does not replace "team meeting").
SINGLE_VALUED_SLOTS: frozenset[str] = frozenset({
    "residence", "work", "identity", "relationship", "colour", "diet", "smoking", "sleep",
    "vehicle", "education", "age", "family",
})
# An age said as a number after a copula or "turned" ("my son Ben is 7", "ist jetzt elf"):
# the age slot, like "years old".
AGE_STATEMENT = re.compile(
    r"(?<!\w)(?:is|'s|are|am|'m|turned|turns|ist|bin|sind|wird|werde)\s+(?:now\s+|jetzt\s+|"
    r"already\s+|schon\s+|gerade\s+|just\s+)?(?:\d{1,3}|one|two|three|four|five|six|seven|"
    r"eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|"
    r"zwanzig|dreißig|vierzig|fünfzig|sechzig|siebzig|achtzig|neunzig|zweieinhalb)"
    r"(?:\s*(?:[.,!]|$|and|und|now|jetzt))"
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


