// Cards drawn in SVG: no image packs.

const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const RED = new Set(["h", "d"]);

export function rankText(card) {
  const r = card[0];
  return r === "T" ? "10" : r;
}

/** An SVG string for one card face ("As", "Td") or a back (null). */
export function cardSvg(card) {
  if (!card) {
    return (
      '<svg viewBox="0 0 60 84" aria-hidden="true" class="svg-card">' +
      '<rect x="1" y="1" width="58" height="82" rx="6" class="back"/>' +
      '<rect x="6" y="6" width="48" height="72" rx="3" class="back-inner"/>' +
      '<path d="M30 20 L42 42 L30 64 L18 42 Z" class="back-mark"/></svg>'
    );
  }
  const suit = card[1];
  const color = RED.has(suit) ? "red" : "black";
  const rank = rankText(card);
  const sym = SUITS[suit];
  return (
    `<svg viewBox="0 0 60 84" aria-hidden="true" class="svg-card ${color}">` +
    '<rect x="1" y="1" width="58" height="82" rx="6" class="face"/>' +
    `<text x="6" y="20" class="rank">${rank}</text>` +
    `<text x="6" y="34" class="pip">${sym}</text>` +
    `<text x="30" y="62" class="big" text-anchor="middle">${sym}</text>` +
    `<text x="54" y="78" class="rank small" text-anchor="end">${rank}</text></svg>`
  );
}
