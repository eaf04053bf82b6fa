"use strict";
// /history: the hands of the current match (who dealt, who won with which fans, what each seat paid or got, the
// totals after it) under a plot of each seat's running score, drawn here as SVG (the Pi serves no chart library).
// The list is fetched again whenever the table's state says a hand ended.
(() => {
  const $ = id => document.getElementById(id);
  const COLOURS = ["#ffd54f", "#4fc3f7", "#ef9a9a", "#ce93d8"];
  const W = 800, H = 300, LEFT = 60, RIGHT = 12, TOP = 12, BOTTOM = 24;
  const SEATS = [0, 1, 2, 3];
  let hands = [];
  let seen = null;

  /** One path per seat from its points before the first hand (0, or a riichi match's starting points: the
   * first hand's ``dealt``) through its total after each hand. */
  function plot(list) {
    const svg = $("plot");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    const start = list.length && list[0].dealt ? list[0].dealt : [0, 0, 0, 0];
    const series = SEATS.map(i => [start[i], ...list.map(h => h.scores[i])]);
    const values = series.flat();
    const kept = list.some(h => h.dealt);  // points kept from a start: the axis need not reach 0
    const top = Math.max(kept ? -Infinity : 1, ...values), low = Math.min(kept ? Infinity : -1, ...values);
    const span = top > low ? 0 : 1;
    const x = k => LEFT + k * (W - LEFT - RIGHT) / Math.max(1, list.length);
    const y = v => TOP + (top - v) * (H - TOP - BOTTOM) / (top - low + span);
    const step = Math.ceil(list.length / 16);
    const ticks = list.map((h, k) => (k + 1) % step ? "" :
      `<text x="${x(k + 1)}" y="${H - 6}" text-anchor="middle">${h.hand + 1}</text>`).join("");
    const middle = kept ? start[0] : 0;
    const levels = [...new Set([top, middle, low])].map(v => `<text x="${LEFT - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`).join("");
    const axes = `<line class="axis" x1="${LEFT}" x2="${W - RIGHT}" y1="${y(middle)}" y2="${y(middle)}"/>` +
      `<line class="axis" x1="${LEFT}" x2="${LEFT}" y1="${TOP}" y2="${H - BOTTOM}"/>`;
    const paths = series.map((points, i) => `<path class="score" data-seat="${i}" stroke="${COLOURS[i]}" d="` +
      points.map((v, k) => `${k ? "L" : "M"}${x(k).toFixed(1)} ${y(v).toFixed(1)}`).join(" ") + '"/>');
    svg.innerHTML = axes + levels + ticks + paths.join("");
    svg.setAttribute("aria-label", MJ.word("plot"));
    $("legend").innerHTML = SEATS.map(i => `<span><i style="background:${COLOURS[i]}"></i>${MJ.word("seat")(i)}</span>`).join("");
  }

  function outcome(h) {
    const zh = MJ.lang === "zh";
    if (h.voided) return MJ.word("voided");
    if (h.drawn) return MJ.word("drawn") + (h.abortive ? ` · ${MJ.esc(h.abortive)}` : "") +
      (h.settled ? ` · ${h.settled[zh ? 0 : 1]}` : "");
    return h.wins.map(w => `<b>${MJ.word("seat")(w.seat)} ${MJ.word("wins")} · ${MJ.word("total")(w.total)}</b><br>` +
      w.fans.map(([nameZh, nameEn, points, count]) => `${MJ.esc(zh ? nameZh : MJ.english(nameEn))} ` +
        MJ.word("fan")(points, count)).join(" · ")).join("<br>");
  }

  /** 东1局 · 0本场 where the match counts its rounds (riichi), else the round wind and the hand's number. */
  function when(h) {
    const round = h.round && h.round.match(/(\d+)局/);
    if (round) return `${MJ.word("roundHand")(MJ.wind(h.round_wind), +round[1])} · ${MJ.word("honba")(h.honba || 0)}`;
    return `${h.round_wind ? MJ.word("round")(MJ.wind(h.round_wind)) : ""} ${MJ.word("hand")(h.hand + 1)}`;
  }

  function table(list) {
    const head = `<tr><th>${MJ.word("column")}</th><th>${MJ.word("dealer")}</th><th>${MJ.word("winner")}</th>` +
      SEATS.map(i => `<th>${MJ.word("seat")(i)}</th>`).join("") + "</tr>";
    const rows = list.map(h => `<tr><td>${when(h)}</td><td>${h.dealer == null ? "" : MJ.word("seat")(h.dealer)}</td><td class="fans">${outcome(h)}</td>` +
      h.payments.map((p, i) => `<td><span class="${p > 0 ? "up" : p < 0 ? "down" : ""}">${MJ.number(p)}</span>` +
        `<br>${h.scores[i]}</td>`).join("") + "</tr>");
    $("hands").innerHTML = list.length ? head + rows.reverse().join("") : `<tr><td>${MJ.word("none")}</td></tr>`;
  }

  function render() {
    document.title = MJ.word("history");
    $("title").textContent = MJ.word("history");
    $("back").textContent = MJ.word("back");
    $("lang").textContent = MJ.word("lang");
    const match = Math.max(0, ...hands.map(h => h.match));
    const list = hands.filter(h => h.match === match);
    plot(list);
    $("standings").innerHTML = MJ.standings(list.length ? list[list.length - 1].final_standings : null);
    table(list);
  }

  function load() {
    fetch("/api/history").then(r => r.json()).then(answer => { hands = answer.hands; render(); });
  }

  $("lang").onclick = () => { MJ.setLang(MJ.lang === "zh" ? "en" : "zh"); render(); };
  MJ.follow(state => {
    const ended = JSON.stringify([state.hand, state.win && state.win.payments]);
    if (ended !== seen) { seen = ended; load(); }
  });
})();
