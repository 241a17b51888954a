// The lobby: a form built from the server's rules catalog (`bones rules --json`'s data), so
// every preset and option the engine knows is offered, and nothing else. The server (the
// engine) judges the combination; its one-line reason is shown as it comes.

import { getJson, post } from "./api.js";
import { byId, clear, el, problem } from "./dom.js";

let catalog = null;
let limits = null;
let levels = [];

function presetOf(name) {
  return catalog.presets.find((p) => p.preset === name);
}

function optionControl(option) {
  const id = `opt-${option.name}`;
  const choices = option.choices || [];
  const isFlag = choices.length === 2 && choices[0] === false && choices[1] === true;
  let control;
  if (isFlag) {
    control = el("input", { id, type: "checkbox" });
  } else if (option.least === null) {
    control = el("select", { id }, ...choices.map((c) => el("option", { value: JSON.stringify(c), text: String(c) })));
  } else {
    // a number, or one of the named values
    const list = el("datalist", { id: `${id}-words` }, ...choices.map((c) => el("option", { value: String(c) })));
    control = el("span", {}, el("input", { id, type: "text", inputmode: "numeric", list: `${id}-words`, size: 9 }), list);
  }
  return el("label", { for: id }, `${option.name} `, control,
    el("span", { class: "meaning", text: `${option.meaning} (${option.values})` }));
}

function readOption(option) {
  const node = byId(`opt-${option.name}`);
  const choices = option.choices || [];
  if (node.type === "checkbox") return node.checked;
  if (option.least === null) return JSON.parse(node.value);
  const text = node.value.trim();
  if (/^[+-]?[0-9]+$/.test(text)) return Number(text);
  return text; // a word ("pagat", "standard", "pool"), or a mistake the server will name
}

function showPreset() {
  const chosen = presetOf(byId("preset").value);
  byId("preset-source").textContent = chosen.source || "";
  for (const option of catalog.options) {
    if (option.name === "players") continue;
    const node = byId(`opt-${option.name}`);
    const value = chosen.options[option.name];
    if (node.type === "checkbox") node.checked = Boolean(value);
    else node.value = option.least === null ? JSON.stringify(value) : String(value);
  }
  showSides();
}

function seatChoice(index) {
  const select = el("select", { id: `seat-${index}`, "aria-label": `seat ${index + 1}` },
    el("option", { value: "human", text: "a person (open seat)" }),
    ...levels.map((level) => el("option", { value: level, text: `bot: ${level}` })));
  select.value = index === 0 ? "human" : "greedy";
  return el("li", {}, select);
}

function showSeats() {
  const count = Math.max(2, Math.min(limits.players, Number(byId("players").value) || 2));
  const list = byId("seats");
  const kept = Array.from(list.querySelectorAll("select"), (s) => s.value);
  clear(list);
  for (let i = 0; i < count; i++) {
    const item = seatChoice(i);
    if (kept[i]) item.querySelector("select").value = kept[i];
    list.append(item);
  }
  showSides();
}

function showSides() {
  const partners = byId("opt-partnerships");
  byId("sides").textContent = partners && partners.checked
    ? "Partnerships: seats 1 and 3 play against seats 2 and 4." : "Every seat plays for itself.";
}

function request() {
  const preset = presetOf(byId("preset").value);
  const rules = { preset: preset.preset };
  for (const option of catalog.options) {
    if (option.name === "players") continue;
    const value = readOption(option);
    if (value !== preset.options[option.name]) rules[option.name] = value;
  }
  const seats = Array.from(byId("seats").querySelectorAll("select"), (s) => s.value);
  rules.players = seats.length;
  const timer = byId("timer").value.trim();
  return {
    rules, seats,
    think: Number(byId("think").value),
    timer: timer === "" ? null : Number(timer),
    hints: byId("hints").checked,
  };
}

async function make(event) {
  event.preventDefault();
  problem("");
  try {
    const made = await post("/api/tables", request());
    const invite = new URL(made.links.join, location.origin).href;
    const watch = new URL(made.links.watch, location.origin).href;
    byId("invite-link").value = invite;
    byId("watch-link").value = watch;
    byId("go").href = made.links.join;
    byId("made").hidden = false;
    byId("make").hidden = true;
    byId("go").focus();
  } catch (error) {
    problem(error.message);
  }
}

function copier(button, input) {
  byId(button).addEventListener("click", async () => {
    const field = byId(input);
    field.select();
    try { await navigator.clipboard.writeText(field.value); } catch { /* selected: copy by hand */ }
  });
}

async function start() {
  try {
    const answer = await getJson("/api/rules");
    catalog = answer.catalog;
    limits = answer.limits;
    levels = answer.levels;
  } catch (error) {
    problem(`The rules could not be loaded: ${error.message}`);
    return;
  }
  const presets = byId("preset");
  for (const p of catalog.presets) presets.append(el("option", { value: p.preset, text: p.preset }));
  const box = byId("options");
  for (const option of catalog.options) {
    if (option.name !== "players") box.append(optionControl(option));
  }
  byId("players").max = String(limits.players);
  byId("think").value = String(limits.think[2]);
  byId("think").min = String(limits.think[0]);
  byId("think").max = String(limits.think[1]);
  byId("timer").min = String(limits.timer[0]);
  byId("timer").max = String(limits.timer[1]);
  presets.addEventListener("change", showPreset);
  byId("players").addEventListener("change", showSeats);
  byId("opt-partnerships").addEventListener("change", showSides);
  byId("make").addEventListener("submit", make);
  copier("copy-invite", "invite-link");
  copier("copy-watch", "watch-link");
  showSeats();
  showPreset();
}

start();
