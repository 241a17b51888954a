// The replay viewer: a finished game (one this browser played, by its seat's key, or an
// uploaded record) move by move, every hand open, with the review of costly plays beside
// it. The server checks the record and sends the board after every move; this page only
// steps through what it was sent (it decides no rule), and asks for the review one hand
// at a time, filling it in as each arrives.

import { findSeat, hashParams, post } from "./api.js";
import { byId, clear, el, problem, say } from "./dom.js";
import { lineImage, lineWords } from "./board.js";
import { tileImage } from "./tiles.js";

const MAX_RECORD = 1 << 20; // the server's limit (bones.server.replay.MAX_RECORD)

const state = {
  source: null, // what the server is asked with: { record } or { token | watch, game }
  replay: null, // /api/replay's answer
  hand: 0, // the hand shown, from 0
  at: 0, // the moves made in it: 0 is the hand as dealt
  reviews: new Map(), // hand (from 0) -> the review, or { error }
  load: 0, // which opening the reviews being fetched belong to
};

// -- words ----------------------------------------------------------------------------------

function nameOf(seat) {
  const names = state.replay ? state.replay.table.names : [];
  return names[seat] ?? `seat ${seat}`;
}

function sideName(side) {
  const sides = state.replay.table.sides;
  return (sides[side] || [side]).map(nameOf).join(" & ");
}

function describe(move) {
  const who = nameOf(move.seat);
  if ("play" in move) return move.end ? `${who} plays ${move.play} on the ${move.end}` : `${who} sets ${move.play}`;
  if ("draw" in move) return `${who} draws ${move.draw}`;
  return `${who} passes`;
}

function outcome(hand) {
  const r = hand.result;
  if (r.end === "unfinished") return "The hand was not finished.";
  const how = r.end === "out" ? `${nameOf(hand.steps[hand.steps.length - 1].move.seat)} went out` : "The hand is blocked";
  const who = r.winner === null ? "no one scores" : `${sideName(r.winner)} scores ${r.points[r.winner]}`;
  const scores = hand.scores.map((s, side) => `${sideName(side)} ${s}`).join(", ");
  return `${how}: ${who}. Scores: ${scores}.`;
}

// -- where we are ----------------------------------------------------------------------------

function currentHand() {
  return state.replay.hands[state.hand];
}

function moment() {
  const hand = currentHand();
  return state.at === 0 ? hand.start : hand.steps[state.at - 1];
}

function go(hand, at, announce = true) {
  const hands = state.replay.hands;
  hand = Math.max(0, Math.min(hands.length - 1, hand));
  at = Math.max(0, Math.min(hands[hand].steps.length, at));
  if (hand === state.hand && at === state.at && announce) return;
  state.hand = hand;
  state.at = at;
  draw();
  if (announce) say(spoken());
}

function step(by) {
  const hands = state.replay.hands;
  const moves = currentHand().steps.length;
  if (by > 0 && state.at >= moves && state.hand < hands.length - 1) go(state.hand + 1, 0);
  else if (by < 0 && state.at === 0 && state.hand > 0) go(state.hand - 1, hands[state.hand - 1].steps.length);
  else go(state.hand, state.at + by);
}

function spoken() {
  const hand = currentHand();
  const head = `Hand ${state.hand + 1}`;
  if (state.at === 0) return `${head}, as dealt: ${nameOf(hand.leader)} leads.`;
  const move = hand.steps[state.at - 1].move;
  const tail = state.at === hand.steps.length ? ` ${outcome(hand)}` : "";
  return `${head}, move ${state.at} of ${hand.steps.length}: ${describe(move)}.${tail}`;
}

// -- drawing --------------------------------------------------------------------------------

function draw() {
  const replay = state.replay;
  const hand = currentHand();
  const now = moment();
  byId("hand").value = String(state.hand);
  byId("where").textContent = state.at === 0 ? `as dealt, ${hand.steps.length} moves`
    : `move ${state.at} of ${hand.steps.length}`;
  byId("first").disabled = byId("prev").disabled = state.hand === 0 && state.at === 0;
  byId("last").disabled = byId("next").disabled = state.hand === replay.hands.length - 1 && state.at === hand.steps.length;
  drawBoard(now);
  const yard = [];
  if (replay.table.draw || hand.boneyard.length) {
    const left = hand.boneyard.slice(hand.boneyard.length - now.boneyard_left);
    yard.push(`Boneyard: ${now.boneyard_left} tiles${left.length ? ` (${left.join(" ")})` : ""}`);
  }
  byId("yard").textContent = yard.join(" · ");
  byId("outcome").textContent = state.at === hand.steps.length ? outcome(hand) : "";
  drawSeats(now);
  drawMoves(hand);
  drawReview();
}

function drawBoard(now) {
  const board = clear(byId("board"));
  const layout = now.layout;
  if (!layout.first) {
    board.append(el("p", { class: "note", text: "No tile on the table yet." }));
    return;
  }
  const width = Math.max(200, Math.min(board.clientWidth || 900, 1100) - 20);
  board.append(lineImage(layout, width).image);
  board.append(el("p", { class: "visually-hidden", text: lineWords(layout) }));
  const ends = Object.entries(layout.arms).map(([arm, a]) => `${arm} ${a.open}`).join(", ");
  board.append(el("p", { class: "note", text: `Open ends: ${ends}` }));
}

function drawSeats(now) {
  const list = clear(byId("seats"));
  const table = state.replay.table;
  now.held.forEach((tiles, seat) => {
    const badges = [];
    if (table.partnerships) badges.push(`side ${table.sides.findIndex((s) => s.includes(seat)) + 1}`);
    if (now.to_move === seat) badges.push("to move");
    list.append(el("li", { class: now.to_move === seat ? "to-move" : "" },
      el("span", { text: nameOf(seat) }),
      ...badges.map((b) => el("span", { class: "badge", text: b })),
      el("div", { class: "note", text: `${tiles.length} tile${tiles.length === 1 ? "" : "s"}` }),
      el("div", { class: "held", role: "group", "aria-label": `${nameOf(seat)}'s tiles` },
        ...tiles.map((t) => tileImage(t)))));
  });
}

function drawMoves(hand) {
  const list = clear(byId("moves"));
  const entry = (at, text) => {
    const item = el("li", { class: at === state.at ? "current" : "" },
      el("button", { type: "button", text, onclick: () => go(state.hand, at) }));
    if (at === state.at) item.setAttribute("aria-current", "step");
    return item;
  };
  list.append(entry(0, `Dealt: ${nameOf(hand.leader)} leads`));
  hand.steps.forEach((s, i) => list.append(entry(i + 1, describe(s.move))));
  const current = list.querySelector("li.current");
  if (current) {
    // keep the current move in sight inside the list, without scrolling the page
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }
}

function drawReview() {
  const box = clear(byId("review"));
  const note = byId("review-note");
  const found = state.reviews.get(state.hand);
  if (!found) {
    note.textContent = "Reviewing this hand (an exact solve of the open deal; it takes a few seconds)…";
    return;
  }
  if (found.error) {
    note.textContent = `No review: ${found.error}`;
    return;
  }
  if (!found.reviewed) {
    note.textContent = found.why;
    return;
  }
  note.textContent = `Each seat's costliest plays, worst first: ${found.legend}.`;
  for (const row of found.seats) {
    box.append(el("h4", { text: nameOf(row.seat) }));
    if (!row.mistakes.length) {
      box.append(el("p", { class: "note", text: "No play could have done better." }));
    } else {
      box.append(el("ul", {}, ...row.mistakes.map((m) => el("li", { class: m.move === state.at ? "current" : "" },
        el("button", { type: "button", text: m.text, onclick: () => go(state.hand, m.move) })))));
    }
    if (row.skipped_text) box.append(el("p", { class: "note", text: `(${row.skipped_text})` }));
  }
}

function fillHands() {
  const select = clear(byId("hand"));
  state.replay.hands.forEach((hand, i) => {
    const r = hand.result;
    const what = r.end === "unfinished" ? "unfinished" : r.winner === null ? "tied" : `${sideName(r.winner)} +${r.points[r.winner]}`;
    select.append(el("option", { value: String(i), text: `${i + 1} (${what})` }));
  });
}

function heading() {
  const replay = state.replay;
  const table = replay.table;
  const rules = table.rules.preset || "custom rules";
  const sides = table.sides.map((_, side) => sideName(side)).join(" vs ");
  byId("title").textContent = `${sides}`;
  const result = replay.winner === null ? "not finished"
    : `${sideName(replay.winner)} won, ${replay.scores.map((s, side) => `${sideName(side)} ${s}`).join(", ")}`;
  byId("subtitle").textContent = `${rules}, ${table.players} players, game to ${table.target}; ${result}.`;
}

// -- the server -------------------------------------------------------------------------------

async function open(source) {
  problem("");
  let answer;
  try {
    answer = await post("/api/replay", source);
  } catch (error) {
    problem(error.message);
    return;
  }
  state.load += 1;
  Object.assign(state, { source, replay: answer, hand: 0, at: 0, reviews: new Map() });
  byId("viewer").hidden = false;
  byId("open").open = false;
  heading();
  fillHands();
  draw();
  say(spoken());
  reviewAll(state.load);
}

// Every hand's review, one request at a time: the hand shown first, then the others.
async function reviewAll(load) {
  const count = state.replay.hands.length;
  while (load === state.load) {
    let next = state.hand;
    if (state.reviews.has(next)) {
      next = [...Array(count).keys()].find((h) => !state.reviews.has(h));
      if (next === undefined) return;
    }
    let found;
    for (let tries = 1; ; tries++) {
      try {
        found = await post("/api/review", { ...state.source, hand: next + 1 });
        break;
      } catch (error) {
        found = { error: error.message };
        // the server was busy (503) or this address asked too often (429): wait, ask again
        if (tries >= 5 || !/busy|too many requests/.test(error.message)) break;
        await new Promise((resolve) => setTimeout(resolve, 2000 * tries));
        if (load !== state.load) return;
      }
    }
    if (load !== state.load) return;
    state.reviews.set(next, found);
    if (next === state.hand) drawReview();
  }
}

async function upload(text) {
  if (new TextEncoder().encode(text).length > MAX_RECORD) {
    problem("That record is larger than 1 MiB, the most this page replays; bones replay reads it.");
    return;
  }
  await open({ record: text });
}

// -- keys and buttons -----------------------------------------------------------------------

function keys(event) {
  if (!state.replay) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement
      || target instanceof HTMLSelectElement) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const moves = currentHand().steps.length;
  const actions = {
    ArrowRight: () => step(1),
    ArrowLeft: () => step(-1),
    Home: () => go(state.hand, 0),
    End: () => go(state.hand, moves),
    PageDown: () => go(state.hand + 1, 0),
    PageUp: () => go(state.hand - 1, 0),
  };
  const action = actions[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
}

function start() {
  // first and last: the hand's start or end; pressed there, the hand before's or after's
  byId("first").addEventListener("click", () => go(state.at > 0 ? state.hand : state.hand - 1, 0));
  byId("prev").addEventListener("click", () => step(-1));
  byId("next").addEventListener("click", () => step(1));
  byId("last").addEventListener("click", () => {
    const hands = state.replay.hands;
    const end = state.at === currentHand().steps.length && state.hand < hands.length - 1 ? state.hand + 1 : state.hand;
    go(end, hands[end].steps.length);
  });
  byId("hand").addEventListener("change", (event) => go(Number(event.target.value), 0));
  byId("file").addEventListener("change", async (event) => {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    if (file.size > MAX_RECORD) {
      problem("That record is larger than 1 MiB, the most this page replays; bones replay reads it.");
      return;
    }
    await upload(await file.text());
  });
  byId("paste-go").addEventListener("click", () => upload(byId("paste").value));
  document.addEventListener("keydown", keys);
  window.addEventListener("resize", () => { if (state.replay) drawBoard(moment()); });

  const params = hashParams();
  const game = Number(params.get("game"));
  if (params.has("at") && game) {
    // a game from "My games": the seat's key names its token in this browser's storage
    const entry = findSeat((s) => s.key === params.get("at"));
    if (!entry) { problem("This browser holds no seat for that link."); return; }
    open({ token: entry.token, game });
  } else if (params.has("watch") && game) {
    open({ watch: params.get("watch"), game });
  }
}

start();
