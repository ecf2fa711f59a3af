"""Small gazetteers of well-known places, organisations and products (EN/DE names), as data."""

from __future__ import annotations

import re
from collections.abc import Iterable

from memlane.domain.entities.cues import words

# One name per line-separated entry, "|" between names; EN and DE spellings are separate
# entries (Munich, München), since the blind index keys on the name as written. The lists are
# deliberately short: common in personal memories, and unambiguous where they are capitalised.
PLACES = """
Germany|Deutschland|Austria|Österreich|Switzerland|Schweiz|France|Frankreich|Italy|Italien|
Spain|Spanien|Portugal|Poland|Polen|Netherlands|Niederlande|Holland|Belgium|Belgien|Denmark|
Dänemark|Sweden|Schweden|Norway|Norwegen|Finland|Finnland|Greece|Griechenland|Turkey|Türkei|
Croatia|Kroatien|Czechia|Tschechien|Hungary|Ungarn|Ireland|Irland|Scotland|Schottland|
England|Wales|UK|USA|America|Amerika|Canada|Kanada|Mexico|Mexiko|Brazil|Brasilien|Argentina|
Argentinien|Chile|Peru|Japan|China|India|Indien|Thailand|Vietnam|Indonesia|Indonesien|
Australia|Australien|New Zealand|Neuseeland|Egypt|Ägypten|Morocco|Marokko|Kenya|Kenia|Nigeria|
Ghana|Syria|Syrien|Iran|Israel|Lebanon|Libanon|Ukraine|Russia|Russland|Europe|Europa|Asia|
Asien|Africa|Afrika|Bavaria|Bayern|Tuscany|Toskana|Texas|California|Kalifornien|Florida|
Bretagne|Brittany|Mallorca|Majorca|Sicily|Sizilien|Crete|Kreta|Patagonia|Patagonien|Bali|
Berlin|Hamburg|Munich|München|Cologne|Köln|Frankfurt|Stuttgart|Düsseldorf|Dortmund|Essen|
Leipzig|Dresden|Hannover|Hanover|Nürnberg|Nuremberg|Bremen|Bonn|Heidelberg|Freiburg|Mannheim|
Karlsruhe|Kassel|Potsdam|Münster|Aachen|Mainz|Augsburg|Regensburg|Kiel|Rostock|Lübeck|
Walldorf|Kreuzberg|Neukölln|Prenzlauer Berg|Schwabing|Vienna|Wien|Zurich|Zürich|Geneva|Genf|
Basel|Bern|Salzburg|Graz|Innsbruck|Paris|Lyon|Marseille|Nice|Nizza|Rome|Rom|Milan|Mailand|
Venice|Venedig|Florence|Florenz|Naples|Neapel|Madrid|Barcelona|Valencia|Seville|Sevilla|
Lisbon|Lissabon|Porto|Amsterdam|Rotterdam|Brussels|Brüssel|Copenhagen|Kopenhagen|Stockholm|
Oslo|Helsinki|Prague|Prag|Warsaw|Warschau|Kraków|Krakau|Budapest|Athens|Athen|Istanbul|
London|Manchester|Liverpool|Edinburgh|Glasgow|Leeds|Bristol|Oxford|Cambridge|Brighton|
Camden|Dublin|New York|Brooklyn|Manhattan|San Francisco|Los Angeles|Chicago|Boston|Seattle|
Austin|Toronto|Vancouver|Montreal|Tokyo|Tokio|Kyoto|Beijing|Peking|Shanghai|Mumbai|Delhi|
Bangalore|Bengaluru|Singapore|Singapur|Sydney|Melbourne|Dubai|Cairo|Kairo|Zermatt|Alfama|
Ostsee|Nordsee|Bodensee|Alpen|Alps|Thames|Themse|Rhine|Rhein|Elbe|Tiergarten|
Englischer Garten|Central Park|Hyde Park|Eiffel Tower|Eiffelturm|Brandenburger Tor|
Heathrow|Gatwick
"""
ORGANISATIONS = """
Google|Alphabet|Microsoft|Meta|Facebook|Amazon|Apple|IBM|Intel|Nvidia|OpenAI|Anthropic|
Netflix|Spotify|Stripe|Shopify|Salesforce|Oracle|Uber|Airbnb|Deloitte|Accenture|McKinsey|
KPMG|PwC|Barclays|HSBC|Siemens|SAP|BMW|Mercedes|Daimler|Volkswagen|VW|Audi|Porsche|Bosch|
BASF|Bayer|Allianz|Lufthansa|Telekom|Deutsche Telekom|Deutsche Bahn|Deutsche Post|
Deutsche Bank|Commerzbank|Sparkasse|Volksbank|DHL|Hermes|ADAC|AOK|Techniker Krankenkasse|
Charité|Zalando|Lidl|Aldi|Rewe|Edeka|Kaufland|dm|Rossmann|Ikea|IKEA|H&M|Zara|MediaMarkt|
Media Markt|Saturn|Starbucks|McDonald's|Burger King|Domino's|Nando's|Blue Bottle|Coursera|
Red Cross|Rotes Kreuz|UNICEF|BBC|ZDF|ARD|Tesla
"""
PRODUCTS = """
Kindle|Kindle Paperwhite|iPhone|iPad|MacBook|MacBook Air|MacBook Pro|iMac|AirPods|
Apple Watch|Apple Music|Pixel|Galaxy|Samsung Galaxy|ThinkPad|PlayStation|Xbox|
Nintendo Switch|Fitbit|Garmin|Garmin Forerunner|Oura|Thermomix|Dyson|Roomba|Fairphone|
Notion|Obsidian|Slack|Duolingo|WhatsApp|Signal|Telegram|Zoom|Excel|Photoshop|ChatGPT|
VW Golf|Volkswagen Golf|Model 3|Sony|Samsung|Nintendo|Canon|Nikon|GoPro|Vorwerk|Miele|
Zelda|Minecraft
"""
# Brands that are both a company and what it sells: context decides ("works at Spotify",
# "I use Spotify"); without context the list above they first appear in wins.
BRANDS = words("""
    spotify netflix bosch sony samsung dyson tesla garmin fitbit nintendo apple miele vorwerk
    amazon google microsoft
""")
# Entries that are everyday lowercase words: matched only when capitalised.
CASE_SENSITIVE = words("""
    apple amazon meta signal telegram zoom slack notion obsidian pixel galaxy excel essen nice
    porto bank saturn hermes zelda oura india china turkey chile dm
""")
_INFLECTION = re.compile(r"(?:en|er|es|em|e)$")


def fold(name: str) -> str:
    """A lookup key: casefolded, and German adjective endings dropped from all but the last
    word, so "Deutschen Bahn" finds "Deutsche Bahn" and "Englischen Garten" its entry."""
    parts = name.casefold().split()
    return " ".join([*(_INFLECTION.sub("", p) for p in parts[:-1]), *parts[-1:]])


def _entries(kind: str, text: str) -> Iterable[tuple[str, tuple[str, str]]]:
    for raw in text.replace("\n", "").split("|"):
        if name := raw.strip():
            yield fold(name), (name, kind)


# fold(name) -> (canonical name, kind); the first list an entry is in decides its kind.
GAZETTEER: dict[str, tuple[str, str]] = {}
for _kind, _text in (("place", PLACES), ("organisation", ORGANISATIONS), ("product", PRODUCTS)):
    for _key, _value in _entries(_kind, _text):
        GAZETTEER.setdefault(_key, _value)
LONGEST_ENTRY_WORDS = max(len(key.split()) for key in GAZETTEER)
# The first word of every key: a chunk whose first word folds to none of them is no entry.
_STARTS = frozenset(key.split()[0] for key in GAZETTEER)


def may_start(word: str) -> bool:
    """Whether a chunk beginning with this word can be an entry (False: `lookup` of any
    chunk it begins finds nothing), as `fold` folds a first word: alone, casefolded; before
    others, its adjective ending dropped too."""
    if any(c.isspace() for c in word):
        return True  # fold would split it: no shortcut
    folded = word.casefold()
    return folded in _STARTS or _INFLECTION.sub("", folded) in _STARTS


def lookup(words: list[str], *, capitalised: bool) -> tuple[str, str] | None:
    """(canonical name, kind) for these words, or None; lowercase-word entries need capitals."""
    key = fold(" ".join(words))
    hit = GAZETTEER.get(key)
    if hit is None or (not capitalised and key in CASE_SENSITIVE):
        return None
    return hit
