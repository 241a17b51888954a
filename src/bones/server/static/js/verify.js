// "Check the deals": a fair game's record (its x-fair: the commitment, the players' seeds
// and the revealed server seed) checked here, in the browser, with the derivation of
// fair.js (Web Crypto). Every hand's deal, boneyard order and lots are dealt again and
// compared with the record, in the same order and the same words as `bones verify`, so the
// page and the command line name the same fault. The server's code decides nothing here:
// it only hands over the record (from a game at a table this browser sits at or watches)
// and the presets' option values (`/api/rules`, the data of `bones rules --json`).

import { commitment, fairDeal } from "./fair.js";

const SCHEME = "bones-fair/1";
const FIELD = "x-fair";
const LARGEST = 2 ** 32 - 1;
const HEX64 = /^[0-9a-f]{64}$/;
const POOL_UNDEALT = 8;

export class CheckError extends Error {}

const counted = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function tile(text) {
  const found = typeof text === "string" && /^(\d+)-(\d+)$/.exec(text);
  if (!found) throw new CheckError(`${JSON.stringify(text)} is not a tile`);
  const [a, b] = [Number(found[1]), Number(found[2])];
  return `${Math.max(a, b)}-${Math.min(a, b)}`;
}

// The rules as the derivation reads them, resolved as bones's engine resolves a record's
// rules: the preset's options (from the catalog), the record's overrides, the hand size.
export function resolveRules(value, players, catalog) {
  const data = typeof value === "string" ? { preset: value }
    : Object.fromEntries(Object.entries(value || {}).filter(([k]) => !k.startsWith("x-")));
  const name = data.preset === undefined ? "block" : data.preset;
  const preset = catalog.presets.find((p) => p.preset === name);
  if (!preset) throw new CheckError(`the rules name the preset ${JSON.stringify(name)}, which this page does not know`);
  const rules = { ...preset.options, ...data };
  if (rules.players === undefined) rules.players = players;
  const tiles = (rules.set + 1) * (rules.set + 2) / 2;
  let dealt = rules.hand_size;
  if (dealt === "standard") dealt = rules.players === 2 ? 7 : 5;
  else if (dealt === "pool") dealt = Math.floor((tiles - POOL_UNDEALT) / rules.players);
  return { set: rules.set, players: rules.players, dealt, opening: rules.opening,
           no_double: rules.no_double, lead: rules.lead, next_lead: rules.next_lead };
}

// A record's x-fair, read as bones.table.fair.read_fair reads it.
export function readFair(value) {
  const where = FIELD;
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new CheckError(`${where} must be an object`);
  const known = ["scheme", "commitment", "game", "player_seeds", "server_seed"];
  for (const key of Object.keys(value)) {
    if (!known.includes(key) && !key.startsWith("x-")) throw new CheckError(`${where}: unknown field "${key}"`);
  }
  for (const key of known.slice(0, 4)) {
    if (!(key in value)) throw new CheckError(`${where}: the "${key}" field is missing`);
  }
  if (value.scheme !== SCHEME) throw new CheckError(`${where}: "scheme" is ${JSON.stringify(value.scheme)}; this page checks "${SCHEME}" only`);
  if (typeof value.commitment !== "string" || !HEX64.test(value.commitment)) {
    throw new CheckError(`${where}: "commitment" must be 64 lowercase hexadecimal digits`);
  }
  if (!Number.isInteger(value.game) || value.game < 0 || value.game > LARGEST) {
    throw new CheckError(`${where}: "game" must be a whole number from 0 to ${LARGEST}`);
  }
  if (!Array.isArray(value.player_seeds) || !value.player_seeds.every((s) => typeof s === "string")) {
    throw new CheckError(`${where}: "player_seeds" must be a list of strings, one per seat`);
  }
  const revealed = value.server_seed;
  if (revealed !== undefined && revealed !== null && (typeof revealed !== "string" || !HEX64.test(revealed))) {
    throw new CheckError(`${where}: "server_seed" must be 64 lowercase hexadecimal digits (32 bytes)`);
  }
  return { commitment: value.commitment, game: value.game, playerSeeds: value.player_seeds,
           serverSeed: revealed ? Uint8Array.from(revealed.match(/../g), (h) => parseInt(h, 16)) : null };
}

// What is wrong with one hand as recorded (null: nothing), as bones.table.fair.check_hand
// says it.
export function checkHand(number, dealt, deal, boneyard, leader) {
  const where = `hand ${number}`;
  const wrong = `${where}: the deal is not the one the seeds give`;
  if (deal.length !== dealt.deal.length) return `${wrong}: it has ${deal.length} hands for ${dealt.deal.length} seats`;
  for (let seat = 0; seat < deal.length; seat += 1) {
    const held = deal[seat], given = dealt.deal[seat];
    for (const t of given) if (!held.includes(t)) return `${wrong}: seat ${seat} should hold ${t}`;
    for (const t of held) if (!given.includes(t)) return `${wrong}: seat ${seat} should not hold ${t}`;
    if (held.length !== given.length) return `${wrong}: seat ${seat} should hold ${given.length} tiles, not ${held.length}`;
  }
  for (let i = 0; i < Math.min(boneyard.length, dealt.boneyard.length); i += 1) {
    if (boneyard[i] !== dealt.boneyard[i]) {
      return `${where}: the boneyard is not in the order the seeds give: tile ${i + 1} should be ${dealt.boneyard[i]}, not ${boneyard[i]}`;
    }
  }
  if (boneyard.length !== dealt.boneyard.length) {
    return `${where}: the boneyard is not the one the seeds give: it should hold ${dealt.boneyard.length} tiles, not ${boneyard.length}`;
  }
  if (dealt.lots !== null && leader !== dealt.lots.leader) {
    const named = leader === null || leader === undefined ? "names no leader" : `names seat ${leader}`;
    return `${where}: the lots the seeds give put seat ${dealt.lots.leader} in the lead (drawing ${dealt.lots.drawn.join(", ")}), but the record ${named}`;
  }
  return null;
}

// The whole check of a record (a parsed JSON object): { ok, lines, error, hand } where
// `lines` are what bones verify prints before its replay, `error` the first fault in its
// words (without "bones: "), `hand` the hand it names (null for a fault of the seed).
export async function checkRecord(doc, catalog, name = "FILE") {
  const lines = [];
  const fail = (error, hand = null) => ({ ok: false, lines, error, hand });
  try {
    if (doc === null || typeof doc !== "object" || !Array.isArray(doc.players) || !Array.isArray(doc.hands)) {
      return fail(`${name} is not a bones record (no players or hands)`);
    }
    if (doc[FIELD] === undefined || doc[FIELD] === null) {
      return fail(`${name} has no ${FIELD}: its deals were not dealt to be checked (bones play --fair deals such games)`);
    }
    const fair = readFair(doc[FIELD]);
    if (fair.serverSeed === null) {
      return fail(`${FIELD} holds no revealed server seed: the game is not over (the seed is revealed when the game ends or is left)`);
    }
    const found = await commitment(fair.serverSeed);
    if (found !== fair.commitment) {
      return fail(`the revealed server seed does not match the commitment: its SHA-256 is ${found}, the commitment ${fair.commitment}`);
    }
    const rules = resolveRules(doc.rules, doc.players.length, catalog);
    if (fair.playerSeeds.length !== rules.players) {
      return fail(`${FIELD}: ${counted(fair.playerSeeds.length, "player seed")} for ${rules.players} players`);
    }
    lines.push(`the revealed seed matches the commitment ${fair.commitment}`);
    for (const [index, hand] of doc.hands.entries()) {
      const number = index + 1;
      const dealt = await fairDeal(rules, fair.serverSeed, fair.playerSeeds, fair.game, number);
      let wrong;
      try {
        wrong = checkHand(number, dealt, hand.deal.map((h) => h.map(tile)), hand.boneyard.map(tile),
                          hand.leader === undefined ? null : hand.leader);
      } catch (error) {
        return fail(`hand ${number}: ${error.message}`, number);
      }
      if (wrong !== null) return fail(wrong, number);
      const notes = [];
      if (dealt.attempts > 1) notes.push(`redealt ${counted(dealt.attempts - 1, "time")}`);
      if (dealt.lots !== null) notes.push(`lots: seat ${dealt.lots.leader} leads, drawing ${dealt.lots.drawn[dealt.lots.leader]}`);
      lines.push(`hand ${number}: dealt as the seeds give${notes.length ? ` (${notes.join("; ")})` : ""}`);
    }
    const hands = doc.hands.length;
    const every = hands === 0 ? "the record holds no hand yet"
      : `${hands === 1 ? "the 1 hand was" : `all ${hands} hands were`} dealt as the seeds give`;
    lines.push(`verified: ${every}`);
    return { ok: true, lines, error: null, hand: null };
  } catch (error) {
    if (error instanceof CheckError) return fail(error.message);
    return fail(`${name} cannot be checked: ${error.message}`);
  }
}

// -- the page ---------------------------------------------------------------------------------

async function page() {
  const { byId, clear, el, problem } = await import("./dom.js");
  const { findSeat, getJson, hashParams } = await import("./api.js");
  let catalog = null;
  let loaded = null;

  const show = async (text, name) => {
    problem("");
    let doc;
    try { doc = JSON.parse(text); } catch (error) { problem(`${name} is not JSON: ${error.message}`); return; }
    catalog = catalog || await getJson("/api/rules").then((a) => a.catalog);
    const result = await checkRecord(doc, catalog, name);
    loaded = { text, name };
    const box = byId("result");
    box.hidden = false;
    box.dataset.ok = String(result.ok);
    box.dataset.hand = result.hand === null ? "" : String(result.hand);
    byId("verdict").textContent = result.ok ? "The deals are the ones the seeds give" : "The deals do not check out";
    const list = clear(byId("lines"));
    for (const line of result.lines) list.append(el("li", { text: line }));
    if (!result.ok) list.append(el("li", { class: "problem", id: "fault", text: result.error }));
    byId("command").textContent = `bones verify ${name}`;
    byId("save").hidden = false;
  };

  byId("load-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = byId("record-file").files[0];
    if (file) await show(await file.text(), file.name);
    else if (byId("record-text").value.trim()) await show(byId("record-text").value, "FILE");
    else problem("Choose a record file, or paste one.");
  });
  byId("save").addEventListener("click", () => {
    if (!loaded) return;
    const url = URL.createObjectURL(new Blob([loaded.text], { type: "application/json" }));
    const link = el("a", { href: url, download: loaded.name === "FILE" ? "record.json" : loaded.name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  });

  // a link from the table: #at=KEY (a seat this browser holds) or #watch=TOKEN, and game=N
  const params = hashParams();
  const game = Number(params.get("game"));
  let who = null;
  if (params.has("at")) {
    const entry = findSeat((s) => s.key === params.get("at"));
    if (entry) who = { token: entry.token };
    else problem("This browser holds no seat for that link.");
  } else if (params.has("watch")) {
    who = { watch: params.get("watch") };
  }
  if (who && Number.isInteger(game) && game > 0) {
    try {
      const answer = await fetch("/api/record", { method: "POST", headers: { "content-type": "application/json" },
                                                  body: JSON.stringify({ ...who, game }) });
      const text = await answer.text();
      if (!answer.ok) {
        let reason = `the server answered ${answer.status}`;
        try { reason = JSON.parse(text).error || reason; } catch { /* not JSON */ }
        problem(reason);
        return;
      }
      const name = (/filename="([^"]+)"/.exec(answer.headers.get("content-disposition") || "") || [])[1] || `bones-game-${game}.json`;
      byId("record-text").value = text;
      await show(text, name);
    } catch (error) {
      problem(error.message);
    }
  }
}

if (typeof document !== "undefined" && document.getElementById("verify")) page();
