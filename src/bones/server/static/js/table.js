// The table page: joins a seat (or watches), keeps one WebSocket to the server, and draws
// what the server says. It never decides a rule: the tiles it offers are the view's
// `legal` list, and every move is the server's to accept or refuse.

import { downloadRecord, findSeat, hashParams, keepSeat, localKey, messageId, post } from "./api.js";
import { byId, clear, el, problem, say, svg } from "./dom.js";
import { drawFair, showJoinFair } from "./fairtable.js";
import { lineImage, lineWords } from "./board.js";
import { tileImage } from "./tiles.js";

const state = {
  token: null, watch: null, invite: null, key: null,
  socket: null, seq: 0, fatal: false, retry: 1000, lost: false,
  you: null, table: null, status: null, view: null, ended: null, over: null, games: [],
  chosen: null, advice: null, deadline: null,
  drag: null, dragging: null, dragEnded: -Infinity, arrivals: new Map(), flyFrom: null,
};

// a move's tile slides into place this long (none where the reader asks for less motion)
const ARRIVE_MS = 220;
const calm = window.matchMedia("(prefers-reduced-motion: reduce)");

// -- names and words ------------------------------------------------------------------------

function nameOf(seat) {
  const seats = (state.status && state.status.seats) || [];
  const found = seats[seat];
  return found && found.name !== null ? found.name : `Seat ${seat + 1}`;
}

function sideName(side) {
  const sides = (state.table && state.table.sides) || [];
  return (sides[side] || [side]).map(nameOf).join(" & ");
}

function describe(move) {
  const who = nameOf(move.seat);
  if ("play" in move) return `${who} plays ${move.play}${move.end ? ` on the ${move.end}` : ""}.`;
  if ("draw" in move) return move.draw ? `${who} draws ${move.draw}.` : `${who} draws a tile.`;
  return `${who} passes.`;
}

function mySeat() {
  return state.you ? state.you.seat : null;
}

function myTurn() {
  const view = state.view;
  return view && mySeat() !== null && state.status.phase === "playing"
    && view.to_move === mySeat() && (view.legal || []).length > 0;
}

// -- talking to the server ------------------------------------------------------------------

function send(frame) {
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
    problem("Not connected; trying again.");
    return;
  }
  state.socket.send(JSON.stringify({ id: messageId(), ...frame }));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  state.socket = socket;
  socket.addEventListener("open", () => {
    const hello = state.token ? { type: "hello", token: state.token } : { type: "hello", watch: state.watch };
    if (state.view !== null || state.seq > 0) hello.last = state.seq;
    send(hello);
  });
  socket.addEventListener("message", (message) => {
    let frame;
    try { frame = JSON.parse(message.data); } catch { return; }
    receive(frame);
  });
  socket.addEventListener("close", () => {
    if (state.socket !== socket || state.fatal) return;
    // said until the server answers again (a restarted server has every acknowledged move)
    state.lost = true;
    problem("The connection to the table was lost; reconnecting…");
    setTimeout(connect, state.retry);
    state.retry = Math.min(15000, state.retry * 2);
  });
}

function receive(frame) {
  if (typeof frame.seq === "number") state.seq = Math.max(state.seq, frame.seq);
  if (frame.type === "error") {
    problem(frame.error);
    if (state.you === null) state.fatal = true; // the hello was refused: no use retrying
    return;
  }
  state.retry = 1000;
  if (state.lost) {
    state.lost = false;
    problem("");
  }
  if (frame.type === "state") {
    const first = state.status === null; // the page's first picture of the table
    Object.assign(state, { you: frame.you, table: frame.table, status: frame.status,
      view: frame.view, ended: frame.ended, over: frame.over, games: frame.games || [] });
    state.seq = frame.seq;
    problem("");
    if (first) sayWhereItStands();
  } else if (frame.type === "event") {
    const previousGame = state.status ? state.status.game : 0;
    state.status = frame.status;
    state.view = frame.view;
    if (frame.status.game !== previousGame) { state.over = null; state.ended = null; }
    happened(frame.event);
  } else if (frame.type === "status") {
    if (state.status && frame.status.game !== state.status.game) { state.over = null; state.ended = null; }
    state.status = frame.status;
  } else if (frame.type === "hint") {
    state.advice = frame;
  }
  timer();
  draw();
}

function happened(event) {
  state.advice = null;
  if (event.type === "hand_dealt") {
    state.ended = null;
    state.chosen = null;
    say(`Hand ${event.hand}: ${nameOf(event.leader)} leads.`);
  } else if (event.type === "moved") {
    state.chosen = null;
    if (event.move.play) arrive(event.move);
    say(describe(event.move) + (myTurn() ? " Your turn." : ""));
  } else if (event.type === "hand_ended") {
    state.ended = event;
    say(handEnd(event));
  } else if (event.type === "game_ended") {
    state.over = event;
    state.games = [...state.games.filter((g) => g.game !== state.status.game),
      { game: state.status.game, winner: event.winner, scores: event.scores, chips: event.chips }];
    say(gameEnd(event));
  } else if (event.type === "undone") {
    say(`${nameOf(event.seat)} took back ${event.tile}.`);
  }
}

function handEnd(ended) {
  const r = ended.result;
  return r.winner === null ? `Hand ${ended.hand} is blocked and tied.`
    : `Hand ${ended.hand} over: ${sideName(r.winner)} wins ${r.points[r.winner]} points.`;
}

function gameEnd(over) {
  return `The game is over: ${sideName(over.winner)} wins.`;
}

function sayWhereItStands() {
  // A page that comes to a table already under way (a seat taken last, so the hand was
  // dealt, and a bot and forced passes may even have ended it, before the page said hello;
  // a reload; a spectator) is told where it stands, as its moves would have told it.
  const { status, view } = state;
  if (state.over) say(gameEnd(state.over));
  else if (state.ended && state.ended.hand === status.hand) say(handEnd(state.ended));
  else if (view && status.phase === "playing") {
    say(`Hand ${status.hand}: ` + (myTurn() ? "your turn." : `${nameOf(view.to_move)} to play.`));
  }
}

// -- the timer ------------------------------------------------------------------------------

function timer() {
  const turn = state.status && state.status.turn;
  state.deadline = turn ? { at: performance.now() + turn.left * 1000, seat: turn.seat } : null;
}

function tick() {
  const line = byId("turn");
  if (!state.status || !line) return;
  const view = state.view;
  let text = "";
  if (state.status.phase === "seating") text = "Waiting for every seat to be taken.";
  else if (state.status.phase === "between") text = "The hand is over.";
  else if (state.status.phase === "over") text = "The game is over.";
  else if (view) text = view.to_move === mySeat() ? "Your turn." : `${nameOf(view.to_move)} to play.`;
  if (state.deadline) {
    const left = Math.max(0, Math.ceil((state.deadline.at - performance.now()) / 1000));
    text += state.deadline.seat === null ? ` Next hand in ${left} s.` : ` ${left} s left.`;
  }
  line.textContent = text;
}

// -- drawing --------------------------------------------------------------------------------

function draw() {
  if (!state.status || !state.table) return;
  byId("join").hidden = true;
  byId("play").hidden = false;
  drawHeading();
  drawSeats();
  drawBoard();
  drawHand();
  drawControls();
  drawEnded();
  drawOver();
  drawRecords();
  drawFair(state);
  drawLog();
  tick();
}

function scoresNow() {
  const view = state.view;
  if (!view) return null;
  const scores = [...view.scores];
  if (state.ended && state.ended.hand === state.status.hand) {
    state.ended.result.points.forEach((p, side) => { scores[side] += p; });
  }
  return scores;
}

function drawHeading() {
  const table = state.table;
  const rules = table.rules;
  const preset = rules.preset || "custom rules";
  const status = state.status;
  const scores = scoresNow();
  let title = `${preset}, ${table.players} players, game to ${table.target}`;
  if (status.game) title += ` · game ${status.game}, hand ${status.hand}`;
  if (scores) title += ` · ${scores.map((s, side) => `${sideName(side)} ${s}`).join(", ")}`;
  byId("title").textContent = title;
  const badges = [];
  if (table.practice) badges.push("practice table (undo allowed)");
  if (table.hints) badges.push("hints on");
  if (table.timer) badges.push(`${table.timer} s a turn`);
  if (mySeat() === null) badges.push("watching");
  byId("badges").textContent = badges.join(" · ");
}

function drawSeats() {
  const list = clear(byId("seats"));
  const view = state.view;
  const pool = state.table.pool;
  for (const seat of state.status.seats) {
    const s = seat.seat;
    const badges = [];
    if (seat.kind !== "human") badges.push(`bot: ${seat.kind}`);
    if (seat.open) badges.push("open");
    else if (seat.kind === "human" && !seat.connected) badges.push("offline");
    if (seat.away) badges.push("away");
    if (seat.ready && state.status.phase === "between") badges.push("ready");
    if (seat.rematch && state.status.phase === "over") badges.push("wants a rematch");
    if (state.table.partnerships) badges.push(`side ${seat.side + 1}`);
    const lines = [];
    if (view) lines.push(`${view.held[s]} ${view.held[s] === 1 ? "tile" : "tiles"}`);
    if (view && pool) lines.push(`chips ${state.status.carried[s] + view.chips[s]}`);
    const toMove = view && state.status.phase === "playing" && view.to_move === s;
    list.append(el("li", { class: `${toMove ? "to-move" : ""} ${s === mySeat() ? "you" : ""}` },
      el("span", { text: seat.open ? "(open seat)" : seat.name }),
      ...badges.map((b) => el("span", { class: "badge", text: b })),
      el("div", { class: "note", text: lines.join(" · ") })));
  }
}

// The board's width for the snake: the board's own, less its padding.
function boardWidth(board) {
  const style = getComputedStyle(board);
  const inner = board.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return Math.max(260, Math.floor(inner || 900));
}

// the tile whose open ends the board offers: the one being dragged, else the chosen one
function offeredMoves() {
  const tile = state.dragging || state.chosen;
  return tile && myTurn() ? legalFor(tile).filter((m) => m.end) : [];
}

function drawBoard() {
  const board = clear(byId("board"));
  const view = state.view;
  byId("yard").textContent = "";
  if (!view) return;
  const layout = view.layout;
  if (!layout.first) {
    board.append(el("p", { class: "note", text: "No tile on the table yet." }));
  } else {
    const width = boardWidth(board);
    const { image, laid, groups } = lineImage(layout, width);
    for (const move of offeredMoves()) {
      const zone = laid.ends[move.end];
      if (!zone) continue;
      // pointer targets only: the arm buttons under the hand say the same to everyone
      image.append(svg("rect", { class: "zone", x: zone.x, y: zone.y, width: zone.w, height: zone.h,
        rx: 4, "data-arm": move.end, "aria-hidden": "true", onclick: () => play(move) }));
    }
    board.append(image);
    board.append(el("p", { class: "visually-hidden", text: lineWords(layout) }));
    const ends = Object.entries(layout.arms).map(([arm, a]) => `${arm} ${a.open}`).join(", ");
    board.append(el("p", { class: "note", text: `Open ends: ${ends}` }));
    animate(image, groups, laid.unit);
  }
  const bits = [];
  if (state.table.draw) bits.push(`Boneyard: ${view.boneyard_left} tiles`);
  if (view.pool) bits.push(`Pool: ${view.pool} chips`);
  byId("yard").textContent = bits.join(" · ");
}

// -- a move's tile arriving -----------------------------------------------------------------

// Note a played tile, to slide it into place when the board is next drawn: from the hand
// when it was this seat's (from where it was dropped, or its button), else a short way in
// from further out along its arm.
function arrive(move) {
  const from = state.flyFrom && state.flyFrom.tile === move.play ? state.flyFrom : null;
  state.flyFrom = null;
  const [a, b] = move.play.split("-").map(Number);
  const tile = a >= b ? `${a}-${b}` : `${b}-${a}`;
  state.arrivals.set(tile, { at: performance.now(), from });
}

function animate(image, groups, unit) {
  const now = performance.now();
  for (const [tile, arrival] of state.arrivals) {
    const elapsed = now - arrival.at;
    const found = groups.get(tile);
    if (elapsed >= ARRIVE_MS || !found) { state.arrivals.delete(tile); continue; }
    if (calm.matches || typeof found.g.animate !== "function") continue;
    const { g, t } = found;
    let dx = 0;
    let dy = 0;
    if (arrival.from) {
      const box = image.getBoundingClientRect();
      dx = arrival.from.x - (box.left + t.x + t.w / 2);
      dy = arrival.from.y - (box.top + t.y + t.h / 2);
    } else {
      const way = { W: [-1, 0], E: [1, 0], N: [0, -1], S: [0, 1], middle: [0, -1] }[t.run] || [0, 0];
      dx = way[0] * unit * 0.8;
      dy = way[1] * unit * 0.8;
    }
    // an animation cut short by a redraw goes on from where it was (a negative delay)
    g.animate([{ transform: `translate(${dx}px, ${dy}px)`, opacity: arrival.from ? 0.6 : 0 },
      { transform: "translate(0, 0)", opacity: 1 }],
    { duration: ARRIVE_MS, delay: -elapsed, easing: "ease-out", fill: "backwards" });
  }
}

function legalFor(tile) {
  return ((state.view && state.view.legal) || []).filter((m) => m.play === tile);
}

// Send a play; `from` (a point on the screen) is where its tile was, to slide it from there.
function play(move, from = null) {
  if (!from) {
    const button = byId("hand").querySelector(`button[data-tile="${move.play}"]`);
    const box = button && button.getBoundingClientRect();
    if (box && box.width) from = { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  }
  state.flyFrom = from ? { tile: move.play, ...from } : null;
  send({ type: "move", move });
  state.chosen = null;
}

function choose(tile) {
  const options = legalFor(tile);
  if (!options.length || !myTurn()) return;
  if (performance.now() - state.dragEnded < 400) return; // the click that ends a drag
  if (options.length === 1) {
    play(options[0]);
    return;
  }
  state.chosen = tile;
  draw();
  const first = byId("arms").querySelector("button");
  if (first) first.focus();
}

function drawHand() {
  const area = byId("hand-area");
  const seat = mySeat();
  area.hidden = seat === null;
  if (seat === null) return;
  // The hand is drawn afresh with every frame: a keyboard player whose focus was in it keeps
  // it, on the same tile (or the same arm button) where that can still be pressed.
  const focus = heldFocus();
  const hand = clear(byId("hand"));
  const view = state.view;
  if (!view) return;
  const playable = new Set((view.legal || []).map((m) => m.play));
  const hinted = state.advice ? state.advice.move.play : null;
  view.hand.forEach((tile, index) => {
    const can = myTurn() && playable.has(tile);
    const label = `${tile}${can ? ", playable" : ""}${hinted === tile ? ", the hint" : ""}`;
    hand.append(el("button", {
      type: "button", class: `tile ${can ? "playable" : ""} ${state.chosen === tile ? "chosen" : ""}`,
      "aria-label": label, "data-index": index, "data-tile": tile, disabled: !can,
      onclick: () => choose(tile),
      onpointerdown: (event) => dragStart(event, tile),
    }, tileImage(tile, label)));
  });
  const arms = clear(byId("arms"));
  arms.hidden = !state.chosen;
  if (state.chosen) {
    arms.append(el("span", { text: `Play ${state.chosen} on: ` }));
    for (const option of legalFor(state.chosen)) {
      const shows = view.layout.arms[option.end] ? view.layout.arms[option.end].open : "?";
      arms.append(el("button", { type: "button", text: `${option.end} (shows ${shows})`,
        onclick: () => play(option) }), " ");
    }
    arms.append(el("button", { type: "button", text: "cancel (Esc)", onclick: () => { state.chosen = null; draw(); } }));
  }
  const advice = byId("advice");
  advice.textContent = state.advice && myTurn() ? `Hint: ${describe(state.advice.move)} ${state.advice.why}` : "";
  restoreFocus(focus);
}

// Where the keyboard's focus is, if in the hand or the arm buttons: what to give it back to.
function heldFocus() {
  const now = document.activeElement;
  if (!now) return null;
  if (byId("hand").contains(now)) return { tile: now.dataset ? now.dataset.tile : undefined };
  if (byId("arms").contains(now)) return { arm: Array.from(byId("arms").querySelectorAll("button")).indexOf(now) };
  return null;
}

function restoreFocus(focus) {
  if (!focus) return;
  const hand = byId("hand");
  const arms = Array.from(byId("arms").querySelectorAll("button"));
  const target = (focus.arm !== undefined && !byId("arms").hidden && arms[focus.arm])
    || (focus.tile && hand.querySelector(`button[data-tile="${focus.tile}"]:not([disabled])`))
    || hand.querySelector("button:not([disabled])");
  if (target) { target.focus({ preventScroll: true }); return; }
  hand.tabIndex = -1; // no tile can be pressed now: the focus waits on the hand itself
  hand.focus({ preventScroll: true });
}

// -- dragging a tile to an open end ----------------------------------------------------------

// A playable tile may be dragged (mouse, pen or finger: pointer events) onto the board: the
// open ends it fits light up, and dropping it on one (or on the board, nearest one) plays it
// there. A press that does not move is a click, as before.
function dragStart(event, tile) {
  if (!myTurn() || !legalFor(tile).length || (event.pointerType === "mouse" && event.button !== 0)) return;
  state.drag = { tile, id: event.pointerId, x0: event.clientX, y0: event.clientY, ghost: null };
  event.currentTarget.setPointerCapture(event.pointerId);
}

function dragMove(event) {
  const drag = state.drag;
  if (!drag || event.pointerId !== drag.id) return;
  if (!drag.ghost) {
    if (Math.hypot(event.clientX - drag.x0, event.clientY - drag.y0) < 8) return;
    drag.ghost = el("div", { class: "ghost", "aria-hidden": "true" }, tileImage(drag.tile));
    document.body.append(drag.ghost);
    state.dragging = drag.tile;
    drawBoard();
  }
  // under a mouse the tile follows the pointer; above a finger, so the finger hides no end
  const lift = event.pointerType === "touch" ? 56 : 14;
  drag.ghost.style.transform = `translate(${event.clientX - 28}px, ${event.clientY - lift}px)`;
  const over = dropAt(event.clientX, event.clientY);
  for (const zone of byId("board").querySelectorAll("rect.zone")) {
    zone.classList.toggle("over", Boolean(over) && zone.dataset.arm === over.end);
  }
}

function dragEnd(event) {
  const drag = state.drag;
  if (!drag || event.pointerId !== drag.id) return;
  state.drag = null;
  if (!drag.ghost) return; // a click
  drag.ghost.remove();
  const move = event.type === "pointerup" ? dropAt(event.clientX, event.clientY) : null;
  state.dragging = null;
  state.dragEnded = performance.now();
  if (move) play(move, { x: event.clientX, y: event.clientY });
  else drawBoard();
}

// The play a drop at (x, y) makes: on an open end's zone (a little beyond it for a finger),
// or anywhere on the board the nearest zone; off the board none.
function dropAt(x, y) {
  const moves = legalFor(state.dragging || "");
  const board = byId("board").getBoundingClientRect();
  const onBoard = x >= board.left && x <= board.right && y >= board.top && y <= board.bottom;
  if (!moves.length) return null;
  if (!moves[0].end) return onBoard ? moves[0] : null; // the lead
  let best = null;
  for (const zone of byId("board").querySelectorAll("rect.zone")) {
    const box = zone.getBoundingClientRect();
    const cx = box.left + box.width / 2;
    const cy = box.top + box.height / 2;
    const far = Math.max(0, Math.abs(x - cx) - box.width / 2) + Math.max(0, Math.abs(y - cy) - box.height / 2);
    const move = moves.find((m) => m.end === zone.dataset.arm);
    if (move && (!best || far < best.far)) best = { far, move };
  }
  return best && (best.far <= 16 || onBoard) ? best.move : null;
}

function drawControls() {
  const status = state.status;
  const seat = mySeat();
  const me = seat !== null ? status.seats[seat] : null;
  byId("hint").hidden = !(state.table.hints && myTurn());
  byId("undo").hidden = !(state.table.undo && myTurn());
  byId("back").hidden = !(me && me.away);
  byId("next").hidden = !(me && status.phase === "between" && !me.ready);
  byId("rematch").hidden = !(me && status.phase === "over" && !me.rematch);
}

function tilesCell(tiles) {
  return el("td", {}, ...tiles.map((t) => tileImage(t)));
}

function drawEnded() {
  const box = byId("ended");
  const ended = state.ended;
  box.hidden = !ended;
  if (!ended) return;
  const r = ended.result;
  const how = r.end === "out" ? `${sideName(r.winner)} went out` : "the hand is blocked";
  byId("ended-title").textContent = `Hand ${ended.hand}: ${how}` +
    (r.winner !== null ? `, ${sideName(r.winner)} scores ${r.points[r.winner]}` : ", no one scores");
  const table = clear(byId("ended-table"));
  table.append(el("tr", {}, el("th", { text: "Seat" }), el("th", { text: "Dealt" }),
    el("th", { text: "Held at the end" }), el("th", { text: "Count" }), el("th", { text: "Chips this hand" })));
  ended.deal.forEach((dealt, seat) => {
    table.append(el("tr", {}, el("td", { text: nameOf(seat) }), tilesCell(dealt), tilesCell(ended.held[seat]),
      el("td", { text: String(r.counts[seat]) }), el("td", { text: String(r.pool[seat]) })));
  });
}

function drawOver() {
  const box = byId("over");
  const over = state.over;
  box.hidden = !over;
  if (!over) return;
  byId("over-title").textContent = `${sideName(over.winner)} won the game (${over.scores.map((s, side) => `${sideName(side)} ${s}`).join(", ")})`;
  const ledger = clear(byId("ledger"));
  ledger.append(el("tr", {}, el("th", { text: "Seat" }), el("th", { text: "Chips before" }),
    el("th", { text: "This game" }), el("th", { text: "Total" })));
  over.chips.forEach((chips, seat) => {
    const before = state.status.carried[seat];
    ledger.append(el("tr", {}, el("td", { text: nameOf(seat) }), el("td", { text: String(before) }),
      el("td", { text: String(chips) }), el("td", { text: String(before + chips) })));
  });
}

function drawRecords() {
  const box = byId("records");
  box.hidden = !state.games.length;
  const list = clear(byId("record-list"));
  for (const game of state.games) {
    list.append(el("li", {}, `Game ${game.game}: ${sideName(game.winner)} won `,
      el("button", { type: "button", text: "Download the record",
        onclick: async () => {
          problem("");
          const who = state.token ? { token: state.token } : { watch: state.watch };
          try { await downloadRecord({ ...who, game: game.game }, `bones-game-${game.game}.json`); }
          catch (error) { problem(error.message); }
        } })));
  }
}

function drawLog() {
  const log = clear(byId("log"));
  const view = state.view;
  if (!view) return;
  for (const move of view.moves) log.append(el("li", { text: describe(move) }));
  log.scrollTop = log.scrollHeight;
}

// -- keys and buttons -----------------------------------------------------------------------

function keys(event) {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  if (key === "Escape" && state.drag) { dragEnd({ type: "pointercancel", pointerId: state.drag.id }); return; }
  if (key === "Escape" && state.chosen) { state.chosen = null; draw(); return; }
  if (key === "h" && !byId("hint").hidden) { send({ type: "hint" }); return; }
  if (key === "u" && !byId("undo").hidden) { send({ type: "undo" }); return; }
  if (key === "n" && !byId("next").hidden) { send({ type: "next" }); return; }
  if (/^[1-9]$/.test(key) && myTurn()) {
    const playable = Array.from(byId("hand").querySelectorAll("button.playable"));
    const pick = playable[Number(key) - 1];
    if (pick) { pick.focus(); pick.click(); }
    return;
  }
  if ((key === "ArrowRight" || key === "ArrowLeft") && byId("hand").contains(document.activeElement)) {
    const tiles = Array.from(byId("hand").querySelectorAll("button:not([disabled])"));
    const at = tiles.indexOf(document.activeElement);
    const next = at < 0 ? tiles[0] : tiles[(at + (key === "ArrowRight" ? 1 : tiles.length - 1)) % tiles.length];
    if (next) { next.focus(); event.preventDefault(); }
  }
}

function buttons() {
  byId("hint").addEventListener("click", () => send({ type: "hint" }));
  byId("undo").addEventListener("click", () => send({ type: "undo" }));
  byId("back").addEventListener("click", () => send({ type: "back" }));
  byId("next").addEventListener("click", () => send({ type: "next" }));
  byId("rematch").addEventListener("click", () => send({ type: "rematch" }));
  document.addEventListener("keydown", keys);
  document.addEventListener("pointermove", dragMove);
  document.addEventListener("pointerup", dragEnd);
  document.addEventListener("pointercancel", dragEnd);
  let pending = false;
  window.addEventListener("resize", () => { // the snake is laid for the board's width
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; drawBoard(); });
  });
  setInterval(tick, 250);
}

// -- joining ----------------------------------------------------------------------------------

function showLinks() {
  byId("links").hidden = false;
  if (state.token) byId("seat-link").value = new URL(`/table#seat=${state.token}`, location.origin).href;
  else byId("seat-link").parentElement.hidden = true;
  if (state.invite) {
    post("/api/table", { invite: state.invite }).then((info) => {
      byId("invite-line").hidden = false;
      byId("invite-link").value = new URL(info.links.join, location.origin).href;
      byId("watch-line").hidden = false;
      byId("watch-link").value = new URL(info.links.watch, location.origin).href;
    }).catch(() => {});
  }
}

async function showJoin(invite) {
  let info;
  try {
    info = await post("/api/table", { invite });
  } catch (error) {
    problem(error.message);
    return;
  }
  byId("join").hidden = false;
  const table = info.table;
  byId("join-rules").textContent = `${table.rules.preset || "custom rules"}, ${table.players} players, game to ${table.target}` +
    (table.partnerships ? ", partnerships (seats 1 and 3 against 2 and 4)" : "") +
    (table.practice ? ", a practice table" : "");
  showJoinFair(info);
  const seats = clear(byId("join-seats"));
  const choice = clear(byId("join-seat"));
  for (const seat of info.status.seats) {
    const who = seat.kind !== "human" ? `${seat.name} (bot: ${seat.kind})` : seat.open ? "open" : seat.name;
    seats.append(el("li", { text: who }));
    if (seat.open) choice.append(el("option", { value: String(seat.seat), text: `seat ${seat.seat + 1}` }));
  }
  if (!choice.options.length) {
    byId("join-form").hidden = true;
    seats.after(el("p", {}, "Every seat is taken. ", el("a", { href: info.links.watch, text: "Watch the table" })));
    return;
  }
  byId("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    problem("");
    try {
      const joined = await post("/api/join", { invite, name: byId("join-name").value, seat: Number(choice.value),
        seed_phrase: byId("join-phrase").value });
      const entry = keepSeat({ token: joined.token, invite, seat: joined.seat, name: joined.name, key: localKey() });
      state.token = entry.token;
      state.key = entry.key;
      byId("join").hidden = true;
      showLinks();
      connect();
    } catch (error) {
      problem(error.message);
    }
  });
  byId("join-name").focus();
}

function start() {
  buttons();
  const params = hashParams();
  if (params.has("seat")) {
    const token = params.get("seat");
    const entry = findSeat((s) => s.token === token) || keepSeat({ token, key: localKey() });
    history.replaceState(null, "", `/table#at=${entry.key}`); // the key stays out of sight
    Object.assign(state, { token, key: entry.key, invite: entry.invite || null });
  } else if (params.has("at")) {
    const entry = findSeat((s) => s.key === params.get("at"));
    if (!entry) { problem("This browser holds no seat for that link."); return; }
    Object.assign(state, { token: entry.token, key: entry.key, invite: entry.invite || null });
  } else if (params.has("join")) {
    const invite = params.get("join");
    const entry = findSeat((s) => s.invite === invite);
    state.invite = invite;
    if (!entry) { showJoin(invite); return; }
    Object.assign(state, { token: entry.token, key: entry.key });
  } else if (params.has("watch")) {
    state.watch = params.get("watch");
  } else {
    problem("This link names no table: open an invite or spectator link.");
    return;
  }
  if (state.token) showLinks();
  connect();
}

start();
