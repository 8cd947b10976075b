// The dice table page: draws the state JSON the server sends (GET /events),
// and sends what is clicked to POST /act.  No framework, nothing fetched
// from elsewhere.  docs/web.md describes the state and the DOM.
"use strict";

const LONG_MS = 700; // a pointer held this long is a long press (the table's is 600 ms)
const BOTS = ["human", "random", "heuristic"];
const BUTTONS = [["minus", "\u2212"], ["plus", "+"], ["ok", "OK"]];

let state = null;
let built = false;
let scrubBusy = false;
let scrubWanted = null;
let lost = false; // the event stream broke: the message says so until it is back

const $ = (sel) => document.querySelector(sel);

function el(tag, props, children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("data-") || k.startsWith("aria-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children || []) e.append(c);
  return e;
}

// --- LEDs ----------------------------------------------------------------------------

// The firmware's colours go up to about 48 of 255; a screen shows them lifted
// on a curve that keeps a dim LED (1/8) clearly dimmer than a bright one.
function shade(v) {
  if (v <= 0) return 0;
  return Math.min(255, Math.round(255 * Math.pow(v / 64, 0.6)));
}

function paintLed(span, rgb) {
  const key = rgb.join(",");
  if (span.dataset.rgb === key) return;
  span.dataset.rgb = key;
  const [r, g, b] = rgb.map(shade);
  span.style.backgroundColor = `rgb(${r}, ${g}, ${b})`;
  const lit = Math.max(r, g, b);
  span.style.boxShadow = lit ? `0 0 ${Math.round(lit / 32)}px rgb(${r}, ${g}, ${b})` : "none";
}

function paintRow(row, leds) {
  while (row.children.length < leds.length) row.append(el("span", { class: "led" }));
  while (row.children.length > leds.length) row.lastChild.remove();
  leds.forEach((rgb, i) => paintLed(row.children[i], rgb));
}

function paintRing(ring, leds) {
  if (ring.children.length !== leds.length) {
    ring.replaceChildren();
    leds.forEach((_, i) => {
      const a = (2 * Math.PI * i) / leds.length - Math.PI / 2;
      const span = el("span", { class: "led" });
      span.style.left = `${50 + 44 * Math.cos(a)}%`;
      span.style.top = `${50 + 44 * Math.sin(a)}%`;
      ring.append(span);
    });
  }
  leds.forEach((rgb, i) => paintLed(ring.children[i], rgb));
}

// --- talking to the server ----------------------------------------------------------------

function say(text) {
  const m = $("#message");
  m.textContent = text || "";
  m.hidden = !text;
}

async function act(body) {
  try {
    const r = await fetch("/act", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await r.json().catch(() => ({ ok: false, error: `status ${r.status}` }));
    say(answer.ok ? "" : answer.error);
    return answer.ok;
  } catch (e) {
    say("the table does not answer (is python -m sim.web still running?)");
    return false;
  }
}

// --- the seats ------------------------------------------------------------------------------

function seatButton(seat, code, label) {
  const b = el("button", {
    type: "button",
    text: label,
    "data-seat": String(seat),
    "data-button": code,
    "aria-label": `seat ${seat} ${code === "ok" ? "OK" : code}`,
  });
  let downAt = 0;
  let timer = 0;
  b.addEventListener("pointerdown", () => {
    downAt = performance.now();
    timer = setTimeout(() => b.classList.add("held"), LONG_MS);
  });
  const release = () => {
    clearTimeout(timer);
    b.classList.remove("held");
  };
  b.addEventListener("pointerup", release);
  b.addEventListener("pointerleave", () => {
    release();
    downAt = 0;
  });
  b.addEventListener("contextmenu", (e) => e.preventDefault());
  b.addEventListener("click", (e) => {
    const held = downAt && performance.now() - downAt >= LONG_MS;
    downAt = 0;
    act({ do: "press", seat, button: code, long: Boolean(e.shiftKey || held) });
  });
  return b;
}

function buildSeat(s) {
  const botSelect = el("select", { class: "seat-bot", "data-seat": String(s), id: `seat-bot-${s}` });
  BOTS.forEach((b) => botSelect.append(el("option", { value: b, text: b })));
  botSelect.addEventListener("change", () => act({ do: "bot", seat: s, bot: botSelect.value }));
  const section = el("section", { class: "seat", "data-seat": String(s), "aria-labelledby": `seat-h-${s}` }, [
    el("h2", { id: `seat-h-${s}` }, [el("span", { text: `Seat ${s}` }), el("span", { class: "who" })]),
    el("div", { class: "leds", role: "img", "aria-label": `seat ${s} LEDs` }),
    el("div", { class: "buttons" }, BUTTONS.map(([code, label]) => seatButton(s, code, label))),
    el("p", { class: "entry", "aria-live": "polite" }),
    el("label", { htmlFor: `seat-bot-${s}`, text: "played by " }, [botSelect]),
    el("p", { class: "refused", "aria-live": "assertive" }),
    el("div", { class: "items hand", role: "group", "aria-label": `seat ${s}'s hand: a click puts an item on its reader` }),
    el("div", { class: "box", role: "group", "aria-label": `the box, for seat ${s}'s reader` }),
  ]);
  return section;
}

function placeSeats(seats) {
  const table = $("#table");
  // The centre first, then the seats in order: each seat's hand is a block
  // of buttons whose height varies, which a ring of seats could not hold.
  seats.forEach((seat) => table.append(buildSeat(seat.seat)));
}

// --- items --------------------------------------------------------------------------------------

// The art of every item the state names, by uid (the box's, the hands', the
// centre's): the server draws it (sim/item_art.py), the page only places it.
const art = new Map();

function learnArt(s) {
  for (const g of s.box) for (const it of g.items) art.set(it.uid, it.art);
  for (const seat of s.seats) for (const it of seat.pieces) art.set(it.uid + it.name, it.art);
  for (const it of s.centre_pieces) art.set(it.uid + it.name, it.art);
}

// Each picture parsed once, then cloned: a deal redraws dozens of items at
// every scan, and parsing their markup each time would cost the 50 ms.
const parsed = new Map();

function picture(svg) {
  let node = parsed.get(svg);
  if (!node) {
    node = el("span", { class: "art" });
    node.innerHTML = svg || ""; // the server's own SVG markup (sim/item_art.py)
    parsed.set(svg, node);
  }
  return node.cloneNode(true);
}

function artOf(it) {
  return art.get(it.uid + it.name) || art.get(it.uid) || "";
}

// One item's button: its picture and name; a click puts it on `reader`.
// mark() says whether the rules allow it now, and the firmware's words
// when it was just refused.
function itemButton(it, reader, label) {
  const b = el("button", { type: "button", class: "item", "data-seat": String(reader), "data-uid": it.uid });
  b.dataset.label = `${label}: ${it.name}`;
  b.append(picture(artOf(it)), el("span", { class: "name", text: it.name }), el("span", { class: "why", hidden: true }));
  b.addEventListener("click", () => act({ do: "scan", reader, uid: it.uid }));
  return b;
}

function mark(b, allowed, refused) {
  const words = refused && refused.uid === b.dataset.uid ? refused.words : "";
  const label = `${b.dataset.label}${allowed ? " (allowed)" : ""}${words ? ` (refused: ${words})` : ""}`;
  if (b.getAttribute("aria-label") === label) return;
  b.classList.toggle("allowed", allowed);
  b.classList.toggle("refused", Boolean(words));
  b.setAttribute("aria-label", label);
  b.title = label;
  const why = b.querySelector(".why");
  why.textContent = words;
  why.hidden = !words;
}

// Redraws `box` with `build()` when `key` differs from what it shows, keeping
// the focus on the item of the same uid.
function redraw(box, key, build) {
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const focused = document.activeElement;
  const again = focused && box.contains(focused) ? focused.dataset.uid : null;
  box.replaceChildren(...build());
  if (again) {
    const b = box.querySelector(`button[data-uid="${again}"]`);
    if (b) b.focus();
  }
}

function itemButtons(box, items, reader, label) {
  redraw(box, JSON.stringify(items), () => items.map((it) => itemButton(it, reader, label)));
  box.querySelectorAll("button.item").forEach((b) => mark(b, true, null));
}

const openGroups = new Set(); // "seat/group" of the box's groups a player opened

// The box's items, by group, each group collapsed until opened; those this
// seat's hand holds are hidden here (they are its buttons above), the
// allowed ones counted.  Built once a game; a scan only hides and marks.
function boxGroups(section, seat, allowed, refused, label) {
  const box = section.querySelector(".box");
  const groups = seat.box ? state.box : [];
  redraw(box, JSON.stringify(groups.map((g) => [g.group, g.items.length, g.items[0].uid])), () =>
    groups.map((g) => {
      const id = `${seat.seat}/${g.group}`;
      const details = el("details", { "data-group": g.group, open: openGroups.has(id) }, [
        el("summary"),
        el("div", { class: "items" }, g.items.map((it) => itemButton(it, seat.seat, label))),
      ]);
      details.addEventListener("toggle", () => (details.open ? openGroups.add(id) : openGroups.delete(id)));
      return details;
    }),
  );
  const held = new Set(seat.pieces.map((it) => it.uid));
  for (const details of box.children) {
    let shown = 0;
    let asked = 0;
    for (const b of details.querySelectorAll("button.item")) {
      const here = !held.has(b.dataset.uid);
      if (b.hidden === here) b.hidden = !here;
      const ok = here && allowed.has(b.dataset.uid);
      shown += here;
      asked += ok;
      mark(b, ok, refused);
    }
    const words = `${details.dataset.group} (${shown}${asked ? `, ${asked} allowed` : ""})`;
    const summary = details.firstChild;
    if (summary.textContent !== words) summary.textContent = words;
  }
}

function drawSeat(seat) {
  const section = document.querySelector(`section.seat[data-seat="${seat.seat}"]`);
  if (!section) return;
  paintRow(section.querySelector(".leds"), seat.leds);
  const playing = seat.player !== null;
  section.classList.toggle("awaited", seat.awaited);
  section.classList.toggle("out", !playing);
  section.querySelector(".who").textContent = playing
    ? `player ${seat.player}${seat.awaited ? " \u00b7 awaited" : ""}`
    : "not playing";
  section.querySelector(".entry").textContent = seat.entry ? `shows: ${seat.entry}` : "";
  const mirror = Boolean(state.mirror); // nothing to press at a board's mirror
  section.querySelectorAll(".buttons button").forEach((b) => (b.disabled = mirror));
  const select = section.querySelector("select.seat-bot");
  select.disabled = !playing || mirror;
  if (playing && document.activeElement !== select) select.value = seat.bot;
  const label = `put on seat ${seat.seat}'s reader`;
  const allowed = new Set(seat.items.map((it) => it.uid));
  const refused = seat.refused;
  const hand = section.querySelector(".hand");
  redraw(hand, JSON.stringify(seat.pieces.map((it) => it.uid + it.name)), () => seat.pieces.map((it) => itemButton(it, seat.seat, label)));
  hand.querySelectorAll("button.item").forEach((b) => {
    mark(b, allowed.has(b.dataset.uid), refused);
    b.disabled = mirror; // a board's mirror shows the hands; play happens at the table
  });
  boxGroups(section, seat, allowed, refused, label);
  section.querySelector(".refused").textContent = refused ? `refused: ${refused.words}` : "";
}

// --- panels -----------------------------------------------------------------------------------

function drawScores(s) {
  const box = $("#scores");
  if (!s.players.length) {
    box.replaceChildren(el("p", { class: "sub", text: "no match" }));
    $("#standings").replaceChildren();
    return;
  }
  const head = el("tr", {}, [el("th", { text: "" }), ...s.players.map((seat, p) => el("th", { text: `seat ${seat}`, title: `player ${p}` }))]);
  const rows = s.history.map((row, i) => el("tr", {}, [el("td", { text: `${i + 1}` }), ...row.map((v) => el("td", { text: String(v) }))]));
  const total = el("tr", {}, [el("td", { text: "total" }), ...s.scores.map((v) => el("td", { text: String(v) }))]);
  box.replaceChildren(el("table", {}, [el("thead", {}, [head]), el("tbody", {}, rows), el("tfoot", {}, [total])]));
  const standings = $("#standings");
  if (!s.standings) {
    standings.replaceChildren();
    return;
  }
  const order = s.players.map((seat, p) => ({ seat, place: s.standings[p], total: s.scores[p] }));
  order.sort((a, b) => a.place - b.place || a.seat - b.seat);
  standings.replaceChildren(
    el("h2", { text: "Final standings" }),
    el("ol", {}, order.map((o) => el("li", { text: `place ${o.place}: seat ${o.seat} (${o.total})` }))),
  );
}

let drawnLog = []; // the lines the log shows (a new table, after a scrub, starts again)

function drawLog(lines) {
  const log = $("#log");
  const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 8;
  const same = drawnLog.length <= lines.length && drawnLog.every((line, i) => line === lines[i]);
  if (!same) {
    log.replaceChildren();
    drawnLog = [];
  }
  for (let i = drawnLog.length; i < lines.length; i++) log.append(el("li", { text: lines[i] }));
  drawnLog = lines.slice();
  if (atEnd || !same) log.scrollTop = log.scrollHeight;
}

function drawTable(s) {
  paintRing($("#ring"), s.ring);
  redraw($("#trick"), JSON.stringify(s.trick.map((t) => [t.seat, t.item])), () =>
    s.trick.map((t) => el("li", { title: `seat ${t.seat}: ${t.item}` }, [picture(t.art), el("span", { text: `seat ${t.seat}: ${t.item}` })])));
  redraw($("#centre-dice"), JSON.stringify(s.centre), () =>
    s.centre_pieces.map((it) => el("span", { class: "piece", title: it.name }, [picture(it.art), el("span", { class: "name", text: it.name })])));
  $("#centre-items-h").hidden = !s.centre_items.length;
  itemButtons($("#centre-items"), s.centre_items, "centre", "put on the centre reader");
  $("#display").textContent = s.text.join("\n");
}

// The end of a match: its places, its totals and every round, over the table.
function drawResult(s) {
  const box = $("#result");
  const over = s.mode === "over" && Boolean(s.standings);
  box.hidden = !over;
  const key = over ? JSON.stringify([s.standings, s.scores, s.history]) : "";
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  if (!over) return box.replaceChildren();
  const order = s.players.map((seat, p) => ({ seat, p, place: s.standings[p], total: s.scores[p] }));
  order.sort((a, b) => a.place - b.place || a.seat - b.seat);
  const places = el("table", { class: "places" }, [
    el("thead", {}, [el("tr", {}, ["place", "seat", "total"].map((h) => el("th", { text: h })))]),
    el("tbody", {}, order.map((o) => el("tr", { class: o.place === 1 ? "first" : "", "data-seat": String(o.seat) }, [
      el("td", { text: String(o.place) }), el("td", { text: `seat ${o.seat}` }), el("td", { text: String(o.total) })]))),
  ]);
  const game = s.games.find((g) => g.title === s.title);
  const round = game ? game.length_word.replace(/s$/, "") : "round"; // 'game', 'deal', 'challenge'
  const head = el("tr", {}, [el("th", { text: round }), ...s.players.map((seat) => el("th", { text: `seat ${seat}` }))]);
  const rounds = el("table", { class: "rounds" }, [
    el("thead", {}, [head]),
    el("tbody", {}, s.history.map((row, i) => el("tr", {}, [el("td", { text: String(i + 1) }), ...row.map((v) => el("td", { text: String(v) }))]))),
  ]);
  box.replaceChildren(el("h2", { id: "result-h", text: `Result: ${s.status}` }), places, el("h3", { text: `Per ${round}` }), rounds);
}

// A board's mirror (the state has `mirror`): a banner says whose, and whether
// its port is open; every control is hidden and disabled (read only).
function drawMirror(s) {
  const m = s.mirror;
  document.body.classList.toggle("mirror", Boolean(m));
  $("#foot-mirror").hidden = !m;
  $("#foot-table").hidden = Boolean(m);
  const banner = $("#mirror");
  banner.hidden = !m;
  if (!m) return;
  const link = m.connected ? "connected" : `not connected: ${m.why}`;
  banner.textContent = `Mirror of the board at ${m.port}: read only \u00b7 ${link}`;
  banner.classList.toggle("lost", !m.connected);
  if (!$("#new-form").hidden) toggleForm(false);
}

function drawControls(s) {
  const mirror = Boolean(s.mirror);
  const playing = s.mode === "play" && !mirror;
  $("#title").textContent = s.title || "Dice table";
  $("#status").textContent = s.status + (s.running ? " \u00b7 running" : "");
  $("#new").disabled = mirror;
  $("#open").disabled = mirror;
  $("#step").disabled = !playing;
  $("#run").disabled = !playing || s.running;
  $("#pause").disabled = !s.running;
  $("#undo").disabled = mirror || !(playing || s.mode === "over");
  const scrub = $("#scrub");
  if (s.scrub) {
    scrub.disabled = false;
    scrub.max = String(s.scrub.of);
    if (document.activeElement !== scrub || !scrubBusy) scrub.value = String(s.scrub.at);
    $("#scrub-at").textContent = `${s.scrub.at} of ${s.scrub.of}${s.scrub.last ? ": " + s.scrub.last : ""}`;
  } else {
    scrub.disabled = true;
    scrub.max = "0";
    scrub.value = "0";
    $("#scrub-at").textContent = "\u2013";
  }
}

function draw(s) {
  state = s;
  if (!built) {
    placeSeats(s.seats);
    buildForm(s);
    built = true;
  }
  drawMirror(s);
  drawControls(s);
  learnArt(s);
  s.seats.forEach(drawSeat);
  drawTable(s);
  drawResult(s);
  drawScores(s);
  drawLog(s.log);
}

// --- the new-match form ---------------------------------------------------------------------

function buildForm(s) {
  const game = $("#game");
  s.games.forEach((g) => game.append(el("option", { value: g.key, text: g.title })));
  const box = $("#seat-choices");
  s.seats.forEach((seat) => {
    const n = seat.seat;
    const join = el("input", { type: "checkbox", class: "seat-join", "data-seat": String(n), id: `join-${n}`, checked: n < 4 });
    const bot = el("select", { class: "bot", "data-seat": String(n), id: `bot-${n}`, "aria-label": `who plays seat ${n}` });
    BOTS.forEach((b) => bot.append(el("option", { value: b, text: b })));
    bot.value = n === 0 ? "human" : "heuristic";
    box.append(el("span", {}, [el("label", { htmlFor: `join-${n}` }, [join, ` seat ${n}`]), " ", bot]));
  });
  game.addEventListener("change", formGame);
  formGame();
  $("#new").addEventListener("click", () => toggleForm());
  $("#cancel").addEventListener("click", () => toggleForm(false));
  $("#new-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const seats = [...document.querySelectorAll("input.seat-join")].filter((c) => c.checked).map((c) => Number(c.dataset.seat));
    const bots = seats.map((n) => document.querySelector(`select.bot[data-seat="${n}"]`).value);
    const ok = await act({
      do: "new",
      game: game.value,
      seats,
      bots,
      open_play: $("#open-play").checked,
      table_rolls: $("#table-rolls").checked,
      variant: $("#variant").checked,
      length: Number($("#length").value || 0),
    });
    if (ok) toggleForm(false);
  });
}

function formGame() {
  const g = state.games.find((x) => x.key === $("#game").value) || state.games[0];
  $("#game-players").textContent = g.fewest === g.most ? `${g.most} players` : `${g.fewest} to ${g.most} players`;
  for (const [id, on] of [["#open-play", g.open_play], ["#table-rolls", g.table_rolls], ["#variant", g.variant]]) {
    $(id).disabled = !on;
    if (!on) $(id).checked = false;
  }
  $("#variant-word").textContent = g.variant_word || "variant";
  const length = $("#length");
  length.max = String(g.longest);
  length.disabled = !g.longest;
  if (Number(length.value) > g.longest) length.value = String(g.longest);
  $("#length-word").textContent = g.longest ? `${g.length_word} (0: the game's own, up to ${g.longest})` : "";
}

function toggleForm(show) {
  const form = $("#new-form");
  const open = show === undefined ? form.hidden : show;
  form.hidden = !open;
  $("#new").setAttribute("aria-expanded", String(open));
  if (open) $("#game").focus();
}

// --- controls ------------------------------------------------------------------------------------

async function scrubTo(n) {
  scrubWanted = n;
  if (scrubBusy) return;
  scrubBusy = true;
  while (scrubWanted !== null) {
    const to = scrubWanted;
    scrubWanted = null;
    await act({ do: "scrub", to });
  }
  scrubBusy = false;
}

function wireControls() {
  $("#step").addEventListener("click", () => act({ do: "step" }));
  $("#run").addEventListener("click", () => act({ do: "run" }));
  $("#pause").addEventListener("click", () => act({ do: "pause" }));
  $("#undo").addEventListener("click", () => act({ do: "undo" }));
  $("#scrub").addEventListener("input", (e) => scrubTo(Number(e.target.value)));
  $("#open").addEventListener("change", async (e) => {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    const text = await file.text();
    await act({ do: "open", text, name: file.name });
    e.target.value = "";
  });
}

async function loadLegend() {
  try {
    const r = await fetch("/legend");
    const entries = r.ok ? await r.json() : [];
    if (!Array.isArray(entries) || !entries.length) return;
    const list = $("#legend-list");
    for (const e of entries) {
      const leds = el("span", { class: "leds", role: "img", "aria-label": "LEDs" });
      paintRow(leds, Array.isArray(e.leds) ? e.leds : []);
      const words = (e.meaning || e.text || "") + (e.where ? ` (${e.where})` : "");
      list.append(el("dt", { text: e.name || e.title || "" }), el("dd", {}, [leds, el("span", { text: words })]));
    }
    $("#legend").hidden = false;
  } catch (e) {
    // The page lives without its legend.
  }
}

function listen() {
  const events = new EventSource("/events");
  events.onmessage = (e) => {
    if (lost) say("");
    lost = false;
    draw(JSON.parse(e.data));
  };
  events.onerror = () => {
    lost = true;
    say("the table does not answer (is python -m sim.web still running?)");
  };
}

document.addEventListener("DOMContentLoaded", () => {
  wireControls();
  listen();
  loadLegend();
});
