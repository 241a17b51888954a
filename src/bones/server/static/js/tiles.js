// Tiles drawn as SVG with pips (numbers past nine as digits). Where each tile of the line of
// play lies is snake.js's to say; `chain` and `armChain` read the layout as plain lists.

import { svg } from "./dom.js";

const UNIT = 26; // one half of a hand's tile, in pixels

// where the pips of each number lie in a half, on a 3 x 3 grid (0 .. 2)
const PIPS = {
  0: [],
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]],
  7: [[0, 0], [0, 1], [0, 2], [1, 1], [2, 0], [2, 1], [2, 2]],
  8: [[0, 0], [0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1], [2, 2]],
  9: [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [2, 0], [2, 1], [2, 2]],
};

export function parseTile(text) {
  const [a, b] = String(text).split("-").map(Number);
  return [a, b];
}

function half(group, x, y, number, unit) {
  const spots = PIPS[number];
  if (!spots) { // past nine: the number itself
    group.append(svg("text", { class: "number", x: x + unit / 2, y: y + unit / 2,
      "font-size": Math.round(unit * 0.5), text: String(number) }));
    return;
  }
  for (const [i, j] of spots) {
    group.append(svg("circle", { class: "pip", r: Math.max(1.2, unit * 0.09),
      cx: x + unit * (0.22 + 0.28 * i), cy: y + unit * (0.22 + 0.28 * j) }));
  }
}

// One tile at (x, y): halves a then b, left to right, or top to bottom when upright; `unit`
// is the side of one half.
export function drawTile(group, x, y, a, b, upright, unit = UNIT) {
  const w = upright ? unit : 2 * unit;
  const h = upright ? 2 * unit : unit;
  const inset = Math.max(2, unit * 0.12);
  group.append(svg("rect", { class: "face", x, y, width: w, height: h, rx: Math.max(2, unit * 0.15) }));
  if (upright) {
    group.append(svg("line", { class: "bar", x1: x + inset, x2: x + w - inset, y1: y + unit, y2: y + unit }));
    half(group, x, y, a, unit);
    half(group, x, y + unit, b, unit);
  } else {
    group.append(svg("line", { class: "bar", x1: x + unit, x2: x + unit, y1: y + inset, y2: y + h - inset }));
    half(group, x, y, a, unit);
    half(group, x + unit, y, b, unit);
  }
}

// A lone tile (a hand's, a revealed one) as its own small picture.
export function tileImage(text, label) {
  const [a, b] = parseTile(text);
  const image = svg("svg", { width: 2 * UNIT + 2, height: UNIT + 2,
    viewBox: `-1 -1 ${2 * UNIT + 2} ${UNIT + 2}`, role: "img", "aria-label": label || text });
  drawTile(image, 0, 0, a, b, false);
  return image;
}
