// Where each tile of the line of play lies on the board: pure functions of the view's
// `layout`, the board's width and a tile's size, so the geometry can be tested on its own
// (tests/test_page_layout.py runs them in Chromium) and the page only draws what they say.
//
// As on a table: the lead, or the spinner once there is one, lies in the middle, doubles
// crosswise. Without a spinner two arms go out from it, left and right; with one, four (left,
// right, up, down). An arm goes straight until the board's edge and then turns (one tile
// laid across the corner) and comes back a row further out, and so on, like a snake: tiles
// never shrink as the line grows and none is hidden; the board grows taller instead. Each arm
// has a part of the board to itself, turning the same way round as the others (a pinwheel):
//
//   without a spinner: left turns up and right turns down, each row as wide as the board;
//   with a spinner:    left fills the upper left, up the upper right (after `reach` tiles
//                      straight up), right the lower right and down the lower left, each
//                      keeping out of the column the up and down arms leave the spinner by.
//
// Coordinates are pixels, y downwards; a placed tile is its box (x, y, w, h) and the numbers
// of its two halves `a` then `b` (left to right, or top to bottom when upright).

// the four directions an arm goes out in
const DIRS = { E: [1, 0], W: [-1, 0], N: [0, -1], S: [0, 1] };

// The size of one half of a tile (pixels) for a board this wide: big enough to read the
// pips, small enough that a phone's row still holds several tiles each side of the middle.
export function tileUnit(width) {
  return Math.max(14, Math.min(24, Math.floor(width / 22)));
}

// The gap left between two tiles that touch.
export function gapFor(unit) {
  return Math.max(2, Math.round(unit * 0.12));
}

function tileText(x, y) {
  return x >= y ? `${x}-${y}` : `${y}-${x}`;
}

function parse(text) {
  const [a, b] = String(text).split("-").map(Number);
  return [a, b];
}

// The line of play as the board draws it: the tile in the middle and the tiles going out
// from it west, east, north and south, each as {near, far} (the half towards the middle and
// the half facing out), with the arm of the layout it belongs to and its place there. With a
// spinner that is not the lead, the spinner is the middle: the line arm it lies on is split
// there, and the tiles between it and the lead are read the other way round.
export function lines(layout) {
  if (!layout || !layout.first) return null;
  const arms = layout.arms || {};
  const tilesOf = (arm) => (arms[arm] && arms[arm].tiles) || [];
  const link = (arm, index, [near, far]) => ({ near, far, tile: tileText(near, far), arm, index });
  const outward = (arm) => tilesOf(arm).map((pair, i) => link(arm, i, pair));
  const [high, low] = parse(layout.first);
  const lead = { tile: tileText(high, low), arm: "first", index: 0 };
  const at = layout.spinner ? layout.spinner.at : null;
  if (!at) {
    // the lead in the middle, high half to the left
    return { middle: { ...lead, west: high, east: low }, spinner: Boolean(layout.spinner),
      W: outward("left"), E: outward("right"), N: outward("up"), S: outward("down") };
  }
  // the spinner lies on a line arm (`side`) at `index`: that arm beyond it goes on the same
  // way; back towards the lead its tiles are read inward, then the lead, then the other arm
  const side = at.arm;
  const other = side === "left" ? "right" : "left";
  const own = outward(side);
  const beyond = own.slice(at.index + 1);
  const back = own.slice(0, at.index).reverse()
    .map((t) => ({ ...t, near: t.far, far: t.near }));
  const leadLink = side === "left"
    ? { ...lead, near: high, far: low } // going east from the spinner, the lead's high half meets it
    : { ...lead, near: low, far: high };
  const through = [...back, leadLink, ...outward(other)];
  const spin = own[at.index];
  const middle = { tile: spin.tile, arm: side, index: at.index, west: spin.far, east: spin.far };
  return side === "left"
    ? { middle, spinner: true, W: beyond, E: through, N: outward("up"), S: outward("down") }
    : { middle, spinner: true, E: beyond, W: through, N: outward("up"), S: outward("down") };
}

// The straight pieces an arm is laid along, one after another: `dir`, and either `count`
// (lay at most that many tiles: the corner tile, and how far up and down go straight before
// they turn) or `stop` (no tile of the piece may reach past that x).
function* plan(run, box) {
  const { xmin, xmax, colLeft, colRight, spinner, reach } = box;
  // how far a row may reach in each direction, in this arm's part of the board
  const rowsOf = (grow, firstDir, farStop, nearStop) => (function* rows() {
    let dir = firstDir;
    for (;;) {
      yield { dir: grow, count: 1, corner: true };
      dir = dir === "E" ? "W" : "E";
      yield { dir, stop: dir === firstDir ? farStop : nearStop };
    }
  })();
  if (run === "W") {
    yield { dir: "W", stop: xmin };
    yield* rowsOf("N", "W", xmin, spinner ? colLeft : xmax);
  } else if (run === "E") {
    yield { dir: "E", stop: xmax };
    yield* rowsOf("S", "E", xmax, spinner ? colRight : xmin);
  } else if (run === "N") {
    yield { dir: "N", count: reach };
    yield { dir: "E", stop: xmax };
    yield* rowsOf("N", "E", xmax, colRight);
  } else {
    yield { dir: "S", count: reach };
    yield { dir: "W", stop: xmin };
    yield* rowsOf("S", "W", xmin, colLeft);
  }
}

// One tile laid going `dir` from `anchor` (the middle of the edge it touches): a double
// crosswise unless it is a corner tile, which lies along the way it goes like any other.
function lay(anchor, dir, double, lengthwise, unit, gap) {
  const [dx, dy] = DIRS[dir];
  const across = double && !lengthwise;
  const along = across ? unit : 2 * unit;
  const wide = across ? 2 * unit : unit;
  const sx = anchor[0] + dx * gap;
  const sy = anchor[1] + dy * gap;
  if (dy === 0) {
    const x = dx > 0 ? sx : sx - along;
    return { x, y: anchor[1] - wide / 2, w: along, h: wide, dir, across };
  }
  const y = dy > 0 ? sy : sy - along;
  return { x: anchor[0] - wide / 2, y, w: wide, h: along, dir, across };
}

// Where the next tile touches this one, going `dir`: straight on, the middle of its far
// edge; turning, the middle of the outer edge of the half that faces the new way.
function anchorOf(tile, dir, unit) {
  const [dx, dy] = DIRS[dir];
  const cx = tile.x + tile.w / 2;
  const cy = tile.y + tile.h / 2;
  const [fx, fy] = DIRS[tile.dir];
  if (dx * fx + dy * fy !== 0 || tile.across) { // straight on (or back, from the middle)
    return [cx + dx * tile.w / 2, cy + dy * tile.h / 2];
  }
  // a tile lying along its way, turning: its outer half is the square at its far end
  const hx = cx + fx * unit / 2;
  const hy = cy + fy * unit / 2;
  return [hx + dx * unit / 2, hy + dy * unit / 2];
}

// the halves of a tile laid going `dir`, as drawn: left to right, or top to bottom
function halves(dir, near, far) {
  return dir === "E" || dir === "S" ? [near, far] : [far, near];
}

// Lay one arm's tiles out from the middle tile, and where its next tile would go (`next`,
// the drop zone of its open end).
function layRun(run, links, middle, box, unit, gap) {
  const placed = [];
  let last = middle;
  const pieces = plan(run, box);
  let piece = pieces.next().value;
  let inPiece = 0;
  let turned = false;
  const tryLay = (double) => {
    for (let guard = 0; guard < 8; guard++) {
      // a double lies along its way at a corner, and just after one, where crosswise it
      // would lie against both halves of the corner tile
      const lengthwise = Boolean(piece.corner) || (turned && inPiece === 0);
      const tile = lay(anchorOf(last, piece.dir, unit), piece.dir, double, lengthwise, unit, gap);
      const fits = piece.count !== undefined ? inPiece < piece.count
        : inPiece === 0 // a row takes at least one tile, however narrow the board
          || (piece.dir === "W" ? tile.x >= piece.stop - 0.01 : tile.x + tile.w <= piece.stop + 0.01);
      if (fits) return tile;
      piece = pieces.next().value;
      inPiece = 0;
      turned = true;
    }
    throw new Error("the board is too small for a tile");
  };
  for (const link of links) {
    const tile = tryLay(link.near === link.far);
    const [a, b] = halves(tile.dir, link.near, link.far);
    placed.push({ ...tile, a, b, tile: link.tile, arm: link.arm, index: link.index, run });
    last = placed[placed.length - 1];
    inPiece++;
  }
  const next = tryLay(false);
  return { placed, next };
}

// Every tile of the layout placed on a board `width` pixels wide: `{unit, gap, width,
// height, tiles, ends}`; `tiles` from the middle out, each with its box, its halves, its
// `tile`, the layout `arm` and `index` it comes from and the `run` (W, E, N, S) it lies on;
// `ends` maps each open arm of the layout to the box where its next tile would lie.
export function place(layout, width, options = {}) {
  const unit = options.unit || tileUnit(width);
  const gap = options.gap || gapFor(unit);
  const line = lines(layout);
  if (!line) return { unit, gap, width, height: 0, tiles: [], ends: {} };
  const cx = width / 2;
  const margin = gap * 2;
  const box = {
    xmin: margin, xmax: width - margin,
    colLeft: cx - unit - gap, colRight: cx + unit + gap,
    spinner: line.spinner,
    reach: options.reach || (width < 560 ? 2 : 3),
  };
  const [west, east] = [line.middle.west, line.middle.east];
  const double = west === east;
  const middle = double
    ? { x: cx - unit / 2, y: -unit, w: unit, h: 2 * unit, dir: "E", across: true }
    : { x: cx - unit, y: -unit / 2, w: 2 * unit, h: unit, dir: "E", across: false };
  const tiles = [{ ...middle, a: west, b: east, tile: line.middle.tile, arm: line.middle.arm,
    index: line.middle.index, run: "middle" }];
  // which open arm of the layout each run ends at
  const endOf = { W: "left", E: "right", N: "up", S: "down" };
  const ends = {};
  const arms = layout.arms || {};
  for (const run of ["W", "E", "N", "S"]) {
    const open = arms[endOf[run]] !== undefined;
    if (!open && !line[run].length) continue;
    const { placed, next } = layRun(run, line[run], middle, box, unit, gap);
    tiles.push(...placed);
    if (open) ends[endOf[run]] = next;
  }
  // the board is as tall as what lies on it: move everything down so the top is 0
  const boxes = [...tiles, ...Object.values(ends)];
  const top = Math.min(...boxes.map((t) => t.y)) - margin;
  const bottom = Math.max(...boxes.map((t) => t.y + t.h)) + margin;
  for (const t of boxes) t.y -= top;
  return { unit, gap, width, height: bottom - top, tiles, ends };
}
