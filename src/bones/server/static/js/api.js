// Talking to the server's JSON API, and the seats this browser holds.
//
// A seat token is the only key to a seat: it is kept in this browser's localStorage, sent
// only in request bodies and the socket's hello, and never put in a URL the server sees.

const SEATS = "bones-seats";

export async function getJson(path) {
  const answer = await fetch(path, { headers: { accept: "application/json" } });
  return read(answer);
}

export async function post(path, body) {
  const answer = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  return read(answer);
}

async function read(answer) {
  let doc = null;
  try { doc = await answer.json(); } catch { doc = null; }
  if (!answer.ok) {
    throw new Error(doc && typeof doc.error === "string" ? doc.error
      : `the server answered ${answer.status}`);
  }
  return doc;
}

export function messageId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function mySeats() {
  try {
    const seats = JSON.parse(localStorage.getItem(SEATS) || "[]");
    return Array.isArray(seats) ? seats.filter((s) => s && typeof s.token === "string") : [];
  } catch {
    return [];
  }
}

export function keepSeat(entry) {
  const seats = mySeats().filter((s) => s.token !== entry.token);
  seats.push(entry);
  localStorage.setItem(SEATS, JSON.stringify(seats));
  return entry;
}

export function findSeat(test) {
  return mySeats().find(test) || null;
}

export function localKey() {
  return messageId().slice(0, 12);
}

export async function downloadRecord(body, name) {
  const answer = await fetch("/api/record", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!answer.ok) {
    let reason = `the server answered ${answer.status}`;
    try { reason = (await answer.json()).error || reason; } catch { /* not JSON */ }
    throw new Error(reason);
  }
  const url = URL.createObjectURL(await answer.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export function hashParams() {
  return new URLSearchParams(location.hash.slice(1));
}
