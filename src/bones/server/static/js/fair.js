// The fair deals' derivation (docs/fair-deals.md, "In JavaScript"), with Web Crypto: what
// the "check the deals" page (verify.js) deals every hand again with, in the browser itself.
// Everything below this comment is the page's code block, character for character (a test
// checks that they are the same): change both or neither.

const utf8 = new TextEncoder();
const concat = (parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
};
const number = (n) => { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, n); return b; };
const string = (s) => { const b = utf8.encode(s); return concat([number(b.length), b]); };

export function message(purpose, game, hand, attempt, playerSeeds) {
  return concat([string("bones-fair/1"), string(purpose), number(game), number(hand),
                 number(attempt), number(playerSeeds.length), ...playerSeeds.map(string)]);
}

export async function commitment(serverSeed) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", serverSeed));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// The stream of a message: take(k) resolves to its next k bytes.
function stream(key, data) {
  let block = new Uint8Array(0), used = 0, counter = 0;
  return async (k) => {
    const out = [];
    while (out.length < k) {
      if (used === block.length) {
        block = new Uint8Array(await crypto.subtle.sign("HMAC", key, concat([data, number(counter)])));
        counter += 1;
        used = 0;
      }
      out.push(block[used++]);
    }
    return out;
  };
}

async function below(take, n) {
  let k = 1;
  while (256 ** k < n) k += 1;
  const span = 256 ** k, limit = span - (span % n);
  for (;;) {
    const v = (await take(k)).reduce((a, b) => a * 256 + b, 0);
    if (v < limit) return v % n;
  }
}

async function shuffle(items, take) {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = await below(take, i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const fullSet = (top) => {
  const tiles = [];
  for (let a = 0; a <= top; a += 1) for (let b = 0; b <= a; b += 1) tiles.push(`${a}-${b}`);
  return tiles;
};
const halves = (t) => t.split("-").map(Number);
const weight = (t) => { const [a, b] = halves(t); return [a + b, a === b ? 1 : 0, Math.max(a, b)]; };
const heavier = (x, y) => {
  const [p, q] = [weight(x), weight(y)];
  for (let i = 0; i < 3; i += 1) if (p[i] !== q[i]) return p[i] > q[i];
  return false;
};

function redeals(rules, deal, first) {
  if (rules.no_double !== "redeal") return false;
  const dealt = deal.flat();
  const noDouble = !dealt.some((t) => { const [a, b] = halves(t); return a === b; });
  if (rules.opening === "top-double") return !dealt.includes(`${rules.set}-${rules.set}`);
  if (rules.opening === "highest-double") return noDouble;
  return (first || rules.next_lead === "same") && rules.lead === "highest-double" && noDouble;
}

const byLots = (rules, first) =>
  rules.opening === "any" && rules.lead === "lots" && (first || rules.next_lead === "same");

export async function fairDeal(rules, serverSeed, playerSeeds, game, hand) {
  const key = await crypto.subtle.importKey("raw", serverSeed, { name: "HMAC", hash: "SHA-256" },
                                            false, ["sign"]);
  const tiles = fullSet(rules.set), first = hand === 1;
  for (let attempt = 0; ; attempt += 1) {
    const shuffled = await shuffle(tiles, stream(key, message("deal", game, hand, attempt, playerSeeds)));
    const deal = [];
    for (let s = 0; s < rules.players; s += 1) {
      deal.push(shuffled.slice(s * rules.dealt, (s + 1) * rules.dealt));
    }
    if (redeals(rules, deal, first)) continue;
    let lots = null;
    if (byLots(rules, first)) {
      const order = await shuffle(tiles, stream(key, message("lots", game, hand, 0, playerSeeds)));
      const drawn = order.slice(0, rules.players);
      let leader = 0;
      drawn.forEach((t, s) => { if (heavier(t, drawn[leader])) leader = s; });
      lots = { drawn, leader };
    }
    return { deal, boneyard: shuffled.slice(rules.players * rules.dealt), lots,
             attempts: attempt + 1 };
  }
}
