// My games: every game played at the seats this browser holds, found by their tokens, and
// each finished game's record to download.

import { downloadRecord, mySeats, post } from "./api.js";
import { byId, el, problem } from "./dom.js";

function sideName(game, side) {
  const names = (game.names || []).map((n) => n ?? "(open)");
  const partners = game.rules && game.rules.partnerships === true;
  return partners ? `${names[side]} & ${names[side + 2]}` : names[side];
}

function result(game) {
  if (!game.result) return "in play";
  const scores = game.result.scores.map((points, side) => `${sideName(game, side)} ${points}`);
  return `${sideName(game, game.result.winner)} won (${scores.join(", ")})`;
}

async function start() {
  const seats = mySeats();
  const body = byId("list").querySelector("tbody");
  if (!seats.length) {
    body.append(el("tr", {}, el("td", { colspan: 5, text: "This browser holds no seat yet." })));
    return;
  }
  let answer;
  try {
    answer = await post("/api/games", { tokens: seats.map((s) => s.token) });
  } catch (error) {
    problem(error.message);
    return;
  }
  if (!answer.games.length) {
    body.append(el("tr", {}, el("td", { colspan: 5, text: "No game has started at your seats yet." })));
  }
  for (const game of answer.games) {
    const seat = seats[game.token];
    const open = el("a", { href: `/table#at=${encodeURIComponent(seat.key || "")}`, text: "open" });
    const button = game.result ? el("button", {
      type: "button", text: "Download",
      onclick: async () => {
        problem("");
        try {
          await downloadRecord({ token: seat.token, game: game.game }, `bones-game-${game.game}.json`);
        } catch (error) { problem(error.message); }
      },
    }) : el("span", { text: "when it is over" });
    // the replay page finds the seat's token by its key, as the table page does
    const replay = game.result ? el("a", {
      href: `/replay#at=${encodeURIComponent(seat.key || "")}&game=${game.game}`, text: "Replay",
    }) : null;
    body.append(el("tr", {},
      el("td", {}, open),
      el("td", { text: String(game.game) }),
      el("td", { text: (game.names || []).map((n) => n ?? "(open)").join(", ") }),
      el("td", { text: result(game) }),
      el("td", {}, button, replay ? " " : null, replay)));
  }
}

start();
