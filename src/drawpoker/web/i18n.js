// Interface languages: English, Italian, Spanish, Finnish (i18n/<code>.json).
// Every visible string goes through t(); hand descriptions and card names too.

export const LANGUAGES = [
  ["en", "English"],
  ["it", "Italiano"],
  ["es", "Español"],
  ["fi", "Suomi"],
];

const dictionaries = {};
let current = "en";

export async function loadLanguage(code) {
  if (!LANGUAGES.some(([c]) => c === code)) code = "en";
  if (!dictionaries.en) dictionaries.en = await fetchJson("en");
  if (!dictionaries[code]) dictionaries[code] = await fetchJson(code);
  current = code;
  document.documentElement.lang = code;
  return code;
}

async function fetchJson(code) {
  const response = await fetch(`/static/i18n/${code}.json`);
  return response.json();
}

export function language() {
  return current;
}

/** Translate ``key``; ``{name}`` placeholders are filled from ``params``. */
export function t(key, params = {}) {
  const text = dictionaries[current]?.[key] ?? dictionaries.en?.[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Plural choice: key.one / key.other. */
export function tn(key, n, params = {}) {
  return t(`${key}.${n === 1 ? "one" : "other"}`, { n, ...params });
}

/** A server error in the player's language: by its code, else the server's words. */
export function errorText(reply) {
  const key = `error.${reply?.code ?? ""}`;
  if (reply?.code && (dictionaries[current]?.[key] ?? dictionaries.en?.[key])) {
    // The server's English message says more (the legal range); keep it in English.
    return current === "en" && reply.message ? reply.message : t(key);
  }
  return reply?.message || t("error.generic");
}

export function cardName(card) {
  return t("card", { rank: t(`rank.${card[0]}`), suit: t(`suit.${card[1]}`) });
}

const ENGLISH_RANKS = {
  Deuce: "2", Three: "3", Four: "4", Five: "5", Six: "6", Seven: "7", Eight: "8",
  Nine: "9", Ten: "T", Jack: "J", Queen: "Q", King: "K", Ace: "A",
};
const ENGLISH_PLURALS = Object.fromEntries(
  Object.entries(ENGLISH_RANKS).map(([name, code]) => [name === "Six" ? "Sixes" : `${name}s`, code]),
);

const PATTERNS = [
  [/^a Royal Flush$/, "hd.royal", []],
  [/^a straight flush, (\w+) to (\w+)$/, "hd.straight_flush", ["low", "high"]],
  [/^four of a kind, (\w+)$/, "hd.quads", ["ranks"]],
  [/^a full house, (\w+) full of (\w+)$/, "hd.full_house", ["ranks", "ranks2"]],
  [/^a flush, (\w+) high$/, "hd.flush", ["high"]],
  [/^a straight, (\w+) to (\w+)$/, "hd.straight", ["low", "high"]],
  [/^three of a kind, (\w+)$/, "hd.trips", ["ranks"]],
  [/^two pair, (\w+) and (\w+)$/, "hd.two_pair", ["ranks", "ranks2"]],
  [/^a pair of (\w+)$/, "hd.pair", ["ranks"]],
  [/^high card (\w+)$/, "hd.high_card", ["high"]],
];

/** The server describes hands in English ("two pair, Eights and Deuces"); translate. */
export function handDescription(text) {
  for (const [pattern, key, names] of PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const params = {};
    names.forEach((name, i) => {
      const word = match[i + 1];
      params[name] = name.startsWith("ranks")
        ? t(`ranks.${ENGLISH_PLURALS[word] ?? word}`)
        : t(`rank.${ENGLISH_RANKS[word] ?? word}`);
    });
    return t(key, params);
  }
  return text;
}

/** An ordinal place in the current language: 1st, 2º, 3.ª, 4. */
export function ordinal(n) {
  let form = "other";
  try {
    form = new Intl.PluralRules(current, { type: "ordinal" }).select(n);
  } catch {
    form = "other";
  }
  return t(`ord.${form}`, { n });
}

/** Shared places ([3, 4]) as "3rd–4th"; one place as "3rd". */
export function places(list) {
  const sorted = [...(list ?? [])].sort((a, b) => a - b);
  if (!sorted.length) return "";
  return sorted.length === 1 ? ordinal(sorted[0]) : `${ordinal(sorted[0])}–${ordinal(sorted.at(-1))}`;
}
