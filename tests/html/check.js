// check.js -- loads a cg_annotate --html page in headless Chromium and
// reports what a user would see, as one JSON object on stdout:
//   { errors: [console errors and page errors], requests: [any request
//     that is not to the file itself], rows: [[name, counts...]] of the
//     function table as first drawn, sortedBy: {event: [column after a
//     click on its header]}, filtered: rows left after typing FILTER,
//     sources: {file: {line: [counts]}} of the source view, heatCells: n,
//     heat: {event, columns, svg, coloured, rows: [[label, counts...]]}
//     of the --intervals heat map as first drawn (null without one), and
//     heatOther: the same after choosing D1mr (or the last event) }
// Usage: node check.js PAGE CHROMIUM [SCREENSHOT.png|-] [FILTER]
// (SCREENSHOT: the page as loaded, SCREENSHOT-source.png scrolled to
// the first annotated source, and with --intervals SCREENSHOT-phases.png
// scrolled to the phase chart)
// Network is refused (the page must work offline).
"use strict";
const { chromium } = require("playwright-core");

(async () => {
  const [page_path, executable, shot_arg, filter] = process.argv.slice(2);
  const shot = shot_arg && shot_arg !== "-" ? shot_arg : undefined;
  const browser = await chromium.launch({ executablePath: executable,
                                          args: ["--no-sandbox"] });
  const context = await browser.newContext({ offline: true,
                                             viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const out = { errors: [], requests: [] };
  const url = "file://" + page_path;
  page.on("console", (m) => { if (m.type() === "error") out.errors.push(m.text()); });
  page.on("pageerror", (e) => out.errors.push(String(e)));
  await context.route("**/*", (route) => {
    if (route.request().url() !== url) {
      out.requests.push(route.request().url());
      return route.abort();
    }
    return route.continue();
  });
  await page.goto(url);
  if (shot) {
    await page.screenshot({ path: shot });
    await page.evaluate(() => {
      const h = document.getElementById("src-0");
      if (h) h.scrollIntoView();
    });
    await page.screenshot({ path: shot.replace(/\.png$/, "-source.png") });
    await page.evaluate(() => window.scrollTo(0, 0));
  }
  const rows = () => page.$$eval("#fn-table tbody tr", (trs) =>
    trs.map((tr) => [tr.lastChild.textContent].concat(
      Array.from(tr.children).slice(0, -1).map((td) => Number(td.textContent.replace(/,/g, ""))))));
  out.rows = await rows();
  out.events = await page.$$eval("#fn-table thead th", (ths) => ths.map((t) => t.textContent));
  out.sortedBy = {};
  for (const ev of out.events.slice(0, -1)) {
    await page.click(`#fn-table thead th:nth-child(${out.events.indexOf(ev) + 1})`);
    const col = out.events.indexOf(ev) + 1;
    const cls = await page.$eval(`#fn-table thead th:nth-child(${col})`, (th) => th.className);
    out.sortedBy[ev] = { order: cls, column: (await rows()).map((r) => r[col]) };
  }
  if (filter) {
    await page.fill("#filter", filter);
    out.filtered = (await rows()).map((r) => r[0]);
    await page.fill("#filter", "");
  }
  out.sources = await page.$$eval("#src table.src", (tables) => {
    const r = {};
    for (const t of tables) {
      const file = t.previousElementSibling.tagName === "H3" ? t.previousElementSibling.textContent
        : t.previousElementSibling.previousElementSibling.textContent;
      const lines = {};
      for (const tr of Array.from(t.rows).slice(1)) {
        const tds = Array.from(tr.children);
        const counts = tds.slice(0, -2).map((td) => td.textContent);
        if (counts[0] !== ".") lines[tds[tds.length - 2].textContent] =
          counts.map((c) => Number(c.replace(/,/g, "")));
      }
      r[file] = lines;
    }
    return r;
  });
  out.data = await page.$$eval("#data-table tr", (trs) => trs.slice(1).map((tr) => {
    const tds = Array.from(tr.children);
    return [tds[tds.length - 3].textContent, tds[tds.length - 2].textContent]
      .concat(tds.slice(0, -3).map((td) => Number(td.textContent.replace(/,/g, ""))));
  }));
  out.heatCells = await page.$$eval("#src table.src tr", (trs) =>
    trs.filter((tr) => /^h\d$/.test(tr.className)).length);
  const heat = () => page.evaluate(() => {
    const t = document.getElementById("heatmap");
    if (!t || document.getElementById("phases").hidden) return null;
    const sel = document.getElementById("heat-event");
    return {
      event: sel.selectedOptions[0].textContent,
      columns: t.tHead.rows[0].cells.length - 1,
      svg: document.querySelectorAll("#phase-chart svg").length,
      coloured: t.querySelectorAll("td.hm[class*=' h']").length,
      rows: Array.from(t.tBodies[0].rows).map((tr) => [tr.cells[0].textContent].concat(
        Array.from(tr.cells).slice(1).map((td) => Number(td.dataset.count)))),
    };
  });
  out.heat = await heat();
  if (out.heat) {
    if (shot) {
      await page.evaluate(() => document.getElementById("phases").scrollIntoView());
      await page.screenshot({ path: shot.replace(/\.png$/, "-phases.png") });
    }
    const labels = await page.$$eval("#heat-event option", (os) => os.map((o) => o.textContent));
    await page.selectOption("#heat-event", { label: labels.includes("D1mr") ? "D1mr" : labels[labels.length - 1] });
    out.heatOther = await heat();
  }
  console.log(JSON.stringify(out));
  await browser.close();
})().catch((e) => { console.error(String(e)); process.exit(1); });
