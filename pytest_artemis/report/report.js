/* pytest-artemis report pages: local script, no network. Run pages: enlarge screenshots, step keys,
   label toggle, previous/next test. Session index: filter by outcome, search by name, sort by column. */
(function () {
  "use strict";
  var $ = function (sel, root) { return (root || document).querySelector(sel); };
  var $$ = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };

  /* Every image, loaded (lazy ones included): resolves to "ok/total" and shows it in the footer. */
  window.artemisImages = function () {
    var imgs = $$("img");
    return Promise.all(imgs.map(function (img) {
      img.loading = "eager";
      return img.decode().then(function () { return true; }, function () { return false; });
    })).then(function (res) {
      var ok = res.filter(Boolean).length + "/" + imgs.length;
      document.body.dataset.imagesLoaded = ok;
      var out = $("#images-loaded");
      if (out) { out.textContent = ok + " images loaded"; }
      return ok;
    });
  };

  /* ---- run page ---- */
  var shots = $$(".shot");
  var box = null, boxAt = -1;
  function closeBox() { if (box) { box.remove(); box = null; boxAt = -1; } }
  function openBox(i) {
    closeBox();
    if (i < 0 || i >= shots.length) { return; }
    boxAt = i;
    box = document.createElement("div");
    box.id = "lightbox";
    box.setAttribute("role", "dialog");
    var big = shots[i].cloneNode(true);
    big.removeAttribute("tabindex");
    big.classList.add("big");
    var cap = document.createElement("div");
    cap.className = "lbcap";
    cap.textContent = (shots[i].dataset.caption || "") + "  ·  ←/→ other screenshots · Esc close";
    box.appendChild(big);
    box.appendChild(cap);
    box.addEventListener("click", closeBox);
    document.body.appendChild(box);
  }
  shots.forEach(function (shot, i) {
    shot.addEventListener("click", function () { openBox(i); });
  });

  var steps = $$(".step");
  function currentStep() {
    var id = location.hash.slice(1);
    for (var i = 0; i < steps.length; i++) { if (steps[i].id === id) { return i; } }
    var y = window.scrollY + 80;
    for (var j = steps.length - 1; j >= 0; j--) { if (steps[j].offsetTop <= y) { return j; } }
    return -1;
  }
  function goStep(delta) {
    if (!steps.length) { return; }
    var i = Math.min(Math.max(currentStep() + delta, 0), steps.length - 1);
    history.replaceState(null, "", "#" + steps[i].id);
    steps.forEach(function (s) { s.classList.remove("current"); });
    steps[i].classList.add("current");
    steps[i].scrollIntoView({ block: "start" });
  }
  var toggle = $("#labels-toggle");
  function setLabels(on) {
    document.body.classList.toggle("no-labels", !on);
    if (toggle) { toggle.checked = on; }
  }
  if (toggle) { toggle.addEventListener("change", function () { setLabels(toggle.checked); }); }

  document.addEventListener("keydown", function (ev) {
    if (ev.target && /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName)) { return; }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    if (box) {
      if (ev.key === "Escape") { closeBox(); }
      else if (ev.key === "ArrowRight") { openBox(Math.min(boxAt + 1, shots.length - 1)); }
      else if (ev.key === "ArrowLeft") { openBox(Math.max(boxAt - 1, 0)); }
      else { return; }
      ev.preventDefault();
      return;
    }
    if (ev.key === "j") { goStep(1); }
    else if (ev.key === "k") { goStep(-1); }
    else if (ev.key === "l") { setLabels(document.body.classList.contains("no-labels")); }
    else if (ev.key === "Enter" && ev.target.classList && ev.target.classList.contains("shot")) {
      openBox(shots.indexOf(ev.target));
    } else { return; }
    ev.preventDefault();
  });

  var nav = $("nav.runnav");
  var session = window.artemisSession;
  if (nav && session && session.runs) {
    var runs = session.runs, me = nav.dataset.run, up = nav.dataset.up;
    for (var k = 0; k < runs.length; k++) {
      if (runs[k].dir !== me) { continue; }
      [["prev-test", k - 1, "← "], ["next-test", k + 1, ""]].forEach(function (spec) {
        var run = runs[spec[1]], a = document.getElementById(spec[0]);
        if (!run || !a) { return; }
        a.href = up + "/" + run.dir + "/report.html";
        a.textContent = spec[0] === "prev-test" ? "← previous: " + run.nodeid : "next: " + run.nodeid + " →";
        a.title = run.outcome;
        a.classList.remove("hidden");
      });
    }
  }

  /* ---- session index ---- */
  var table = $("#tests-table");
  if (!table) { return; }
  var tbody = table.tBodies[0];
  var rows = $$("tr", tbody);
  var search = $("#search"), shown = $("#shown");
  var only = null;
  function applyFilter() {
    var q = search ? search.value.trim().toLowerCase() : "";
    var n = 0;
    rows.forEach(function (r) {
      var ok = (!only || r.dataset.outcome === only) && (!q || r.dataset.name.indexOf(q) >= 0);
      r.hidden = !ok;
      if (ok) { n++; }
    });
    if (shown) { shown.textContent = n + " of " + rows.length + " shown"; }
    $$("button.filter").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.outcome === only));
    });
  }
  $$("button.filter").forEach(function (b) {
    b.addEventListener("click", function () {
      only = only === b.dataset.outcome ? null : b.dataset.outcome;
      applyFilter();
    });
  });
  if (search) { search.addEventListener("input", applyFilter); }

  var heads = $$("th[data-sort]", table);
  function sortBy(th) {
    var col = heads.indexOf(th), numeric = th.dataset.kind === "num";
    var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
    var keyed = rows.map(function (r, i) {
      var v = r.cells[col].dataset.v;
      return { r: r, i: i, v: numeric ? parseFloat(v) : v.toLowerCase() };
    });
    keyed.sort(function (a, b) {
      if (a.v < b.v) { return -dir; }
      if (a.v > b.v) { return dir; }
      return a.i - b.i;
    });
    var frag = document.createDocumentFragment();
    keyed.forEach(function (k) { frag.appendChild(k.r); });
    tbody.appendChild(frag);
    rows = keyed.map(function (k) { return k.r; });
  }
  heads.forEach(function (th) {
    th.addEventListener("click", function () { sortBy(th); });
    th.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { sortBy(th); } });
  });
})();
