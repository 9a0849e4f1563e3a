// duelkit studio: the pages' one script. It knows no game: the server sends HTML fragments, and any element
// with data-action (or a form with data-form) sends its fields back. Every request goes to this server only.
"use strict";

const body = document.body;
const page = body.dataset.page;

async function call(url, options) {
  const response = await fetch(url, Object.assign({ credentials: "same-origin", cache: "no-store" }, options || {}));
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: "the server sent no answer" }; }
  return data;
}

function post(url, fields) {
  return call(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(fields || {}) });
}

// ---- live reload: the project's YAML saved -> pages update -------------------------------------------------

let liveVersion = body.dataset.live;
async function pollLive() {
  try {
    const data = await call("/api/live");
    if (data && String(data.version) !== String(liveVersion)) {
      liveVersion = String(data.version);
      onDataChanged();
    }
  } catch (e) { /* the server stopped; try again later */ }
  setTimeout(pollLive, 1000);
}

function onDataChanged() {
  if (page === "start") { refreshStart(); }
  if (page === "play") { const note = document.querySelector("[data-live-note]"); if (note) note.hidden = false; }
}

// ---- start page --------------------------------------------------------------------------------------------

async function refreshStart() {
  const data = await call("/api/start");
  const start = document.querySelector("[data-start]");
  if (data && data.html !== undefined && start) {
    start.innerHTML = data.html;
    wireStart();
  }
}

function wireStart() {
  document.querySelectorAll("form.start-game").forEach((form) => {
    const hidden = form.querySelector("input[name=players]");
    const seats = form.querySelectorAll("[data-seat-select]");
    const sync = () => { hidden.value = Array.from(seats).map((s) => s.value).join(","); };
    seats.forEach((s) => s.addEventListener("change", sync));
    sync();
  });
  document.querySelectorAll("[data-cards-for]").forEach(loadCards);
}

async function loadCards(holder) {
  const data = await call("/api/cards/" + encodeURIComponent(holder.dataset.cardsFor));
  holder.innerHTML = data.html !== undefined ? data.html : "<p class=error></p>";
  if (data.error) holder.querySelector(".error").textContent = data.error;
}

// ---- play page ---------------------------------------------------------------------------------------------

const table = document.getElementById("table");
let version = table ? table.dataset.version : null;
let busy = false;  // a person's request is on its way: a second click meanwhile is dropped
let thinking = null;  // the computer's request while it runs: a person's choice waits for it, never lost

function tableUrl(what) {
  const base = "/api/table/" + encodeURIComponent(table.dataset.table);
  return (what ? base + "/" + what : base) + "?seat=" + encodeURIComponent(table.dataset.seat);
}

// A form being filled in (a secret choice) keeps what was ticked when a new view of the same decision arrives
// (the other player locked in, a poll): the server marks the decision with data-form-key.
function keptForm() {
  const form = table.querySelector("form[data-form-key]");
  if (!form) return null;
  const values = {};
  form.querySelectorAll("input[name], select[name]").forEach((el) => {
    if (el.type === "radio" || el.type === "checkbox") values[el.name + "=" + el.value] = el.checked;
    else values[el.name] = el.value;
  });
  return { key: form.dataset.formKey, values: values };
}

function restoreForm(kept) {
  const form = kept && table.querySelector("form[data-form-key]");
  if (!form || form.dataset.formKey !== kept.key) return;
  form.querySelectorAll("input[name], select[name]").forEach((el) => {
    const key = el.type === "radio" || el.type === "checkbox" ? el.name + "=" + el.value : el.name;
    if (kept.values[key] === undefined) return;
    if (el.type === "radio" || el.type === "checkbox") el.checked = kept.values[key];
    else el.value = kept.values[key];
  });
}

function show(data) {
  if (!data) return;
  if (data.html !== undefined && Number(data.version) >= Number(version)) {  // never an older view over a newer
    const kept = keptForm();
    table.innerHTML = data.html;
    restoreForm(kept);
    version = String(data.version);
    table.dataset.version = version;
    table.dataset.computer = data.computer ? "true" : "false";
    const log = table.querySelector("[data-history]");
    if (log) log.scrollTop = log.scrollHeight;
  }
  if (data.data_changed) { const note = document.querySelector("[data-live-note]"); if (note) note.hidden = false; }
  const error = table.querySelector("[data-error]") || document.createElement("p");
  if (data.error) {
    error.className = "error"; error.dataset.error = ""; error.textContent = data.error;
    table.prepend(error);
  }
  body.dataset.busy = busy || thinking ? "true" : "false";
}

async function send(what, fields) {
  if (busy) return;
  busy = true;
  body.dataset.busy = "true";
  let data = null;
  try {
    if (thinking) await thinking;
    const started = performance.now();
    data = await post(tableUrl(what), Object.assign({ version: version }, fields || {}));
    busy = false;
    show(data);
    table.dataset.took = String(Math.round(performance.now() - started));  // click to updated board, ms
  }
  finally { busy = false; }
  if (data && data.computer) computerTurn();
}

function computerTurn() {
  if (busy || thinking) return;
  body.dataset.busy = "true";
  const status = table.querySelector("[data-status]");
  if (status) status.textContent += " · thinking…";
  const started = performance.now();
  thinking = (async () => {
    let data = null;
    try {
      data = await post(tableUrl("computer"));
      table.dataset.computerTook = String(Math.round(performance.now() - started));  // the computer's reply, ms
    } finally { thinking = null; }
    show(data);
    if (data && data.computer && !data.error) setTimeout(computerTurn, 50);
    return data;
  })();
}

function selectUnit(unit) {
  const board = table.querySelector("svg.board");
  if (!board) return;
  const same = board.dataset.selected === unit;
  board.dataset.selected = same ? "" : unit;
  table.querySelectorAll("[data-unit].selected").forEach((el) => el.classList.remove("selected"));
  table.querySelectorAll(".target.show").forEach((el) => el.classList.remove("show"));
  if (same) return;
  table.querySelectorAll('.token[data-unit="' + unit + '"], li[data-unit="' + unit + '"]').forEach((el) => el.classList.add("selected"));
  table.querySelectorAll('.target[data-unit="' + unit + '"]').forEach((el) => el.classList.add("show"));
  table.querySelectorAll('[data-actions] button[data-unit="' + unit + '"]').forEach((el) => el.classList.add("selected"));
}

function wirePlay() {
  table.addEventListener("click", (event) => {
    const target = event.target.closest("[data-action], [data-undo], [data-redo], .token[data-unit], li[data-unit]");
    if (!target || target.disabled) return;
    if (target.hasAttribute("data-undo")) { send("undo"); return; }
    if (target.hasAttribute("data-redo")) { send("redo"); return; }
    if (target.hasAttribute("data-action")) {
      const fields = { action: target.dataset.action };
      Object.keys(target.dataset).forEach((key) => {
        if (key.startsWith("field")) fields[key.slice(5).toLowerCase()] = target.dataset[key];
      });
      send("act", fields);
      return;
    }
    selectUnit(target.dataset.unit);
  });
  table.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-form]");
    if (!form) return;
    event.preventDefault();
    const fields = {};
    new FormData(form).forEach((value, key) => { fields[key] = String(value); });
    send("act", fields);
  });
  if (table.dataset.computer === "true") computerTurn();
  setInterval(async () => {
    if (busy || thinking || document.hidden) return;
    const data = await call(tableUrl("") + "&since=" + encodeURIComponent(version));
    if (data && !data.same && data.html !== undefined && !busy && !thinking) {
      show(data);
      if (data.computer) computerTurn();
    }
  }, 500);
}

// ---- replay page -------------------------------------------------------------------------------------------

let replay = null;

async function showStep(step) {
  if (!replay) return;
  const last = replay.steps;
  step = Math.max(0, Math.min(last, step));
  replay.step = step;
  let html = replay.cache[step];
  if (html === undefined) {
    const data = await call("/api/replay/" + encodeURIComponent(replay.id) + "?step=" + step);
    if (data.error) { const problem = document.querySelector("[data-replay-problem]"); problem.hidden = false; problem.textContent = data.error; return; }
    html = replay.cache[step] = data.html;
  }
  if (replay.step !== step) return;  // a later step was asked for meanwhile
  document.querySelector("[data-replay-board]").innerHTML = html;
  document.querySelector("[data-step-slider]").value = String(step);
  document.querySelector("[data-step-label]").textContent = "step " + step + " of " + last;
  document.querySelectorAll("[data-history] > li").forEach((li, index) => {
    li.hidden = index >= step;
    li.classList.toggle("current", index === step - 1);
    if (index === step - 1) li.scrollIntoView({ block: "nearest" });
  });
  const url = new URL(window.location.href);
  url.searchParams.set("step", String(step));
  history.replaceState(null, "", url);
  document.querySelector("[data-replay]").dataset.step = String(step);
}

async function loadRecord(file) {
  const problem = document.querySelector("[data-replay-problem]");
  const text = await file.text();
  const data = await call("/api/replay", { method: "POST", headers: { "Content-Type": "application/x-ndjson" }, body: text });
  if (data.error) {
    problem.hidden = false; problem.textContent = data.error;
    document.querySelector("[data-replay]").hidden = true;
    return;
  }
  problem.hidden = !data.problem && !(data.notes || []).length;
  problem.textContent = data.problem ? "The record stops agreeing with the rules at line " + data.problem
    : (data.notes || []).join("; ");
  replay = { id: data.id, steps: data.steps, step: 0, cache: { 0: data.frame0 } };
  document.querySelector("[data-replay]").hidden = false;
  document.querySelector("[data-replay-title]").textContent = data.title;
  document.querySelector("[data-history]").innerHTML = data.log.join("");
  const slider = document.querySelector("[data-step-slider]");
  slider.max = String(data.steps);
  const wanted = parseInt(new URL(window.location.href).searchParams.get("step") || "0", 10);
  showStep(isNaN(wanted) ? 0 : wanted);
}

function wireReplay() {
  document.querySelector("[data-record-input]").addEventListener("change", (event) => {
    if (event.target.files.length) loadRecord(event.target.files[0]);
  });
  document.querySelector("[data-step-prev]").addEventListener("click", () => replay && showStep(replay.step - 1));
  document.querySelector("[data-step-next]").addEventListener("click", () => replay && showStep(replay.step + 1));
  document.querySelector("[data-step-slider]").addEventListener("input", (event) => showStep(parseInt(event.target.value, 10)));
  document.addEventListener("keydown", (event) => {
    if (!replay || event.target.tagName === "INPUT" && event.target.type !== "range") return;
    if (event.key === "ArrowLeft") showStep(replay.step - 1);
    if (event.key === "ArrowRight") showStep(replay.step + 1);
  });
}

if (page === "start") wireStart();
if (page === "play" && table) wirePlay();
if (page === "replay") wireReplay();
pollLive();
