"""Words for dates and numbers in EN/DE (data): months, weekdays, seasons, counts and ages."""

from __future__ import annotations

from collections.abc import Mapping

MONTHS: Mapping[str, int] = {
    **{m: i + 1 for i, m in enumerate((
        "january", "february", "march", "april", "may", "june", "july", "august",
        "september", "october", "november", "december"))},
    **{m: i + 1 for i, m in enumerate((
        "januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september",
        "oktober", "november", "dezember"))},
    "jänner": 1,
}
DAYS: Mapping[str, int] = {
    **{d: i for i, d in enumerate((
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))},
    **{d: i for i, d in enumerate((
        "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag"))},
    "sonnabend": 5,
}
SEASONS: tuple[str, ...] = (
    "spring", "summer", "autumn", "fall", "winter", "frühling", "frühjahr", "sommer",
    "herbst", "winter",
)
# Counts and ages as words; "a"/"ein" count one ("for a month", "seit einem Jahr").
NUMBERS: Mapping[str, int] = {
    **{w: i for i, w in enumerate((
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
        "eighteen", "nineteen", "twenty"))},
    **{w: i for i, w in enumerate((
        "null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun",
        "zehn", "elf", "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn",
        "achtzehn", "neunzehn", "zwanzig"))},
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
    "ninety": 90, "dreißig": 30, "vierzig": 40, "fünfzig": 50, "sechzig": 60,
    "siebzig": 70, "achtzig": 80, "neunzig": 90, "hundert": 100,
    "a": 1, "an": 1, "ein": 1, "eine": 1, "einem": 1, "einer": 1, "einen": 1,
    "a few": 3, "a couple of": 2, "several": 3, "ein paar": 3, "einigen": 3, "mehreren": 3,
    "zweieinhalb": 2,
}
_TENS_EN = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
            "seventy": 70, "eighty": 80, "ninety": 90}
_TENS_DE = {"zwanzig": 20, "dreißig": 30, "vierzig": 40, "fünfzig": 50, "sechzig": 60,
            "siebzig": 70, "achtzig": 80, "neunzig": 90}
_UNITS_DE = {"ein": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7,
             "acht": 8, "neun": 9}


def number(word: str) -> int:
    """A count written in digits or words, EN or DE ("sieben", "twenty-one",
    "dreiundfünfzig"); ValueError when it is none."""
    word = word.casefold().strip()
    if word.isdigit():
        return int(word)
    if word in NUMBERS:
        return NUMBERS[word]
    tens, _, unit = word.partition("-")  # "twenty-one"
    if tens in _TENS_EN and unit in NUMBERS and NUMBERS[unit] < 10:
        return _TENS_EN[tens] + NUMBERS[unit]
    unit_de, und, tens_de = word.partition("und")  # "dreiundfünfzig"
    if und and unit_de in _UNITS_DE and tens_de in _TENS_DE:
        return _UNITS_DE[unit_de] + _TENS_DE[tens_de]
    raise ValueError(f"not a number: {word!r}")


def is_number(word: str) -> bool:
    try:
        number(word)
    except ValueError:
        return False
    return True


# Ordinal birthday words ("ihren 69. Geburtstag", "her 69th birthday") are read by the
# patterns; these are the number words an age may be written with.
AGE_WORDS = (r"\d{1,3}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
             r"(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|(?:(?:ein|zwei|drei|vier|"
             r"fünf|sechs|sieben|acht|neun)und)?(?:zwanzig|dreißig|vierzig|fünfzig|sechzig|"
             r"siebzig|achtzig|neunzig)|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
             r"twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|eins|zwei|"
             r"drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|dreizehn|vierzehn|fünfzehn|"
             r"sechzehn|siebzehn|achtzehn|neunzehn")
