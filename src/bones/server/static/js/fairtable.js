// The fair deals at the table page: the seed phrase asked for when joining (a random one
// offered), the commitment shown before the first deal, and at the game's end the revealed
// seed, a link to "check the deals" in this browser, and the command that checks offline.

import { byId, clear, el } from "./dom.js";

// A random seed phrase to offer: 16 random bytes as four groups of hexadecimal digits.
export function randomPhrase() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return hex.match(/.{8}/g).join("-");
}

// The join form: the commitment of the game to come, and a phrase field filled in.
export function showJoinFair(info) {
  const fair = info.status.fair;
  const box = byId("join-fair");
  if (!fair) { box.hidden = true; byId("join-phrase").closest("label").hidden = true; return; }
  box.hidden = false;
  clear(box).append("Fair deals: before you give your seed phrase, the table has committed to its secret seed (SHA-256) ",
    el("code", { id: "join-commitment", text: fair.commitment }),
    ". Your phrase is mixed into every deal; the secret seed is shown when the game ends, and anyone can check every deal then.");
  const input = byId("join-phrase");
  if (!input.value) input.value = randomPhrase();
}

// The fair deals' part of the table page, drawn from the status.
export function drawFair(state) {
  const box = byId("fair");
  const fair = state.status && state.status.fair;
  box.hidden = !fair;
  if (!fair) return;
  const list = clear(byId("fair-lines"));
  list.append(el("li", {}, `Game ${fair.game}: commitment `, el("code", { id: "fair-commitment", text: fair.commitment })));
  if (fair.player_seeds) {
    const names = state.status.seats.map((s) => s.name || `Seat ${s.seat + 1}`);
    const given = fair.player_seeds.map((p, seat) => `${names[seat]}: ${p === "" ? "(none)" : JSON.stringify(p)}`);
    list.append(el("li", { text: `Players' seeds: ${given.join(", ")}` }));
  }
  if (fair.server_seed) {
    list.append(el("li", {}, "The secret seed was ", el("code", { id: "fair-seed", text: fair.server_seed })));
    const where = state.token ? `at=${encodeURIComponent(state.key || "")}` : `watch=${encodeURIComponent(state.watch || "")}`;
    list.append(el("li", {}, el("a", { id: "fair-check", href: `/verify#${where}&game=${fair.game}`, target: "_blank",
      text: "Check the deals in this browser" }), " or, with the record downloaded, ",
      el("code", { text: `bones verify bones-game-${fair.game}.json` })));
    if (fair.next_commitment) {
      list.append(el("li", {}, `A rematch (game ${fair.game + 1}) is committed to `, el("code", { text: fair.next_commitment })));
    }
  }
}
