// codegraph's dashboard: plain DOM and a canvas, no library. Every text from
// the index goes in through textContent, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
}
async function api(path, params) {
  const q = new URLSearchParams(params || {}).toString();
  const r = await fetch("/api/" + path + (q ? "?" + q : ""));
  const v = await r.json();
  if (!r.ok) throw new Error(v.error || r.statusText);
  return v;
}
const fmt = (n) => n >= 10000 ? (n / 1000).toFixed(0) + "k" : String(n);

// ---- status -------------------------------------------------------------
async function loadStatus() {
  try {
    const s = await api("status");
    $("project").textContent = s.project_name || s.project_root;
    const age = s.age_seconds, ago = age < 120 ? age + " s" : age < 7200 ? Math.round(age / 60) + " min" : Math.round(age / 3600) + " h";
    const st = s.statistics || {};
    const parts = [`generation ${s.generation}`, `indexed ${ago} ago`, `${fmt(st.files)} files`, `${fmt(st.lines)} lines`,
      `${fmt((s.graph || {}).definitions || 0)} definitions`];
    $("status").textContent = parts.join(" · ");
    const scan = s.changed_since_indexed;
    const changed = s.git ? s.git.files_changed_since : scan && scan.files;
    const list = s.git ? s.git.changed : scan && scan.shown;
    if (changed > 0) {
      $("status").append(" · ", el("span", { class: "stale", title: (list || []).join("\n") },
        `${changed} files changed since`));
    }
  } catch (e) { $("status").textContent = e.message; }
}

// ---- tree ---------------------------------------------------------------
async function loadTree(path, ul) {
  let t;
  try { t = await api("tree", { path }); } catch (e) { ul.append(el("li", { class: "error" }, e.message)); return; }
  for (const e of t.entries) {
    const langs = Object.keys(e.languages || {}).join(", ");
    const title = `${e.files} files · ${e.lines} lines · ${e.definitions} definitions · ${e.terms} terms · ${langs}`;
    const row = el("div", { class: "row", title }, el("span", { class: "name" }, e.name),
      el("span", { class: "count" }, e.dir ? `${fmt(e.files)} files` : `${fmt(e.lines)} lines`));
    const li = el("li", { class: (e.dir ? "dir" : "file") + (e.stale ? " stale" : ""), "data-path": e.path }, row);
    if (e.stale) row.title += " · changed since indexed";
    row.addEventListener("click", async () => {
      if (!e.dir) { openFile(e.path, 1); return; }
      if (li.classList.toggle("open")) {
        const sub = el("ul", { class: "tree" });
        li.append(sub);
        await loadTree(e.path, sub);
        setCloudFolder(e.path);
      } else li.querySelector("ul")?.remove();
    });
    ul.append(li);
  }
  if (t.truncated) ul.append(el("li", { class: "hint" }, `${t.truncated} more not listed`));
  if (path === "" && t.excluded.length) {
    $("excluded").textContent = "Not indexed: " + t.excluded.map((x) => `${x.path} (${x.reason})`).join(", ");
  }
}

// ---- preview and card ------------------------------------------------------
async function openFile(path, line, symbol) {
  const box = $("preview");
  box.replaceChildren(el("h3", {}, `${path}:${line}`));
  try {
    const f = await api("file", { path, line, context: 30 });
    const pre = el("pre");
    f.text.split("\n").forEach((t, i) => {
      const n = f.start + i;
      if (i === f.text.split("\n").length - 1 && t === "") return;
      pre.append(el("span", { class: n === line ? "hit" : "" }, el("span", { class: "ln" }, n), t, "\n"));
    });
    box.append(pre);
    if (f.stale) box.append(el("p", { class: "hint" }, "The file changed since it was indexed: these are its lines now."));
    pre.querySelector(".hit")?.scrollIntoView({ block: "center" });
  } catch (e) { box.append(el("p", { class: "error" }, e.message)); }
  $("card").replaceChildren();
  if (symbol) showCard(path, line, symbol);
}

async function showCard(path, line, name) {
  const card = $("card");
  let c;
  try { c = await api("symbol", { path, line, name }); } catch (e) { card.replaceChildren(el("p", { class: "hint" }, e.message)); return; }
  const list = (title, items, total) => {
    card.append(el("h3", {}, `${title} (${total ?? items.length})`));
    const ul = el("ul");
    for (const it of items) {
      const s = it.symbol || (it.qualified_name ? it : {});
      const name = s.qualified_name || it.name || it.external || "(top level)";
      const file = it.file || s.file, line = (it.lines && it.lines[0]) || s.line || 1;
      if (file) ul.append(el("li", { onclick: () => openFile(file, line, s.name) }, `${name} — ${file}:${line}`));
      else ul.append(el("li", { class: "plain" }, `${name} (not in the project)`));
    }
    card.append(ul);
  };
  card.replaceChildren(el("h3", {}, `${c.symbol.kind} ${c.symbol.qualified_name}` + (c.other_candidates ? ` (${c.other_candidates} other candidates)` : "")));
  list("Called by", c.called_by, c.called_by_total);
  list("Calls", c.calls.filter((x) => x.symbol), c.calls_total);
  if (c.hierarchy) {
    for (const h of c.hierarchy) {
      if (h.supertypes?.length) list("Supertypes", h.supertypes);
      if (h.subtypes?.length) list("Subtypes", h.subtypes);
    }
  }
  if (c.same_name?.length) list("Same name elsewhere", c.same_name, c.same_name_total);
}

// ---- search ---------------------------------------------------------------
async function search(q, mode) {
  showTab("search");
  $("q").value = q;
  if (mode) $("mode").value = mode;
  mode = $("mode").value;
  $("match").hidden = mode !== "text";
  const ol = $("results");
  ol.replaceChildren();
  $("search-info").textContent = "…";
  try {
    const params = { q, mode, limit: 50 };
    if (mode === "text") params.match = $("match").value;
    const r = await api("search", params);
    if (mode === "text") {
      let n = 0;
      for (const f of r.files || []) for (const h of f.hits || f.matches || []) {
        n++;
        ol.append(el("li", { onclick: () => openFile(f.file || f.path, h.line) },
          el("div", { class: "where" }, `${f.file || f.path}:${h.line}`), el("code", {}, h.text || "")));
      }
      $("search-info").textContent = `${r.total ?? n} matches`;
    } else {
      for (const h of r.results || []) {
        ol.append(el("li", { onclick: () => openFile(h.file, h.line, h.kind === "file" ? undefined : h.name) },
          el("div", {}, `${h.kind} `, el("strong", {}, h.qualified_name)),
          el("div", { class: "where" }, `${h.file}:${h.line}`), el("code", {}, h.text || "")));
      }
      // A file the words name that defines nothing is a result of kind file.
      const all = r.results || [], files = all.filter((h) => h.kind === "file").length;
      $("search-info").textContent = `${all.length - files} definitions` + (files ? `, ${files} file${files > 1 ? "s" : ""}` : "")
        + (r.mode ? ` (${r.mode})` : "");
    }
  } catch (e) { $("search-info").textContent = e.message; }
}
$("search-form").addEventListener("submit", (ev) => { ev.preventDefault(); search($("q").value); });
$("mode").addEventListener("change", () => { $("match").hidden = $("mode").value !== "text"; });

// ---- cloud ----------------------------------------------------------------
let cloudFolder = "";
function setCloudFolder(f) { cloudFolder = f; if ($("cloud-view").classList.contains("active")) loadCloud(); }
async function loadCloud() {
  const box = $("cloud");
  $("cloud-folder").textContent = cloudFolder ? `in ${cloudFolder}/` : "in the whole project";
  box.replaceChildren(el("span", { class: "hint" }, "…"));
  let c;
  try { c = await api("cloud", { folder: cloudFolder, type: $("cloud-type").value, limit: 150 }); }
  catch (e) { box.replaceChildren(el("p", { class: "error" }, e.message)); return; }
  const max = Math.max(1, ...c.terms.map((t) => t.files)), min = Math.min(...c.terms.map((t) => t.files));
  const terms = [...c.terms].sort((a, b) => a.term.localeCompare(b.term));
  box.replaceChildren();
  for (const t of terms) {
    const r = (Math.log(t.files) - Math.log(min)) / Math.max(1e-9, Math.log(max) - Math.log(min));
    box.append(el("span", { style: `font-size:${(11 + 25 * r).toFixed(1)}px`, title: `${t.files} files${t.estimated ? " (estimated)" : ""}`,
      onclick: () => search(t.term, "words") }, t.term), " ");
  }
}
$("cloud-type").addEventListener("change", loadCloud);
$("cloud-all").addEventListener("click", () => setCloudFolder(""));

// ---- dependency graph -----------------------------------------------------
const G = { nodes: new Map(), edges: [], open: new Set(), heat: 0, canvas: $("graph") };
// Edges drawn (and pulling in the layout): the heaviest ones.
const DRAWN_EDGES = 300;
const colors = { dir: "#4c78a8", file: "#72b7b2", def: "#e45756", more: "#bab0ac" };
async function loadGraph(focus) {
  let g;
  try { g = await api("graph", { open: [...G.open].join(",") }); }
  catch (e) { $("graph-info").textContent = e.message; return; }
  if (g.building) {
    $("graph-info").textContent = `Reading imports: ${g.done} of ${g.total} files…`;
    setTimeout(() => loadGraph(focus), 500);
    return;
  }
  const old = G.nodes, nodes = new Map();
  const w = G.canvas.clientWidth || 800, h = G.canvas.clientHeight || 500;
  for (const n of g.nodes) {
    const prev = old.get(n.id), parent = old.get(n.parent) || (focus && old.get(focus));
    const at = prev || (parent ? { x: parent.x + (Math.random() - 0.5) * 60, y: parent.y + (Math.random() - 0.5) * 60 }
      : { x: w / 2 + (Math.random() - 0.5) * w * 0.6, y: h / 2 + (Math.random() - 0.5) * h * 0.6 });
    nodes.set(n.id, { ...n, x: at.x, y: at.y, vx: 0, vy: 0, r: n.kind === "def" ? 5 : 4 + 2.2 * Math.log2((n.files || 1) + 1) });
  }
  G.nodes = nodes;
  G.edges = g.edges.filter((e) => nodes.has(e.from) && nodes.has(e.to));
  G.heat = 1;
  let info = `${g.nodes.length} nodes, ${g.edges.length} edges (files importing or calling)`;
  if (g.truncated) info += ` · folded ${g.truncated.folded_nodes} nodes, left out ${g.truncated.edges_left_out} edges`;
  if (g.notes) info += " · " + g.notes.join("; ");
  $("graph-info").textContent = info;
  if (!g.calls_read) setTimeout(() => { if (!G.pending) { G.pending = true; loadGraph().finally(() => { G.pending = false; }); } }, 3000);
  tick();
}
function tick() {
  const c = G.canvas, w = c.clientWidth, h = c.clientHeight, ns = [...G.nodes.values()];
  if (G.heat > 0.02) {
    for (const a of ns) {
      a.vx += (w / 2 - a.x) * 0.008; a.vy += (h / 2 - a.y) * 0.008;
      for (const b of ns) {
        if (a === b) continue;
        const dx = a.x - b.x, dy = a.y - b.y, d2 = dx * dx + dy * dy + 0.01, m = a.r + b.r + 24;
        if (d2 < 90000) { const f = Math.min(2, (m * m * 0.5) / d2); a.vx += dx * f * 0.04; a.vy += dy * f * 0.04; }
      }
    }
    for (const e of G.edges.slice(0, DRAWN_EDGES)) {
      const a = G.nodes.get(e.from), b = G.nodes.get(e.to);
      const dx = b.x - a.x, dy = b.y - a.y, d = Math.sqrt(dx * dx + dy * dy) + 0.01, f = (d - (a.r + b.r + 60)) * 0.01;
      a.vx += dx / d * f; a.vy += dy / d * f; b.vx -= dx / d * f; b.vy -= dy / d * f;
    }
    for (const a of ns) {
      a.vx *= 0.6; a.vy *= 0.6;
      a.x = Math.max(a.r, Math.min(w - a.r, a.x + a.vx * G.heat)); a.y = Math.max(a.r, Math.min(h - a.r, a.y + a.vy * G.heat));
    }
    G.heat *= 0.97;
    requestAnimationFrame(tick);
  }
  draw();
}
function draw() {
  const c = G.canvas, dpr = window.devicePixelRatio || 1, w = c.clientWidth, h = c.clientHeight;
  if (c.width !== w * dpr || c.height !== h * dpr) { c.width = w * dpr; c.height = h * dpr; }
  const x = c.getContext("2d");
  x.setTransform(dpr, 0, 0, dpr, 0, 0);
  x.clearRect(0, 0, w, h);
  const maxW = Math.max(1, ...G.edges.map((e) => e.weight));
  // The heaviest edges (the answer is sorted by weight), and every edge of the
  // node under the pointer: all of them at once is a hairball.
  const shown = G.edges.filter((e, i) => i < DRAWN_EDGES || e.from === G.hover || e.to === G.hover);
  for (const e of shown) {
    const a = G.nodes.get(e.from), b = G.nodes.get(e.to);
    const hot = G.hover && (e.from === G.hover || e.to === G.hover);
    x.strokeStyle = hot ? "rgba(228,87,86,0.8)" : `rgba(90,100,120,${0.12 + 0.5 * e.weight / maxW})`;
    x.lineWidth = 0.5 + 3 * e.weight / maxW;
    x.beginPath(); x.moveTo(a.x, a.y); x.lineTo(b.x, b.y); x.stroke();
    // An arrowhead where it meets the imported node.
    const d = Math.hypot(b.x - a.x, b.y - a.y) || 1, ux = (b.x - a.x) / d, uy = (b.y - a.y) / d;
    const tx = b.x - ux * b.r, ty = b.y - uy * b.r;
    x.fillStyle = x.strokeStyle;
    x.beginPath(); x.moveTo(tx, ty); x.lineTo(tx - ux * 7 - uy * 3.5, ty - uy * 7 + ux * 3.5);
    x.lineTo(tx - ux * 7 + uy * 3.5, ty - uy * 7 - ux * 3.5); x.fill();
  }
  const labels = G.nodes.size < 160;
  x.font = "11px system-ui, sans-serif";
  for (const n of G.nodes.values()) {
    x.fillStyle = colors[n.kind] || "#888";
    x.beginPath(); x.arc(n.x, n.y, n.r, 0, 2 * Math.PI); x.fill();
    if (G.open.has(n.id)) { x.strokeStyle = "#1d2330"; x.lineWidth = 2; x.stroke(); }
    if (labels || n.r > 10) { x.fillStyle = "#1d2330"; x.fillText(n.label, n.x + n.r + 2, n.y + 4); }
  }
}
function nodeAt(px, py) {
  let best = null, bd = Infinity;
  for (const n of G.nodes.values()) {
    const d = Math.hypot(n.x - px, n.y - py);
    if (d <= n.r + 4 && d < bd) { best = n; bd = d; }
  }
  return best;
}
G.canvas.addEventListener("click", (ev) => {
  const r = G.canvas.getBoundingClientRect(), n = nodeAt(ev.clientX - r.left, ev.clientY - r.top);
  if (!n) return;
  if (n.kind === "def") { openFile(n.parent, n.line, n.label); return; }
  if (n.kind === "more") return;
  if (n.kind === "file") openFile(n.id, 1);
  if (G.open.has(n.id)) { for (const o of [...G.open]) if (o === n.id || o.startsWith(n.id + "/")) G.open.delete(o); }
  else G.open.add(n.id);
  loadGraph(n.id);
});
G.canvas.addEventListener("mousemove", (ev) => {
  const r = G.canvas.getBoundingClientRect(), n = nodeAt(ev.clientX - r.left, ev.clientY - r.top);
  G.canvas.title = n ? `${n.id}${n.files ? ` (${n.files} files)` : ""}` : "";
  const hover = n ? n.id : null;
  if (hover !== G.hover) { G.hover = hover; draw(); }
});
$("graph-reset").addEventListener("click", () => { G.open.clear(); loadGraph(); });
window.addEventListener("resize", draw);
// For tests and scripts: the nodes with their places on the page.
window.cgGraph = () => {
  const r = G.canvas.getBoundingClientRect();
  return [...G.nodes.values()].map((n) => ({ id: n.id, kind: n.kind, x: r.left + n.x, y: r.top + n.y, open: G.open.has(n.id) }));
};

window.cgSettled = () => G.nodes.size > 0 && G.heat <= 0.02;

// ---- tabs -----------------------------------------------------------------
function showTab(name) {
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("active", b.dataset.tab === name);
  for (const v of document.querySelectorAll(".view")) v.classList.toggle("active", v.id === name + "-view");
  if (name === "cloud") loadCloud();
  if (name === "graph") draw();
}
for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));

loadStatus();
loadTree("", $("tree"));
loadGraph();
