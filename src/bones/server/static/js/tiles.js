// Tiles drawn as SVG with pips, and the line of play laid out in rows that turn at the
// edges of the board (each row runs the other way from the one before).

import { svg } from "./dom.js";

const UNIT = 26; // one half of a tile, in pixels

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

function half(group, x, y, number) {
  const spots = PIPS[number];
  if (!spots) { // past nine: the number itself
    group.append(svg("text", { class: "number", x: x + UNIT / 2, y: y + UNIT / 2,
      text: String(number) }));
    return;
  }
  for (const [i, j] of spots) {
    group.append(svg("circle", { class: "pip", r: UNIT * 0.09,
      cx: x + UNIT * (0.22 + 0.28 * i), cy: y + UNIT * (0.22 + 0.28 * j) }));
  }
}

// One tile at (x, y): halves a then b, left to right, or top to bottom when upright.
export function drawTile(group, x, y, a, b, upright) {
  const w = upright ? UNIT : 2 * UNIT;
  const h = upright ? 2 * UNIT : UNIT;
  group.append(svg("rect", { class: "face", x, y, width: w, height: h, rx: 4 }));
  if (upright) {
    group.append(svg("line", { class: "bar", x1: x + 3, x2: x + w - 3, y1: y + UNIT, y2: y + UNIT }));
    half(group, x, y, a);
    half(group, x, y + UNIT, b);
  } else {
    group.append(svg("line", { class: "bar", x1: x + UNIT, x2: x + UNIT, y1: y + 3, y2: y + h - 3 }));
    half(group, x, y, a);
    half(group, x + UNIT, y, b);
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

// The chain of tiles from the far end of the left arm to the far end of the right arm,
// each as [left half, right half]: a left arm's tiles face out to the left.
export function chain(layout) {
  if (!layout || !layout.first) return [];
  const arms = layout.arms || {};
  const out = [];
  const left = (arms.left && arms.left.tiles) || [];
  for (let i = left.length - 1; i >= 0; i--) {
    const [touching, open] = left[i];
    out.push({ a: open, b: touching, end: i === left.length - 1 ? "left" : null });
  }
  const [high, low] = parseTile(layout.first);
  out.push({ a: high, b: low, first: true });
  const right = (arms.right && arms.right.tiles) || [];
  right.forEach(([touching, open], i) => {
    out.push({ a: touching, b: open, end: i === right.length - 1 ? "right" : null });
  });
  return out;
}

// Lay a chain out in rows of at most `width` pixels, turning at each edge: a row that runs
// right to left shows each tile's halves swapped, so touching halves still meet.
export function lineImage(tiles, width, label, marks = new Set()) {
  const rows = [];
  let row = [];
  let used = 0;
  for (const tile of tiles) {
    const w = (tile.a === tile.b ? 1 : 2) * UNIT + 4;
    if (used + w > width && row.length) {
      rows.push(row);
      row = [];
      used = 0;
    }
    row.push({ ...tile, w });
    used += w;
  }
  if (row.length) rows.push(row);
  const rowHeight = 2 * UNIT + 10;
  const height = Math.max(1, rows.length) * rowHeight;
  const image = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": label });
  rows.forEach((tilesOfRow, r) => {
    const leftward = r % 2 === 1;
    let x = leftward ? width : 0;
    const y = r * rowHeight;
    for (const tile of tilesOfRow) {
      const double = tile.a === tile.b;
      if (leftward) x -= tile.w;
      const tx = x + 2;
      const ty = y + (double ? 4 : 4 + UNIT / 2);
      const [a, b] = leftward ? [tile.b, tile.a] : [tile.a, tile.b];
      drawTile(image, tx, ty, a, b, double);
      if (tile.end && marks.has(tile.end)) {
        image.append(svg("rect", { class: "end", x: tx - 2, y: ty - 2,
          width: (double ? UNIT : 2 * UNIT) + 4, height: (double ? 2 * UNIT : UNIT) + 4, rx: 5 }));
      }
      if (!leftward) x += tile.w;
    }
  });
  return image;
}

// A spinner's up or down arm, as its own short line from the spinner outwards.
export function armChain(layout, arm) {
  const tiles = (layout.arms && layout.arms[arm] && layout.arms[arm].tiles) || [];
  return tiles.map(([touching, open], i) => ({ a: touching, b: open,
    end: i === tiles.length - 1 ? arm : null }));
}
