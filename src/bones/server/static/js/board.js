// The line of play as one SVG picture: the places `snake.js` gives, drawn as tiles. One
// module so that the table and the replay viewer lay the line the same way.

import { svg } from "./dom.js";
import { place } from "./snake.js";
import { drawTile } from "./tiles.js";

// The picture of `layout` on a board `width` wide: `image` (the svg), `laid` (the snake's
// places, with `height`, `unit` and the open `ends`) and `groups` (each tile's group and
// place, by tile, for a move's animation).
export function lineImage(layout, width) {
  const laid = place(layout, width);
  const image = svg("svg", { width, height: laid.height, viewBox: `0 0 ${width} ${laid.height}`,
    role: "img", "aria-label": "the line of play" });
  const groups = new Map();
  laid.tiles.forEach((t, i) => {
    const spinner = layout.spinner && layout.spinner.tile === t.tile;
    const g = svg("g", { class: `placed${spinner ? " spinner" : ""}${i === 0 ? " middle" : ""}`,
      "data-tile": t.tile });
    drawTile(g, t.x, t.y, t.a, t.b, t.h > t.w, laid.unit);
    image.append(g);
    groups.set(t.tile, { g, t });
  });
  return { image, laid, groups };
}

// A line of play read out for a screen reader, arm by arm.
export function lineWords(layout) {
  const arms = Object.entries(layout.arms)
    .map(([arm, a]) => `${arm} arm ${a.tiles.length ? a.tiles.map(([x, y]) => `${x}-${y}`).join(", ") : "empty"}`);
  const spinner = layout.spinner ? `, the spinner ${layout.spinner.tile}` : "";
  return `Lead ${layout.first}${spinner}; ${arms.join("; ")}.`;
}
